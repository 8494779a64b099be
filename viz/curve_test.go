package viz

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// TestCurveContentAndDeterminism: the SVG names every point and carries
// each value's label (100 × hit ratio, one decimal), and the same curve
// gives the same bytes.
func TestCurveContentAndDeterminism(t *testing.T) {
	c := Curve{Title: "t", XLabel: "shared_buffers", YLabel: "hit ratio", Unit: "ratio",
		X:      []string{"16MB", "32MB", "64MB"},
		Series: []Layer{{Name: "heap", Values: []float64{0.066, math.NaN(), 0.331}}}}
	a, err := RenderCurve(c, "svg")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := RenderCurve(c, "svg")
	if !bytes.Equal(a, b) {
		t.Fatal("two renderings of one curve differ")
	}
	for _, want := range []string{"16MB", "32MB", "64MB", "6.6%", "33.1%", "heap", "shared_buffers"} {
		if !strings.Contains(string(a), want) {
			t.Errorf("the SVG lacks %q", want)
		}
	}
	if strings.Contains(string(a), "NaN") {
		t.Error("the missing point was drawn")
	}
	p, err := RenderCurve(c, "png")
	if err != nil || !bytes.HasPrefix(p, []byte("\x89PNG")) {
		t.Fatalf("png: %v", err)
	}
}

func TestCurveBadInput(t *testing.T) {
	for _, c := range []Curve{
		{},
		{X: []string{"a"}, Series: []Layer{{Name: "s", Values: []float64{1, 2}}}},
	} {
		if _, err := RenderCurve(c, "svg"); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
	if _, err := RenderCurve(Curve{X: []string{"a"}, Series: []Layer{{Name: "s", Values: []float64{1}}}}, "pdf"); err == nil {
		t.Error("pdf accepted")
	}
}
