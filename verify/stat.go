package verify

import (
	"context"
	"fmt"
	"sort"

	"github.com/jackc/pgx/v5"
	"github.com/pgbufsim/pgbufsim/pgbench"
)

// The real side of `show stat tables [TABLE…]` and `show stat database`:
// pg_statio_user_tables joined with pg_stat_user_tables, and
// pg_stat_database, counted since the server started (they survive a clean
// restart, as the simulator's do). The servers' counters also hold what
// verify's own sessions did to the user tables, which are the scenario's
// statements alone (its queries read catalogs, pg_buffercache and the
// statistics views), so the tables' rows compare as they are.

// actShowStatTables compares each listed table's (every table's) row: the
// heap and index hits and reads within the buffer tolerance, the tuple
// counts exactly.
func (r *runner) actShowStatTables(ctx context.Context, st *step) error {
	var rows map[string]pgbench.TableStats
	var counts map[string][4]int64
	err := r.session(ctx, func(conn *pgx.Conn) (err error) {
		if _, err = conn.Exec(ctx, sqlClearSnapshot); err != nil {
			return err
		}
		if rows, err = statTablesNow(ctx, conn); err != nil {
			return err
		}
		counts, err = vacuumCountsNow(ctx, conn)
		return err
	})
	if err != nil {
		return err
	}
	simTables, _ := st.sim.(map[string]any)["tables"].(map[string]any)
	var names []string
	for _, a := range st.args[2:] {
		names = append(names, a.Key)
	}
	if len(names) == 0 {
		for name := range simTables {
			names = append(names, name)
		}
		sort.Strings(names)
	}
	bt := r.bufTol("")
	for _, name := range names {
		real, ok := rows[name]
		if !ok {
			return fmt.Errorf("%s: the server has no row for %s in pg_stat_user_tables", lineText(st), name)
		}
		sim := simTables[name]
		r.rep.add(st, name+" heap_blks_hit", simInt(sim, "heap_blks_hit"), real.HeapBlksHit, bt)
		r.rep.add(st, name+" heap_blks_read", simInt(sim, "heap_blks_read"), real.HeapBlksRead, bt)
		r.rep.add(st, name+" idx_blks_hit", simInt(sim, "idx_blks_hit"), real.IdxBlksHit, bt)
		r.rep.add(st, name+" idx_blks_read", simInt(sim, "idx_blks_read"), real.IdxBlksRead, bt)
		r.rep.add(st, name+" n_tup_ins", simInt(sim, "n_tup_ins"), real.NTupIns, exact)
		r.rep.add(st, name+" n_tup_upd", simInt(sim, "n_tup_upd"), real.NTupUpd, exact)
		r.rep.add(st, name+" n_tup_hot_upd", simInt(sim, "n_tup_hot_upd"), real.NTupHotUpd, exact)
		// Autovacuum's runs, and the manual ones, compared exactly.
		c := counts[name]
		r.rep.add(st, name+" vacuum_count", simInt(sim, "vacuum_count"), c[0], exact)
		r.rep.add(st, name+" autovacuum_count", simInt(sim, "autovacuum_count"), c[1], exact)
		r.rep.add(st, name+" analyze_count", simInt(sim, "analyze_count"), c[2], exact)
		r.rep.add(st, name+" autoanalyze_count", simInt(sim, "autoanalyze_count"), c[3], exact)
	}
	return nil
}

// sqlVacuumCounts is pg_stat_user_tables' vacuum and analyze counts.
const sqlVacuumCounts = "SELECT relname::text, vacuum_count, autovacuum_count, analyze_count, autoanalyze_count FROM pg_stat_user_tables"

func vacuumCountsNow(ctx context.Context, conn *pgx.Conn) (map[string][4]int64, error) {
	out := map[string][4]int64{}
	rows, err := conn.Query(ctx, sqlVacuumCounts)
	if err != nil {
		return nil, err
	}
	var name string
	var c [4]int64
	_, err = pgx.ForEachRow(rows, []any{&name, &c[0], &c[1], &c[2], &c[3]}, func() error { out[name] = c; return nil })
	return out, err
}

// statTablesNow reads sqlPgbenchTables: every user table's row.
func statTablesNow(ctx context.Context, conn *pgx.Conn) (map[string]pgbench.TableStats, error) {
	out := map[string]pgbench.TableStats{}
	rows, err := conn.Query(ctx, sqlPgbenchTables)
	if err != nil {
		return nil, err
	}
	var name string
	var t pgbench.TableStats
	_, err = pgx.ForEachRow(rows, []any{&name, &t.HeapBlksHit, &t.HeapBlksRead, &t.IdxBlksHit, &t.IdxBlksRead, &t.NTupIns, &t.NTupUpd, &t.NTupHotUpd},
		func() error { out[name] = t; return nil })
	return out, err
}

// actShowStatDatabase shows pg_stat_database's blks_hit and blks_read
// beside the simulator's: they hold every session's catalog lookups,
// verify's own queries of the statistics views and pg_buffercache
// included, whose catalog pins are profiled only per kind of statement.
func (r *runner) actShowStatDatabase(ctx context.Context, st *step) error {
	var hit, read int64
	err := r.session(ctx, func(conn *pgx.Conn) error {
		if _, err := conn.Exec(ctx, sqlClearSnapshot); err != nil {
			return err
		}
		return conn.QueryRow(ctx, sqlPgbenchDB).Scan(&hit, &read)
	})
	if err != nil {
		return err
	}
	why := "every session's catalog lookups, verify's own queries included"
	r.rep.add(st, "blks_hit", simInt(st.sim, "blks_hit"), hit, Tol{Info: true, Why: why})
	r.rep.add(st, "blks_read", simInt(st.sim, "blks_read"), read, Tol{Info: true, Why: why})
	return nil
}
