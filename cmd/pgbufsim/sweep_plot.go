package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pgbufsim/pgbufsim/scenario"
	"github.com/pgbufsim/pgbufsim/viz"
)

// Sweep plots
//
//	pgbufsim sweep --vary GUC=v1,v2,... --plot OUT.svg|OUT.png --y SPEC [--y SPEC]... [--step LINE] FILE.scn
//
// draws the table's figures against the varied setting: one line per --y,
// a point per sweep point. SPEC is [LABEL=]FIELD (a figure as the CSV names
// it, e.g. shared_read) or [LABEL=]HIT:READ, the ratio HIT/(HIT+READ) of
// two figures (a hit ratio, drawn from 0 to 100%).

// ySpec is one --y: a line's label and the figures it is computed from.
type ySpec struct {
	label     string
	hit, read string // read is "" for a plain figure
}

type ySpecs []ySpec

func (y *ySpecs) String() string { return "" }

func (y *ySpecs) Set(s string) error {
	label, expr, ok := strings.Cut(s, "=")
	if !ok {
		label, expr = "", s
	}
	hit, read, ratio := strings.Cut(expr, ":")
	if hit == "" || ratio && read == "" {
		return fmt.Errorf("--y %s: expected [LABEL=]FIELD or [LABEL=]HIT:READ", s)
	}
	if label == "" {
		label = expr
		if ratio {
			label = hit + " ratio"
		}
	}
	*y = append(*y, ySpec{label: label, hit: hit, read: read})
	return nil
}

// value is the spec's value at one point's step figures (NaN when a figure
// is missing, not a number, or the ratio has no accesses).
func (s ySpec) value(fields map[string]string) float64 {
	num := func(k string) float64 {
		v, err := strconv.ParseFloat(fields[k], 64)
		if err != nil {
			return math.NaN()
		}
		return v
	}
	h := num(s.hit)
	if s.read == "" {
		return h
	}
	r := num(s.read)
	if h+r == 0 {
		return math.NaN()
	}
	return h / (h + r)
}

// writeSweepPlot draws the --y lines of step's figures over the points of a
// one-setting sweep to out (the format from its extension).
func writeSweepPlot(out string, specs ySpecs, f *scenario.File, varies []vary, points []*sweepPoint, step int) error {
	if len(varies) != 1 {
		return fmt.Errorf("--plot draws a curve of one varied setting: give one --vary (%d given)", len(varies))
	}
	if len(specs) == 0 {
		return fmt.Errorf("--plot needs at least one --y FIELD or --y HIT:READ")
	}
	format := strings.TrimPrefix(filepath.Ext(out), ".")
	if format != "svg" && format != "png" {
		return fmt.Errorf("--plot %s: the file must end in .svg or .png", out)
	}
	c := viz.Curve{
		Title:  fmt.Sprintf("%s, line %d: %s", filepath.Base(f.Name), f.Steps[step].Line, f.Steps[step].Text),
		XLabel: varies[0].name,
		Unit:   "ratio",
	}
	var names []string
	for _, s := range specs {
		if s.read == "" {
			c.Unit = ""
		}
		names = append(names, s.label)
	}
	c.YLabel = strings.Join(names, ", ")
	if c.Unit == "ratio" {
		c.YLabel = "hit ratio"
	}
	for _, p := range points {
		c.X = append(c.X, p.values[0])
	}
	for _, s := range specs {
		l := viz.Layer{Name: s.label}
		found := false
		for _, p := range points {
			v := math.NaN()
			if p.err == nil {
				v = s.value(p.fields[step])
			}
			found = found || !math.IsNaN(v)
			l.Values = append(l.Values, v)
		}
		if !found {
			return fmt.Errorf("--y %s: no point has that figure at line %d (the CSV lists the figures by name)", s.label, f.Steps[step].Line)
		}
		c.Series = append(c.Series, l)
	}
	b, err := viz.RenderCurve(c, format)
	if err != nil {
		return err
	}
	return os.WriteFile(out, b, 0o644)
}
