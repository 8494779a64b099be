package verify

// The real side of the scenario commands `pgbench init` and `pgbench run`:
// the server's own pgbench program (from the same bin directory) with the
// translated arguments, and the run's figures read from the statistics
// views as deltas around it.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgbufsim/pgbufsim/pgbench"
)

// pgbench runs the server's pgbench program against the cluster's
// postgres database and returns what it printed (stdout and stderr).
func (s *Server) pgbench(ctx context.Context, args ...string) (string, error) {
	if _, err := exec.LookPath(filepath.Join(s.Bin, "pgbench")); err != nil {
		return "", fmt.Errorf("--pgbin %s: no pgbench program there (it comes with the server's client programs)", s.Bin)
	}
	full := append(append([]string{"-h", s.Root, "-p", strconv.Itoa(port), "-U", "postgres"}, args...), "postgres")
	var out bytes.Buffer
	cmd := s.command(ctx, "pgbench", full...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("pgbench %s: %v\n%s", strings.Join(args, " "), err, tail(out.String(), 15))
	}
	return out.String(), nil
}

// PgbenchInit runs `pgbench -i -s scale -F fillfactor -q`: the statements
// pgbench.InitSQL lists.
func (s *Server) PgbenchInit(ctx context.Context, scale, fillfactor int) error {
	c := pgbench.InitCmd{Scale: scale, Fillfactor: fillfactor}
	if err := c.Check(s.Major); err != nil {
		return err
	}
	_, err := s.pgbench(ctx, c.Args()...)
	return err
}

// pgbenchSnapshot is the counters a run's figures are deltas of.
type pgbenchSnapshot struct {
	hit, read, written, dirty int64
	extended                  int64 // before 16: the user relations' pages, all forks
	wal                       walStats
	tables                    map[string]pgbench.TableStats
	indexes                   map[string]pgbench.IndexStats
}

const (
	sqlPgbenchTables = `SELECT s.relname::text, coalesce(s.heap_blks_hit, 0), coalesce(s.heap_blks_read, 0),
 coalesce(s.idx_blks_hit, 0), coalesce(s.idx_blks_read, 0), u.n_tup_ins, u.n_tup_upd, u.n_tup_hot_upd
 FROM pg_statio_user_tables s JOIN pg_stat_user_tables u USING (relid)`
	sqlPgbenchIndexes    = "SELECT indexrelname::text, coalesce(idx_blks_hit, 0), coalesce(idx_blks_read, 0) FROM pg_statio_user_indexes"
	sqlPgbenchDB         = "SELECT blks_hit, blks_read FROM pg_stat_database WHERE datname = current_database()"
	sqlPgbenchDirty      = "SELECT count(*) FROM pg_buffercache WHERE isdirty"
	sqlUserPagesAllForks = `SELECT (sum(pg_relation_size(oid, 'main') + pg_relation_size(oid, 'fsm') + pg_relation_size(oid, 'vm')) / 8192)::bigint
 FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'i')`
	// the client backends other than this session (pgbench's, until they
	// have exited): the function under pg_stat_activity, without the view's
	// joins to pg_database and pg_authid, so that waiting reads no buffer.
	sqlOtherClients = "SELECT count(*) FROM pg_stat_get_activity(NULL) WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"
)

// sqlBuffersWritten counts every write of a shared buffer since the statistics were reset.
func sqlBuffersWritten(major int) string {
	if major >= 16 {
		return "SELECT coalesce(sum(writes), 0)::bigint FROM pg_stat_io WHERE object = 'relation'"
	}
	return "SELECT buffers_checkpoint + buffers_clean + buffers_backend FROM pg_stat_bgwriter"
}

// simpleExec runs a statement in the simple query protocol (no prepared
// statements: every execution is planned alike, so costs the same).
func simpleExec(ctx context.Context, conn *pgx.Conn, q string) error {
	_, err := conn.Exec(ctx, q, pgx.QueryExecModeSimpleProtocol)
	return err
}

// pgbenchReadingSQL is what a reading of pgbenchSnapshot sends, in order,
// then waitOthersGone's query: the catalog profile of the session that
// reads the counters before a run (the pgbenchReading kind).
func pgbenchReadingSQL(major int) []string {
	out := []string{sqlClearSnapshot}
	if major < 16 {
		out[0] = "SELECT pg_stat_clear_snapshot(), pg_reload_conf()"
	}
	out = append(out, sqlPgbenchDB, sqlPgbenchTables, sqlPgbenchIndexes, sqlStatWAL, sqlBuffersWritten(major))
	if major < 16 {
		out = append(out, sqlUserPagesAllForks)
	}
	return append(out, sqlPgbenchDirty, sqlClearSnapshot, sqlOtherClients)
}

func (s *Server) pgbenchSnapshot(ctx context.Context, conn *pgx.Conn) (snap pgbenchSnapshot, err error) {
	// pg_stat_wal and the writers' counters are reported by other processes
	// (the checkpointer, the background writer) a little after they act
	// (settled, below). Before 16 a backend's writes reach buffers_backend
	// only when the checkpointer absorbs the backends' sync requests
	// (AbsorbSyncRequests, at the top of its loop), which it may not do for
	// minutes: a reload wakes it (and changes nothing).
	pre := sqlClearSnapshot
	if s.Major < 16 {
		pre = "SELECT pg_stat_clear_snapshot(), pg_reload_conf()"
	}
	if err = simpleExec(ctx, conn, pre); err != nil {
		return snap, err
	}
	mode := pgx.QueryExecModeSimpleProtocol
	if err = conn.QueryRow(ctx, sqlPgbenchDB, mode).Scan(&snap.hit, &snap.read); err != nil {
		return snap, err
	}
	snap.tables = map[string]pgbench.TableStats{}
	rows, err := conn.Query(ctx, sqlPgbenchTables, mode)
	if err != nil {
		return snap, err
	}
	var name string
	var t pgbench.TableStats
	if _, err = pgx.ForEachRow(rows, []any{&name, &t.HeapBlksHit, &t.HeapBlksRead, &t.IdxBlksHit, &t.IdxBlksRead, &t.NTupIns, &t.NTupUpd, &t.NTupHotUpd},
		func() error { snap.tables[name] = t; return nil }); err != nil {
		return snap, err
	}
	snap.indexes = map[string]pgbench.IndexStats{}
	rows, err = conn.Query(ctx, sqlPgbenchIndexes, mode)
	if err != nil {
		return snap, err
	}
	var x pgbench.IndexStats
	if _, err = pgx.ForEachRow(rows, []any{&name, &x.IdxBlksHit, &x.IdxBlksRead},
		func() error { snap.indexes[name] = x; return nil }); err != nil {
		return snap, err
	}
	type walWritten struct {
		w       walStats
		written int64
	}
	ww, err := settled(ctx, conn, func() (v walWritten, err error) {
		if err = conn.QueryRow(ctx, sqlStatWAL, mode).Scan(&v.w.records, &v.w.fpi, &v.w.bytes, &v.w.buffersFull); err != nil {
			return v, err
		}
		err = conn.QueryRow(ctx, sqlBuffersWritten(s.Major), mode).Scan(&v.written)
		return v, err
	})
	if err != nil {
		return snap, err
	}
	snap.wal, snap.written = ww.w, ww.written
	if s.Major < 16 { // buffers_backend also counts each page a backend extends by (mdextend registers it for sync)
		if err = conn.QueryRow(ctx, sqlUserPagesAllForks, mode).Scan(&snap.extended); err != nil {
			return snap, err
		}
	}
	if err = conn.QueryRow(ctx, sqlPgbenchDirty, mode).Scan(&snap.dirty); err != nil {
		return snap, fmt.Errorf("pg_buffercache (the cluster creates the extension): %w", err)
	}
	return snap, nil
}

// flushOwn makes this session report its pending statistics now
// (pg_stat_force_next_flush, then one more round trip).
func flushOwn(ctx context.Context, conn *pgx.Conn) error {
	for _, q := range sessionEnd {
		if err := simpleExec(ctx, conn, q); err != nil {
			return err
		}
	}
	return nil
}

// waitOthersGone waits until the client backends other than this session
// have exited. A backend reports its statistics in a before_shmem_exit
// callback (pgstat_shutdown_hook), before its pg_stat_activity entry goes
// (pgstat_beshutdown_hook, on_shmem_exit): once gone, its counters are in.
func waitOthersGone(ctx context.Context, conn *pgx.Conn) error {
	for i := 0; i < 600; i++ {
		if err := simpleExec(ctx, conn, sqlClearSnapshot); err != nil {
			return err
		}
		var n int64
		if err := conn.QueryRow(ctx, sqlOtherClients, pgx.QueryExecModeSimpleProtocol).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		if err := sleep(ctx, 50*time.Millisecond); err != nil {
			return err
		}
	}
	return fmt.Errorf("pgbench's sessions did not end within 30 s")
}

// PgbenchRunFigures runs `pgbench -n -c C -j 1 -t N --random-seed=S -b NAME`
// and reads its figures as deltas around it (pgbench.Result says from where).
//
// One session of verify's stays open across the run: it reads the counters
// before (after warming its caches and reporting its own statistics) and
// after (once pgbench's sessions have exited); what its own reading costs
// in blks_hit and blks_read is measured by reading once more and taken
// off. (Of the readings only pg_stat_database and the pg_statio views read
// buffers, the catalogs under them, the same number each time; the waiting
// and the flushing read none.)
func (s *Server) PgbenchRunFigures(ctx context.Context, p pgbench.RunCmd) (pgbench.Result, error) {
	return s.pgbenchRunFigures(ctx, p, nil)
}

// pgbenchRunFigures is PgbenchRunFigures, then after (when not nil) in the
// same session, once the figures are read.
func (s *Server) pgbenchRunFigures(ctx context.Context, p pgbench.RunCmd, after func(*pgx.Conn) error) (pgbench.Result, error) {
	var res pgbench.Result
	if err := p.Check(s.Major); err != nil {
		return res, err
	}
	conn, err := s.Connect(ctx)
	if err != nil {
		return res, err
	}
	defer conn.Close(context.Background())
	var warm, before, afterSnap, again pgbenchSnapshot
	var out string
	snap := func(into *pgbenchSnapshot) func() error {
		return func() (err error) { *into, err = s.pgbenchSnapshot(ctx, conn); return err }
	}
	wait := func() error { return waitOthersGone(ctx, conn) }
	flush := func() error { return flushOwn(ctx, conn) }
	for _, f := range []func() error{
		snap(&warm), wait, flush, // the session's start and a first reading, reported
		snap(&before), flush, // the reading's own cost, reported before the run
		func() (err error) { out, err = s.pgbench(ctx, p.Args()...); return err },
		wait, snap(&afterSnap), flush, snap(&again), // again − after: one reading's cost
	} {
		if err := f(); err != nil {
			return res, err
		}
	}
	own := [2]int64{again.hit - afterSnap.hit, again.read - afterSnap.read}
	if after != nil {
		if err := after(conn); err != nil {
			return res, err
		}
	}
	if res.Transactions, res.TPS, err = pgbench.ParseSummary(out); err != nil {
		return res, fmt.Errorf("pgbench %s: %v:\n%s", strings.Join(p.Args(), " "), err, tail(out, 15))
	}
	res.SharedHit = afterSnap.hit - before.hit - own[0]
	res.SharedRead = afterSnap.read - before.read - own[1]
	res.SharedWritten = afterSnap.written - before.written - (afterSnap.extended - before.extended)
	res.SharedDirtied = afterSnap.dirty - before.dirty + res.SharedWritten
	res.WALRecords = afterSnap.wal.records - before.wal.records
	res.WALFPI = afterSnap.wal.fpi - before.wal.fpi
	res.WALBytes = afterSnap.wal.bytes - before.wal.bytes
	res.Tables = map[string]pgbench.TableStats{}
	for name, a := range afterSnap.tables {
		b := before.tables[name]
		res.Tables[name] = pgbench.TableStats{
			HeapBlksHit: a.HeapBlksHit - b.HeapBlksHit, HeapBlksRead: a.HeapBlksRead - b.HeapBlksRead,
			IdxBlksHit: a.IdxBlksHit - b.IdxBlksHit, IdxBlksRead: a.IdxBlksRead - b.IdxBlksRead,
			NTupIns: a.NTupIns - b.NTupIns, NTupUpd: a.NTupUpd - b.NTupUpd, NTupHotUpd: a.NTupHotUpd - b.NTupHotUpd,
		}
	}
	res.Indexes = map[string]pgbench.IndexStats{}
	for name, a := range afterSnap.indexes {
		b := before.indexes[name]
		res.Indexes[name] = pgbench.IndexStats{IdxBlksHit: a.IdxBlksHit - b.IdxBlksHit, IdxBlksRead: a.IdxBlksRead - b.IdxBlksRead}
	}
	return res, nil
}

// pgbenchSettings are a step's key=value arguments after its first.
func pgbenchSettings(st *step) ([]pgbench.Setting, error) {
	var out []pgbench.Setting
	for _, a := range st.args[1:] {
		if len(a.Vals) != 1 {
			return nil, fmt.Errorf("%s: %s needs one value", lineText(st), a.Key)
		}
		out = append(out, pgbench.Setting{Key: a.Key, Value: a.Vals[0]})
	}
	return out, nil
}

// actPgbench translates `pgbench init` and `pgbench run` (the hook-up in
// translate is `case "pgbench": return r.actPgbench(st)`). init runs
// pgbench -i, names the four tables and three indexes for show
// buffercache, and compares each relation's size in pages with the
// result's "pages" {relname: pages}; run runs pgbench and compares every
// figure of the command's JSON result (pgbench.Result).
func (r *runner) actPgbench(st *step) (action, error) {
	if len(st.args) == 0 || st.args[0].Key != "init" && st.args[0].Key != "run" {
		return nil, fmt.Errorf("%s: pgbench init or pgbench run", lineText(st))
	}
	settings, err := pgbenchSettings(st)
	if err != nil {
		return nil, err
	}
	if st.args[0].Key == "init" {
		c, err := pgbench.ParseInit(settings)
		if err == nil {
			err = c.Check(r.srv.Major)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", lineText(st), err)
		}
		return func(ctx context.Context, st *step) error {
			if err := r.srv.PgbenchInit(ctx, c.Scale, c.Fillfactor); err != nil {
				return err
			}
			ts, _ := pgbench.Tables(r.srv.Major, c.Scale, c.Fillfactor)
			var rels []string
			for _, t := range ts {
				r.tables[t.Name] = &table{name: t.Name, next: t.Rows + 1}
				rels = append(rels, t.Name)
				if t.Index != "" {
					r.indexes[t.Index] = t.Name
					rels = append(rels, t.Index)
				}
			}
			// The relations' sizes: the init result's "pages" {relname: pages}.
			var sim struct {
				Pages map[string]int64 `json:"pages"`
			}
			if b, err := json.Marshal(st.sim); err == nil {
				_ = json.Unmarshal(b, &sim)
			}
			return r.session(ctx, func(conn *pgx.Conn) error {
				for _, rel := range rels {
					var n int64
					if err := conn.QueryRow(ctx, sqlRelationPages(rel)).Scan(&n); err != nil {
						return err
					}
					r.rep.add(st, rel+" pages", sim.Pages[rel], n, exact)
				}
				return nil
			})
		}, nil
	}
	run, err := pgbench.ParseRun(settings)
	if err == nil {
		err = run.Check(r.srv.Major)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", lineText(st), err)
	}
	return func(ctx context.Context, st *step) error {
		real, err := r.srv.PgbenchRunFigures(ctx, run)
		if err != nil {
			return err
		}
		var sim pgbench.Result
		if b, err := json.Marshal(st.sim); err == nil {
			_ = json.Unmarshal(b, &sim)
		}
		r.comparePgbench(st, run, sim, real)
		return nil
	}, nil
}

// comparePgbench adds a run's rows, with the tolerances: hits and
// reads within 0.5% (select-only) or 1% of the accesses, HOT updates 2% of
// the updates, WAL records and images 2%, bytes 3%.
func (r *runner) comparePgbench(st *step, run pgbench.RunCmd, sim, real pgbench.Result) {
	pct := 1.0
	if run.Builtin == pgbench.SelectOnly {
		pct = 0.5
	}
	acc := func(hit, read int64) Tol {
		return Tol{Abs: max(int64(float64(hit+read)*pct/100), 1), Why: fmt.Sprintf("%g%% of the accesses", pct)}
	}
	io := acc(real.SharedHit, real.SharedRead)
	r.rep.add(st, "transactions", sim.Transactions, real.Transactions, exact)
	// pgbench's sessions' catalog lookups are measured profiles (its setup
	// connection, one transaction of each builtin); a tpcb-like run on 18
	// and 19 at scale 1 still leaves the server ~300-400 catalog hits more
	// and ~170 reads fewer (the sessions' catalog pages it still has cached).
	r.rep.add(st, "shared hit", sim.SharedHit, real.SharedHit, Tol{Abs: io.Abs + 600, Why: io.Why + " + 600 catalog hits (pgbench's sessions' profiles)"})
	r.rep.add(st, "shared read", sim.SharedRead, real.SharedRead, Tol{Abs: io.Abs + 300, Why: io.Why + " + 300 catalog reads (likewise)"})
	r.rep.add(st, "shared dirtied", sim.SharedDirtied, real.SharedDirtied, Tol{Pct: 2})
	r.rep.add(st, "shared written", sim.SharedWritten, real.SharedWritten, r.bufTol(""))
	r.rep.add(st, "WAL records", sim.WALRecords, real.WALRecords, Tol{Pct: 2})
	r.rep.add(st, "WAL fpi", sim.WALFPI, real.WALFPI, Tol{Pct: 2})
	r.rep.add(st, "WAL bytes", sim.WALBytes, real.WALBytes, Tol{Pct: 3})
	r.rep.add(st, "tps (×1000)", int64(sim.TPS*1000), int64(real.TPS*1000), Tol{Info: true, Why: "simulated time"})
	for _, name := range []string{"pgbench_accounts", "pgbench_branches", "pgbench_tellers", "pgbench_history"} {
		s, t := sim.Tables[name], real.Tables[name]
		heap, idx := acc(t.HeapBlksHit, t.HeapBlksRead), acc(t.IdxBlksHit, t.IdxBlksRead)
		r.rep.add(st, name+" heap_blks_hit", s.HeapBlksHit, t.HeapBlksHit, heap)
		r.rep.add(st, name+" heap_blks_read", s.HeapBlksRead, t.HeapBlksRead, heap)
		r.rep.add(st, name+" idx_blks_hit", s.IdxBlksHit, t.IdxBlksHit, idx)
		r.rep.add(st, name+" idx_blks_read", s.IdxBlksRead, t.IdxBlksRead, idx)
		r.rep.add(st, name+" n_tup_ins", s.NTupIns, t.NTupIns, exact)
		r.rep.add(st, name+" n_tup_upd", s.NTupUpd, t.NTupUpd, exact)
		r.rep.add(st, name+" n_tup_hot_upd", s.NTupHotUpd, t.NTupHotUpd, Tol{Abs: max(t.NTupUpd/50, 1), Why: "2% of the updates"})
	}
	for _, name := range []string{"pgbench_accounts_pkey", "pgbench_branches_pkey", "pgbench_tellers_pkey"} {
		s, t := sim.Indexes[name], real.Indexes[name]
		r.rep.add(st, name+" idx_blks_hit", s.IdxBlksHit, t.IdxBlksHit, acc(t.IdxBlksHit, t.IdxBlksRead))
		r.rep.add(st, name+" idx_blks_read", s.IdxBlksRead, t.IdxBlksRead, acc(t.IdxBlksHit, t.IdxBlksRead))
	}
}
