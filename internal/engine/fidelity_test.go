package engine_test

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/catalog"
	"github.com/pgbufsim/pgbufsim/cluster"
	"github.com/pgbufsim/pgbufsim/scenario"
	"github.com/stretchr/testify/require"
)

// runScenario runs src and returns each command's typed statement result
// (nil for commands that have none), by line order.
func runScenario(t *testing.T, src string) []*cluster.StmtResult {
	t.Helper()
	f, err := scenario.Parse("test.scn", src)
	require.NoError(t, err)
	env := &scenario.Env{Seed: 1, CheckInvariants: true}
	var out []*cluster.StmtResult
	for _, st := range f.Steps {
		o, err := env.ExecStep(st)
		require.NoError(t, err, st.Text)
		r, _ := o.Result.(*cluster.StmtResult)
		out = append(out, r)
	}
	return out
}

// TestStalePruneHintAfterCopyFreeze19: on 19, COPY FREEZE's heap_multi_insert
// sets pd_prune_xid on a page a batch continues (not empty when the batch
// began, so not all_frozen_set) while the page keeps its VM bits from the
// batch that started it. A seq scan after a checkpoint reaches each such
// full page, and heap_page_prune_opt → prune_freeze_fast_path only clears
// the stale hint through MarkBufferDirtyHint: with wal_log_hints one
// XLOG_FPI_FOR_HINT per page. The figures are random seed 1's on 19beta1
// (pg_waldump: 20 FPI_FOR_HINT of "len (rec/tot) 49/8153" for the table):
// 400-byte rows are 20 a page ((8192−24) / (400+4) = 20.2), the hole 8192 −
// 24 − 20 × 404 = 88, so each record is XLogRecord 24 + block header 4 +
// RelFileLocator 12 + BlockNumber 4 + image header 5 = 49 bytes and 8192 −
// 88 of image: 8,153. The next scan finds the hints cleared: nothing.
func TestStalePruneHintAfterCopyFreeze19(t *testing.T) {
	res := runScenario(t, `cluster version=19 shared_buffers=32MB max_wal_size=1GB checkpoint_timeout=1h autovacuum=off bgwriter_lru_maxpages=0 data_checksums=off wal_log_hints=on
begin
table t1 rows=3672 tuple_bytes=400 autovacuum=off
copy t1 freeze
commit
checkpoint
restart
scan t1
scan t1
`)
	scan := res[7]
	require.EqualValues(t, 20, scan.WAL.Records)
	require.EqualValues(t, 20, scan.WAL.FPI)
	require.EqualValues(t, 20*8153, scan.WAL.Bytes)
	require.EqualValues(t, 20, scan.Buf.Dirtied)
	again := res[8]
	require.EqualValues(t, 0, again.WAL.Records)
	require.EqualValues(t, 0, again.Buf.Dirtied)
}

// TestCopyBulkExtensionAndTruncation19: random seed 1 on 19beta1. COPY
// FREEZE of 3,672 rows of 400 bytes (184 pages of 20) into a 32MB pool
// extends by 9, 9, then 15 pages at a time (RelationAddBlocks; bulkext's
// test walks it), leaving the table 198 pages long — pg_relation_size on
// the server. The VACUUM after it skips the all-frozen pages, so it scans
// only the last (empty) page: nonempty_pages 0, and the truncation reads
// back from page 197 to 183 and cuts the table to 184 pages ("TRUNCATE …
// to 184 blocks"). Its VACUUM VERBOSE WAL on the server: 8 records, 5
// images, 41,600 bytes — the three FSM pages' FPI_FOR_HINT (3 × 8,241:
// FreeSpaceMapVacuumRange dirties them after the checkpoint), LOCK (42),
// the FSM leaf and the VM page by log_newpage_buffer (2 × 8,241),
// TRUNCATE (46) and the pg_class row in place (307: 258 for the row, 49
// for its reloptions; the scans' sessions have logged the pg_class page
// since the checkpoint, so no image).
func TestCopyBulkExtensionAndTruncation19(t *testing.T) {
	f, err := scenario.Parse("test.scn", `cluster version=19 shared_buffers=32MB max_wal_size=1GB checkpoint_timeout=1h autovacuum=off bgwriter_lru_maxpages=0 data_checksums=off wal_log_hints=on
begin
table t1 rows=3672 tuple_bytes=400 autovacuum=off
copy t1 freeze
commit
index t1_id on=t1 key=id
checkpoint
restart
mark m0
scan t1
scan t1 repeat=4
vacuum t1
`)
	require.NoError(t, err)
	env := &scenario.Env{Seed: 1, CheckInvariants: true}
	var vac *cluster.StmtResult
	for i, st := range f.Steps {
		o, err := env.ExecStep(st)
		require.NoError(t, err, st.Text)
		if i == 3 {
			r, ok := env.C.Relation("t1")
			require.True(t, ok)
			require.Equal(t, 198, r.NPages())
		}
		if st.Cmd == "vacuum" {
			vac = o.Result.(*cluster.StmtResult)
		}
	}
	r, _ := env.C.Relation("t1")
	require.Equal(t, 184, r.NPages())
	require.EqualValues(t, 8, vac.WAL.Records)
	require.EqualValues(t, 5, vac.WAL.FPI)
	require.EqualValues(t, 3*8241+42+2*8241+46+307, vac.WAL.Bytes) // 41,600
}

// TestParallelWorkerSetsOnePageVisible19: random seed 8 on 19beta1. A
// parallel seq scan (1 worker: 1,740 pages) after an INSERT, a checkpoint and
// a restart, checksums and wal_log_hints off. Every page is hinted (dirty,
// no WAL), and on-access pruning may set it all-visible only if it needs no
// image (XLogCheckBufferNeedsBackup). The client session has logged WAL at
// connection start (catalog pruning), so its doPageWrites is current and
// every page needs one; the worker has logged nothing, its doPageWrites is
// still false, so the first page it reaches is set — one record, which
// brings its copy up to date: XLogRecord 24 + the heap page (REGBUF_NO_IMAGE)
// 4 + 12 + 4 + the VM page (same relation) 4 + 4 with its whole image 5 +
// 8,192 + main data header 2 + xl_heap_prune flags 2 + conflict xid 4 =
// 8,257 bytes, one image; one page all-visible. Run serially, the server
// logs nothing (the same session, no worker).
func TestParallelWorkerSetsOnePageVisible19(t *testing.T) {
	for _, serial := range []bool{false, true} {
		set := ""
		if serial {
			set = "set max_parallel_workers_per_gather=0\n"
		}
		res := runScenario(t, `cluster version=19 shared_buffers=128MB max_wal_size=1GB checkpoint_timeout=1h autovacuum=off bgwriter_lru_maxpages=0 data_checksums=off
table t2 rows=34794 tuple_bytes=400 autovacuum=off
insert t2
checkpoint
restart
`+set+`scan t2
`)
		scan := res[len(res)-1]
		if serial {
			require.EqualValues(t, 0, scan.WAL.Records)
			continue
		}
		require.EqualValues(t, 1, scan.WAL.Records)
		require.EqualValues(t, 1, scan.WAL.FPI)
		require.EqualValues(t, 8257, scan.WAL.Bytes)
	}
}

// TestVacuumReadsBtreeMetapageTwice: VACUUM of a freshly loaded table with
// one btree, which has nothing to delete, makes no index scan but reads the
// metapage twice (btvacuumcleanup: _bt_vacuum_needs_cleanup, then
// _bt_set_cleanup_info, which writes nothing). Against the same VACUUM after
// a seq scan instead of the index build (both leave every heap page hinted
// and in shared buffers): one read more (CREATE INDEX wrote the btree
// through smgr, so the metapage is not in shared buffers yet), one hit more
// (the second look), the same WAL — and inside VACUUM's window the
// catalog pins the index's relcache entry costs a fresh session (measured:
// catalog.PG18.VacuumIndexWindowHits, 15), hits or reads as the pool has
// them.
func TestVacuumReadsBtreeMetapageTwice(t *testing.T) {
	run := func(index string) *cluster.StmtResult {
		res := runScenario(t, `cluster version=18 shared_buffers=32MB autovacuum=off catalog_pins=off
table t rows=2000 tuple_bytes=100 autovacuum=off
insert t
`+index+`vacuum t
`)
		return res[len(res)-1]
	}
	without, with := run("scan t\n"), run("index t_id on=t key=id\n")
	idx := int64(catalog.PG18.VacuumIndexWindowHits)
	require.EqualValues(t, 15, idx)
	require.Equal(t, without.Buf.Hit+without.Buf.Read+2+idx, with.Buf.Hit+with.Buf.Read)
	require.GreaterOrEqual(t, with.Buf.Read, without.Buf.Read+1, "the metapage is not in shared buffers")
	require.Equal(t, without.WAL, with.WAL)
}
