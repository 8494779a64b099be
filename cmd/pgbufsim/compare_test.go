package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// whatIfScn: 600 pages dirtied by a load, checkpointed, then scanned by a
// 16MB pool's BULKREAD ring (600 > 2,048/4: a ring of 32 buffers) with
// checksums on, so every page gets a hint FPI whose WAL is not yet flushed.
const whatIfScn = "cluster version=18 shared_buffers=16MB data_checksums=on catalog_pins=off\n" +
	"table t pages=600 tuple_bytes=1832\ninsert t\ncheckpoint\nevict all\nscan t\n"

// compare prints the same table whether the variants run one at a time or
// two at once, one row per variant in --vary order. Under reject=flush the
// scan keeps its ring: t ends with 32 buffers (568 = 600 − 32 reuses);
// under reject=pg every dirty ring buffer is rejected and stays behind: t
// ends with all 600 pages (2,048 buffers are enough, so LRU and the clock
// agree: nothing is evicted).
func TestCompare(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "w.scn")
	require.NoError(t, os.WriteFile(p, []byte(whatIfScn), 0o644))
	var outs []string
	for _, jobs := range []string{"1", "2"} {
		var out, errb bytes.Buffer
		require.Equal(t, 0, run(context.Background(), []string{"compare", p, "--jobs=" + jobs, "--vary", "reject=pg,flush", "--vary", "replacement=clock,lru"}, &out, &errb), errb.String())
		outs = append(outs, out.String())
	}
	require.Equal(t, outs[0], outs[1])
	lines := strings.Split(strings.TrimSpace(outs[0]), "\n")
	require.Len(t, lines, 6, outs[0]) // title, header, 4 variants
	require.Equal(t, []string{"reject", "replacement", "t", "unused"}, strings.Fields(lines[1])[:4], outs[0])
	col := func(row int) []string { return strings.Fields(lines[2+row]) }
	for i, want := range [][2]string{{"pg", "clock"}, {"pg", "lru"}, {"flush", "clock"}, {"flush", "lru"}} {
		require.Equal(t, want[:], col(i)[:2], lines[2+i])
	}
	require.Equal(t, "32", col(2)[2], "reject=flush keeps t in its ring")
	require.Equal(t, "600", col(0)[2], "reject=pg spreads t over the pool")
	require.Equal(t, "568", col(2)[7], "reuses")

	var out, errb bytes.Buffer
	require.Equal(t, 2, run(context.Background(), []string{"compare", p, "--vary", "replacement=clock,mru"}, &out, &errb))
	require.Contains(t, errb.String(), "--vary replacement=mru: must be one of clock, lru, 2q, arc, clock-pro")
	errb.Reset()
	require.Equal(t, 2, run(context.Background(), []string{"compare", p, "--vary", "usage_max=0"}, &out, &errb))
	require.Contains(t, errb.String(), "--vary usage_max=0: outside the allowed range 1..5")
	errb.Reset()
	require.Equal(t, 2, run(context.Background(), []string{"compare", p, "--vary", "ring=0,x"}, &out, &errb))
	require.Contains(t, errb.String(), "--vary ring=0: must be auto or a number of buffers from 1 to")
	require.Contains(t, errb.String(), "--vary ring=x: must be auto")
}

// TestCompareDown: a scenario that ends with the server down after a crash
// has no buffercache, WAL or pg_stat_io to read: compare shows "-" for
// them (before, "<nil>"), and the simulated clock, which still ran: 501.560
// ms at either reject, which only a BULKREAD ring's dirty buffer consults
// (the commit's fdatasync is the device's: 72.3 µs of access and the
// segment's written bytes at 2.4 GB/s before the 1 ms flush; it was a flat
// 1 ms, 501.453).
func TestCompareDown(t *testing.T) {
	p := filepath.Join(t.TempDir(), "down.scn")
	require.NoError(t, os.WriteFile(p, []byte("cluster version=18 shared_buffers=1MB catalog_pins=off\n"+
		"table t pages=10 tuples_per_page=4 autovacuum=off\ninsert t\ncrash\n"), 0o644))
	var out, errb bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"compare", p, "--jobs=1", "--vary", "reject=pg,flush"}, &out, &errb), errb.String())
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 4, out.String())
	require.Equal(t, []string{"reject", "unused", "wal_bytes", "wal_fpi", "evictions", "reuses", "writes", "time_ms"}, strings.Fields(lines[1]))
	require.Equal(t, []string{"pg", "-", "-", "-", "-", "-", "-", "501.560"}, strings.Fields(lines[2]))
	require.Equal(t, []string{"flush", "-", "-", "-", "-", "-", "-", "501.560"}, strings.Fields(lines[3]))
}

// BenchmarkCompare runs 8 variants with 1 job and with one per core: on an
// idle machine the second takes about 1/cores of the first (variants are
// independent clusters); variants/s is the figure to compare.
func BenchmarkCompare(b *testing.B) {
	dir := b.TempDir()
	p := filepath.Join(dir, "w.scn")
	// The test's scenario with 6,000 pages (three pools' worth): ~0.1 s a variant.
	scn := strings.Replace(whatIfScn, "pages=600", "pages=6000", 1)
	require.NoError(b, os.WriteFile(p, []byte(scn), 0o644))
	for _, jobs := range []int{1, runtime.NumCPU()} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				var out, errb bytes.Buffer
				if run(context.Background(), []string{"compare", p, fmt.Sprintf("--jobs=%d", jobs), "--vary", "ring=8,16,32,64", "--vary", "reject=pg,flush"}, &out, &errb) != 0 {
					b.Fatal(errb.String())
				}
			}
			b.ReportMetric(float64(8*b.N)/b.Elapsed().Seconds(), "variants/s")
		})
	}
}
