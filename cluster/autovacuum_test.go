package cluster_test

import (
	"strings"
	"testing"
	"time"

	"github.com/pgbufsim/pgbufsim/cluster"
	"github.com/stretchr/testify/require"
)

// avRun loads table a (20,000 rows, 5,000 pages), then table b (400,000
// rows, 100,000 pages, about 3 s of simulated load) with autovacuum_naptime
// = 1s: the launcher's first wake-up (1 s after the start) finds a's
// 20,000 committed inserts past its insert threshold (1,000 + 0.2 × 0, a
// never-vacuumed table's reltuples −1 counting as 0) while b's load is
// still running and b's rows are not committed (pgstat does not see them).
func avRun(t *testing.T) (c *cluster.Cluster, bStart, bEnd int64, log []string) {
	c, err := cluster.Open(cluster.Options{Version: 18, SharedBuffers: "128MB", Seed: 1,
		Settings: []cluster.Setting{{Name: "autovacuum_naptime", Value: "1s"}, {Name: "log_autovacuum_min_duration", Value: "0"}}})
	require.NoError(t, err)
	for _, tb := range []struct {
		name string
		rows int64
	}{{"a", 20000}, {"b", 400000}} {
		_, err := c.CreateTable(cluster.TableSpec{Name: tb.name, Rows: tb.rows, TupleBytes: 1832})
		require.NoError(t, err)
	}
	_, err = c.Insert("a", 0)
	require.NoError(t, err)
	log = append(log, c.ServerLog()...)
	bStart = c.Now()
	res, err := c.Insert("b", 0)
	require.NoError(t, err)
	bEnd = c.Now()
	require.Greater(t, res.TimeNs, int64(time.Second), "b's load outlasts the naptime")
	log = append(log, c.ServerLog()...)
	require.NoError(t, c.CheckInvariants())
	return c, bStart, bEnd, log
}

// The worker's VACUUM of a runs beside b's load, page by page on the
// simulated clock: it starts at the launcher's wake-up 1 s in and ends
// before the load does, having made all of a's 5,000 pages all-visible;
// b, whose rows were not committed when the worker looked, is left alone.
func TestAutovacuumInterleavesWithLoad(t *testing.T) {
	c, bStart, bEnd, log := avRun(t)
	st, err := c.StatTables("a", "b")
	require.NoError(t, err)
	a, b := st[0], st[1]
	require.Equal(t, int64(1), a.AutovacuumCount)
	require.Greater(t, a.LastAutovacuum, int64(time.Second), "the first worker starts at 1 s")
	require.Greater(t, a.LastAutovacuum, bStart)
	require.Less(t, a.LastAutovacuum, bEnd, "the vacuum ended during b's load")
	require.Equal(t, int64(1), a.AutoanalyzeCount, "a's 20,000 changes pass 50 + 0.1 × 0")
	require.Zero(t, b.AutovacuumCount, "b's rows were in progress")
	vis, err := c.Visibility("a")
	require.NoError(t, err)
	require.Equal(t, 5000, vis.AllVisible)
	joined := strings.Join(log, "\n")
	require.Contains(t, joined, `automatic vacuum of table "postgres.public.a": index scans: 0`)
	require.Contains(t, joined, "pages: 0 removed, 5000 remain, 5000 scanned (100.00% of total), 0 eagerly scanned")
	require.Contains(t, joined, "visibility map: 5000 pages set all-visible")
	require.NotContains(t, joined, `"postgres.public.b"`)
	// A later wake-up, after b's load committed, vacuums b too.
	require.NoError(t, c.Sleep(90*time.Second))
	st, err = c.StatTables("b")
	require.NoError(t, err)
	require.Equal(t, int64(1), st[0].AutovacuumCount)
}

// The same scenario twice gives the same log and counters.
func TestAutovacuumDeterministic(t *testing.T) {
	c1, _, _, l1 := avRun(t)
	c2, _, _, l2 := avRun(t)
	require.Equal(t, l1, l2)
	s1, err := c1.StatTables()
	require.NoError(t, err)
	s2, err := c2.StatTables()
	require.NoError(t, err)
	require.Equal(t, s1, s2)
}

// A worker's VACUUM of a 32,768-page table takes about 6.7 s under the
// cost delay (3,160 naps of ~2.1 ms); 2 s in, it is still running when
// TRUNCATE asks for its AccessExclusiveLock: the worker is cancelled (its
// pins released, pg_class and pgstat untouched), and TRUNCATE's flush
// resets n_ins_since_vacuum, so the next rounds only analyze the table
// (n_mod_since_analyze is 131,072 > 50). A restart in the middle of a
// second worker's run terminates it the same way.
func TestAutovacuumCancelled(t *testing.T) {
	c, err := cluster.Open(cluster.Options{Version: 18, SharedBuffers: "128MB", Seed: 1,
		Settings: []cluster.Setting{{Name: "autovacuum_naptime", Value: "1s"}}})
	require.NoError(t, err)
	for _, n := range []string{"t", "u"} {
		_, err = c.CreateTable(cluster.TableSpec{Name: n, Rows: 131072, TupleBytes: 1832})
		require.NoError(t, err)
	}
	_, err = c.Insert("t", 0)
	require.NoError(t, err)
	require.NoError(t, c.Sleep(2*time.Second))
	require.NoError(t, c.CheckInvariants(), "the worker holds its pins between commands")
	_, err = c.Truncate("t")
	require.NoError(t, err)
	require.Contains(t, strings.Join(c.ServerLog(), "\n"), "ERROR:  canceling autovacuum task\nCONTEXT:  automatic vacuum of table \"postgres.public.t\"")
	require.NoError(t, c.CheckInvariants())
	require.NoError(t, c.Sleep(20*time.Second))
	st, err := c.StatTables("t")
	require.NoError(t, err)
	require.Zero(t, st[0].AutovacuumCount)
	require.Equal(t, int64(1), st[0].AutoanalyzeCount)

	_, err = c.Insert("u", 0)
	require.NoError(t, err)
	require.NoError(t, c.Sleep(2*time.Second))
	require.NoError(t, c.Restart())
	require.Contains(t, strings.Join(c.ServerLog(), "\n"), "FATAL:  terminating autovacuum process due to administrator command")
	require.NoError(t, c.CheckInvariants())
	// The restarted launcher's first worker, a naptime later, vacuums u.
	require.NoError(t, c.Sleep(20*time.Second))
	st, err = c.StatTables("u")
	require.NoError(t, err)
	require.Equal(t, int64(1), st[0].AutovacuumCount)
}

// A power loss in the middle of a worker's run: the worker dies with the
// server; recovery discards the statistics (pgstat_discard_stats), so the
// table's committed inserts no longer count and no worker takes it again.
func TestAutovacuumCrash(t *testing.T) {
	c, err := cluster.Open(cluster.Options{Version: 18, SharedBuffers: "128MB", Seed: 1,
		Settings: []cluster.Setting{{Name: "autovacuum_naptime", Value: "1s"}}})
	require.NoError(t, err)
	_, err = c.CreateTable(cluster.TableSpec{Name: "t", Rows: 131072, TupleBytes: 1832})
	require.NoError(t, err)
	_, err = c.Insert("t", 0)
	require.NoError(t, err)
	require.NoError(t, c.Sleep(2*time.Second))
	_, err = c.Crash()
	require.NoError(t, err)
	require.NoError(t, c.CheckInvariants())
	_, err = c.Recover()
	require.NoError(t, err)
	require.NoError(t, c.CheckInvariants())
	require.NoError(t, c.Sleep(20*time.Second))
	st, err := c.StatTables("t")
	require.NoError(t, err)
	require.Zero(t, st[0].AutovacuumCount)
	require.Zero(t, st[0].NInsSinceVacuum)
}
