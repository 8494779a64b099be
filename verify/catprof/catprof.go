// Package catprof measures the catalog pages each kind of session pins on a
// real server (`pgbufsim catalog-profile`) and writes them as package
// catalog's tables.
package catprof

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/pgbufsim/pgbufsim/pgbench"
	"github.com/pgbufsim/pgbufsim/verify"
)

// Catalog buffers are not a buffer-manager mechanism but the workload's
// input: which system-catalog pages a new session and each kind of statement
// pin, and how often. MeasureCatalog reads that off a real server: the
// statements run in a database "work", each in a fresh session after a
// restart and one warm-up session (which rebuilds the relcache init file), and
// the pool is read from the database "postgres", whose own catalogs are other
// relations, so the reading session's pins do not mask the measured ones
// (only on the few shared catalogs). A page's usage count — one per pin, up
// to 5 — less the same run without the statement is the statement's pins.

// pgbenchTables creates pgbench's tables at scale 1 in the profile's
// database as pgbench -i would (rows by INSERT instead of COPY: the catalog
// rows are the same), for the pgbench kinds.
func pgbenchTables(major int) ([]string, error) {
	steps, err := pgbench.Init(major, 1, 100)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, st := range steps {
		switch st.Kind {
		case pgbench.CreateTable, pgbench.VacuumAnalyze, pgbench.PrimaryKey, pgbench.Insert:
			out = append(out, st.SQL)
		case pgbench.Copy:
			switch st.Table {
			case "pgbench_branches":
				out = append(out, "insert into pgbench_branches(bid,bbalance) values(1,0)")
			case "pgbench_tellers":
				out = append(out, "insert into pgbench_tellers(tid,bid,tbalance) select g, 1, 0 from generate_series(1, 10) g")
			case "pgbench_accounts":
				out = append(out, "insert into pgbench_accounts(aid,bid,abalance,filler) select g, 1, 0, '' from generate_series(1, 100000) g")
			}
		}
	}
	return out, nil
}

// CatalogProfile is, per statement kind, the pins on each catalog page (index
// into Pages), as a session running that statement makes them.
type CatalogProfile struct {
	Server string
	Pages  []string          // relfilenode/fork/block, in a stable order
	Kinds  map[string][]int8 // kind → pins per page
	Masked int               // pages the warm-up session alone took to usage 5 (pins on them are not seen)
	// VacuumWindowHits is what VACUUM VERBOSE counts as buffer hits for an
	// empty table without TOAST: catalog pins inside the instrumented window.
	VacuumWindowHits int
	// VacuumIndexWindowHits is the catalog pins inside that window an index
	// of the table adds (beyond the index's own pages).
	VacuumIndexWindowHits int
	// VacuumNextIndexWindowHits is the same for each further btree.
	VacuumNextIndexWindowHits int
	// TableGrowthPages is how many more catalog pages each further CREATE
	// TABLE dirties (its rows and index entries land on new pages).
	TableGrowthPages int
	// IndexInsertHits is the catalog pins of a session's first index insertion.
	IndexInsertHits int
}

// MeasureCatalog builds a fresh cluster and measures the profile (of every
// kind but those in skip).
func MeasureCatalog(ctx context.Context, bin string, skip map[string]bool) (prof *CatalogProfile, err error) {
	srv, err := profileServer(ctx, bin, false)
	if err != nil {
		return nil, err
	}
	defer func() {
		if cerr := srv.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	// exec runs one session, ended as verify ends its sessions.
	exec := func(db string, sql ...string) error {
		conn, err := pgx.Connect(ctx, srv.ConnString()+" dbname="+db)
		if err != nil {
			return err
		}
		defer conn.Close(context.Background())
		return runSession(ctx, conn, sql)
	}
	if err := exec("postgres", "CREATE EXTENSION pg_buffercache", "CREATE DATABASE work"); err != nil {
		return nil, err
	}
	if err := exec("work", "CREATE EXTENSION pg_buffercache", "CREATE EXTENSION pg_visibility",
		"CREATE TABLE t (id int4, pad text) WITH (autovacuum_enabled = off)", "ALTER TABLE t ALTER COLUMN pad SET STORAGE PLAIN",
		"INSERT INTO t SELECT g, repeat('x', 1800) FROM generate_series(1, 4000) g"); err != nil {
		return nil, err
	}
	bench, err := pgbenchTables(srv.Major)
	if err != nil {
		return nil, err
	}
	if err := exec("work", bench...); err != nil {
		return nil, err
	}
	// Flood tables: 8 of 400 pages, each under NBuffers/4 so scans use no ring.
	var flood []string
	for i := 1; i <= 8; i++ {
		flood = append(flood, fmt.Sprintf("CREATE TABLE f%d (id int4, pad text) WITH (autovacuum_enabled = off)", i),
			fmt.Sprintf("ALTER TABLE f%d ALTER COLUMN pad SET STORAGE PLAIN", i),
			fmt.Sprintf("INSERT INTO f%d SELECT g, repeat('x', 1800) FROM generate_series(1, 1600) g", i))
	}
	if err := exec("work", flood...); err != nil {
		return nil, err
	}
	// One session scanning them in turn, four times: 12,800 allocations, about
	// six passes of the clock over 2,048 buffers, so every catalog page the
	// warm-up session pinned is evicted and the statement's pins show as
	// they are (the session's own catalog pins at its start are evicted too).
	flood = flood[:0]
	for round := 0; round < 4; round++ {
		for i := 1; i <= 8; i++ {
			flood = append(flood, fmt.Sprintf("SELECT count(*) FROM f%d", i))
		}
	}
	// An empty table of the usual shape, vacuumed in a fresh session as
	// verify does: its VACUUM VERBOSE hits are the catalog pins inside
	// VACUUM's instrumented window.
	var vacHits int
	{
		var msgs []string
		cfg, err := pgx.ParseConfig(srv.ConnString() + " dbname=work")
		if err != nil {
			return nil, err
		}
		cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { msgs = append(msgs, n.Message+"\n"+n.Detail) }
		conn, err := pgx.ConnectConfig(ctx, cfg)
		if err != nil {
			return nil, err
		}
		if err := exec("work", "CREATE TABLE e (id int4, pad text) WITH (autovacuum_enabled = off)"); err != nil {
			return nil, err
		}
		if _, err := conn.Exec(ctx, verify.SQLVacuumVerbose("e")); err != nil {
			conn.Close(context.Background())
			return nil, err
		}
		conn.Close(context.Background())
		var ok bool
		if vacHits, ok = verify.VacuumVerboseHits(strings.Join(msgs, "\n")); !ok {
			return nil, fmt.Errorf("VACUUM VERBOSE printed no buffer usage")
		}
	}
	// The same for an empty table with one btree, less the table's own and
	// less the two metapage pins of the index's cleanup (the model makes
	// them itself): the catalog pins an index adds inside VACUUM's window
	// (vac_open_indexes building its relcache entry in a fresh session,
	// the index's statistics looked up).
	var vacIdxHits, vacIdx2Hits int
	{
		if err := exec("work", "CREATE TABLE ei (id int4, pad text) WITH (autovacuum_enabled = off)", "CREATE INDEX ei_id ON ei (id)"); err != nil {
			return nil, err
		}
		with, err := vacuumVerboseHits(ctx, srv, "ei")
		if err != nil {
			return nil, err
		}
		without, err := vacuumVerboseHits(ctx, srv, "e")
		if err != nil {
			return nil, err
		}
		vacIdxHits = with - without - 2
		// A second index on the same column: its relcache entry finds the
		// access method, operator class and support functions cached.
		if err := exec("work", "CREATE TABLE ei2 (id int4, pad text) WITH (autovacuum_enabled = off)", "CREATE INDEX ei2_a ON ei2 (id)", "CREATE INDEX ei2_b ON ei2 (id)"); err != nil {
			return nil, err
		}
		two, err := vacuumVerboseHits(ctx, srv, "ei2")
		if err != nil {
			return nil, err
		}
		vacIdx2Hits = two - with - 2
	}
	// The catalog pins the first index insertion of a session makes inside
	// the statement (the btree's support functions looked up): EXPLAIN's hits
	// for a one-row INSERT into an indexed table, less the same without the
	// index, less the index's own two pins (metapage and root leaf).
	var idxHits int
	{
		hits := func(table string) (int, error) {
			conn, err := pgx.Connect(ctx, srv.ConnString()+" dbname=work")
			if err != nil {
				return 0, err
			}
			defer conn.Close(context.Background())
			var raw []byte
			if err := conn.QueryRow(ctx, verify.SQLInsertExplain(table, "g, 'x'", 2, 2)).Scan(&raw); err != nil {
				return 0, err
			}
			var doc []struct {
				Plan map[string]any `json:"Plan"`
			}
			if err := json.Unmarshal(raw, &doc); err != nil || len(doc) == 0 {
				return 0, fmt.Errorf("EXPLAIN JSON: %v", err)
			}
			h, _ := doc[0].Plan["Shared Hit Blocks"].(float64)
			r, _ := doc[0].Plan["Shared Read Blocks"].(float64)
			return int(h + r), nil
		}
		if err := exec("work", "CREATE TABLE ni (id int4, pad text)", "CREATE TABLE wi (id int4, pad text)",
			"CREATE INDEX wi_id ON wi (id)", "INSERT INTO ni VALUES (1, 'x')", "INSERT INTO wi VALUES (1, 'x')"); err != nil {
			return nil, err
		}
		without, err := hits("ni")
		if err != nil {
			return nil, err
		}
		with, err := hits("wi")
		if err != nil {
			return nil, err
		}
		idxHits = with - without - 2
	}
	// Dirty catalog pages after one CREATE TABLE and after six, from a clean pool.
	var growth int
	{
		if err := srv.Restart(ctx); err != nil {
			return nil, err
		}
		dirtyNow := func() (int, error) {
			conn, err := srv.Connect(ctx)
			if err != nil {
				return 0, err
			}
			defer conn.Close(context.Background())
			var n int
			err = conn.QueryRow(ctx, "SELECT count(*) FROM pg_buffercache b JOIN pg_database d ON d.oid = b.reldatabase WHERE d.datname = 'work' AND b.isdirty").Scan(&n)
			return n, err
		}
		var one, six int
		for i := 1; i <= 6; i++ {
			if err := exec("work", fmt.Sprintf("CREATE TABLE g%d (id int4, pad text) WITH (autovacuum_enabled=off)", i), fmt.Sprintf("ALTER TABLE g%d ALTER COLUMN pad SET STORAGE PLAIN", i)); err != nil {
				return nil, err
			}
			n, err := dirtyNow()
			if err != nil {
				return nil, err
			}
			if i == 1 {
				one = n
			}
			six = n
		}
		growth = (six - one + 2) / 5
	}
	// Names of work's relations by file node, so pages read as pg_class/0/3.
	names := map[uint32]string{}
	var workOID, tfn uint32
	floodFN := map[uint32]bool{}
	{
		conn, err := pgx.Connect(ctx, srv.ConnString()+" dbname=work")
		if err != nil {
			return nil, err
		}
		err = conn.QueryRow(ctx, "SELECT oid FROM pg_database WHERE datname = 'work'").Scan(&workOID)
		if err == nil {
			err = conn.QueryRow(ctx, "SELECT pg_relation_filenode('t')").Scan(&tfn)
		}
		if err == nil {
			var fn uint32
			var name string
			rows, qerr := conn.Query(ctx, "SELECT pg_relation_filenode(oid), relname FROM pg_class WHERE pg_relation_filenode(oid) IS NOT NULL")
			if qerr != nil {
				err = qerr
			} else {
				_, err = pgx.ForEachRow(rows, []any{&fn, &name}, func() error {
					names[fn] = name
					if len(name) == 2 && name[0] == 'f' || strings.HasPrefix(name, "pgbench_") {
						floodFN[fn] = true // user relations' pages are not catalog pins
					}
					return nil
				})
			}
		}
		conn.Close(context.Background())
		if err != nil {
			return nil, err
		}
	}
	var dirtied map[string]bool // dirty pages of the last snapshot
	snapshot := func(warm bool, stmts ...[]string) (map[string]int8, error) {
		dirtied = map[string]bool{}
		if err := srv.Restart(ctx); err != nil {
			return nil, err
		}
		if warm {
			if err := exec("work", "SELECT 1"); err != nil {
				return nil, err
			}
			if err := exec("work", flood...); err != nil {
				return nil, err
			}
		}
		for _, s := range stmts {
			if err := exec("work", s...); err != nil {
				return nil, err
			}
		}
		conn, err := srv.Connect(ctx)
		if err != nil {
			return nil, err
		}
		defer conn.Close(context.Background())
		rows, err := conn.Query(ctx, "SELECT relfilenode, reldatabase, relforknumber, relblocknumber, usagecount, isdirty FROM pg_buffercache WHERE reldatabase IN (0, $1)", workOID)
		if err != nil {
			return nil, err
		}
		out := map[string]int8{}
		var fn, db uint32
		var fork, usage int16
		var blk int64
		var dirty bool
		_, err = pgx.ForEachRow(rows, []any{&fn, &db, &fork, &blk, &usage, &dirty}, func() error {
			name, ok := names[fn]
			if !ok && db != 0 {
				// A relation made after the names were read: the index kind's
				// own index (t_id), not a catalog.
				return nil
			}
			if fn != tfn && !floodFN[fn] {
				if !ok {
					name = fmt.Sprint(fn)
				}
				if db == 0 {
					name = "shared:" + name
				}
				key := fmt.Sprintf("%s/%d/%d", name, fork, blk)
				out[key] = int8(usage)
				if dirty {
					dirtied[key] = true
				}
			}
			return nil
		})
		return out, err
	}
	base, err := snapshot(true)
	if err != nil {
		return nil, err
	}
	baseDirty := dirtied
	// The first session after a start rebuilds the relcache init file; its
	// pins are measured against a run with no session in work at all.
	cold, err := snapshot(false)
	if err != nil {
		return nil, err
	}
	first, err := snapshot(false, []string{"SELECT 1"})
	if err != nil {
		return nil, err
	}
	masked := 0
	for p, u := range base {
		if u == 5 && !strings.HasPrefix(p, "shared:") {
			masked++
		}
	}
	prof = &CatalogProfile{Server: srv.Version, Kinds: map[string][]int8{}, Masked: masked, VacuumWindowHits: vacHits, VacuumIndexWindowHits: vacIdxHits, VacuumNextIndexWindowHits: vacIdx2Hits, TableGrowthPages: growth, IndexInsertHits: idxHits}
	snaps := map[string]map[string]int8{}
	dirty := map[string]map[string]bool{} // pages a kind dirtied (DDL: catalog rows written)
	bases := map[string]map[string]int8{"first": cold}
	for _, k := range verify.CatalogKinds(srv.Major) {
		if skip[strings.ToLower(k.Name)] || k.Name == "statIO" && srv.Major < 16 {
			continue
		}
		if len(k.Before) > 0 {
			if err := exec("work", k.Before...); err != nil {
				return nil, err
			}
		}
		s, err := snapshot(true, append([][]string{k.SQL}, k.More...)...)
		if err != nil {
			return nil, err
		}
		snaps[k.Name] = s
		bases[k.Name] = base
		for p := range dirtied {
			if !baseDirty[p] {
				if dirty[k.Name] == nil {
					dirty[k.Name] = map[string]bool{}
				}
				dirty[k.Name][p] = true
			}
		}
	}
	snaps["first"] = first
	// Shared catalogs (pg_database, pg_authid, …) are pinned by the reading
	// session too, so a statement's pins on them cannot be told apart; every
	// session is taken to pin them as often as the reading session alone
	// does (the cold run).
	pins := func(kind string, s map[string]int8, p string) int8 {
		d := s[p] - bases[kind][p]
		if strings.HasPrefix(p, "shared:") && kind != "scan1w" && cold[p] > d {
			d = cold[p]
		}
		return max(d, 0)
	}
	total := map[string]int{}
	for n, s := range snaps {
		for p := range s {
			if d := pins(n, s, p); d > 0 {
				total[p] += int(d)
			}
		}
	}
	for p := range total {
		prof.Pages = append(prof.Pages, p)
	}
	// Most-pinned pages first.
	sort.Slice(prof.Pages, func(i, j int) bool {
		ti, tj := total[prof.Pages[i]], total[prof.Pages[j]]
		if ti != tj {
			return ti > tj
		}
		return prof.Pages[i] < prof.Pages[j]
	})
	for name, s := range snaps {
		v := make([]int8, len(prof.Pages))
		for i, p := range prof.Pages {
			v[i] = pins(name, s, p)
			if dirty[name][p] {
				v[i] += 10 // marks a page the session dirtied
			}
		}
		prof.Kinds[name] = v
	}
	return prof, nil
}

// WriteGo prints the profile as Go source for package catalog's table (catalog/pgNN.go).
func (p *CatalogProfile) WriteGo(w io.Writer, major int) {
	fmt.Fprintf(w, "// Measured by `pgbufsim catalog-profile` on PostgreSQL %s: %d catalog pages;\n", p.Server, len(p.Pages))
	fmt.Fprintf(w, "// %d pages not shared between databases were still at usage 5 before the statements ran (pins on them are not seen).\n", p.Masked)
	fmt.Fprintf(w, "// A digit is a page's pins; a letter a–f is 0–5 pins on a page the session dirties.\n")
	fmt.Fprintf(w, "//\n// Names: the pages (relation/fork/block), most pinned first; the kinds' strings index them.\n")
	fmt.Fprintf(w, "var PG%d = Profile{\n\tPages: %d,\n\tNames: []string{\n%s\n\t},\n\tVacuumWindowHits: %d,\n\tVacuumIndexWindowHits: %d,\n\tVacuumNextIndexWindowHits: %d,\n\tTableGrowthPages: %d,\n\tIndexInsertHits: %d,\n\tKinds: map[Kind]string{\n", major, len(p.Pages), strings.Join(nameLines(p.Pages), "\n"), p.VacuumWindowHits, p.VacuumIndexWindowHits, p.VacuumNextIndexWindowHits, p.TableGrowthPages, p.IndexInsertHits)
	names := make([]string, 0, len(p.Kinds))
	for n := range p.Kinds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		var b strings.Builder
		for _, c := range p.Kinds[n] {
			if c >= 10 {
				b.WriteByte(byte('a' + c - 10)) // dirtied, with c−10 pins
			} else {
				b.WriteByte(byte('0' + c))
			}
		}
		fmt.Fprintf(w, "\t\t%s: %q,\n", strings.ToUpper(n[:1])+n[1:], strings.TrimRight(b.String(), "0"))
	}
	fmt.Fprintf(w, "\t},\n}\n")
}

// vacuumVerboseHits is the buffer hits VACUUM VERBOSE of table reports, run
// in a fresh session as verify runs it.
func vacuumVerboseHits(ctx context.Context, srv *verify.Server, table string) (int, error) {
	var msgs []string
	cfg, err := pgx.ParseConfig(srv.ConnString() + " dbname=work")
	if err != nil {
		return 0, err
	}
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { msgs = append(msgs, n.Message+"\n"+n.Detail) }
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return 0, err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, verify.SQLVacuumVerbose(table)); err != nil {
		return 0, err
	}
	hits, ok := verify.VacuumVerboseHits(strings.Join(msgs, "\n"))
	if !ok {
		return 0, fmt.Errorf("VACUUM VERBOSE %s printed no buffer usage", table)
	}
	return hits, nil
}

// runSession sends one session's statements, a COPY with four rows of
// input, then ends it as verify ends its sessions.
func runSession(ctx context.Context, conn *pgx.Conn, sql []string) error {
	for _, s := range append(sql, verify.SessionEndSQL()...) {
		if strings.HasPrefix(s, "COPY ") {
			data := strings.NewReader(strings.Repeat("100001\t"+strings.Repeat("x", 1800)+"\n", 4))
			if _, err := conn.PgConn().CopyFrom(ctx, data, s); err != nil {
				return fmt.Errorf("%s: %w", s, err)
			}
			continue
		}
		if _, err := conn.Exec(ctx, s); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	return nil
}

// profileServer is a fresh cluster of bin for a measurement, started: 16MB
// of shared buffers, autovacuum and the background writer's cleaning off,
// data checksums as asked.
func profileServer(ctx context.Context, bin string, checksums bool) (*verify.Server, error) {
	srv, err := verify.NewServer(bin)
	if err != nil {
		return nil, err
	}
	err = srv.Init(ctx, checksums, [][2]string{{"shared_buffers", "16MB"}, {"autovacuum", "off"}, {"bgwriter_lru_maxpages", "0"}})
	if err == nil {
		err = srv.Start(ctx)
	}
	if err != nil {
		srv.Close()
		return nil, err
	}
	return srv, nil
}
