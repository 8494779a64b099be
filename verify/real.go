package verify

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/cluster"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/scenario"
	"github.com/pgbufsim/pgbufsim/verify/hostcpu"
	"github.com/pgbufsim/pgbufsim/wal"
)

// runner holds the real side's state while a scenario runs.
type runner struct {
	srv            *Server
	env            *scenario.Env // the simulator after its whole run (for table shapes)
	name           string
	rep            *Report
	progress       io.Writer
	tables         map[string]*table
	marks          map[string]realMark
	rejected       map[string]bool      // relations a scan's ring rejected buffers of (in the simulation)
	indexes        map[string]string    // index → its table
	keyCols        map[string][2]string // index on hashint4 keys → its column, "UNIQUE " or ""
	txConn         *pgx.Conn            // the session of an open begin … commit block
	walCompression string               // wal_compression in force
	notices        []string             // the notices sessions received (VERBOSE reports)
	clusterSeen    bool
	planDir        string // Options.PlanDir
	settingsSaved  bool
	simMarks       map[string]bufmgr.IOStats // the simulator's pg_stat_io at each mark
	showsIO        bool                      // the scenario has a show io (16+): marks read pg_stat_io
	showsBg        bool                      // the scenario has a show stat bgwriter: marks read its counters
}

// action runs one step on the server and adds its rows to the report.
type action func(ctx context.Context, st *step) error

type realMark struct {
	lsn pg.LSN
	wal walStats
	io  ioStats // pg_stat_io (16+)
	bg  bgStats // pg_stat_bgwriter / pg_stat_checkpointer (scenarios that show them)
}

// bgStats are the counters show stat bgwriter compares, in sqlStatBgwriter's order.
type bgStats struct{ timed, requested, ckptWritten, clean, maxWritten, alloc int64 }

// walStats is pg_stat_wal.
type walStats struct{ records, fpi, bytes, buffersFull int64 }

// session runs fn in a new connection (as psql -c does for each command),
// then makes the backend flush its statistics before it goes (pg_stat_force_next_flush,
// then one more round trip: pending stats are reported before ReadyForQuery).
func (r *runner) session(ctx context.Context, fn func(conn *pgx.Conn) error) error {
	if r.txConn != nil {
		// Inside begin … commit every command shares the block's session.
		return fn(r.txConn)
	}
	conn, err := r.srv.Connect(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	if err := fn(conn); err != nil {
		return err
	}
	for _, q := range sessionEnd {
		if _, err := conn.Exec(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

func (r *runner) nbuf() int64 { return int64(r.rep.NBuffers) }

// bufTol is the per-relation buffer tolerance the issue fixes: 1% of shared_buffers.
func (r *runner) bufTol(why string) Tol {
	return Tol{Abs: max(r.nbuf()/100, 1), Why: why}
}

func simInt(js any, key string) int64 {
	m, _ := js.(map[string]any)
	switch v := m[key].(type) {
	case int:
		return int64(v)
	case int64:
		return v
	case float64:
		return int64(v)
	}
	return 0
}

// translate turns a step into its SQL, refusing commands with no translation
// for this server before anything starts.
func (r *runner) translate(st *step) (action, error) {
	major := r.srv.Major
	switch st.cmd {
	case "cluster":
		if r.clusterSeen {
			return nil, fmt.Errorf("%s: verify runs one cluster per scenario; this is a second cluster line", lineText(st))
		}
		r.clusterSeen = true
		r.srv.OnNotice = func(m string) { r.notices = append(r.notices, m) }
		return r.actCluster(st)
	case "set":
		return r.actSet, nil
	case "restart":
		return r.actRestart, nil
	case "table":
		t, err := newTable(st, r.env)
		if err != nil {
			return nil, err
		}
		r.tables[t.name] = t
		return t.actCreate(r), nil
	case "insert":
		return r.actInsert, nil
	case "copy":
		return r.actCopy, nil
	case "begin":
		return r.actBegin, nil
	case "commit":
		return r.actCommit, nil
	case "truncate":
		return func(ctx context.Context, st *step) error {
			if t := r.tables[st.args[0].Key]; t != nil {
				t.next = 1 // the simulator numbers a truncated table's rows from 1 again
			}
			return r.simple(func(st *step) string { return "TRUNCATE " + st.args[0].Key })(ctx, st)
		}, nil
	case "checkpoint":
		return r.actCheckpoint, nil
	case "evict":
		if st.args[0].Key == "all" {
			if major >= 18 {
				return r.simple(func(*step) string { return "SELECT pg_buffercache_evict_all()" }), nil
			}
			return r.simple(func(*step) string {
				return "SELECT count(pg_buffercache_evict(bufferid)) FROM pg_buffercache WHERE relfilenode IS NOT NULL"
			}), nil
		}
		switch {
		case major >= 18:
			return r.simple(func(st *step) string {
				return fmt.Sprintf("SELECT pg_buffercache_evict_relation('%s')", st.args[0].Key)
			}), nil
		case major == 17:
			return r.simple(func(st *step) string {
				return fmt.Sprintf("SELECT count(pg_buffercache_evict(bufferid)) FROM pg_buffercache WHERE relfilenode = pg_relation_filenode('%s')", st.args[0].Key)
			}), nil
		}
		return nil, fmt.Errorf("%s: no SQL translation on PostgreSQL %d: pg_buffercache can evict only from 17 on (and a restart would evict every relation)", lineText(st), major)
	case "scan":
		return r.actScan, nil
	case "vacuum":
		return r.actVacuum, nil
	case "analyze":
		return r.actAnalyze, nil
	case "index":
		if on, ok := hashedIndex(st); ok {
			return r.hashedKey(st, on)
		}
		for _, a := range st.args[1:] {
			if a.Key == "key" && a.Vals[0] != "id" {
				return nil, fmt.Errorf("%s: no SQL translation: verify's tables have only id and padding, not %s", lineText(st), a.Vals[0])
			}
		}
		return r.actIndex, nil
	case "drop":
		return nil, fmt.Errorf("%s: no SQL translation: verify does not drop the machine's page cache (it would need root and would disturb the machine)", lineText(st))
	case "index_scan":
		return r.actIndexScan, nil
	case "pgbench":
		return r.actPgbench(st)
	case "sleep":
		ns, err := pg.ParseDuration(st.args[0].Key, 1e9)
		if err != nil {
			return nil, err
		}
		return r.simple(func(*step) string { return fmt.Sprintf("SELECT pg_sleep(%g)", float64(ns)/1e9) }), nil
	case "mark":
		return r.actMark, nil
	case "show":
		switch st.args[0].Key {
		case "buffercache":
			return r.actBuffercache, nil
		case "wal":
			return r.actShowWAL, nil
		case "visibility":
			return r.actVisibility, nil
		case "settings":
			return func(context.Context, *step) error { return nil }, nil
		case "io":
			if major < 16 {
				return nil, fmt.Errorf("%s: no SQL translation on PostgreSQL %d: pg_stat_io is new in 16", lineText(st), major)
			}
			r.showsIO = true
			return r.actShowIO, nil
		case "replication":
			return nil, fmt.Errorf("%s: no SQL translation: verify starts no replica, archive or backup", lineText(st))
		case "stat":
			if len(st.args) > 1 {
				switch st.args[1].Key {
				case "tables":
					return r.actShowStatTables, nil
				case "database":
					return r.actShowStatDatabase, nil
				}
			}
			r.showsBg = true
			return r.actShowStatBgwriter, nil
		}
	}
	return nil, fmt.Errorf("%s: no SQL translation for the command %q", lineText(st), st.cmd)
}

func (r *runner) simple(sql func(*step) string) action {
	return func(ctx context.Context, st *step) error {
		return r.session(ctx, func(conn *pgx.Conn) error {
			_, err := conn.Exec(ctx, sql(st))
			return err
		})
	}
}

// actCluster: initdb (--data-checksums when asked), the scenario's settings
// in postgresql.conf, start, the extensions the queries need, then a restart
// so the pool starts empty, as the simulator's does.
func (r *runner) actCluster(st *step) (action, error) {
	checksums, checksumsGiven := false, false
	var conf [][2]string
	v := pg.DefaultVersion // rewrite puts the server's version first
	for _, a := range st.args {
		if a.Key == "version" && len(a.Vals) == 1 {
			if n, err := strconv.Atoi(a.Vals[0]); err == nil {
				v = pg.Version(n)
			}
		}
	}
	for _, a := range st.args {
		if len(a.Vals) == 1 && cluster.WhatIfVariant(v, a.Key, a.Vals[0]) {
			return nil, fmt.Errorf("%s=%s: a what-if variant of the simulator; a PostgreSQL server cannot run it (compare variants with pgbufsim compare)", a.Key, a.Vals[0])
		}
		if a.Key == "host_cpus" && len(a.Vals) == 1 {
			n, _ := strconv.Atoi(a.Vals[0])
			cpus, err := hostcpu.Pin(n)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", lineText(st), err)
			}
			r.srv.CPUs = cpus
		}
		if a.Key == "version" || cluster.Machine(a.Key) {
			continue // the machine is whatever the server runs on (but host_cpus: pinned to that many)
		}
		v := a.Vals[0]
		if a.Key == "data_checksums" {
			checksums, checksumsGiven = v == "on" || v == "true", true
			continue
		}
		if a.Key == "wal_compression" {
			r.walCompression = v
		}
		conf = append(conf, [2]string{a.Key, v})
	}
	if !checksumsGiven {
		checksums = v >= 18 // initdb's default, as the simulator's
	}
	return func(ctx context.Context, st *step) error {
		if err := r.srv.Init(ctx, checksums, conf); err != nil {
			return err
		}
		if err := r.srv.Start(ctx); err != nil {
			return err
		}
		var nb int64
		err := r.session(ctx, func(conn *pgx.Conn) error {
			for _, ext := range []string{"pg_buffercache", "pg_visibility"} {
				if _, err := conn.Exec(ctx, "CREATE EXTENSION "+ext); err != nil {
					return fmt.Errorf("CREATE EXTENSION %s (is postgresql-contrib installed?): %w", ext, err)
				}
			}
			return conn.QueryRow(ctx, "SELECT setting::bigint FROM pg_settings WHERE name = 'shared_buffers'").Scan(&nb)
		})
		if err != nil {
			return err
		}
		r.rep.add(st, "shared_buffers (buffers)", r.nbuf(), nb, exact)
		// No session after this restart: the scenario's first command rebuilds the relcache init file.
		return r.srv.Restart(ctx)
	}, nil
}

// actSet: ALTER SYSTEM + reload, waiting until new sessions see the reloaded file.
func (r *runner) actSet(ctx context.Context, st *step) error {
	for _, a := range st.args {
		if a.Key == "wal_compression" {
			r.walCompression = a.Vals[0]
		}
	}
	var before time.Time
	err := r.session(ctx, func(conn *pgx.Conn) error {
		if err := conn.QueryRow(ctx, "SELECT pg_conf_load_time()").Scan(&before); err != nil {
			return err
		}
		for _, a := range st.args {
			if _, err := conn.Exec(ctx, fmt.Sprintf("ALTER SYSTEM SET %s = '%s'", a.Key, strings.ReplaceAll(a.Vals[0], "'", "''"))); err != nil {
				return err
			}
		}
		_, err := conn.Exec(ctx, "SELECT pg_reload_conf()")
		return err
	})
	if err != nil {
		return err
	}
	for i := 0; i < 100; i++ {
		var t time.Time
		if err := r.session(ctx, func(conn *pgx.Conn) error {
			return conn.QueryRow(ctx, "SELECT pg_conf_load_time()").Scan(&t)
		}); err != nil {
			return err
		}
		if t.After(before) {
			return nil
		}
		if err := sleep(ctx, 50*time.Millisecond); err != nil {
			return err
		}
	}
	return fmt.Errorf("the server did not reload its configuration")
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func insertLSN(ctx context.Context, conn *pgx.Conn) (pg.LSN, error) {
	var s string
	if err := conn.QueryRow(ctx, sqlInsertLSN).Scan(&s); err != nil {
		return 0, err
	}
	return parseLSN(s)
}

func parseLSN(s string) (pg.LSN, error) {
	hi, lo, ok := strings.Cut(s, "/")
	h, err1 := strconv.ParseUint(hi, 16, 32)
	l, err2 := strconv.ParseUint(lo, 16, 32)
	if !ok || err1 != nil || err2 != nil {
		return 0, fmt.Errorf("bad LSN %q", s)
	}
	return pg.LSN(h<<32 | l), nil
}

// settled reads a counter that other processes report a little after they
// act (pg_stat_wal, the checkpointer's buffers written) in this session,
// until two reads 200 ms apart agree.
func settled[T comparable](ctx context.Context, conn *pgx.Conn, read func() (T, error)) (T, error) {
	var prev T
	for i := 0; i < 25; i++ {
		if _, err := conn.Exec(ctx, sqlClearSnapshot); err != nil {
			return prev, err
		}
		v, err := read()
		if err != nil || (i > 0 && v == prev) {
			return v, err
		}
		prev = v
		if err := sleep(ctx, 200*time.Millisecond); err != nil {
			return prev, err
		}
	}
	return prev, nil
}

func walStatsNow(ctx context.Context, conn *pgx.Conn) (walStats, error) {
	return settled(ctx, conn, func() (walStats, error) {
		var w walStats
		err := conn.QueryRow(ctx, sqlStatWAL).
			Scan(&w.records, &w.fpi, &w.bytes, &w.buffersFull)
		return w, err
	})
}

// actRestart: pg_ctl restart -m fast. The shutdown checkpoint's WAL is read
// with pg_waldump (no session after the restart: the next command's session
// must be the one that rebuilds the relcache init file).
func (r *runner) actRestart(ctx context.Context, st *step) error {
	var before pg.LSN
	if err := r.session(ctx, func(conn *pgx.Conn) (err error) { before, err = insertLSN(ctx, conn); return }); err != nil {
		return err
	}
	if err := r.srv.Restart(ctx); err != nil {
		return err
	}
	d, err := r.srv.WALDump(ctx, before, 0)
	if err != nil {
		return err
	}
	r.rep.add(st, "WAL records", st.walAfter.Records-st.walBefore.Records, d.Records, exact)
	r.rep.add(st, "WAL record bytes", st.walAfter.Bytes-st.walBefore.Bytes, d.Bytes, exact)
	return nil
}

// actCheckpoint: CHECKPOINT; buffers written (pg_stat_bgwriter / pg_stat_checkpointer) and its WAL.
func (r *runner) actCheckpoint(ctx context.Context, st *step) error {
	q := sqlCheckpointWritten(r.srv.Major)
	var w0, w1 int64
	var lsn0, lsn1 pg.LSN
	err := r.session(ctx, func(conn *pgx.Conn) (err error) {
		if err = conn.QueryRow(ctx, q).Scan(&w0); err != nil {
			return err
		}
		if lsn0, err = insertLSN(ctx, conn); err != nil {
			return err
		}
		if _, err = conn.Exec(ctx, "CHECKPOINT"); err != nil {
			return err
		}
		if lsn1, err = insertLSN(ctx, conn); err != nil {
			return err
		}
		w1, err = settled(ctx, conn, func() (v int64, err error) { err = conn.QueryRow(ctx, q).Scan(&v); return })
		return err
	})
	if err != nil {
		return err
	}
	// The checkpoint record is flushed, so the WAL in between is on disk to read.
	d, err := r.srv.WALDump(ctx, lsn0, lsn1)
	if err != nil {
		return err
	}
	r.rep.add(st, "buffers written", simInt(st.sim, "shared_written"), w1-w0, r.bufTol(""))
	r.rep.add(st, "WAL records", simInt(st.sim, "wal_records"), d.Records, exact)
	// The records are the same size on both sides; whether they cross a WAL
	// page boundary (a 24-byte page header, 40 at a segment's start) depends
	// on where the WAL stood, which earlier figures match only within their
	// tolerance: the distance less the headers crossed is compared exactly.
	r.rep.add(st, "WAL bytes (LSN distance)", int64(st.lsnAfter-st.lsnBefore), int64(lsn1-lsn0),
		Tol{Info: true, Why: "includes the WAL page headers crossed"})
	r.rep.add(st, "WAL bytes less page headers", walPayload(st.lsnBefore, st.lsnAfter), walPayload(lsn0, lsn1), exact)
	return nil
}

// walPayload is the WAL between two insert positions less the page headers in between.
func walPayload(start, end pg.LSN) int64 { return wal.Payload(start, end) }

// actInsert: EXPLAIN (ANALYZE, BUFFERS, WAL) INSERT … SELECT generate_series.
func (r *runner) actInsert(ctx context.Context, st *step) error {
	t := r.tables[st.args[0].Key]
	n := t.declared
	for _, a := range st.args[1:] {
		if a.Key == "rows" {
			n, _ = strconv.ParseInt(a.Vals[0], 10, 64)
		}
	}
	sql := sqlInsert(t.name, strings.Join(t.exprs, ", "), t.next, t.next+n-1)
	t.next += n
	var pages int64
	if err := r.explain(ctx, st, sql, func(conn *pgx.Conn) error {
		return conn.QueryRow(ctx, sqlRelationPages(t.name)).Scan(&pages)
	}); err != nil {
		return err
	}
	r.rep.add(st, "relation pages", st.pages, pages, exact)
	return r.keyedPages(ctx, st)
}

// walBytesTol is the tolerance on a statement's WAL bytes: 1%, or 3% when
// images are compressed (Go implementations of lz4 and zstd find slightly
// different matches than liblz4 and libzstd).
func (r *runner) walBytesTol() Tol {
	if r.walCompression != "" && r.walCompression != "off" {
		return Tol{Pct: 3, Why: "images compressed from the modelled page bytes, by Go implementations of " + r.walCompression}
	}
	return Tol{Pct: 1}
}

// actBegin opens the block's session.
func (r *runner) actBegin(ctx context.Context, st *step) error {
	conn, err := r.srv.Connect(ctx)
	if err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, "BEGIN"); err != nil {
		conn.Close(context.Background())
		return err
	}
	r.txConn = conn
	return nil
}

// actCommit commits and ends the block's session as any session ends.
func (r *runner) actCommit(ctx context.Context, st *step) error {
	conn := r.txConn
	r.txConn = nil
	defer conn.Close(context.Background())
	for _, q := range append([]string{"COMMIT"}, sessionEnd...) {
		if _, err := conn.Exec(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// actCopy: COPY … FROM STDIN [(FREEZE)] in text format. COPY has no EXPLAIN;
// outside a block the commit flushes its WAL, and pg_waldump counts the
// records that touch the table (its heap, FSM and VM: the statement's own,
// without the session's catalog traffic), as the simulator's statement
// counters do; inside one, only the LSN distance is compared.
func (r *runner) actCopy(ctx context.Context, st *step) error {
	t := r.tables[st.args[0].Key]
	n, freeze := t.declared, false
	for _, a := range st.args[1:] {
		switch a.Key {
		case "rows":
			n, _ = strconv.ParseInt(a.Vals[0], 10, 64)
		case "freeze":
			freeze = true
		}
	}
	from := t.next
	t.next += n
	inBlock := r.txConn != nil
	var lsn0, lsn1 pg.LSN
	var pages int64
	var filenode uint32
	err := r.session(ctx, func(conn *pgx.Conn) (err error) {
		if lsn0, err = insertLSN(ctx, conn); err != nil {
			return err
		}
		if _, err = conn.PgConn().CopyFrom(ctx, t.copyData(from, from+n-1), sqlCopy(t.name, freeze)); err != nil {
			return err
		}
		if lsn1, err = insertLSN(ctx, conn); err != nil {
			return err
		}
		if err = conn.QueryRow(ctx, sqlRelationPages(t.name)).Scan(&pages); err != nil {
			return err
		}
		return conn.QueryRow(ctx, "SELECT pg_relation_filenode('"+t.name+"')").Scan(&filenode)
	})
	if err != nil {
		return err
	}
	// From 16 on COPY extends the table by several pages at a time
	// (RelationAddBlocks in hio.c, with the BulkInsertState: as many as the
	// batch needs, then as many as it extended by before, up to 64 and the
	// backend's share of pins), and the last extension's pages that no tuple
	// reached stay empty; the simulator models it (internal/engine/bulkext),
	// so the table's pages and its records are judged exactly on every version.
	pagesTol, recTol := exact, exact
	r.rep.add(st, "relation pages", st.pages, pages, pagesTol)
	if !inBlock {
		d, err := r.walOnTable(ctx, st, lsn0, lsn1, filenode)
		if err != nil {
			return err
		}
		r.rep.add(st, "WAL records on the table", simInt(st.sim, "wal_records"), d.Records, recTol)
		r.rep.add(st, "WAL fpi on the table", simInt(st.sim, "wal_fpi"), d.FPI, recTol)
		r.rep.add(st, "WAL bytes on the table", simInt(st.sim, "wal_bytes"), d.Bytes, r.walBytesTol())
	}
	r.rep.add(st, "WAL bytes (LSN distance)", int64(st.lsnAfter-st.lsnBefore), int64(lsn1-lsn0), Tol{Pct: 1})
	return r.keyedPages(ctx, st)
}

// actScan: EXPLAIN (ANALYZE, BUFFERS, WAL) SELECT count(*).
func (r *runner) actScan(ctx context.Context, st *step) error {
	if simInt(st.sim, "ring_rejected") > 0 {
		r.rejected[st.args[0].Key] = true
	}
	return r.explain(ctx, st, sqlScan(st.args[0].Key), nil)
}

// explain runs a statement under EXPLAIN (ANALYZE, BUFFERS, WAL, FORMAT JSON)
// and compares its counters; parallel workers' counters are included in the
// top node, as EXPLAIN reports them.
func (r *runner) explain(ctx context.Context, st *step, sql string, after func(*pgx.Conn) error) error {
	var raw []byte
	err := r.session(ctx, func(conn *pgx.Conn) error {
		if err := conn.QueryRow(ctx, sql).Scan(&raw); err != nil {
			return err
		}
		if after != nil {
			return after(conn)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if r.planDir != "" {
		if err := r.savePlan(ctx, st, raw); err != nil {
			return err
		}
	}
	return r.compareExplain(st, raw)
}

// compareExplain compares EXPLAIN (ANALYZE, BUFFERS, WAL, FORMAT JSON)'s
// counters of the top plan node with the simulator's.
func (r *runner) compareExplain(st *step, raw []byte) error {
	var doc []struct {
		Plan          map[string]any `json:"Plan"`
		ExecutionTime float64        `json:"Execution Time"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil || len(doc) == 0 {
		return fmt.Errorf("cannot read EXPLAIN's JSON: %v", err)
	}
	p := doc[0].Plan
	simMs, _ := st.sim.(map[string]any)["time_ms"].(float64)
	r.rep.add(st, ExecutionTimeFigure, int64(math.Round(simMs*1000)), int64(math.Round(doc[0].ExecutionTime*1000)),
		Tol{Info: true, Why: "the host's speed: host_time_scale, pgbufsim host-scale"})
	num := func(k string) int64 { f, _ := p[k].(float64); return int64(f) }
	bt := r.bufTol("")
	r.rep.add(st, "shared hit", simInt(st.sim, "shared_hit"), num("Shared Hit Blocks"), bt)
	r.rep.add(st, "shared read", simInt(st.sim, "shared_read"), num("Shared Read Blocks"), bt)
	r.rep.add(st, "shared dirtied", simInt(st.sim, "shared_dirtied"), num("Shared Dirtied Blocks"), bt)
	r.rep.add(st, "shared written", simInt(st.sim, "shared_written"), num("Shared Written Blocks"), bt)
	r.rep.add(st, "WAL records", simInt(st.sim, "wal_records"), num("WAL Records"), exact)
	r.rep.add(st, "WAL fpi", simInt(st.sim, "wal_fpi"), num("WAL FPI"), exact)
	r.rep.add(st, "WAL bytes", simInt(st.sim, "wal_bytes"), num("WAL Bytes"), r.walBytesTol())
	if w, ok := workersLaunched(p); ok {
		r.rep.add(st, "workers launched", simInt(st.sim, "workers"), w, exact)
	}
	return nil
}

// ExecutionTimeFigure is the figure of EXPLAIN's Execution Time, in µs.
const ExecutionTimeFigure = "execution time (µs)"

func workersLaunched(p map[string]any) (int64, bool) {
	if w, ok := p["Workers Launched"].(float64); ok {
		return int64(w), true
	}
	kids, _ := p["Plans"].([]any)
	for _, k := range kids {
		if km, ok := k.(map[string]any); ok {
			if w, ok := workersLaunched(km); ok {
				return w, true
			}
		}
	}
	return 0, false
}

var (
	reVacBuf = regexp.MustCompile(`buffer usage: (\d+) hits, (\d+) (?:misses|reads), (\d+) dirtied`)
	reVacWAL = regexp.MustCompile(`WAL usage: (\d+) records, (\d+) full page images, (\d+) bytes`)
)

// actVacuum: VACUUM (VERBOSE) reports its buffer and WAL usage in its INFO message.
func (r *runner) actVacuum(ctx context.Context, st *step) error {
	opts := "VERBOSE"
	for _, a := range st.args[1:] {
		if a.Key == "freeze" {
			opts += ", FREEZE"
		}
	}
	r.notices = r.notices[:0]
	if err := r.session(ctx, func(conn *pgx.Conn) error {
		_, err := conn.Exec(ctx, sqlVacuum(st.args[0].Key, opts))
		return err
	}); err != nil {
		return err
	}
	all := strings.Join(r.notices, "\n")
	b := reVacBuf.FindStringSubmatch(all)
	w := reVacWAL.FindStringSubmatch(all)
	if b == nil || w == nil {
		return fmt.Errorf("VACUUM VERBOSE printed no buffer/WAL usage:\n%s", all)
	}
	n := func(s string) int64 { v, _ := strconv.ParseInt(s, 10, 64); return v }
	bt := r.bufTol("")
	r.rep.add(st, "buffer hits", simInt(st.sim, "shared_hit"), n(b[1]), bt)
	r.rep.add(st, "buffer reads", simInt(st.sim, "shared_read"), n(b[2]), bt)
	r.rep.add(st, "buffers dirtied", simInt(st.sim, "shared_dirtied"), n(b[3]), bt)
	r.rep.add(st, "WAL records", simInt(st.sim, "wal_records"), n(w[1]), exact)
	r.rep.add(st, "WAL fpi", simInt(st.sim, "wal_fpi"), n(w[2]), exact)
	r.rep.add(st, "WAL bytes", simInt(st.sim, "wal_bytes"), n(w[3]), r.walBytesTol())
	return nil
}

var reAnalyze = regexp.MustCompile(`scanned (\d+) of (\d+) pages`)

// actAnalyze: ANALYZE (VERBOSE) reports how many pages it sampled; its WAL
// is the LSN distance (the pg_statistic rows included).
func (r *runner) actAnalyze(ctx context.Context, st *step) error {
	var lsn0, lsn1 pg.LSN
	r.notices = r.notices[:0]
	err := r.session(ctx, func(conn *pgx.Conn) (err error) {
		if lsn0, err = insertLSN(ctx, conn); err != nil {
			return err
		}
		if _, err = conn.Exec(ctx, "ANALYZE (VERBOSE) "+st.args[0].Key); err != nil {
			return err
		}
		lsn1, err = insertLSN(ctx, conn)
		return err
	})
	if err != nil {
		return err
	}
	msgs := r.notices
	m := reAnalyze.FindStringSubmatch(strings.Join(msgs, "\n"))
	if m == nil {
		return fmt.Errorf("ANALYZE VERBOSE printed no page count:\n%s", strings.Join(msgs, "\n"))
	}
	n := func(s string) int64 { v, _ := strconv.ParseInt(s, 10, 64); return v }
	simScanned, simTotal := int64(-1), int64(-1)
	if res, ok := st.sim.(map[string]any); ok {
		simScanned, simTotal = simInt(res, "scanned_pages"), simInt(res, "rel_pages")
	}
	r.rep.add(st, "pages sampled", simScanned, n(m[1]), exact)
	r.rep.add(st, "pages in the table", simTotal, n(m[2]), exact)
	// The rows are modelled (update_attstats). What is left: the WAL page
	// headers the distance crosses (24 bytes each, 40 at a segment's
	// start), which fall elsewhere when the server's positions differ by a
	// few bytes; and the server's random sample when the table has more
	// rows than 300 × default_statistics_target, whose new histogram shares
	// a few bytes of its first and last bounds with the last one by chance
	// (log_heap_update leaves a common prefix and suffix out of a HOT
	// update's record).
	tol := r.walBytesTol()
	tol.Abs, tol.Why = 64, strings.TrimPrefix(tol.Why+"; ", "; ")+"the WAL page headers crossed; a larger table's random sample: the bytes a repeat ANALYZE's histogram shares with the last one's"
	r.rep.add(st, "WAL bytes (LSN distance)", int64(st.lsnAfter-st.lsnBefore), int64(lsn1-lsn0), tol)
	return nil
}

// actIndex: CREATE INDEX NAME ON TABLE (id); the index's size, and the WAL.
func (r *runner) actIndex(ctx context.Context, st *step) error {
	var on string
	for _, a := range st.args[1:] {
		if a.Key == "on" {
			on = a.Vals[0]
		}
	}
	name := st.args[0].Key
	r.indexes[name] = on
	var lsn0, lsn1 pg.LSN
	var pages int64
	err := r.session(ctx, func(conn *pgx.Conn) (err error) {
		if lsn0, err = insertLSN(ctx, conn); err != nil {
			return err
		}
		col, unique := "id", ""
		if c, ok := r.keyCols[name]; ok {
			col, unique = c[0], c[1]
		}
		if _, err = conn.Exec(ctx, fmt.Sprintf("CREATE %sINDEX %s ON %s (%s)", unique, name, on, col)); err != nil {
			return err
		}
		if lsn1, err = insertLSN(ctx, conn); err != nil {
			return err
		}
		return conn.QueryRow(ctx, sqlRelationPages(name)).Scan(&pages)
	})
	if err != nil {
		return err
	}
	r.rep.add(st, "index pages", simInt(st.sim, "index_pages"), pages, exact)
	r.rep.add(st, "WAL bytes (LSN distance)", int64(st.lsnAfter-st.lsnBefore), int64(lsn1-lsn0),
		Tol{Abs: 16384, Pct: 1, Why: "a primary key's pg_constraint rows, a catalog index leaf's split and pg_index's hint images are not modelled"})
	return nil
}

// actIndexScan: an Index Scan forced by the planner settings, under EXPLAIN.
func (r *runner) actIndexScan(ctx context.Context, st *step) error {
	// The range as the simulator parsed it.
	from, to := simInt(st.sim, "from"), simInt(st.sim, "to")
	on := r.indexes[st.args[0].Key]
	sql := sqlExplain(fmt.Sprintf("SELECT count(*) FROM %s WHERE id BETWEEN %d AND %d", on, from, to))
	var raw []byte
	err := r.session(ctx, func(conn *pgx.Conn) error {
		for _, q := range []string{"SET enable_seqscan = off", "SET enable_bitmapscan = off", "SET enable_indexonlyscan = off"} {
			if _, err := conn.Exec(ctx, q); err != nil {
				return err
			}
		}
		if err := conn.QueryRow(ctx, sql).Scan(&raw); err != nil {
			return err
		}
		// Inside begin … commit the session goes on: later scans must be planned as usual.
		_, err := conn.Exec(ctx, "RESET enable_seqscan; RESET enable_bitmapscan; RESET enable_indexonlyscan")
		return err
	})
	if err != nil {
		return err
	}
	if r.planDir != "" {
		if err := r.savePlan(ctx, st, raw); err != nil {
			return err
		}
	}
	return r.compareExplain(st, raw)
}

// actMark remembers the insert LSN and pg_stat_wal.
func (r *runner) actMark(ctx context.Context, st *step) error {
	var m realMark
	err := r.session(ctx, func(conn *pgx.Conn) (err error) {
		m, err = r.markNow(ctx, conn)
		return err
	})
	r.marks[st.args[0].Key] = m
	if r.simMarks == nil {
		r.simMarks = map[string]bufmgr.IOStats{}
	}
	r.simMarks[st.args[0].Key] = st.io
	return err
}

// markNow is what a mark (and show wal) reads: pg_stat_wal and the insert
// LSN — the "session" the catalog profile measures — and, only in a
// scenario that shows pg_stat_io (16+), pg_stat_io, whose catalog lookups
// the profile does not include (so other scenarios' sessions are exactly
// the profiled ones).
func (r *runner) markNow(ctx context.Context, conn *pgx.Conn) (m realMark, err error) {
	if m.wal, err = walStatsNow(ctx, conn); err != nil {
		return m, err
	}
	if m.lsn, err = insertLSN(ctx, conn); err != nil {
		return m, err
	}
	if r.showsIO {
		m.io, err = statIONow(ctx, conn, r.srv.Major)
	}
	if r.showsBg && err == nil {
		// The checkpointer reports its counters after a checkpoint ends, a
		// moment after CHECKPOINT's waiter is woken: read until they settle.
		m.bg, err = settled(ctx, conn, func() (b bgStats, err error) {
			err = conn.QueryRow(ctx, sqlStatBgwriter(r.srv.Major)).Scan(&b.timed, &b.requested, &b.ckptWritten, &b.clean, &b.maxWritten, &b.alloc)
			return b, err
		})
	}
	return m, err
}

// actShowWAL compares WAL since a mark: pg_stat_wal differences and the LSN distance.
func (r *runner) actShowWAL(ctx context.Context, st *step) error {
	var since string
	for _, a := range st.args[1:] {
		if a.Key == "since" {
			since = a.Vals[0]
		}
	}
	m, ok := r.marks[since]
	if !ok {
		r.rep.Notes = append(r.rep.Notes, fmt.Sprintf("line %d: show wal without since=MARK is not compared (the server's counters include initdb)", st.line))
		return r.session(ctx, func(*pgx.Conn) error { return nil })
	}
	var now realMark
	err := r.session(ctx, func(conn *pgx.Conn) (err error) {
		now, err = r.markNow(ctx, conn)
		return err
	})
	if err != nil {
		return err
	}
	w, lsn := now.wal, now.lsn
	// pg_stat_wal counts parallel workers' WAL twice (the simulator's stat_*
	// figures do too), so it follows how the pages split between leader and
	// workers: a matter of timing. Each statement's own WAL is compared exactly
	// with EXPLAIN's, and the whole with the LSN distance.
	split := Tol{Info: true, Why: "leader/worker split"}
	r.rep.add(st, "pg_stat_wal wal_records", simInt(st.sim, "stat_records"), w.records-m.wal.records, split)
	r.rep.add(st, "pg_stat_wal wal_fpi", simInt(st.sim, "stat_fpi"), w.fpi-m.wal.fpi, split)
	distTol := Tol{Abs: 16384, Pct: 1, Why: "catalog page images (their holes) and catalog pruning after DDL are approximated; the server's standby snapshots fall on its own 15 s phase"}
	if c := r.walBytesTol(); c.Pct > distTol.Pct {
		// The statements' compressed images are within their own 3%; so is their sum.
		distTol.Pct, distTol.Why = c.Pct, distTol.Why+"; "+c.Why
	}
	r.rep.add(st, "WAL bytes (LSN distance)", simInt(st.sim, "bytes"), int64(lsn-m.lsn), distTol)
	r.rep.add(st, "wal_buffers_full", simInt(st.sim, "buffers_full"), w.buffersFull-m.wal.buffersFull, Tol{Info: true, Why: "WAL writer timing"})
	return nil
}

// actShowStatBgwriter compares the background processes' counters since a
// mark: checkpoints started by time and by request exactly (the
// checkpointer's schedule and XLogCheckpointNeeded are the mechanism), the
// buffers checkpoints wrote within the buffer tolerance; the background
// writer's and buffers_alloc are shown (they follow the timing of its rounds
// and every session's catalog lookups).
func (r *runner) actShowStatBgwriter(ctx context.Context, st *step) error {
	var since string
	for _, a := range st.args[2:] {
		if a.Key == "since" {
			since = a.Vals[0]
		}
	}
	m, ok := r.marks[since]
	if !ok {
		r.rep.Notes = append(r.rep.Notes, fmt.Sprintf("line %d: show stat bgwriter without since=MARK is not compared (the server's counters include initdb's start)", st.line))
		return r.session(ctx, func(*pgx.Conn) error { return nil })
	}
	var now realMark
	err := r.session(ctx, func(conn *pgx.Conn) (err error) {
		now, err = r.markNow(ctx, conn)
		return err
	})
	if err != nil {
		return err
	}
	b, a := now.bg, m.bg
	r.rep.add(st, "checkpoints_timed", simInt(st.sim, "checkpoints_timed"), b.timed-a.timed, exact)
	r.rep.add(st, "checkpoints_req", simInt(st.sim, "checkpoints_req"), b.requested-a.requested, exact)
	r.rep.add(st, "buffers_checkpoint", simInt(st.sim, "buffers_checkpoint"), b.ckptWritten-a.ckptWritten,
		Tol{Abs: max(r.nbuf()/10, 1), Why: "which listed buffers a checkpoint under a load reaches before the backends evict them follows the timing of its naps"})
	r.rep.add(st, "buffers_clean", simInt(st.sim, "buffers_clean"), b.clean-a.clean, Tol{Info: true, Why: "the background writer's rounds follow its timing"})
	r.rep.add(st, "buffers_alloc", simInt(st.sim, "buffers_alloc"), b.alloc-a.alloc, Tol{Info: true, Why: "every process's allocations, catalog lookups included"})
	return nil
}

// actVisibility: pg_visibility_map_summary().
func (r *runner) actVisibility(ctx context.Context, st *step) error {
	var av, af int64
	err := r.session(ctx, func(conn *pgx.Conn) error {
		return conn.QueryRow(ctx, fmt.Sprintf("SELECT all_visible, all_frozen FROM pg_visibility_map_summary('%s')", st.args[1].Key)).Scan(&av, &af)
	})
	if err != nil {
		return err
	}
	r.rep.add(st, "all-visible pages", simInt(st.sim, "all_visible"), av, exact)
	r.rep.add(st, "all-frozen pages", simInt(st.sim, "all_frozen"), af, exact)
	return nil
}

// actBuffercache: pg_buffercache grouped like the simulator's table: the
// scenario's relations, everything else as (other), and unused buffers.
func (r *runner) actBuffercache(ctx context.Context, st *step) error {
	want := map[string]bool{}
	for _, a := range st.args[1:] {
		want[a.Key] = true
	}
	type agg struct {
		buffers, dirty int64
		usage          [6]int64
	}
	byName := map[string]*agg{}
	var unused int64
	err := r.session(ctx, func(conn *pgx.Conn) error {
		var db uint32
		if err := conn.QueryRow(ctx, sqlDatabaseOID).Scan(&db); err != nil {
			return err
		}
		filenode := map[uint32]string{}
		queries := []string{sqlUserTables}
		if len(r.indexes) > 0 {
			queries = append(queries, sqlUserIndexes)
		}
		for _, q := range queries {
			rows, err := conn.Query(ctx, q)
			if err != nil {
				return err
			}
			var name string
			var fn uint32
			if _, err := pgx.ForEachRow(rows, []any{&name, &fn}, func() error { filenode[fn] = name; return nil }); err != nil {
				return err
			}
		}
		rows, err := conn.Query(ctx, sqlBuffers)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var fn, rdb *uint32
			var fork *int16
			var dirty *bool
			var usage *int16
			if err := rows.Scan(&fn, &rdb, &fork, &dirty, &usage); err != nil {
				return err
			}
			if fn == nil {
				unused++
				continue
			}
			name := "(other)"
			if n, ok := filenode[*fn]; ok && rdb != nil && *rdb == db && (r.tables[n] != nil || r.indexes[n] != "") {
				name = n
				if fork != nil && *fork == 1 {
					name += "/fsm"
				} else if fork != nil && *fork == 2 {
					name += "/vm"
				}
			}
			a := byName[name]
			if a == nil {
				a = &agg{}
				byName[name] = a
			}
			a.buffers++
			if dirty != nil && *dirty {
				a.dirty++
			}
			if usage != nil && *usage >= 0 && *usage <= 5 {
				a.usage[*usage]++
			}
		}
		return rows.Err()
	})
	if err != nil {
		return err
	}
	m, _ := st.sim.(map[string]any)
	rels, _ := m["relations"].([]map[string]any)
	bt := r.bufTol("")
	dt := r.bufTol("")
	for _, rel := range rels {
		name, _ := rel["name"].(string)
		a := byName[name]
		if a == nil {
			a = &agg{}
		}
		r.rep.add(st, name+" buffers", simInt(rel, "buffers"), a.buffers, bt)
		r.rep.add(st, name+" dirty", simInt(rel, "dirty"), a.dirty, dt)
		ut := bt
		if r.rejected[name] {
			// Which buffers the clock hand passed (usage 1 → 0) follows where
			// the ring gave up slots, which follows when the WAL writer flushed.
			ut = Tol{Abs: max(r.nbuf()/20, 1), Why: "usage 0/1 split follows WAL-writer timing once a ring rejects buffers"}
		}
		usage, _ := rel["usage"].([]int)
		for u := 0; u < 6 && u < len(usage); u++ {
			r.rep.add(st, fmt.Sprintf("%s usage %d", name, u), int64(usage[u]), a.usage[u], ut)
		}
	}
	if len(want) == 0 {
		r.rep.add(st, "(unused)", simInt(m, "unused"), unused, bt)
	}
	return nil
}

// savePlan keeps a plan, the buffer cache after it and (once) the settings
// for diagnose's corpus (Options.PlanDir).
func (r *runner) savePlan(ctx context.Context, st *step, raw []byte) error {
	base := strings.TrimSuffix(filepath.Base(r.name), filepath.Ext(r.name))
	stem := filepath.Join(r.planDir, fmt.Sprintf("%s-L%d-%s", base, st.line, st.cmd))
	if err := os.MkdirAll(r.planDir, 0o755); err != nil {
		return err
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, raw, "", "  "); err != nil {
		return err
	}
	pretty.WriteByte('\n')
	if err := os.WriteFile(stem+".json", pretty.Bytes(), 0o644); err != nil {
		return err
	}
	csvOf := func(path, sql string) error {
		return r.session(ctx, func(conn *pgx.Conn) error {
			rows, err := conn.Query(ctx, sql)
			if err != nil {
				return err
			}
			defer rows.Close()
			var b bytes.Buffer
			w := csv.NewWriter(&b)
			var head []string
			for _, fd := range rows.FieldDescriptions() {
				head = append(head, fd.Name)
			}
			w.Write(head)
			for rows.Next() {
				vals, err := rows.Values()
				if err != nil {
					return err
				}
				rec := make([]string, len(vals))
				for i, v := range vals {
					switch x := v.(type) {
					case nil:
					case bool:
						rec[i] = map[bool]string{true: "t", false: "f"}[x]
					default:
						// The throwaway cluster's own paths (data_directory,
						// config_file, the socket) mean nothing elsewhere.
						rec[i] = fmt.Sprint(x)
						if strings.Contains(rec[i], r.srv.Root) {
							rec[i] = "<path>"
						}
					}
				}
				w.Write(rec)
			}
			if err := rows.Err(); err != nil {
				return err
			}
			w.Flush()
			return os.WriteFile(path, b.Bytes(), 0o644)
		})
	}
	if !r.settingsSaved {
		if err := csvOf(filepath.Join(r.planDir, base+"-settings.csv"), sqlSettingsExport); err != nil {
			return err
		}
		r.settingsSaved = true
	}
	return csvOf(stem+".buffercache.csv", sqlBuffercacheExport)
}
