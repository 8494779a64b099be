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
// its plot command, one panel per series, stacked top to bottom, each series
// a step function of the samples. The x axis is the samples in order, so a
// statement is as wide as the buffers it allocated and the client's pauses
// between statements (half a second of simulated time each) take no room;
// dashed lines part the statements, and the bottom panel names each wide
// enough to hold its name.
package viz

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"strconv"

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

// Panel is one series of a figure as drawn: its layers over the samples.
// X is the position of each sample on the x axis: its index, so that every
// statement is as wide as the samples taken in it (one a buffer
// allocation, in a pool of up to 256 buffers) and the client's pauses and
// sleeps between statements take no room. T is each sample's simulated
// time (seconds), for readers who want the clock.
type Panel struct {
	Series  string
	Title   string
	YLabel  string
	Stacked bool
	// Integer: the values are counts (buffers, images): integer ticks.
	Integer bool
	X, T    []float64
	Layers  []Layer
}

// Span is one command of the figure on its x axis: [From, To).
type Span struct {
	From, To float64
	Cmd      string
}

// XLabel is the x axis's label.
const XLabel = "statements, each as wide as the buffers it allocated (pauses between statements left out)"

// Spans are the commands of a figure's samples, in order: a command's
// samples are the ones taken during it and the one just after it.
func Spans(f scenario.Figure) []Span {
	var sp []Span
	start := 0
	for i, s := range f.Samples {
		if s.After || i == len(f.Samples)-1 {
			sp = append(sp, Span{From: float64(start), To: float64(i + 1), Cmd: s.Cmd})
			start = i + 1
		}
	}
	return sp
}

// Panels turns a figure's samples into the panels drawn.
func Panels(f scenario.Figure) []Panel {
	t := make([]float64, len(f.Samples))
	x := make([]float64, len(f.Samples))
	for i, s := range f.Samples {
		t[i] = float64(s.T) / 1e9
		x[i] = float64(i)
	}
	var ps []Panel
	for _, name := range f.Series {
		p := Panel{Series: name, X: x, T: t}
		switch name {
		case "composition":
			p.Title, p.YLabel, p.Stacked, p.Integer = "cache composition by relation", "buffers", true, true
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
			p.Title, p.YLabel, p.Stacked, p.Integer = "buffers by usage count", "buffers", true, true
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
			p.Title = "WAL inserted since the cluster started"
			var most int64
			for _, s := range f.Samples {
				most = max(most, s.WALBytes)
			}
			unit, div := "MB", 1e6
			if most < 1e6 {
				unit, div = "kB", 1e3
			}
			p.YLabel = unit
			l := Layer{Name: "WAL bytes"}
			for _, s := range f.Samples {
				l.Values = append(l.Values, float64(s.WALBytes)/div)
			}
			p.Layers = append(p.Layers, l)
		case "fpi":
			p.Title, p.YLabel, p.Integer = "full-page images logged since the cluster started", "images", true
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

// legendWidth is the column right of the panels that holds their legends.
const legendWidth = 3.4 * vg.Centimeter

// Render draws figure f as "svg" or "png".
func Render(f scenario.Figure, format string) ([]byte, error) {
	if len(f.Samples) == 0 {
		return nil, fmt.Errorf("the figure has no samples (was the scenario run with recording on?)")
	}
	panels := Panels(f)
	spans := Spans(f)
	w, h := 20*vg.Centimeter, vg.Length(len(panels))*7*vg.Centimeter+1.5*vg.Centimeter
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
	legends := make([]plot.Legend, len(panels))
	for i, pn := range panels {
		p, l, err := drawPanel(pn, spans, i == len(panels)-1)
		if err != nil {
			return nil, err
		}
		if i == 0 && f.Title != "" {
			p.Title.Text = f.Title + ": " + p.Title.Text
		}
		plots[i] = []*plot.Plot{p}
		legends[i] = l
	}
	dc := draw.New(c)
	// White paper: PNG viewers show a transparent background as black or checks.
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	plotArea := draw.Crop(dc, 0, -legendWidth, 0, 0)
	cs := plot.Align(plots, draw.Tiles{Rows: len(panels), Cols: 1, PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadX: vg.Millimeter * 2, PadY: vg.Millimeter * 4}, plotArea)
	for i := range plots {
		plots[i][0].Draw(cs[i][0])
		// The legend beside its panel, level with the panel's top.
		lc := draw.Crop(dc, dc.Max.X-dc.Min.X-legendWidth+vg.Millimeter*2, 0, 0, 0)
		lc.Max.Y = cs[i][0].Max.Y - vg.Millimeter*8
		lc.Min.Y = cs[i][0].Min.Y
		legends[i].Draw(lc)
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// swatch is a legend entry's colour: a filled square with a dark edge, so
// that a light colour (the unused buffers' grey) shows on white too.
type swatch struct{ fill color.Color }

func (s swatch) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	c.SetColor(s.fill)
	c.Fill(r.Path())
	c.SetLineStyle(draw.LineStyle{Color: color.Gray{Y: 0x55}, Width: vg.Points(0.5)})
	c.Stroke(r.Path())
}

// palette is the layers' colours: plotutil's soft colours, then its dark
// ones, so up to 14 relations have 14 colours.
var palette = append(append([]color.Color(nil), plotutil.SoftColors...), plotutil.DarkColors...)

// layerColor is the colour of a panel's layer i.
func layerColor(l Layer, i int) color.Color {
	if l.Name == "(unused)" {
		return color.Gray{Y: 0xdd}
	}
	return palette[i%len(palette)]
}

// steps makes a series a step function: each sample's value holds until
// the next sample (the pool changes at an allocation, not in between).
func steps(x, y []float64) plotter.XYs {
	xy := make(plotter.XYs, 0, len(x)+1)
	for j := range x {
		xy = append(xy, plotter.XY{X: x[j], Y: y[j]})
	}
	if n := len(x); n > 0 {
		xy = append(xy, plotter.XY{X: x[n-1] + 1, Y: y[n-1]})
	}
	return xy
}

func drawPanel(pn Panel, spans []Span, bottom bool) (*plot.Plot, plot.Legend, error) {
	p := plot.New()
	p.Title.Text = pn.Title
	p.Y.Label.Text = pn.YLabel
	p.X.Min, p.X.Max = 0, float64(len(pn.X))
	p.X.Tick.Marker = spanTicks(spans, float64(len(pn.X)), bottom)
	p.X.Tick.Label.Font.Size = vg.Points(8)
	if bottom {
		p.X.Label.Text = XLabel
		p.X.Tick.Label.Rotation = math.Pi / 5
		p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
	}
	if pn.Integer {
		p.Y.Tick.Marker = integerTicks{}
	} else {
		p.Y.Tick.Marker = plainTicks{}
	}
	leg := plot.NewLegend()
	leg.Top, leg.Left = true, true
	var top float64
	if !pn.Stacked {
		for i, l := range pn.Layers {
			line, err := plotter.NewLine(steps(pn.X, l.Values))
			if err != nil {
				return nil, leg, err
			}
			line.StepStyle = plotter.PostStep
			line.Color = layerColor(l, i)
			line.Width = vg.Points(1.5)
			p.Add(line)
			leg.Add(l.Name, swatch{line.Color})
			for _, v := range l.Values {
				top = max(top, v)
			}
		}
	} else {
		// Stacked: each layer's cumulative top as a step line filled down to
		// zero, the highest first, so each lower one covers the one above's
		// lower part.
		cum := make([][]float64, len(pn.Layers))
		below := make([]float64, len(pn.X))
		for i, l := range pn.Layers {
			cum[i] = make([]float64, len(pn.X))
			for j := range pn.X {
				cum[i][j] = below[j] + l.Values[j]
				top = max(top, cum[i][j])
			}
			below = cum[i]
		}
		for i := len(pn.Layers) - 1; i >= 0; i-- {
			line, err := plotter.NewLine(steps(pn.X, cum[i]))
			if err != nil {
				return nil, leg, err
			}
			line.StepStyle = plotter.PostStep
			line.FillColor = layerColor(pn.Layers[i], i)
			line.LineStyle.Width = 0
			p.Add(line)
		}
		for i, l := range pn.Layers {
			leg.Add(l.Name, swatch{layerColor(l, i)})
		}
	}
	p.Y.Min, p.Y.Max = 0, max(top, 1)
	// The statements' boundaries.
	for _, s := range spans[1:] {
		sep, err := plotter.NewLine(plotter.XYs{{X: s.From, Y: 0}, {X: s.From, Y: p.Y.Max}})
		if err != nil {
			return nil, leg, err
		}
		sep.Color = color.Gray{Y: 0x88}
		sep.Width = vg.Points(0.4)
		sep.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
		p.Add(sep)
	}
	return p, leg, nil
}

// spanTicks marks each statement's boundaries (minor ticks) and, on the
// bottom panel, names the statements wide enough to hold a label.
func spanTicks(spans []Span, width float64, labels bool) plot.Ticker {
	return plot.TickerFunc(func(min, max float64) []plot.Tick {
		var ts []plot.Tick
		for _, s := range spans {
			ts = append(ts, plot.Tick{Value: s.From})
			if labels && (s.To-s.From) >= width/40 {
				ts = append(ts, plot.Tick{Value: (s.From + s.To) / 2, Label: s.Cmd})
			}
		}
		return ts
	})
}

// plainTicks are gonum's default ticks labelled without trailing zeros (250, not 250.00).
type plainTicks struct{}

func (plainTicks) Ticks(min, max float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'f', -1, 64)
		}
	}
	return ts
}

// integerTicks are ticks at whole numbers (1, 2, 5 × a power of ten apart),
// labelled without decimals: counts of buffers and images.
type integerTicks struct{}

func (integerTicks) Ticks(min, max float64) []plot.Tick {
	step := 1.0
	for (max-min)/step > 8 {
		switch s := step / math.Pow(10, math.Floor(math.Log10(step))); s {
		case 1:
			step *= 2
		case 2:
			step *= 2.5
		default:
			step *= 2
		}
	}
	var ts []plot.Tick
	for v := math.Ceil(min/step) * step; v <= max; v += step {
		ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64)})
	}
	return ts
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
