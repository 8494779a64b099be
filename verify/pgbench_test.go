//go:build verify

package verify

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/pgbufsim/pgbufsim/pgbench"
	"github.com/stretchr/testify/require"
)

// pgbench's init and runs on a real 15 server: the figures PgbenchRunFigures
// reads, held to what the runs must give.
func TestPgbenchOnServer(t *testing.T) {
	privateTmp(t)
	srv, err := NewServer(pgBin(t))
	require.NoError(t, err)
	t.Cleanup(func() { srv.Close() })
	ctx := context.Background()
	require.NoError(t, srv.Init(ctx, true, [][2]string{{"shared_buffers", "16MB"}, {"autovacuum", "off"},
		{"max_wal_size", "8GB"}, {"checkpoint_timeout", "1h"}, {"bgwriter_lru_maxpages", "0"}}))
	require.NoError(t, srv.Start(ctx))
	conn, err := srv.Connect(ctx)
	require.NoError(t, err)
	_, err = conn.Exec(ctx, "CREATE EXTENSION pg_buffercache")
	require.NoError(t, err)
	conn.Close(ctx)

	require.ErrorContains(t, srv.PgbenchInit(ctx, 1, 5), "fillfactor=5")
	require.NoError(t, srv.PgbenchInit(ctx, 1, 100))
	_, err = srv.PgbenchRunFigures(ctx, pgbench.RunCmd{Transactions: 0, Builtin: pgbench.SelectOnly, Clients: 1})
	require.ErrorContains(t, err, "transactions=0")

	// select-only, 300 transactions, right after the init (scale 1: the
	// primary key of accounts is 276 pages, a root over 275 leaves).
	sel, err := srv.PgbenchRunFigures(ctx, pgbench.RunCmd{Transactions: 300, Builtin: pgbench.SelectOnly, Seed: 3, Clients: 1})
	require.NoError(t, err)
	b, _ := json.Marshal(sel)
	t.Logf("select-only: %s", b)
	require.EqualValues(t, 300, sel.Transactions)
	acc := sel.Tables["pgbench_accounts"]
	// One heap page per lookup; root and leaf per lookup, and the metapage
	// once (the planner's _bt_getrootheight caches it for the backend).
	require.EqualValues(t, 300, acc.HeapBlksHit+acc.HeapBlksRead)
	require.EqualValues(t, 2*300+1, acc.IdxBlksHit+acc.IdxBlksRead)
	require.Equal(t, acc.IdxBlksHit, sel.Indexes["pgbench_accounts_pkey"].IdxBlksHit)
	// pgbench's setup query: select count(*) from pgbench_branches, a
	// sequential scan of its one page (planning it reads the primary key's
	// metapage).
	br := sel.Tables["pgbench_branches"]
	require.EqualValues(t, 1, br.HeapBlksHit+br.HeapBlksRead)
	require.EqualValues(t, 1, br.IdxBlksHit+br.IdxBlksRead)
	require.Equal(t, pgbench.TableStats{}, sel.Tables["pgbench_tellers"])
	// Frozen rows, nothing to hint, nothing written.
	require.Zero(t, sel.WALRecords)
	require.Zero(t, sel.SharedDirtied)
	require.Zero(t, sel.SharedWritten)
	require.Greater(t, sel.SharedHit+sel.SharedRead, int64(300+601+2))
	require.Greater(t, sel.TPS, 0.0)

	// tpcb-like, 2 clients of 200 transactions.
	tp, err := srv.PgbenchRunFigures(ctx, pgbench.RunCmd{Transactions: 200, Builtin: pgbench.TPCBLike, Seed: 3, Clients: 2})
	require.NoError(t, err)
	b, _ = json.Marshal(tp)
	t.Logf("tpcb-like: %s", b)
	require.EqualValues(t, 400, tp.Transactions)
	for _, name := range []string{"pgbench_accounts", "pgbench_tellers", "pgbench_branches"} {
		require.EqualValues(t, 400, tp.Tables[name].NTupUpd, name)
		require.LessOrEqual(t, tp.Tables[name].NTupHotUpd, int64(400), name)
	}
	require.EqualValues(t, 400, tp.Tables["pgbench_history"].NTupIns)
	// Every page was changed since the last checkpoint (by the init): no images.
	require.Zero(t, tp.WALFPI)
	require.Greater(t, tp.WALRecords, int64(4*400))
	// The accounts index: two lookups a transaction (the UPDATE and the
	// SELECT), root and leaf each; an index insertion (root and leaf) for
	// every update that is not HOT; the metapage once per client backend.
	acc = tp.Tables["pgbench_accounts"]
	require.EqualValues(t, 4*400+2*(acc.NTupUpd-acc.NTupHotUpd)+2, acc.IdxBlksHit+acc.IdxBlksRead)
	// dirtied counts each clean buffer made dirty; what was written was dirty.
	require.GreaterOrEqual(t, tp.SharedDirtied, tp.SharedWritten)
	require.Greater(t, tp.SharedDirtied, int64(0))
}

// actPgbench, the translation of the scenario's pgbench commands, on a real
// 15: init compares the relations' pages with the result's "pages" (here
// the heap sizes pgbench.Tables derives, which must be exact, and the
// primary keys' sizes measured at scale 1: 276, 2 and 2 pages); run adds a
// row for every figure, the sim side read from the result's JSON fields.
func TestPgbenchActions(t *testing.T) {
	privateTmp(t)
	srv, err := NewServer(pgBin(t))
	require.NoError(t, err)
	t.Cleanup(func() { srv.Close() })
	ctx := context.Background()
	require.NoError(t, srv.Init(ctx, true, [][2]string{{"shared_buffers", "16MB"}, {"autovacuum", "off"}}))
	require.NoError(t, srv.Start(ctx))
	conn, err := srv.Connect(ctx)
	require.NoError(t, err)
	_, err = conn.Exec(ctx, "CREATE EXTENSION pg_buffercache")
	require.NoError(t, err)
	conn.Close(ctx)
	r := &runner{srv: srv, rep: &Report{NBuffers: 2048}, tables: map[string]*table{}, indexes: map[string]string{}}

	st := pgbenchStep("init", "scale=1")
	pages := map[string]int64{"pgbench_accounts_pkey": 276, "pgbench_branches_pkey": 2, "pgbench_tellers_pkey": 2}
	ts, err := pgbench.Tables(15, 1, 100)
	require.NoError(t, err)
	for _, tb := range ts {
		pages[tb.Name] = tb.Pages()
	}
	st.sim = map[string]any{"pages": pages}
	act, err := r.actPgbench(st)
	require.NoError(t, err)
	require.NoError(t, act(ctx, st))
	require.Len(t, r.rep.Rows, 7)
	for _, row := range r.rep.Rows {
		require.True(t, row.OK, "%s: sim %d, real %d", row.Figure, row.Sim, row.Real)
	}
	require.Equal(t, "pgbench_accounts", r.indexes["pgbench_accounts_pkey"])
	require.NotNil(t, r.tables["pgbench_history"])

	st = pgbenchStep("run", "transactions=50", "builtin=select-only", "seed=3")
	st.sim = pgbench.Result{Transactions: 50, Tables: map[string]pgbench.TableStats{"pgbench_accounts": {HeapBlksHit: 50}}}
	act, err = r.actPgbench(st)
	require.NoError(t, err)
	require.NoError(t, act(ctx, st))
	rows := map[string]Row{}
	for _, row := range r.rep.Rows[7:] {
		rows[row.Figure] = row
	}
	require.Len(t, rows, 9+4*7+3*2)
	require.True(t, rows["transactions"].OK)
	require.EqualValues(t, 50, rows["transactions"].Real)
	// 50 lookups: 50 heap pages, hit or read (the sim says all hit).
	acc := rows["pgbench_accounts heap_blks_hit"]
	require.EqualValues(t, 50, acc.Sim)
	require.EqualValues(t, 50, acc.Real+rows["pgbench_accounts heap_blks_read"].Real)
	require.False(t, rows["tps (×1000)"].Judged)

	_, err = r.actPgbench(pgbenchStep("run", "transactions=0"))
	require.ErrorContains(t, err, "transactions=0")
	_, err = r.actPgbench(pgbenchStep("init", "scale=1", "fillfactor=101"))
	require.ErrorContains(t, err, "fillfactor=101")
}
