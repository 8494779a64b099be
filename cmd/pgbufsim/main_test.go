package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The CLI runs a scenario, prints JSON with the fixed field names, reports
// file:line errors, and -rewrite writes blocks that the next run checks.
func TestRunJSONAndErrors(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.scn")
	require.NoError(t, os.WriteFile(p, []byte("cluster version=18 shared_buffers=16MB data_checksums=off\ntable t pages=1000 tuple_bytes=1832\ninsert t\nscan t\nshow buffercache t\n"), 0o644))
	var out, errb bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"run", "--format=json", p}, &out, &errb), errb.String())
	var doc struct {
		Settings map[string]any
		Steps    []struct {
			Line   int
			Result map[string]any
		}
	}
	require.NoError(t, json.Unmarshal(out.Bytes(), &doc))
	require.Equal(t, "16MB", doc.Settings["shared_buffers"])
	scan := doc.Steps[3].Result
	require.Equal(t, 4, doc.Steps[3].Line)
	// 1000 pages > 2048/4 = 512: a ring of 256kB = 32 buffers (the pin limit
	// 2048/174 = 11 is below 32, so the cap is max(256kB, 88kB)); one worker
	// (1000 pages < min_parallel_table_scan_size 1024): serial.
	require.Equal(t, "bulkread", scan["strategy"])
	require.EqualValues(t, 32, scan["ring_buffers"])
	// The load left all 1000 pages in the 2048-buffer pool: every page is a hit.
	require.EqualValues(t, 1000, scan["shared_hit"])
	require.EqualValues(t, 0, scan["shared_read"])

	// An error names file and line.
	bad := filepath.Join(dir, "bad.scn")
	require.NoError(t, os.WriteFile(bad, []byte("cluster version=18\n\nscan nosuch\n"), 0o644))
	out.Reset()
	errb.Reset()
	require.Equal(t, 1, run(context.Background(), []string{"run", bad}, &out, &errb))
	require.Contains(t, errb.String(), "bad.scn:3: scan nosuch: relation \"nosuch\" does not exist")

	// -rewrite, then a clean check; then a tampered block fails.
	require.Equal(t, 0, run(context.Background(), []string{"run", "-rewrite", p}, &out, &errb))
	require.Equal(t, 0, run(context.Background(), []string{"run", p}, &out, &errb), errb.String())
	src, _ := os.ReadFile(p)
	require.NoError(t, os.WriteFile(p, []byte(strings.Replace(string(src), "hit=1000", "hit=999", 1)), 0o644))
	errb.Reset()
	require.Equal(t, 1, run(context.Background(), []string{"run", p}, &out, &errb))
	require.Contains(t, errb.String(), "output differs")
}

// verify refuses a --pgbin without PostgreSQL's programs with exit status 1
// and says what it expected; usage errors are status 2.
func TestVerifyBadPgbin(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.scn")
	require.NoError(t, os.WriteFile(p, []byte("cluster version=15 shared_buffers=16MB\n"), 0o644))
	var out, errb bytes.Buffer
	require.Equal(t, 1, run(context.Background(), []string{"verify", "--quiet", "--pgbin", dir, p}, &out, &errb))
	require.Contains(t, errb.String(), "no initdb program there")
	errb.Reset()
	require.Equal(t, 2, run(context.Background(), []string{"verify", p}, &out, &errb), "missing --pgbin")
	require.Equal(t, 2, run(context.Background(), []string{"verify", "--pgbin", dir, "--format=xml", p}, &out, &errb))
}

// gentrace writes requests × 24 bytes of oracleGeneral; replay runs it on a
// cluster built from the settings on its command line and prints the counts.
func TestGentraceReplay(t *testing.T) {
	dir := t.TempDir()
	tr := filepath.Join(dir, "loop.oracleGeneral")
	var out, errb bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"gentrace", "kind=loop", "requests=300", "blocks=20", tr}, &out, &errb), errb.String())
	st, err := os.Stat(tr)
	require.NoError(t, err)
	require.EqualValues(t, 300*24, st.Size())
	require.Equal(t, 0, run(context.Background(), []string{"replay", "--format=json", tr, "format=oraclegeneral", "shared_buffers=128kB"}, &out, &errb), errb.String())
	var res map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &res))
	// A loop over 20 blocks through 16 buffers: the clock always evicts the
	// block needed next, so all 300 requests miss; the first 16 misses take
	// free buffers, the other 284 evict.
	require.EqualValues(t, 300, res["requests"])
	require.EqualValues(t, 0, res["hits"])
	require.EqualValues(t, 284, res["evictions"])

	errb.Reset()
	require.Equal(t, 1, run(context.Background(), []string{"replay", tr, "format=parquet"}, &out, &errb))
	require.Contains(t, errb.String(), "format=parquet: unknown trace format (oraclegeneral or csv)")
	errb.Reset()
	require.Equal(t, 2, run(context.Background(), []string{"gentrace", "kind=zipf", "requests=10", "blocks=0", tr}, &out, &errb))
	require.Contains(t, errb.String(), "blocks=0: must be between 1 and 2147483648")
}

// A sweep runs every point of the cross product in order: the same table
// and CSV whether the points run one at a time or two at once; each row
// carries its own settings (a 600-page table in 2,048 buffers, scanned after
// a checkpoint: only with checksums does the scan write WAL).
func TestSweep(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.scn")
	require.NoError(t, os.WriteFile(p, []byte("cluster version=18 shared_buffers=16MB\ntable t pages=600 tuple_bytes=1832\ninsert t\ncheckpoint\nscan t\n"), 0o644))
	var outs, csvs []string
	for _, jobs := range []string{"1", "2"} {
		var out, errb bytes.Buffer
		c := filepath.Join(dir, "out"+jobs+".csv")
		require.Equal(t, 0, run(context.Background(), []string{"sweep", "--jobs=" + jobs, "--csv=" + c, "--vary", "data_checksums=off,on", "--vary", "eic=1,64", p}, &out, &errb), errb.String())
		b, err := os.ReadFile(c)
		require.NoError(t, err)
		outs, csvs = append(outs, out.String()), append(csvs, string(b))
	}
	require.Equal(t, outs[0], outs[1])
	require.Equal(t, csvs[0], csvs[1])
	lines := strings.Split(strings.TrimSpace(outs[0]), "\n")
	require.Len(t, lines, 6, outs[0]) // the command, a header, 4 points
	require.Contains(t, lines[0], "s.scn:5: scan t")
	for i, want := range []string{"off  1", "off  64", "on   1", "on   64"} {
		require.True(t, strings.HasPrefix(strings.Join(strings.Fields(lines[2+i])[:2], "  "), strings.Join(strings.Fields(want), "  ")), "row %d: %q", i, lines[2+i])
	}
	// With checksums on the scan hints 600 pages after the checkpoint: 600 images.
	require.Contains(t, csvs[0], "on,64,5,scan t,wal_fpi,600\n")
	require.Contains(t, csvs[0], "off,64,5,scan t,wal_fpi,0\n")

	var out, errb bytes.Buffer
	require.Equal(t, 2, run(context.Background(), []string{"sweep", "--vary", "no_such_guc=1,2", p}, &out, &errb))
	require.Contains(t, errb.String(), "--vary no_such_guc=1: unrecognized configuration parameter")
	errb.Reset()
	require.Equal(t, 2, run(context.Background(), []string{"sweep", "--vary", "shared_buffers=16MB,8kB", p}, &out, &errb))
	require.Contains(t, errb.String(), "--vary shared_buffers=8kB: below the minimum of 16 buffers (128kB)")
}

// --cpuprofile writes a profile of the command (github.com/pkg/profile
// allows one profile per process, so this is the only test that starts one);
// asking for both kinds is refused before anything runs.
func TestProfileFlags(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.scn")
	require.NoError(t, os.WriteFile(p, []byte("cluster version=18 shared_buffers=16MB\ntable t pages=600 tuple_bytes=1832\ninsert t\n"), 0o644))
	var out, errb bytes.Buffer
	require.Equal(t, 2, run(context.Background(), []string{"--cpuprofile", dir, "--memprofile", dir, "run", p}, &out, &errb))
	require.Contains(t, errb.String(), "one profile at a time")
	prof := filepath.Join(dir, "prof")
	require.Equal(t, 0, run(context.Background(), []string{"--cpuprofile=" + prof, "run", p}, &out, &errb), errb.String())
	st, err := os.Stat(filepath.Join(prof, "cpu.pprof"))
	require.NoError(t, err)
	require.NotZero(t, st.Size())
}

// TestSweepPlot: --plot draws the step's figure at each point, labelled
// with its value: the scan after the checkpoint logs an image of each of
// the 600 pages it hints with checksums on, none with them off (as
// TestSweep's CSV shows); bad --plot/--y combinations are refused.
func TestSweepPlot(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.scn")
	require.NoError(t, os.WriteFile(p, []byte("cluster version=18 shared_buffers=16MB\ntable t pages=600 tuple_bytes=1832\ninsert t\ncheckpoint\nscan t\n"), 0o644))
	svg := filepath.Join(dir, "c.svg")
	var out, errb bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"sweep", "--csv=-", "--vary", "data_checksums=off,on", "--plot", svg, "--y", "images=wal_fpi", p}, &out, &errb), errb.String())
	b, err := os.ReadFile(svg)
	require.NoError(t, err)
	for _, want := range []string{">off<", ">on<", ">600<", ">0<", "images", "data_checksums"} {
		require.Contains(t, string(b), want)
	}
	for _, bad := range [][]string{
		{"--vary", "data_checksums=off,on", "--plot", filepath.Join(dir, "c.pdf"), "--y", "wal_fpi"},
		{"--vary", "data_checksums=off,on", "--plot", svg},
		{"--vary", "data_checksums=off,on", "--y", "wal_fpi"},
		{"--vary", "data_checksums=off,on", "--vary", "eic=1,2", "--plot", svg, "--y", "wal_fpi"},
		{"--vary", "data_checksums=off,on", "--plot", svg, "--y", "no_such_figure"},
		{"--vary", "data_checksums=off,on", "--plot", svg, "--y", "wal_fpi:"},
	} {
		errb.Reset()
		require.NotEqual(t, 0, run(context.Background(), append(append([]string{"sweep", "--csv=-"}, bad...), p), &out, &errb), "%v", bad)
		require.Contains(t, errb.String(), "--", "%v", bad)
	}
}
