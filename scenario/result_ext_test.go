package scenario_test

import (
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/cluster"
	"github.com/pgbufsim/pgbufsim/scenario"
	"github.com/pgbufsim/pgbufsim/strategy"
	"github.com/stretchr/testify/require"
)

// exec runs one scenario line on env.
func exec(t *testing.T, env *scenario.Env, line string) scenario.Output {
	t.Helper()
	cmd, args, err := datadriven.ParseLine(line)
	require.NoError(t, err)
	o, err := env.Exec(cmd, args)
	require.NoError(t, err, line)
	return o
}

// TestOutputResult reads a scenario's figures from the typed results, as a
// Go caller does: a 100-page table of four 2,032-byte rows (a 24-byte hole),
// loaded by 400 heap-insert records of 2,063 bytes, checkpointed, evicted
// and read once with checksums on: 100 reads, each page hinted with an
// 8,217-byte image (8,192 − 24 + 49 bytes of headers), no ring (100 pages <
// NBuffers/4 = 512); then a 16-buffer pool's armed crash firing during a
// checkpoint.
func TestOutputResult(t *testing.T) {
	env := &scenario.Env{Seed: 1, CheckInvariants: true}
	n, ok := exec(t, env, "cluster version=18 shared_buffers=16MB catalog_pins=off autovacuum=off wal_level=replica").Result.(scenario.Notices)
	require.True(t, ok)
	require.Equal(t, scenario.Notices{"notice: wal_level is accepted but not simulated (replica assumed)"}, n)

	info, ok := exec(t, env, "table t pages=100 tuples_per_page=4").Result.(cluster.TableInfo)
	require.True(t, ok)
	require.Equal(t, 2032, info.TupleBytes)
	require.Equal(t, 4, info.TuplesPerPage)
	require.Equal(t, 24, info.Hole)
	require.EqualValues(t, 400, info.Declared)

	exec(t, env, "mark start")
	ins, ok := exec(t, env, "insert t").Stmt()
	require.True(t, ok)
	require.EqualValues(t, 400, ins.WAL.Records)
	require.EqualValues(t, 400*2063, ins.WAL.Bytes)
	require.EqualValues(t, 100, ins.Buf.Dirtied)
	require.EqualValues(t, 103, ins.Buf.Written) // extensions: 100 heap pages and 3 FSM pages
	_, ok = exec(t, env, "checkpoint").Stmt()
	require.True(t, ok)
	exec(t, env, "evict all")
	exec(t, env, "mark before")

	scan, ok := exec(t, env, "scan t").Stmt()
	require.True(t, ok)
	require.Equal(t, "Seq Scan", scan.Kind)
	require.Equal(t, strategy.Normal, scan.Strategy)
	require.Zero(t, scan.RingBuffers)
	require.EqualValues(t, 100, scan.Buf.Read)
	require.EqualValues(t, 100, scan.Buf.Dirtied)
	require.EqualValues(t, 100, scan.WAL.FPI)
	require.EqualValues(t, 100*8217, scan.WAL.Bytes)

	bc, ok := exec(t, env, "show buffercache t").Result.(*cluster.Buffercache)
	require.True(t, ok)
	require.Equal(t, cluster.BuffercacheRow{Relation: "t", Buffers: 100, Dirty: 100, Usage: [6]int{0, 100, 0, 0, 0, 0}}, bc.Row("t"))
	require.Equal(t, 2048-100, bc.Unused)

	w, ok := exec(t, env, "show wal since=start").Result.(cluster.WALReport)
	require.True(t, ok)
	require.True(t, w.SinceMark)
	require.EqualValues(t, 100, w.Usage.FPI)
	require.Equal(t, int64(w.EndLSN-w.StartLSN), w.Bytes)

	// pg_stat_io agrees with the statements: the load's 103 extensions and
	// 596 hits, and each time the scan found the WAL buffers full the client
	// wrote WAL itself (38, with the WAL starting where 18's initdb leaves
	// it: the page boundaries fall where they do on the server); the scan's 100 pages came in fewer read I/Os (the
	// read stream combines neighbouring blocks).
	io, ok := exec(t, env, "show io").Result.([]cluster.IORow)
	require.True(t, ok)
	client := func(rows []cluster.IORow, object string) cluster.IORow {
		for _, r := range rows {
			if r.BackendType == bufmgr.ClientBackend && r.Object == object && r.Context == strategy.Normal && !r.Init {
				return r
			}
		}
		t.Fatalf("no client backend %s row", object)
		return cluster.IORow{}
	}
	require.EqualValues(t, 103, client(io, "relation").Extends)
	require.Equal(t, ins.Buf.Hit, client(io, "relation").Hits)
	io, ok = exec(t, env, "show io context=normal since=before").Result.([]cluster.IORow)
	require.True(t, ok)
	for _, r := range io {
		require.Equal(t, strategy.Normal, r.Context) // context=normal shows only those rows
	}
	require.EqualValues(t, 38, scan.WAL.BuffersFull)
	require.Equal(t, scan.WAL.BuffersFull, client(io, "wal").Writes)
	require.Less(t, client(io, "relation").Reads, int64(100))
	require.Zero(t, client(io, "relation").Hits)

	set, ok := exec(t, env, "show settings").Result.(cluster.SettingsReport)
	require.True(t, ok)
	require.Equal(t, 2048, set.NBuffers)
	require.Equal(t, 512, set.SeqScanRingAbove)

	// The crash golden file's setup: a one-page table on a 1MB pool with one
	// disk arm; the power fails as the checkpoint's second page write starts.
	env = &scenario.Env{Seed: 1, CheckInvariants: true}
	for _, l := range []string{"cluster version=18 shared_buffers=1MB data_checksums=on full_page_writes=on catalog_pins=off device=hdd",
		"table t pages=1 tuples_per_page=4 autovacuum=off", "insert t", "scan t", "checkpoint", "vacuum t freeze"} {
		exec(t, env, l)
	}
	armed := exec(t, env, "crash after=writes:2")
	require.Nil(t, armed.Result)
	require.Nil(t, armed.PowerFailure)
	o := exec(t, env, "checkpoint")
	require.NotNil(t, o.PowerFailure)
	require.Equal(t, []string{"t/0"}, o.PowerFailure.Torn)
	require.EqualValues(t, 176, o.PowerFailure.WALLost)
	ck, ok := o.Stmt()
	require.True(t, ok)
	require.EqualValues(t, 3, ck.Buf.Written)
	rec, ok := exec(t, env, "recover").Result.(*cluster.RecoveryReport)
	require.True(t, ok)
	require.Equal(t, []string{"t/0"}, rec.Torn)
	require.EqualValues(t, 0x16F44C0-0x16EF4D8, rec.ReplayedBytes) // the redo pointer to the end of the flushed WAL, as the golden crash file shows
	require.Equal(t, 1, rec.Images)                                // full_page_writes=on: the freeze record's image restores t/0
	require.Empty(t, rec.Corrupted)
}
