package viz

import (
	"bytes"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Curve is a figure of a sweep: one or more series of a figure against the
// varied setting, one point per sweep point in sweep order. The points are
// evenly spaced and labelled with the values as given (a doubling list of
// sizes reads as a log scale), so nothing is parsed or interpolated.
type Curve struct {
	Title, XLabel, YLabel string
	// X is each point's label (the varied setting's value).
	X []string
	// Series are the lines: a name and a value per point (NaN: the point
	// failed or lacks the figure, left out of the line).
	Series []Layer
	// Unit is "ratio" when every value is a fraction from 0 to 1: the y
	// axis then runs from 0 to 1.
	Unit string
}

// RenderCurve draws c as "svg" or "png": lines with a marker at each point,
// the value printed above each marker.
func RenderCurve(c Curve, format string) ([]byte, error) {
	if len(c.X) == 0 || len(c.Series) == 0 {
		return nil, fmt.Errorf("the curve has no points")
	}
	for _, s := range c.Series {
		if len(s.Values) != len(c.X) {
			return nil, fmt.Errorf("series %s has %d values for %d points", s.Name, len(s.Values), len(c.X))
		}
	}
	w, h := 20*vg.Centimeter, 12*vg.Centimeter
	var cw vg.CanvasWriterTo
	switch format {
	case "svg":
		cw = vgsvg.New(w, h)
	case "png":
		cw = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(96))}
	default:
		return nil, fmt.Errorf("format %q: must be svg or png", format)
	}
	p := plot.New()
	p.Title.Text = c.Title
	p.X.Label.Text, p.Y.Label.Text = c.XLabel, c.YLabel
	p.X.Min, p.X.Max = -0.3, float64(len(c.X))-0.7
	p.X.Tick.Marker = plot.TickerFunc(func(min, max float64) []plot.Tick {
		ts := make([]plot.Tick, len(c.X))
		for i, l := range c.X {
			ts[i] = plot.Tick{Value: float64(i), Label: l}
		}
		return ts
	})
	top := 0.0
	for _, s := range c.Series {
		for _, v := range s.Values {
			if !math.IsNaN(v) {
				top = max(top, v)
			}
		}
	}
	p.Y.Min, p.Y.Max = 0, max(top*1.12, 1e-9)
	p.Y.Tick.Marker = plainTicks{}
	if c.Unit == "ratio" {
		p.Y.Max = 1.08
		p.Y.Tick.Marker = plot.TickerFunc(func(min, max float64) []plot.Tick {
			var ts []plot.Tick
			for i := 0; i <= 10; i++ {
				t := plot.Tick{Value: float64(i) / 10}
				if i%2 == 0 {
					t.Label = fmt.Sprintf("%d%%", i*10)
				}
				ts = append(ts, t)
			}
			return ts
		})
	}
	p.Add(plotter.NewGrid())
	p.Legend.Top, p.Legend.Left = false, false // bottom right: curves that rise leave it free
	for i, s := range c.Series {
		var xy plotter.XYs
		var labels []string
		for j, v := range s.Values {
			if math.IsNaN(v) {
				continue
			}
			xy = append(xy, plotter.XY{X: float64(j), Y: v})
			if c.Unit == "ratio" {
				labels = append(labels, fmt.Sprintf("%.1f%%", 100*v))
			} else {
				labels = append(labels, fmt.Sprintf("%.4g", v))
			}
		}
		if len(xy) == 0 {
			continue
		}
		line, points, err := plotter.NewLinePoints(xy)
		if err != nil {
			return nil, err
		}
		col := palette[(len(palette)/2+i)%len(palette)] // the dark colours: lines on white
		line.Color, line.Width = col, vg.Points(1.5)
		points.Color, points.Shape = col, draw.CircleGlyph{}
		points.Radius = vg.Points(2.5)
		lab, err := plotter.NewLabels(plotter.XYLabels{XYs: xy, Labels: labels})
		if err != nil {
			return nil, err
		}
		for k := range lab.TextStyle {
			lab.TextStyle[k].Color = col
			lab.TextStyle[k].XAlign = draw.XCenter
			lab.TextStyle[k].Font.Size = vg.Points(8)
		}
		lab.Offset = vg.Point{Y: vg.Points(5)}
		p.Add(line, points, lab)
		p.Legend.Add(s.Name, line, points)
	}
	dc := draw.New(cw)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	p.Draw(draw.Crop(dc, vg.Millimeter*2, -vg.Millimeter*4, vg.Millimeter*2, -vg.Millimeter*2))
	var buf bytes.Buffer
	if _, err := cw.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
