package scenario

import (
	"fmt"
	"testing"

	"github.com/pgbufsim/pgbufsim/strategy"
	"github.com/stretchr/testify/require"
)

// Ring sizes, pin limits and defaults per version, at the defaults with 128MB
// and 1GB: GetAccessStrategy's ring sizes (freelist.c: 256kB BULKREAD, 16MB
// BULKWRITE, vacuum_buffer_usage_limit; 18 adds the read stream's pin
// limit), GetPinLimit (bufmgr.c), each version's postgresql.conf.sample.
func TestVersionTable(t *testing.T) {
	for _, c := range []struct {
		version, sbMB                         int
		bulkread, bulkwrite, vacuum, pinLimit int
		eic, walBuffers                       int
		checksums                             bool
	}{
		// 15: fixed rings 256kB / 16MB / 256kB; no read streams (pin limit unused).
		{15, 128, 32, 2048, 32, 0, 1, 512, false},
		// 16: vacuum_buffer_usage_limit 256kB; pin limit 16384/(122+5) = 129.
		{16, 128, 32, 2048, 32, 129, 1, 512, false},
		// 17: vacuum_buffer_usage_limit 2MB; pin limit 16384/(122+6) = 128.
		{17, 128, 32, 2048, 256, 128, 1, 512, false},
		// 18: BULKREAD capped by the pin limit 16384/174 = 94; checksums on by default.
		{18, 128, 94, 2048, 256, 94, 16, 512, true},
		// 1GB: 18's ring is the full 256kB + 16×16×8kB = 288; wal_buffers capped at 16MB = 2048 pages.
		{18, 1024, 288, 2048, 256, 753, 16, 2048, true},
		{17, 1024, 32, 2048, 256, 1024, 1, 2048, false},
		// A tiny pool: every ring is capped at NBuffers/8 (16 buffers → 2).
		{18, 0, 2, 2, 2, 0, 16, 8, true},
	} {
		t.Run(fmt.Sprintf("pg%d_%dMB", c.version, c.sbMB), func(t *testing.T) {
			sb := fmt.Sprintf("%dMB", c.sbMB)
			if c.sbMB == 0 {
				sb = "128kB"
			}
			env, _ := run(t, fmt.Sprintf("cluster version=%d shared_buffers=%s\n", c.version, sb))
			require.Equal(t, c.bulkread, env.C.RingBuffers(strategy.BulkRead), "bulkread")
			require.Equal(t, c.bulkwrite, env.C.RingBuffers(strategy.BulkWrite), "bulkwrite")
			require.Equal(t, c.vacuum, env.C.RingBuffers(strategy.Vacuum), "vacuum")
			if c.version >= 16 {
				require.Equal(t, c.pinLimit, env.C.S.PinLimit(), "pin limit")
			}
			require.EqualValues(t, c.eic, env.C.S.Int("effective_io_concurrency"))
			require.Equal(t, c.walBuffers, env.C.S.WalBuffers())
			require.Equal(t, c.checksums, env.C.S.Bool("data_checksums"))
		})
	}
}

// Versions before 18 have a fixed 32-buffer BULKREAD ring, so the same
// checksums-off scan leaves 3 × 32 = 96 buffers in parallel (the leader
// and its two workers each keep their own ring: 18's 282 is 3 × 94), and a serial scan leaves its one ring: 94 in 18, 32 before.
func TestRingLeftBehindPerVersion(t *testing.T) {
	for _, c := range []struct{ version, workers, want int }{
		{15, 2, 96}, {16, 2, 96}, {17, 2, 96}, {18, 2, 282}, {17, 0, 32}, {18, 0, 94},
	} {
		t.Run(fmt.Sprintf("pg%d_workers%d", c.version, c.workers), func(t *testing.T) {
			src := fmt.Sprintf(`cluster version=%d shared_buffers=128MB data_checksums=off max_parallel_workers_per_gather=%d
table big pages=32768 tuple_bytes=1832
insert big
checkpoint
evict all
scan big
`, c.version, c.workers)
			env, _ := run(t, src)
			require.Equal(t, c.want, buffers(env)["big"])
		})
	}
}

// TRUNCATE puts a table's buffers on the free list (InvalidateBuffer →
// StrategyFreeBuffer); pg_buffercache eviction does not (EvictUnpinnedBuffer
// only invalidates the buffer, bufmgr.c): evicted
// buffers are left for the clock hand to find.
func TestTruncateRefillsFreeList(t *testing.T) {
	env, _ := run(t, `cluster version=18 shared_buffers=16MB data_checksums=off
table a pages=1500 tuple_bytes=1832
table b pages=1000 tuple_bytes=1832
insert a
insert b
`)
	// 2,500 pages through a 2,048-buffer pool (plus catalogs): the free list is used up.
	require.Equal(t, 0, env.C.Pool().Control().FreeListLen())
	// A plain session first, so truncate's own session finds its catalog
	// pages cached and takes no buffer of a's.
	_, err := env.Exec("mark", argsOf("warm"))
	require.NoError(t, err)
	before := buffers(env)["a"]
	out, err := env.Exec("truncate", argsOf("a"))
	require.NoError(t, err)
	require.Equal(t, before, env.C.Pool().Control().FreeListLen(), out.Text)
	// evict all invalidates without refilling it.
	_, err = env.Exec("evict", argsOf("b"))
	require.NoError(t, err)
	require.Equal(t, before, env.C.Pool().Control().FreeListLen())
	_, err = env.Exec("truncate", argsOf("nosuch"))
	require.Error(t, err)
}

// COPY FREEZE needs the table created or truncated in the same transaction,
// and then writes frozen, all-visible, all-frozen pages.
func TestCopyFreeze(t *testing.T) {
	env := &Env{}
	_, err := execAll(env, `cluster version=15 shared_buffers=16MB
table t rows=400 tuple_bytes=1832
copy t freeze`)
	require.ErrorContains(t, err, "cannot perform COPY FREEZE because the table was not created or truncated in the current subtransaction")
	env = &Env{}
	_, err = execAll(env, `cluster version=15 shared_buffers=16MB
table t rows=400 tuple_bytes=1832
copy t
begin
truncate t
copy t freeze
commit`)
	require.NoError(t, err)
	r, _ := env.C.Relation("t")
	av, af := r.CountVisibility()
	require.Equal(t, 100, av) // 400 rows, 4 a page
	require.Equal(t, 100, af)
}

// I/O timing: on 15 every read is a synchronous 8 kB read call of 4 µs
// (cluster/costs.go), so a scan reading 4,000 pages spends 16 ms reading, summed
// over its participants; track_io_timing prints it as EXPLAIN would.
func TestIOReadTiming(t *testing.T) {
	_, outs := run(t, "cluster version=15 shared_buffers=16MB track_io_timing=on\ntable t rows=16000 tuple_bytes=1832\ninsert t\nrestart\nscan t\n")
	s := lastStmt(outs)
	require.EqualValues(t, 4000, s["shared_read"])
	require.InDelta(t, 16.0, s["io_read_ms"].(float64), 0.001)
	require.Contains(t, outs[len(outs)-1].Text, "I/O Timings: read=16.000")
}
