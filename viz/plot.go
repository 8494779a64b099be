// Package viz draws what a scenario recorded (scenario.Recording): the figures of
// its plot commands as SVG or PNG, with gonum.org/v1/plot, and its pool-map
// frames as a self-contained HTML page that steps through them (animate.go).
// It sits above scenario and only reads what the scenario layer recorded; the same scenario gives
// the same bytes.
//
// # Sampling
//
// the scenario layer samples the pool after every command and, inside statements, at buffer
// allocations (every one in a pool of up to 256 buffers, every NBuffers/64 in
// a bigger one), at the simulated time of the process that allocated; see
// scenario.Recording. A figure shows the samples from the cluster's start up to
// its plot command, one panel per series, stacked top to bottom.
package viz

import (
	"bytes"
	"fmt"
	"image/color"
	"path/filepath"

	"github.com/pgbufsim/pgbufsim/scenario"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Layer is one band of a stacked-area panel or one line: its name and its value at each sample.
type Layer struct {
	Name   string
	Values []float64
}

// Panel is one series of a figure as drawn: its layers over the sample times (seconds).
type Panel struct {
	Series  string
	Title   string
	YLabel  string
	Stacked bool
	T       []float64
	Layers  []Layer
}

// Panels turns a figure's samples into the panels drawn.
func Panels(f scenario.Figure) []Panel {
	t := make([]float64, len(f.Samples))
	for i, s := range f.Samples {
		t[i] = float64(s.T) / 1e9
	}
	var ps []Panel
	for _, name := range f.Series {
		p := Panel{Series: name, T: t}
		switch name {
		case "composition":
			p.Title, p.YLabel, p.Stacked = "cache composition by relation", "buffers", true
			for id, rel := range f.Names {
				if rel == "" {
					continue
				}
				l := Layer{Name: rel}
				for _, s := range f.Samples {
					v := 0
					if id < len(s.Rel) {
						v = s.Rel[id]
					}
					l.Values = append(l.Values, float64(v))
				}
				p.Layers = append(p.Layers, l)
			}
			l := Layer{Name: "(unused)"}
			for _, s := range f.Samples {
				l.Values = append(l.Values, float64(s.Unused))
			}
			p.Layers = append(p.Layers, l)
		case "usage":
			p.Title, p.YLabel, p.Stacked = "buffers by usage count", "buffers", true
			for u := 0; u < 6; u++ {
				l := Layer{Name: fmt.Sprintf("usage %d", u)}
				for _, s := range f.Samples {
					l.Values = append(l.Values, float64(s.Usage[u]))
				}
				p.Layers = append(p.Layers, l)
			}
			l := Layer{Name: "(unused)"}
			for _, s := range f.Samples {
				l.Values = append(l.Values, float64(s.Unused))
			}
			p.Layers = append(p.Layers, l)
		case "wal":
			p.Title, p.YLabel = "WAL inserted", "MB"
			l := Layer{Name: "WAL bytes"}
			for _, s := range f.Samples {
				l.Values = append(l.Values, float64(s.WALBytes)/1e6)
			}
			p.Layers = append(p.Layers, l)
		case "fpi":
			p.Title, p.YLabel = "full-page images logged", "images"
			l := Layer{Name: "FPI"}
			for _, s := range f.Samples {
				l.Values = append(l.Values, float64(s.FPI))
			}
			p.Layers = append(p.Layers, l)
		}
		ps = append(ps, p)
	}
	return ps
}

// Render draws figure f as "svg" or "png".
func Render(f scenario.Figure, format string) ([]byte, error) {
	if len(f.Samples) == 0 {
		return nil, fmt.Errorf("the figure has no samples (was the scenario run with recording on?)")
	}
	panels := Panels(f)
	w, h := 18*vg.Centimeter, vg.Length(len(panels))*8*vg.Centimeter
	var c interface {
		vg.CanvasWriterTo
	}
	switch format {
	case "svg":
		c = vgsvg.New(w, h)
	case "png":
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(96))}
	default:
		return nil, fmt.Errorf("format %q: must be svg or png", format)
	}
	plots := make([][]*plot.Plot, len(panels))
	for i, pn := range panels {
		p, err := drawPanel(pn)
		if err != nil {
			return nil, err
		}
		if i == 0 && f.Title != "" {
			p.Title.Text = f.Title + ": " + p.Title.Text
		}
		plots[i] = []*plot.Plot{p}
	}
	dc := draw.New(c)
	cs := plot.Align(plots, draw.Tiles{Rows: len(panels), Cols: 1, PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadX: vg.Millimeter * 2, PadY: vg.Millimeter * 4}, dc)
	for i := range plots {
		plots[i][0].Draw(cs[i][0])
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func drawPanel(pn Panel) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = pn.Title
	p.X.Label.Text = "simulated time (s)"
	p.Y.Label.Text = pn.YLabel
	p.Legend.Top = true
	p.Legend.Left = true
	if !pn.Stacked {
		for i, l := range pn.Layers {
			xy := make(plotter.XYs, len(pn.T))
			for j := range pn.T {
				xy[j].X, xy[j].Y = pn.T[j], l.Values[j]
			}
			line, err := plotter.NewLine(xy)
			if err != nil {
				return nil, err
			}
			line.Color = plotutil.Color(i)
			line.Width = vg.Points(1.5)
			p.Add(line)
			p.Legend.Add(l.Name, line)
		}
		return p, nil
	}
	below := make([]float64, len(pn.T))
	for i, l := range pn.Layers {
		poly := make(plotter.XYs, 0, 2*len(pn.T))
		top := make([]float64, len(pn.T))
		for j := range pn.T {
			top[j] = below[j] + l.Values[j]
			poly = append(poly, plotter.XY{X: pn.T[j], Y: top[j]})
		}
		for j := len(pn.T) - 1; j >= 0; j-- {
			poly = append(poly, plotter.XY{X: pn.T[j], Y: below[j]})
		}
		pg, err := plotter.NewPolygon(poly)
		if err != nil {
			return nil, err
		}
		col := plotutil.Color(i)
		if l.Name == "(unused)" {
			col = color.Gray{Y: 0xdd}
		}
		pg.Color = col
		pg.LineStyle.Width = 0
		p.Add(pg)
		p.Legend.Add(l.Name, pg)
		below = top
	}
	return p, nil
}

// FigurePath is where figure k (1-based) of a run writing to out goes: out
// itself for the first, out-k.ext for the others.
func FigurePath(out string, k int) string {
	if k == 1 {
		return out
	}
	ext := filepath.Ext(out)
	return fmt.Sprintf("%s-%d%s", out[:len(out)-len(ext)], k, ext)
}
