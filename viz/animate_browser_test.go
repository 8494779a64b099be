package viz

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// chromiumEnv names the browser the page test drives. scripts/test installs
// Debian's chromium when it is missing and sets it, so that there the test
// fails, never skips, without a browser.
const chromiumEnv = "PGBUFSIM_CHROMIUM"

// chromium finds the browser: $PGBUFSIM_CHROMIUM (required to work when
// set), else chromium on PATH; without either the test is skipped.
func chromium(t *testing.T) string {
	if p := os.Getenv(chromiumEnv); p != "" {
		st, err := os.Stat(p)
		if err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
			t.Fatalf("%s=%s: no browser program there (Debian: apt-get install chromium)", chromiumEnv, p)
		}
		return p
	}
	p, err := exec.LookPath("chromium")
	if err != nil {
		t.Skipf("no chromium on PATH and %s unset: the page is not opened in a browser (scripts/test installs it)", chromiumEnv)
	}
	return p
}

// pageState is what the page shows.
type pageState struct {
	Counter, Time, Recorded, Label, Map, Play string
	Slider                                    string
	Spans, Dirty                              int
}

const readState = `(() => {
  const $ = (id) => document.getElementById(id);
  return {Counter: $("counter").textContent, Time: $("time").textContent,
    Recorded: $("recorded").textContent, Label: $("label").textContent,
    Map: $("map").textContent, Play: $("play").textContent, Slider: $("slider").value,
    Spans: document.querySelectorAll("#map span").length,
    Dirty: document.querySelectorAll("#map span.dirty").length};
})()`

// The page in headless Chromium: it opens on frame 1; the slider seeks,
// "step" moves one frame (counter, time, label and map become the next
// frame's, the map's text exactly show pool's), "step back" returns, play
// advances by itself and pause stops it; no script error; a screenshot of
// the window decodes as a PNG of its size with something drawn on it.
func TestAnimateInChromium(t *testing.T) {
	exe := chromium(t)
	start := time.Now()
	env, err := Record("t.scn", lesson, 1)
	require.NoError(t, err)
	frames := env.Recording().Frames
	d, err := NewPageData("t.scn", frames)
	require.NoError(t, err)
	page, err := d.HTML()
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "t.html")
	require.NoError(t, os.WriteFile(file, page, 0o644))

	// The first step after which the time and the map both change.
	k := -1
	for i := 0; i+1 < len(d.Frames); i++ {
		if d.Frames[i].T != d.Frames[i+1].T && d.Frames[i].Map != d.Frames[i+1].Map {
			k = i
			break
		}
	}
	require.GreaterOrEqual(t, k, 1, "the lesson has a step that moves time and the pool")

	const w, h = 1000, 800
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.Flag("headless", "new"),
		chromedp.NoSandbox, // CI runs as root
		chromedp.Flag("disable-gpu", true),
		chromedp.WindowSize(w, h),
	)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()
	_, err = chromedp.Run(bctx, chromedp.Evaluate[int](`1`)) // starts the browser
	require.NoError(t, err, "starting %s", exe)

	// Script errors and exceptions, collected while the page runs.
	cctx, ccancel := context.WithCancel(bctx)
	var mu sync.Mutex
	var problems []string
	done := make(chan struct{})
	messages := chromedp.Console(cctx)
	go func() {
		defer close(done)
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException {
				mu.Lock()
				problems = append(problems, m.String())
				mu.Unlock()
			}
		}
	}()

	state := func() pageState {
		t.Helper()
		s, err := chromedp.Run(bctx, chromedp.Evaluate[pageState](readState))
		require.NoError(t, err)
		return s
	}
	n := strconv.Itoa(len(d.Frames))
	want := func(s pageState, i int) {
		t.Helper()
		f := frames[i]
		require.Equal(t, strconv.Itoa(i+1)+" / "+n, s.Counter)
		require.Equal(t, fmtTime(f.T), s.Time)
		require.Equal(t, f.Label, s.Label)
		require.Equal(t, f.Map.Text(), s.Map, "frame %d: the map is show pool's text", i+1)
		require.Equal(t, strconv.Itoa(i), s.Slider)
		require.Equal(t, strconv.Itoa(i+1)+" of "+n, s.Recorded)
	}

	require.NoError(t, chromedp.Do(bctx, chromedp.Navigate("file://"+file)))
	s0 := state()
	want(s0, 0)
	require.Equal(t, "play", s0.Play)

	// Seek with the slider as a person drags it, then one step.
	require.NoError(t, chromedp.Do(bctx, chromedp.Evaluate[chromedp.Void](
		`(() => { const s = document.getElementById("slider"); s.value = "`+strconv.Itoa(k)+`"; s.dispatchEvent(new Event("input")); })()`)))
	sk := state()
	want(sk, k)
	require.NoError(t, chromedp.Do(bctx, chromedp.Click(chromedp.ID("next"))))
	s1 := state()
	want(s1, k+1)
	require.NotEqual(t, sk.Counter, s1.Counter)
	require.NotEqual(t, sk.Time, s1.Time)
	require.NotEqual(t, sk.Map, s1.Map)
	require.NoError(t, chromedp.Do(bctx, chromedp.Click(chromedp.ID("prev"))))
	want(state(), k)

	// The last frame: t's pages in the pool, colored by relation letter.
	require.NoError(t, chromedp.Do(bctx, chromedp.Evaluate[chromedp.Void](
		`document.dispatchEvent(new KeyboardEvent("keydown", {key: "End"}))`)))
	last := state()
	want(last, len(frames)-1)
	require.Positive(t, last.Spans, "the relation letters are colored")

	// Play from the start at 30 frames a second until frame 3 or later (a
	// poll can miss frame 3 itself on a loaded machine), then pause.
	require.NoError(t, chromedp.Do(bctx,
		chromedp.Evaluate[chromedp.Void](`(() => { const s = document.getElementById("speed"); s.value = "30"; s.dispatchEvent(new Event("change")); })()`),
		chromedp.Click(chromedp.ID("play")),
	))
	_, err = chromedp.Run(bctx, chromedp.Poll[bool](`parseInt(document.getElementById("counter").textContent) >= 3`,
		chromedp.WithPollingTimeout(10*time.Second)))
	require.NoError(t, err, "play advances the frames")
	require.NoError(t, chromedp.Do(bctx, chromedp.Click(chromedp.ID("play"))))
	paused := state()
	require.Equal(t, "play", paused.Play, "the button offers play again once paused")
	time.Sleep(200 * time.Millisecond)
	require.Equal(t, paused.Counter, state().Counter, "paused: no frame moves")

	shot, err := chromedp.Run(bctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	img, err := png.Decode(bytes.NewReader(shot))
	require.NoError(t, err)
	require.Equal(t, w, img.Bounds().Dx())
	require.Positive(t, img.Bounds().Dy())
	dark := 0
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y += 2 {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x += 2 {
			if r, g, b, _ := img.At(x, y).RGBA(); r+g+b < 3*0x8000 {
				dark++
			}
		}
	}
	require.Greater(t, dark, 500, "the screenshot shows text")

	ccancel()
	<-done
	mu.Lock()
	require.Empty(t, problems, "script errors on the page")
	mu.Unlock()
	t.Logf("chromium %s: %.1fs", exe, time.Since(start).Seconds())
}
