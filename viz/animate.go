package viz

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"strings"

	"github.com/pgbufsim/pgbufsim/scenario"
)

// # Animation
//
// Animate turns a recording's pool-map frames (scenario.Frame: one after every
// command and one at buffer allocations inside statements) into one HTML
// page that steps through them: play/pause, step back and forward, a frame
// slider, each frame's simulated time and label, and the map itself as
// `show pool` prints it (the same characters and legend). The page is self
// contained (its CSS, script and frames are inline: it loads nothing) and
// has no timestamp, so the same scenario gives the same bytes.
//
// The frames are JSON: per frame its time, label, the map's text without its
// legend, and the index of its legend in a table of distinct legends. A page
// holds at most MaxPageFrames frames and MaxPageMapBytes bytes of map text;
// a longer recording is thinned to evenly spaced frames (the first and the
// last kept), and the page says so.

// MaxPageFrames is the most frames an animation page holds.
const MaxPageFrames = 1000

// MaxPageMapBytes is the most bytes of map text an animation page holds
// (about the page's size: a pool of 1,024 columns takes some 4 kB a frame).
const MaxPageMapBytes = 2 << 20

//go:embed animate.html
var animateHTML string

//go:embed animate.css
var animateCSS string

//go:embed animate.js
var animateJS string

var animateTmpl = template.Must(template.New("animate").Parse(animateHTML))

// PageFrame is one frame as the page holds it (short JSON names keep the page small).
type PageFrame struct {
	N      int    `json:"n"` // the frame's number in the recording (1-based)
	T      string `json:"t"` // simulated time, "12.345678 ms"
	Label  string `json:"l"` // the command, or the allocation inside a statement
	Map    string `json:"m"` // the map's text up to its legend
	Legend int    `json:"g"` // index into PageData.Legends
}

// PageData is what the page's script steps through.
type PageData struct {
	Title    string      `json:"title"`
	Recorded int         `json:"recorded"` // frames in the recording
	Thinning string      `json:"thinning"` // "" when every frame is on the page
	Legends  []string    `json:"legends"`  // distinct legend blocks of show pool
	Frames   []PageFrame `json:"frames"`
}

// SplitMap splits a pool map's text (scenario.PoolMap.Text) into the map and its
// legend (from the "relations:" line on).
func SplitMap(text string) (body, legend string) {
	i := strings.Index(text, "\nrelations:")
	if i < 0 {
		return text, ""
	}
	return text[:i], text[i+1:]
}

// fmtTime prints simulated nanoseconds as milliseconds with all six decimals
// (as trace does).
func fmtTime(ns int64) string { return fmt.Sprintf("%d.%06d ms", ns/1e6, ns%1e6) }

// NewPageData picks the frames the page shows (all of them, or evenly spaced
// ones within MaxPageFrames and MaxPageMapBytes) and deduplicates legends.
func NewPageData(title string, frames []scenario.Frame) (PageData, error) {
	if len(frames) == 0 {
		return PageData{}, fmt.Errorf("no frames to animate: the recording is empty (a scenario needs a cluster command and at least one command after it)")
	}
	d := PageData{Title: title, Recorded: len(frames)}
	type split struct{ body, legend string }
	parts := make([]split, len(frames))
	total := 0
	for i, f := range frames {
		b, l := SplitMap(f.Map.Text())
		parts[i] = split{b, l}
		total += len(b)
	}
	keep := len(frames)
	if keep > MaxPageFrames {
		keep = MaxPageFrames
	}
	if total > MaxPageMapBytes {
		// The mean map size sets how many frames fit the byte budget.
		if k := int(int64(MaxPageMapBytes) * int64(len(frames)) / int64(total)); k < keep {
			keep = k
		}
	}
	if keep < 2 {
		keep = min(2, len(frames))
	}
	idx := make([]int, 0, keep)
	if keep == len(frames) {
		for i := range frames {
			idx = append(idx, i)
		}
	} else {
		for j := 0; j < keep; j++ {
			idx = append(idx, j*(len(frames)-1)/(keep-1))
		}
		d.Thinning = fmt.Sprintf("%d of the %d recorded frames, evenly spaced (the first and the last kept): a page holds at most %d frames and %d MB of maps",
			keep, len(frames), MaxPageFrames, MaxPageMapBytes>>20)
	}
	legends := map[string]int{}
	for _, i := range idx {
		p := parts[i]
		g, ok := legends[p.legend]
		if !ok {
			g = len(d.Legends)
			legends[p.legend] = g
			d.Legends = append(d.Legends, p.legend)
		}
		f := frames[i]
		d.Frames = append(d.Frames, PageFrame{N: i + 1, T: fmtTime(f.T), Label: f.Label, Map: p.body, Legend: g})
	}
	return d, nil
}

// Animate renders the page for a recording's frames.
func Animate(title string, frames []scenario.Frame) ([]byte, error) {
	d, err := NewPageData(title, frames)
	if err != nil {
		return nil, err
	}
	return d.HTML()
}

// HTML renders the page: the embedded template, its CSS and script, and the
// frames as JSON.
func (d PageData) HTML() ([]byte, error) {
	var buf bytes.Buffer
	err := animateTmpl.Execute(&buf, struct {
		Data PageData
		CSS  template.CSS
		JS   template.JS
	}{d, template.CSS(animateCSS), template.JS(animateJS)})
	if err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// AnimateFile runs the scenario with recording on and writes its page to
// out, which must end in .html in an existing directory; it returns the
// number of frames on the page.
func AnimateFile(name, src, out string, seed uint64) (int, error) {
	if _, err := CheckOutput(out, "html"); err != nil {
		return 0, err
	}
	env, err := Record(name, src, seed)
	if err != nil {
		return 0, err
	}
	frames := env.Recording().Frames
	if len(frames) == 0 {
		return 0, fmt.Errorf("%s: no frames to animate: the scenario has no cluster command", name)
	}
	d, err := NewPageData(filepath.Base(name), frames)
	if err != nil {
		return 0, err
	}
	b, err := d.HTML()
	if err != nil {
		return 0, err
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		return 0, err
	}
	return len(d.Frames), nil
}
