package viz

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgbufsim/pgbufsim/scenario"
	"github.com/stretchr/testify/require"
)

const lesson = `cluster version=18 shared_buffers=128kB data_checksums=off catalog_pins=off
table t pages=4 tuples_per_page=4
insert t
restart
scan t
plot composition usage wal fpi
`

// The figure's content comes from the recording: after restart the scan of
// 4 pages takes 4 buffers from the free list, one sample each (a pool of 16
// buffers is sampled at every allocation), plus one sample after each of the
// 5 commands: cluster, table, insert (which allocates 4 heap + FSM buffers
// too: counted from the recording itself), restart, scan.
func TestPlotContentAndDeterminism(t *testing.T) {
	env, err := Record("t.scn", lesson, 1)
	require.NoError(t, err)
	figs := env.Recording().Figures
	require.Len(t, figs, 1)
	f := figs[0]
	ps := Panels(f)
	require.Len(t, ps, 4)
	require.Equal(t, []string{"t", "t/fsm", "(unused)"}, names(ps[0]))
	require.Equal(t, []string{"usage 0", "usage 1", "usage 2", "usage 3", "usage 4", "usage 5", "(unused)"}, names(ps[1]))
	last := len(f.Samples) - 1
	require.Equal(t, 4.0, ps[0].Layers[0].Values[last], "t holds its 4 pages after the scan")
	require.Equal(t, 12.0, ps[0].Layers[2].Values[last], "12 buffers unused")
	for _, p := range ps {
		for _, l := range p.Layers {
			require.Len(t, l.Values, len(f.Samples))
		}
	}
	for _, format := range []string{"svg", "png"} {
		a, err := Render(f, format)
		require.NoError(t, err)
		b, err := Render(f, format)
		require.NoError(t, err)
		require.True(t, bytes.Equal(a, b), "%s bytes differ between two renders", format)
	}
	svg, _ := Render(f, "svg")
	require.Contains(t, string(svg), "cache composition by relation")
}

func names(p Panel) []string {
	var n []string
	for _, l := range p.Layers {
		n = append(n, l.Name)
	}
	return n
}

func TestPlotBadInput(t *testing.T) {
	dir := t.TempDir()
	_, err := PlotFile("t.scn", lesson, filepath.Join(dir, "missing", "out.svg"), 1)
	require.ErrorContains(t, err, "missing does not exist")
	_, err = PlotFile("t.scn", lesson, filepath.Join(dir, "out.gif"), 1)
	require.ErrorContains(t, err, "must end in .svg or .png")
	_, err = PlotFile("t.scn", strings.Replace(lesson, "plot composition", "plot compost", 1), filepath.Join(dir, "out.svg"), 1)
	require.ErrorContains(t, err, `t.scn:6: plot: unknown series "compost"`)
	paths, err := PlotFile("t.scn", lesson, filepath.Join(dir, "out.png"), 1)
	require.NoError(t, err)
	b, err := os.ReadFile(paths[0])
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(b, []byte("\x89PNG")))
}

// A scenario without a plot command draws the default figure: each
// relation's buffers and the WAL over the whole run, titled with the file's
// name; its last sample has t's 4 pages and 12 unused buffers, as the
// lesson's own figure does.
func TestPlotDefaultFigure(t *testing.T) {
	dir := t.TempDir()
	src := strings.Replace(lesson, "plot composition usage wal fpi\n", "", 1)
	paths, err := PlotFile("lesson.scn", src, filepath.Join(dir, "out.svg"), 1)
	require.NoError(t, err)
	require.Len(t, paths, 1)
	svg, err := os.ReadFile(paths[0])
	require.NoError(t, err)
	require.Contains(t, string(svg), "lesson: cache composition by relation")
	require.Contains(t, string(svg), "WAL inserted")
	env, err := Record("lesson.scn", src, 1)
	require.NoError(t, err)
	ps := Panels(env.Figure(scenario.DefaultSeries, "lesson"))
	require.Len(t, ps, 2)
	last := len(ps[0].Layers[0].Values) - 1
	require.Equal(t, 4.0, ps[0].Layers[0].Values[last])
	require.Equal(t, 12.0, ps[0].Layers[2].Values[last])
	_, err = PlotFile("empty.scn", "# nothing\n", filepath.Join(dir, "e.svg"), 1)
	require.ErrorContains(t, err, "starts no cluster")
}

// The x axis is the statements, each as wide as its samples (the client's
// pauses take no room): the lesson's spans are its commands in order, the
// scan's 4 allocations plus the sample after it make it 5 wide; counts get
// integer ticks; the bottom panel names the statements.
func TestPlotStatementAxis(t *testing.T) {
	env, err := Record("t.scn", lesson, 1)
	require.NoError(t, err)
	f := env.Recording().Figures[0]
	sp := Spans(f)
	var cmds []string
	for _, s := range sp {
		cmds = append(cmds, s.Cmd)
	}
	require.Equal(t, []string{"cluster version=18 shared_buffers=128kB data_checksums=off catalog_pins=off",
		"table t pages=4 tuples_per_page=4", "insert t", "restart", "scan t"}, cmds)
	scan := sp[len(sp)-1]
	require.Equal(t, 5.0, scan.To-scan.From, "4 allocations and the sample after the scan")
	require.Equal(t, float64(len(f.Samples)), scan.To)
	ps := Panels(f)
	for i, x := range ps[0].X {
		require.Equal(t, float64(i), x)
	}
	require.True(t, ps[0].Integer)
	require.False(t, ps[2].Integer, "WAL is in kB")
	var labels []string
	for _, tk := range (integerTicks{}).Ticks(0, 28) {
		labels = append(labels, tk.Label)
	}
	require.Equal(t, []string{"0", "5", "10", "15", "20", "25"}, labels)
	svg, err := Render(f, "svg")
	require.NoError(t, err)
	require.Contains(t, string(svg), ">scan t<")
	require.Contains(t, string(svg), ">(unused)<")
	require.Contains(t, string(svg), XLabel)
}
