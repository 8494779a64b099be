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
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgbufsim/pgbufsim/pgbench"
)

// PgbenchRun is a `pgbench run` step's settings.
type PgbenchRun struct {
	Transactions int             // -t, per client
	Builtin      pgbench.Builtin // -b
	Seed         uint64          // --random-seed
	Clients      int             // -c (always -j 1)
}

// PgbenchTable is one table's counters over a run: pg_statio_user_tables
// (idx_* summed over the table's indexes) and pg_stat_user_tables.
type PgbenchTable struct {
	HeapBlksHit  int64 `json:"heap_blks_hit"`
	HeapBlksRead int64 `json:"heap_blks_read"`
	IdxBlksHit   int64 `json:"idx_blks_hit"`
	IdxBlksRead  int64 `json:"idx_blks_read"`
	NTupIns      int64 `json:"n_tup_ins"`
	NTupUpd      int64 `json:"n_tup_upd"`
	NTupHotUpd   int64 `json:"n_tup_hot_upd"`
}

// PgbenchIndex is one index's counters over a run (pg_statio_user_indexes).
type PgbenchIndex struct {
	IdxBlksHit  int64 `json:"idx_blks_hit"`
	IdxBlksRead int64 `json:"idx_blks_read"`
}

// PgbenchResult is a `pgbench run`'s figures, with the field names of the
// scenario command's JSON result. On the server:
//   - transactions and tps from pgbench's summary;
//   - shared_hit, shared_read: pg_stat_database blks_hit, blks_read of the
//     database (every session pgbench opens: its setup connection's two
//     queries and each client's connection start, as well as the
//     transactions), less what verify's own statistics queries cost;
//   - shared_written: every write of a shared buffer, by any process (15:
//     pg_stat_bgwriter buffers_checkpoint + buffers_clean + buffers_backend;
//     16+: pg_stat_io writes of object relation; on 15 a reload first
//     makes the checkpointer take in the backends' writes);
//   - shared_dirtied: the dirty buffers in pg_buffercache after less before,
//     plus shared_written (each dirtying makes one clean buffer dirty, each
//     write one dirty buffer clean);
//   - wal_*: pg_stat_wal.
type PgbenchResult struct {
	Transactions  int64                   `json:"transactions"`
	SharedHit     int64                   `json:"shared_hit"`
	SharedRead    int64                   `json:"shared_read"`
	SharedDirtied int64                   `json:"shared_dirtied"`
	SharedWritten int64                   `json:"shared_written"`
	WALRecords    int64                   `json:"wal_records"`
	WALFPI        int64                   `json:"wal_fpi"`
	WALBytes      int64                   `json:"wal_bytes"`
	TPS           float64                 `json:"tps"`
	Tables        map[string]PgbenchTable `json:"tables"`
	Indexes       map[string]PgbenchIndex `json:"indexes"`
}

// pgbenchInitArgs are `pgbench init scale=N fillfactor=F` as pgbench's arguments.
func pgbenchInitArgs(scale, fillfactor int) []string {
	return []string{"-i", "-s", strconv.Itoa(scale), "-F", strconv.Itoa(fillfactor), "-q"}
}

// pgbenchRunArgs are a `pgbench run` as pgbench's arguments.
func pgbenchRunArgs(p PgbenchRun) []string {
	return []string{"-n", "-c", strconv.Itoa(p.Clients), "-j", "1", "-t", strconv.Itoa(p.Transactions),
		"--random-seed=" + strconv.FormatUint(p.Seed, 10), "-b", p.Builtin.String()}
}

// pgbench runs the server's pgbench program against the cluster's
// postgres database and returns what it printed (stdout and stderr).
func (s *Server) pgbench(ctx context.Context, args ...string) (string, error) {
	if _, err := exec.LookPath(filepath.Join(s.Bin, "pgbench")); err != nil {
		return "", fmt.Errorf("--pgbin %s: no pgbench program there (it comes with the server's client programs)", s.Bin)
	}
	full := append([]string{"-h", s.Root, "-p", strconv.Itoa(port), "-U", "postgres"}, args...)
	full = append(full, "postgres")
	var out bytes.Buffer
	cmd := s.command(ctx, "pgbench", full...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("pgbench %s: %v\n%s", strings.Join(args, " "), err, tail(out.String(), 15))
	}
	return out.String(), nil
}

// checkInitParams refuses what pgbench -i would.
func checkInitParams(major, scale, fillfactor int) error {
	_, err := pgbench.InitSQL(major, scale, fillfactor)
	return err
}

// PgbenchInit runs `pgbench -i -s scale -F fillfactor -q`: the statements
// pgbench.InitSQL lists.
func (s *Server) PgbenchInit(ctx context.Context, scale, fillfactor int) error {
	if err := checkInitParams(s.Major, scale, fillfactor); err != nil {
		return err
	}
	_, err := s.pgbench(ctx, pgbenchInitArgs(scale, fillfactor)...)
	return err
}

func checkRunParams(major int, p PgbenchRun) error {
	if _, err := pgbench.NewClients(major, p.Seed, p.Clients); err != nil {
		return err
	}
	if p.Transactions < 1 {
		return fmt.Errorf("transactions=%d: pgbench's -t/--transactions is from 1 to 2147483647", p.Transactions)
	}
	if p.Builtin.Script() == "" {
		return fmt.Errorf("builtin %v: pgbench's builtin scripts are tpcb-like, simple-update and select-only", p.Builtin)
	}
	return nil
}

// pgbenchSnapshot is the counters a run's figures are deltas of.
type pgbenchSnapshot struct {
	hit, read, written, dirty int64
	wal                       walStats
	tables                    map[string]PgbenchTable
	indexes                   map[string]PgbenchIndex
}

const (
	sqlPgbenchTables = `SELECT s.relname::text, coalesce(s.heap_blks_hit, 0), coalesce(s.heap_blks_read, 0),
 coalesce(s.idx_blks_hit, 0), coalesce(s.idx_blks_read, 0), u.n_tup_ins, u.n_tup_upd, u.n_tup_hot_upd
 FROM pg_statio_user_tables s JOIN pg_stat_user_tables u USING (relid)`
	sqlPgbenchIndexes = "SELECT indexrelname::text, coalesce(idx_blks_hit, 0), coalesce(idx_blks_read, 0) FROM pg_statio_user_indexes"
	sqlPgbenchDB      = "SELECT blks_hit, blks_read FROM pg_stat_database WHERE datname = current_database()"
	sqlPgbenchDirty   = "SELECT count(*) FROM pg_buffercache WHERE isdirty"
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

// simple runs a statement in the simple query protocol (no prepared
// statements: every execution is planned alike, so costs the same).
func simpleExec(ctx context.Context, conn *pgx.Conn, q string) error {
	_, err := conn.Exec(ctx, q, pgx.QueryExecModeSimpleProtocol)
	return err
}

func (s *Server) pgbenchSnapshot(ctx context.Context, conn *pgx.Conn) (snap pgbenchSnapshot, err error) {
	if err = simpleExec(ctx, conn, sqlClearSnapshot); err != nil {
		return snap, err
	}
	mode := pgx.QueryExecModeSimpleProtocol
	if err = conn.QueryRow(ctx, sqlPgbenchDB, mode).Scan(&snap.hit, &snap.read); err != nil {
		return snap, err
	}
	snap.tables = map[string]PgbenchTable{}
	rows, err := conn.Query(ctx, sqlPgbenchTables, mode)
	if err != nil {
		return snap, err
	}
	var name string
	var t PgbenchTable
	if _, err = pgx.ForEachRow(rows, []any{&name, &t.HeapBlksHit, &t.HeapBlksRead, &t.IdxBlksHit, &t.IdxBlksRead, &t.NTupIns, &t.NTupUpd, &t.NTupHotUpd},
		func() error { snap.tables[name] = t; return nil }); err != nil {
		return snap, err
	}
	snap.indexes = map[string]PgbenchIndex{}
	rows, err = conn.Query(ctx, sqlPgbenchIndexes, mode)
	if err != nil {
		return snap, err
	}
	var x PgbenchIndex
	if _, err = pgx.ForEachRow(rows, []any{&name, &x.IdxBlksHit, &x.IdxBlksRead},
		func() error { snap.indexes[name] = x; return nil }); err != nil {
		return snap, err
	}
	// pg_stat_wal and the writers' counters are reported by other processes
	// (the checkpointer, the background writer) a little after they act.
	// Before 16 a backend's writes reach buffers_backend only when the
	// checkpointer absorbs the backends' sync requests (AbsorbSyncRequests,
	// at the top of its loop), which it may not do for minutes: a reload
	// wakes it (and changes nothing).
	if s.Major < 16 {
		if err = simpleExec(ctx, conn, "SELECT pg_reload_conf()"); err != nil {
			return snap, err
		}
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

var (
	rePgbenchTxns = regexp.MustCompile(`(?m)^number of transactions actually processed: (\d+)/`)
	rePgbenchTPS  = regexp.MustCompile(`(?m)^tps = ([0-9.]+)`)
)

// PgbenchRunFigures runs `pgbench -n -c C -j 1 -t N --random-seed=S -b NAME`
// and reads its figures (PgbenchResult) as deltas around it. One session
// of verify's stays open across the run: it reads the counters before
// (after warming its caches and reporting its own statistics) and after
// (once pgbench's sessions have exited); what its own reading costs in
// blks_hit and blks_read is measured by reading once more and taken off.
// (Of the readings only pg_stat_database and the pg_statio views read
// buffers, the catalogs under them, the same number each time; the waiting
// and the flushing read none.)
func (s *Server) PgbenchRunFigures(ctx context.Context, p PgbenchRun) (PgbenchResult, error) {
	return s.pgbenchRunFigures(ctx, p, nil)
}

// pgbenchRunFigures is PgbenchRunFigures, then after (when not nil) in the
// same session, once the figures are read.
func (s *Server) pgbenchRunFigures(ctx context.Context, p PgbenchRun, after func(*pgx.Conn) error) (PgbenchResult, error) {
	var res PgbenchResult
	if err := checkRunParams(s.Major, p); err != nil {
		return res, err
	}
	conn, err := s.Connect(ctx)
	if err != nil {
		return res, err
	}
	defer conn.Close(context.Background())
	// Warm up: the session's start and a first reading, reported.
	if _, err := s.pgbenchSnapshot(ctx, conn); err != nil {
		return res, err
	}
	if err := waitOthersGone(ctx, conn); err != nil {
		return res, err
	}
	if err := flushOwn(ctx, conn); err != nil {
		return res, err
	}
	before, err := s.pgbenchSnapshot(ctx, conn)
	if err != nil {
		return res, err
	}
	if err := flushOwn(ctx, conn); err != nil { // the reading's own cost, reported before the run
		return res, err
	}
	out, err := s.pgbench(ctx, pgbenchRunArgs(p)...)
	if err != nil {
		return res, err
	}
	if err := waitOthersGone(ctx, conn); err != nil {
		return res, err
	}
	afterSnap, err := s.pgbenchSnapshot(ctx, conn)
	if err != nil {
		return res, err
	}
	if err := flushOwn(ctx, conn); err != nil {
		return res, err
	}
	again, err := s.pgbenchSnapshot(ctx, conn)
	if err != nil {
		return res, err
	}
	own := [2]int64{again.hit - afterSnap.hit, again.read - afterSnap.read}
	if after != nil {
		if err := after(conn); err != nil {
			return res, err
		}
	}

	m := rePgbenchTxns.FindStringSubmatch(out)
	if m == nil {
		return res, fmt.Errorf("pgbench %s: no \"number of transactions actually processed\" in its output:\n%s", strings.Join(pgbenchRunArgs(p), " "), tail(out, 15))
	}
	res.Transactions, _ = strconv.ParseInt(m[1], 10, 64)
	if m := rePgbenchTPS.FindStringSubmatch(out); m != nil {
		res.TPS, _ = strconv.ParseFloat(m[1], 64)
	}
	res.SharedHit = afterSnap.hit - before.hit - own[0]
	res.SharedRead = afterSnap.read - before.read - own[1]
	res.SharedWritten = afterSnap.written - before.written
	res.SharedDirtied = afterSnap.dirty - before.dirty + res.SharedWritten
	res.WALRecords = afterSnap.wal.records - before.wal.records
	res.WALFPI = afterSnap.wal.fpi - before.wal.fpi
	res.WALBytes = afterSnap.wal.bytes - before.wal.bytes
	res.Tables = map[string]PgbenchTable{}
	for name, a := range afterSnap.tables {
		b := before.tables[name]
		res.Tables[name] = PgbenchTable{
			HeapBlksHit: a.HeapBlksHit - b.HeapBlksHit, HeapBlksRead: a.HeapBlksRead - b.HeapBlksRead,
			IdxBlksHit: a.IdxBlksHit - b.IdxBlksHit, IdxBlksRead: a.IdxBlksRead - b.IdxBlksRead,
			NTupIns: a.NTupIns - b.NTupIns, NTupUpd: a.NTupUpd - b.NTupUpd, NTupHotUpd: a.NTupHotUpd - b.NTupHotUpd,
		}
	}
	res.Indexes = map[string]PgbenchIndex{}
	for name, a := range afterSnap.indexes {
		b := before.indexes[name]
		res.Indexes[name] = PgbenchIndex{IdxBlksHit: a.IdxBlksHit - b.IdxBlksHit, IdxBlksRead: a.IdxBlksRead - b.IdxBlksRead}
	}
	return res, nil
}

// parsePgbenchStep reads a `pgbench init …` or `pgbench run …` step's
// arguments, with the scenario language's defaults (fillfactor 100,
// builtin tpcb-like, seed pgbench.DefaultSeed, one client).
func parsePgbenchStep(st *step) (sub string, scale, fillfactor int, run PgbenchRun, err error) {
	if len(st.args) == 0 {
		return "", 0, 0, run, fmt.Errorf("%s: pgbench init or pgbench run", lineText(st))
	}
	sub = st.args[0].Key
	fillfactor, run = 100, PgbenchRun{Builtin: pgbench.TPCBLike, Seed: pgbench.DefaultSeed, Clients: 1}
	for _, a := range st.args[1:] {
		if len(a.Vals) != 1 {
			return "", 0, 0, run, fmt.Errorf("%s: %s needs one value", lineText(st), a.Key)
		}
		v := a.Vals[0]
		n, nerr := strconv.Atoi(v)
		switch {
		case sub == "init" && a.Key == "scale" && nerr == nil:
			scale = n
		case sub == "init" && a.Key == "fillfactor" && nerr == nil:
			fillfactor = n
		case sub == "run" && a.Key == "transactions" && nerr == nil:
			run.Transactions = n
		case sub == "run" && a.Key == "clients" && nerr == nil:
			run.Clients = n
		case sub == "run" && a.Key == "seed":
			if run.Seed, err = strconv.ParseUint(v, 10, 64); err != nil {
				return "", 0, 0, run, fmt.Errorf("%s: seed=%s: an unsigned 64-bit integer", lineText(st), v)
			}
		case sub == "run" && a.Key == "builtin":
			if run.Builtin, err = pgbench.ParseBuiltin(v); err != nil {
				return "", 0, 0, run, fmt.Errorf("%s: %w", lineText(st), err)
			}
		default:
			return "", 0, 0, run, fmt.Errorf("%s: pgbench %s does not take %s=%s", lineText(st), sub, a.Key, v)
		}
	}
	switch sub {
	case "init", "run":
	default:
		return "", 0, 0, run, fmt.Errorf("%s: pgbench init or pgbench run, not pgbench %s", lineText(st), sub)
	}
	return sub, scale, fillfactor, run, nil
}

// actPgbench translates `pgbench init` and `pgbench run` (the hook-up in
// translate is `case "pgbench": return r.actPgbench(st)`). init runs
// pgbench -i, names the four tables and three indexes for show
// buffercache, and compares each relation's size in pages with the
// result's "pages" {relname: pages}; run runs pgbench and compares every
// figure of the command's JSON result (PgbenchResult).
func (r *runner) actPgbench(st *step) (action, error) {
	sub, scale, fillfactor, run, err := parsePgbenchStep(st)
	if err != nil {
		return nil, err
	}
	if sub == "init" {
		if err := checkInitParams(r.srv.Major, scale, fillfactor); err != nil {
			return nil, fmt.Errorf("%s: %w", lineText(st), err)
		}
		return func(ctx context.Context, st *step) error {
			if err := r.srv.PgbenchInit(ctx, scale, fillfactor); err != nil {
				return err
			}
			ts, _ := pgbench.Tables(r.srv.Major, scale, fillfactor)
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
	if err := checkRunParams(r.srv.Major, run); err != nil {
		return nil, fmt.Errorf("%s: %w", lineText(st), err)
	}
	return func(ctx context.Context, st *step) error {
		real, err := r.srv.PgbenchRunFigures(ctx, run)
		if err != nil {
			return err
		}
		var sim PgbenchResult
		if b, err := json.Marshal(st.sim); err == nil {
			_ = json.Unmarshal(b, &sim)
		}
		r.comparePgbench(st, run, sim, real)
		return nil
	}, nil
}

// comparePgbench adds a run's rows, with the tolerances.
func (r *runner) comparePgbench(st *step, run PgbenchRun, sim, real PgbenchResult) {
	io := Tol{Pct: 1}
	if run.Builtin == pgbench.SelectOnly {
		io = Tol{Pct: 0.5}
	}
	r.rep.add(st, "transactions", sim.Transactions, real.Transactions, exact)
	r.rep.add(st, "shared hit", sim.SharedHit, real.SharedHit, io)
	r.rep.add(st, "shared read", sim.SharedRead, real.SharedRead, io)
	r.rep.add(st, "shared dirtied", sim.SharedDirtied, real.SharedDirtied, Tol{Pct: 2})
	r.rep.add(st, "shared written", sim.SharedWritten, real.SharedWritten, r.bufTol(""))
	r.rep.add(st, "WAL records", sim.WALRecords, real.WALRecords, Tol{Pct: 2})
	r.rep.add(st, "WAL fpi", sim.WALFPI, real.WALFPI, Tol{Pct: 2})
	r.rep.add(st, "WAL bytes", sim.WALBytes, real.WALBytes, Tol{Pct: 3})
	r.rep.add(st, "tps (×1000)", int64(sim.TPS*1000), int64(real.TPS*1000), Tol{Info: true, Why: "simulated time"})
	for _, name := range []string{"pgbench_accounts", "pgbench_branches", "pgbench_tellers", "pgbench_history"} {
		s, t := sim.Tables[name], real.Tables[name]
		r.rep.add(st, name+" heap_blks_hit", s.HeapBlksHit, t.HeapBlksHit, io)
		r.rep.add(st, name+" heap_blks_read", s.HeapBlksRead, t.HeapBlksRead, io)
		r.rep.add(st, name+" idx_blks_hit", s.IdxBlksHit, t.IdxBlksHit, io)
		r.rep.add(st, name+" idx_blks_read", s.IdxBlksRead, t.IdxBlksRead, io)
		r.rep.add(st, name+" n_tup_ins", s.NTupIns, t.NTupIns, exact)
		r.rep.add(st, name+" n_tup_upd", s.NTupUpd, t.NTupUpd, exact)
		r.rep.add(st, name+" n_tup_hot_upd", s.NTupHotUpd, t.NTupHotUpd, Tol{Abs: max(t.NTupUpd/50, 1), Why: "2% of the updates"})
	}
	for _, name := range []string{"pgbench_accounts_pkey", "pgbench_branches_pkey", "pgbench_tellers_pkey"} {
		s, t := sim.Indexes[name], real.Indexes[name]
		r.rep.add(st, name+" idx_blks_hit", s.IdxBlksHit, t.IdxBlksHit, io)
		r.rep.add(st, name+" idx_blks_read", s.IdxBlksRead, t.IdxBlksRead, io)
	}
}
