package scenario

import (
	"fmt"
	"strings"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/pg"
)

// Example: plot composition usage title=ring-flood
func (e *Env) cmdPlot(args []datadriven.CmdArg) (Output, error) {
	var names []string
	for _, s := range Series {
		names = append(names, s.Name)
	}
	f := Figure{}
	for _, a := range args {
		if a.Key == "title" {
			v := strings.Join(a.Vals, ", ")
			if v == "" {
				return Output{}, fmt.Errorf("plot: title needs a value, e.g. title=ring-flood")
			}
			f.Title = v
			continue
		}
		if !positional(a) {
			return Output{}, fmt.Errorf("plot: unknown option %q (title)", a.Key)
		}
		ok := false
		for _, n := range names {
			ok = ok || n == a.Key
		}
		if !ok {
			return Output{}, fmt.Errorf("plot: unknown series %q (%s)", a.Key, strings.Join(names, ", "))
		}
		f.Series = append(f.Series, a.Key)
	}
	if len(f.Series) == 0 {
		return Output{}, fmt.Errorf("plot: name at least one series (%s)", strings.Join(names, ", "))
	}
	rec := &e.teach.rec
	n := len(rec.Figures) + 1
	if e.Record {
		rec.Figures = append(rec.Figures, e.Figure(f.Series, f.Title))
	} else {
		rec.Figures = append(rec.Figures, Figure{Series: f.Series, Title: f.Title})
	}
	return Output{Text: fmt.Sprintf("ok: figure %d: %s (drawn by pgbufsim plot)", n, strings.Join(f.Series, ", ")),
		JSON: map[string]any{"figure": n, "series": f.Series}}, nil
}

// DefaultSeries are what a figure shows when a scenario asks for none: each
// relation's buffers over simulated time, and the WAL.
var DefaultSeries = []string{"composition", "wal"}

// Figure is a figure of the series over everything recorded so far
// (Env.Record), as a plot command at this point would make it.
func (e *Env) Figure(series []string, title string) Figure {
	rec := &e.teach.rec
	f := Figure{Series: append([]string(nil), series...), Title: title, Samples: append([]Sample(nil), rec.Samples...)}
	maxID := 0
	for _, s := range f.Samples {
		if len(s.Rel) > maxID {
			maxID = len(s.Rel)
		}
	}
	f.Names = make([]string, maxID)
	for id := range f.Names {
		for _, s := range f.Samples {
			if id < len(s.Rel) && s.Rel[id] > 0 {
				f.Names[id] = e.C.RelName(pg.RelID(id))
				break
			}
		}
	}
	return f
}
