package scenario

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/strategy"
	"github.com/stretchr/testify/require"
)

// version=19's settings (guc_parameters.dat, proc.h, freelist.c @19): the
// ring and pin-limit formulas and defaults of 18 (128MB: pin limit
// 16384 / (136 + 38) = 94, BULKREAD ring 94, VACUUM 2MB = 256, BULKWRITE
// 16MB = 2048), checksums on; io_workers gone (io_min_workers 2 and
// io_max_workers 8 instead); no free list. What the model cannot run is
// refused by name: io_method=worker (the default) and io_uring, freelist=on.
func TestV19Settings(t *testing.T) {
	env, _ := run(t, "cluster version=19 io_method=sync\n")
	s := env.C.S
	require.Equal(t, 94, env.C.RingBuffers(strategy.BulkRead))
	require.Equal(t, 2048, env.C.RingBuffers(strategy.BulkWrite))
	require.Equal(t, 256, env.C.RingBuffers(strategy.Vacuum))
	require.Equal(t, 94, s.PinLimit())
	require.EqualValues(t, 16, s.Int("effective_io_concurrency"))
	require.EqualValues(t, 16, s.Int("maintenance_io_concurrency"))
	require.Equal(t, 16, s.IOCombineLimit())
	require.True(t, s.Bool("data_checksums"))
	require.False(t, s.Bool("freelist"))
	require.False(t, s.Known("io_workers"))
	require.EqualValues(t, 2, s.Int("io_min_workers"))
	require.EqualValues(t, 8, s.Int("io_max_workers"))
	require.Equal(t, 0, env.C.Pool().Control().FreeListLen())

	e := &Env{Seed: 1}
	for src, msg := range map[string]string{
		"version=19 io_method=io_uring":          "io_method=io_uring: version=19: io_uring is not modelled; give io_method=worker or sync",
		"version=19 io_method=sync freelist=on":  "freelist=on: PostgreSQL 19 has no free list (2c78940527); freelist=on is a what-if for 15 to 18 only",
		"version=19 io_method=sync io_workers=3": "io_workers=3: unrecognized configuration parameter in PostgreSQL 19 (removed after 18)",
		"version=18 io_min_workers=2":            "io_min_workers=2: unrecognized configuration parameter in PostgreSQL 18 (added in 19)",
		"version=20":                             "version=20: supported versions are 15 to 19",
	} {
		f, err := Parse("t.scn", "cluster "+src+"\n")
		require.NoError(t, err)
		_, err = e.Exec(f.Steps[0].Cmd, f.Steps[0].Args)
		require.EqualError(t, err, msg, src)
	}
	// 18 keeps its free list and io_workers; freelist=off stays a what-if there.
	env, _ = run(t, "cluster version=18 shared_buffers=1MB\n")
	require.Equal(t, 128, env.C.Pool().Control().FreeListLen())
	require.True(t, env.C.S.Known("io_workers"))
}

// v19WAL runs a scenario on 18 and 19 (io_method=sync, no catalog pins)
// and returns each statement's WAL bytes and records, by command index (0
// is the cluster command), per version.
func v19WAL(t *testing.T, body string, cks string) map[int][2][2]int64 {
	out := map[int][2][2]int64{}
	for i, v := range []int{18, 19} {
		src := fmt.Sprintf("cluster version=%d shared_buffers=16MB data_checksums=%s io_method=sync catalog_pins=off\n%s", v, cks, body)
		_, outs := run(t, src)
		for line, o := range outs {
			r, ok := o.JSON.(map[string]any)
			if !ok || r["wal_bytes"] == nil {
				continue
			}
			x := out[line]
			x[i] = [2]int64{toI64(r["wal_bytes"]), toI64(r["wal_records"])}
			out[line] = x
		}
	}
	return out
}

func toI64(v any) int64 {
	switch n := v.(type) {
	case int64:
		return n
	case int:
		return int64(n)
	case float64:
		return int64(n)
	}
	return -1
}

// Checkpoint records (xlog.c CreateCheckPoint, pg_control.h @19): 18 writes
// CHECKPOINT_REDO 24 + 2 + 4 = 30, RUNNING_XACTS 50, CHECKPOINT_ONLINE
// 24 + 2 + 88 = 114: 194 bytes; 19's xl_checkpoint_redo has 8 bytes (34) and
// its CheckPoint 96 (122): 206.
func TestV19CheckpointRecords(t *testing.T) {
	w := v19WAL(t, "checkpoint\n", "off")
	require.Equal(t, [2][2]int64{{194, 3}, {206, 3}}, w[1])
}

// VACUUM, COPY FREEZE and the first scan on 18 and 19, 100 pages of four
// 2,032-byte tuples (hole 24), checksums off then on. Commands: 3 vacuum t
// right after its load; 7 vacuum u after a checkpoint; 10 copy f freeze; 15
// and 16 two scans of s, loaded after the checkpoint (its pages need no image).
const v19Body = `table t pages=100 tuples_per_page=4
insert t
vacuum t
table u pages=100 tuples_per_page=4
insert u
checkpoint
vacuum u
begin
table f pages=100 tuples_per_page=4
copy f freeze
commit
checkpoint
table s pages=100 tuples_per_page=4
insert s
scan s
scan s
`

// Checksums off (no hint-bit WAL):
//   - VACUUM, 18: per page XLOG_HEAP2_VISIBLE 24 + VM ref (4 + 12 + 4) + heap
//     ref (4 + 4, same relation, no image) + 2 + 5 = 59, the first with the new
//     VM page's image (+5 + 8192), plus the pg_class inplace update with its
//     image (catalog_pins=off: the DDL's catalog writes are left out, so the
//     page was never logged). t's row lies on pg_class's page 0 (the FSM's
//     first page with room), whose 5,932 free bytes (18; 4,332 on 19) lost
//     4 × 176 to t's row, its TOAST table's and index's rows and the
//     reltoastrelid update (free line pointers reused): a hole of 5,228
//     (3,628), so 114 bytes of record (it carries the invalidations) + 5 +
//     8,192 − 5,228 = 3,083 on 18 and 4,683 on 19: 100 × 59 + 8,197 + 3,083
//     = 17,180 in 101 records.
//     19: XLOG_HEAP2_PRUNE_VACUUM_SCAN 24 + heap ref 20 (REGBUF_NO_IMAGE) + VM
//     ref 8 + 2 + u16 flags 2 + conflict xid 4 = 60, + 4,683: 18,880, same records.
//   - vacuum u: u's rows went to pg_class's page 1 (the FSM's next slot),
//     3,176 free on 18 (4,056 on 19) − 704 = 2,472 (3,352): the image is
//     114 + 5 + 5,720 = 5,839 (4,959): 5,900 + 8,197 + 5,839 = 19,936
//     (19: 6,000 + 8,197 + 4,959 = 19,156).
//   - COPY FREEZE: 18 adds one VISIBLE (59) per page; 19 puts the VM page in
//     the multi-insert record (+8): 51 bytes and one record a page less.
//   - The first scan of s: in 18 no WAL. In 19 each page (20 bytes free, below
//     BLCKSZ/10 = 819; pd_prune_xid set by the insert; dirtied by its hint
//     bits; logged after the redo pointer) is set all-visible on access:
//     PRUNE_ON_ACCESS 60 bytes, the first with the VM page's image:
//     100 × 60 + 8,197 = 14,197 in 100 records; the second scan finds it
//     all-visible: nothing.
func TestV19VacuumCopyFreezeScanWALChecksumsOff(t *testing.T) {
	w := v19WAL(t, v19Body, "off")
	require.Equal(t, [2][2]int64{{17180, 101}, {18880, 101}}, w[3], "vacuum t")
	require.Equal(t, [2][2]int64{{19936, 101}, {19156, 101}}, w[7], "vacuum u")
	require.Equal(t, w[10][0][0]-100*51, w[10][1][0], "copy freeze bytes")
	require.Equal(t, w[10][0][1]-100, w[10][1][1], "copy freeze records")
	require.Equal(t, [2][2]int64{{0, 0}, {14197, 100}}, w[15], "first scan")
	require.Equal(t, [2][2]int64{{0, 0}, {0, 0}}, w[16], "second scan")
}

// Checksums on:
//   - vacuum t (before any checkpoint): as with checksums off (no image is
//     due), except that 19 registers the heap page REGBUF_STANDARD: same bytes.
//   - vacuum u after the checkpoint: each page's hint bits write an
//     FPI_FOR_HINT (8,241 − 24 = 8,217), which makes 16+ freeze the page. 18:
//   - PRUNE_VACUUM_SCAN with one freeze plan (24 + 20 + 2 + 6 + 4 + 12 + 2×4
//     = 76: the plans' header is offsetof(xlhp_freeze_plans, plans) = 4) +
//     VISIBLE (59): 100 × (8,217 + 76 + 59) + 8,197 + 5,839 (u's pg_class
//     image, above) = 849,236 in 301 records. 19: one PRUNE_VACUUM_SCAN with
//     the plan and the VM (24 + 20 + 24 + 8 + 2 + 2 + 4 = 84): 100 × (8,217 +
//     84) + 8,197 + 4,959 = 843,256 in 201.
//   - The first scan of s (loaded after the checkpoint: no hint images):
//     as with checksums off in 19, the heap page registered REGBUF_STANDARD
//     needing no image: 14,197.
func TestV19VacuumScanWALChecksumsOn(t *testing.T) {
	w := v19WAL(t, v19Body, "on")
	require.Equal(t, [2][2]int64{{17180, 101}, {18880, 101}}, w[3], "vacuum t")
	require.Equal(t, [2][2]int64{{849236, 301}, {843256, 201}}, w[7], "vacuum u")
	require.Equal(t, [2][2]int64{{0, 0}, {14197, 100}}, w[15], "first scan")
}

// The first scan after a checkpoint with checksums on (seed 001's first read):
// each page's hint bits write an FPI_FOR_HINT (8,217 bytes), which dirties
// it and moves its LSN past the redo pointer, so 19 also sets it
// all-visible on access: + 60 a page, + the VM page's image once:
// 18: 821,700 in 100 records; 19: 821,700 + 6,000 + 8,197 = 835,897 in 200.
// With checksums off the hint only dirties a page whose LSN is before the
// redo pointer: 19 declines to set the VM (XLogCheckBufferNeedsBackup), and
// writes nothing, like 18.
func TestV19FirstReadAfterCheckpoint(t *testing.T) {
	body := "table s pages=100 tuples_per_page=4\ninsert s\ncheckpoint\nscan s\nshow visibility s\n"
	w := v19WAL(t, body, "on")
	require.Equal(t, [2][2]int64{{821700, 100}, {835897, 200}}, w[4])
	w = v19WAL(t, body, "off")
	require.Equal(t, [2][2]int64{{0, 0}, {0, 0}}, w[4])
}

// Every shipped example (top level, what-if and lessons) runs on version=19
// with io_method=sync, invariants checked after every command: no refusal
// fires on them, and the pool never has a free list.
func TestV19Examples(t *testing.T) {
	var files []string
	for _, g := range []string{"../examples/*.scn", "../examples/what-if/*.scn", "../examples/lessons/*.scn"} {
		m, err := filepath.Glob(g)
		require.NoError(t, err)
		files = append(files, m...)
	}
	require.Len(t, files, 24) // every shipped example, the what-if policies included
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			if testing.Short() && filepath.Base(path) != "ring-flood-small.scn" {
				t.Skip("-short: one example")
			}
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			f, err := Parse(path, string(src))
			require.NoError(t, err)
			env := &Env{Seed: 1, CheckInvariants: true, Dir: filepath.Dir(path)}
			for _, st := range f.Steps {
				args := st.Args
				if st.Cmd == "cluster" {
					// 19's default io_method=worker: the growing I/O worker pool.
					args = []datadriven.CmdArg{{Key: "version", Vals: []string{"19"}}}
					for _, a := range st.Args {
						if a.Key != "version" {
							args = append(args, a)
						}
					}
				}
				_, err := env.Exec(st.Cmd, args)
				require.NoError(t, err, "%s:%d", path, st.Line)
				require.Equal(t, 0, env.C.Pool().Control().FreeListLen(), "%s:%d", path, st.Line)
			}
		})
	}
}

// heap_page_will_freeze (pruneheap.c, 19) also freezes a page whose
// pd_prune_xid VACUUM is about to clear when hint bits need WAL and the page
// needs an image anyway (XLogCheckBufferNeedsBackup). ANALYZE hints every
// page of t before the checkpoint (no images: their LSNs are past the redo
// pointer then); VACUUM after the checkpoint finds nothing to hint. 18 does
// not freeze, but its XLOG_HEAP2_VISIBLE registers the heap page with an
// image under checksums (log_heap_visible; verify/testdata/suite/20-*): per
// page 59 + 5 + (8,192 − 24) = 8,232, so 823,200 + the VM image 8,197 +
// pg_class 3,083 (TestV19VacuumCopyFreezeScanWALChecksumsOff) = 834,480
// bytes. 19 freezes, and the frozen page goes in as an image: per page 24 +
// 20 + 5 + (8,192 − 24) + VM ref 8 + 2 + 2 + 4 = 8,233, so 823,300 + 8,197 +
// 4,683 (19's pg_class image) = 836,180 bytes, every page all-frozen.
func TestV19VacuumFreezesOnPruneXid(t *testing.T) {
	w := v19WAL(t, "table t pages=100 tuples_per_page=4\ninsert t\nanalyze t\ncheckpoint\nvacuum t\n", "on")
	require.Equal(t, [2][2]int64{{834480, 101}, {836180, 101}}, w[5])
}

// TRUNCATE in 19 (InvalidateBuffer without StrategyFreeBuffer, which 19 no
// longer has): a's buffers become invalid, usage 0, and stay where they are
// for the clock hand — none on a free list — where 18 puts all of them on
// the free list (TestTruncateRefillsFreeList).
func TestV19TruncateLeavesBuffersToTheHand(t *testing.T) {
	env, _ := run(t, `cluster version=19 io_method=sync shared_buffers=16MB data_checksums=off
table a pages=1500 tuple_bytes=1832
table b pages=1000 tuple_bytes=1832
insert a
insert b
`)
	require.Equal(t, 0, buffers(env)["(unused)"])
	// A plain session first, so truncate's own session finds its catalog
	// pages cached and takes no buffer of a's.
	_, err := env.Exec("mark", argsOf("warm"))
	require.NoError(t, err)
	before := buffers(env)["a"]
	require.Greater(t, before, 0)
	_, err = env.Exec("truncate", argsOf("a"))
	require.NoError(t, err)
	require.Equal(t, 0, env.C.Pool().Control().FreeListLen())
	require.Equal(t, before, buffers(env)["(unused)"])
	for _, r := range env.C.Pool().Contents() {
		if !r.Valid {
			require.Equal(t, 0, r.Usage)
		}
	}
}

// A scan inside a transaction block that has inserted cannot know whether
// the inserter is visible to everyone (it is not: it is this transaction),
// which 19's on-access pruning asks; the model refuses rather than guess.
func TestV19ScanInWritingTransactionRefused(t *testing.T) {
	e := &Env{Seed: 1}
	_, err := execAll(e, "cluster version=19 io_method=sync shared_buffers=16MB catalog_pins=off\nbegin\ntable t pages=10 tuples_per_page=4\ninsert t\nscan t\n")
	require.EqualError(t, err, "version=19: a scan of t inside a transaction block that has written reaches page 0, "+
		"which pd_prune_xid marks for pruning (heap_page_prune_opt): whether the inserting transaction is "+
		"visible to everyone yet is not modelled; commit first")
}
