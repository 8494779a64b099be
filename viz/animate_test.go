package viz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pgbufsim/pgbufsim/scenario"
	"github.com/stretchr/testify/require"
)

// pageData reads back the frames a page embeds.
func pageData(t *testing.T, page []byte) PageData {
	t.Helper()
	m := regexp.MustCompile(`(?s)<script id="data" type="application/json">(.*?)</script>`).FindSubmatch(page)
	require.NotNil(t, m, "the page embeds its frames as JSON")
	var d PageData
	require.NoError(t, json.Unmarshal(m[1], &d))
	return d
}

// The page of the 5-command lesson holds every recorded frame (one after
// each command, one at each allocation), each with show pool's text; the
// same scenario gives the same bytes; the page loads nothing.
func TestAnimatePage(t *testing.T) {
	env, err := Record("t.scn", lesson, 1)
	require.NoError(t, err)
	frames := env.Recording().Frames
	require.Greater(t, len(frames), 5)
	out := filepath.Join(t.TempDir(), "t.html")
	n, err := AnimateFile("dir/t.scn", lesson, out, 1)
	require.NoError(t, err)
	require.Equal(t, len(frames), n)
	a, err := os.ReadFile(out)
	require.NoError(t, err)
	b, err := Animate("t.scn", frames)
	require.NoError(t, err)
	require.True(t, bytes.Equal(a, b), "the same scenario gives different bytes")

	d := pageData(t, a)
	require.Equal(t, "t.scn", d.Title)
	require.Equal(t, len(frames), d.Recorded)
	require.Empty(t, d.Thinning)
	require.Len(t, d.Frames, len(frames))
	require.NotContains(t, string(a), "thinning\">", "no thinning note")
	for i, f := range d.Frames {
		require.Equal(t, i+1, f.N)
		require.Equal(t, frames[i].Label, f.Label)
		require.Equal(t, frames[i].Map.Text(), f.Map+"\n"+d.Legends[f.Legend], "frame %d", i+1)
	}
	require.Equal(t, "cluster version=18 shared_buffers=128kB data_checksums=off catalog_pins=off", d.Frames[0].Label)
	require.Equal(t, "0.000000 ms", d.Frames[0].T)
	require.Equal(t, "plot composition usage wal fpi", d.Frames[len(d.Frames)-1].Label)
	// Self-contained: no URL, no external script, style sheet or font.
	for _, bad := range []string{"http:", "https:", "//cdn", "<link", " src=", "@import", "url("} {
		require.NotContains(t, string(a), bad)
	}
}

// A recording longer than a page holds is thinned to evenly spaced frames,
// first and last kept, and the page says so.
func TestAnimateThinning(t *testing.T) {
	env, err := Record("t.scn", lesson, 1)
	require.NoError(t, err)
	f0 := env.Recording().Frames[0]
	var frames []scenario.Frame
	for i := 0; i < 2*MaxPageFrames+1; i++ {
		f := f0
		f.T, f.Label = int64(i)*1000, fmt.Sprintf("f%d", i)
		frames = append(frames, f)
	}
	d, err := NewPageData("t", frames)
	require.NoError(t, err)
	require.Len(t, d.Frames, MaxPageFrames)
	require.Equal(t, 1, d.Frames[0].N)
	require.Equal(t, len(frames), d.Frames[len(d.Frames)-1].N)
	require.Equal(t, "f2", d.Frames[1].Label, "every other frame")
	require.Len(t, d.Legends, 1)
	require.Contains(t, d.Thinning, "1000 of the 2001 recorded frames, evenly spaced")
	page, err := d.HTML()
	require.NoError(t, err)
	require.Contains(t, string(page), `<p class="note" id="thinning">This page shows 1000 of the 2001`)
	require.Len(t, pageData(t, page).Frames, MaxPageFrames)

	// The byte budget: a full pool of 16,384 buffers, a map of about 4 kB.
	fb := scenario.Frame{Map: scenario.PoolMap{NBuffers: 16384, Group: 16, Hand: 1,
		Page: strings.Repeat("a", 1024), Usage: strings.Repeat("5", 1024), Mark: strings.Repeat("r", 1024), Legend: []string{"a=a"}}}
	size := len(fb.Map.Text())
	require.Greater(t, size, 3500)
	frames = frames[:0]
	for i := 0; i < MaxPageFrames; i++ {
		frames = append(frames, fb)
	}
	d, err = NewPageData("t", frames)
	require.NoError(t, err)
	mapBytes := 0
	for _, f := range d.Frames {
		mapBytes += len(f.Map)
	}
	require.Less(t, len(d.Frames), MaxPageFrames, "a map of %d bytes", size)
	require.LessOrEqual(t, mapBytes, MaxPageMapBytes)
	require.NotEmpty(t, d.Thinning)
}

func TestAnimateBadInput(t *testing.T) {
	dir := t.TempDir()
	_, err := AnimateFile("t.scn", lesson, filepath.Join(dir, "missing", "out.html"), 1)
	require.ErrorContains(t, err, "missing does not exist")
	_, err = AnimateFile("t.scn", lesson, filepath.Join(dir, "out.htm"), 1)
	require.ErrorContains(t, err, "must end in .html")
	_, err = AnimateFile("t.scn", "# nothing but a comment\n", filepath.Join(dir, "out.html"), 1)
	require.ErrorContains(t, err, "t.scn: no frames to animate: the scenario has no cluster command")
	_, err = AnimateFile("t.scn", "cluster version=18\nscan nosuch\n", filepath.Join(dir, "out.html"), 1)
	require.ErrorContains(t, err, `t.scn:2: scan nosuch: relation "nosuch" does not exist`)
	_, err = Animate("t", nil)
	require.ErrorContains(t, err, "no frames to animate")
	_, err = os.Stat(filepath.Join(dir, "out.html"))
	require.True(t, os.IsNotExist(err), "nothing written on error")
}
