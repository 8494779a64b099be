package verify

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5"
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

// catalogKinds are the statements profiled, as SQL on a table t (id int4, pad text).
var catalogKinds = []struct{ name, sql string }{
	{"session", "SELECT 1"},
	{"scan", "SET max_parallel_workers_per_gather = 0; SELECT count(*) FROM t"},
	{"scan1w", "SET min_parallel_table_scan_size = 0; SET parallel_setup_cost = 0; SET max_parallel_workers_per_gather = 1; SELECT count(*) FROM t"},
	{"insert", "INSERT INTO t SELECT g, repeat('x', 1800) FROM generate_series(1, 4) g"},
	{"vacuum", "VACUUM t"},
	{"checkpoint", "CHECKPOINT"},
}

// bufferQuery is the query verify's `show buffercache` runs (with its lookups).
const bufferQuery = "SELECT relfilenode, reldatabase, isdirty, usagecount FROM pg_buffercache"

// CatalogProfile is, per statement kind, the pins on each catalog page (index
// into Pages), as a session running that statement makes them.
type CatalogProfile struct {
	Server string
	Pages  []string          // relfilenode/fork/block, in a stable order
	Kinds  map[string][]int8 // kind → pins per page
	Masked int               // pages the warm-up session alone took to usage 5 (pins on them are not seen)
}

// MeasureCatalog builds a fresh cluster and measures the profile.
func MeasureCatalog(ctx context.Context, bin string) (prof *CatalogProfile, err error) {
	srv, err := NewServer(bin)
	if err != nil {
		return nil, err
	}
	defer func() {
		if cerr := srv.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	if err := srv.Init(ctx, false, [][2]string{{"autovacuum", "off"}, {"bgwriter_lru_maxpages", "0"}}); err != nil {
		return nil, err
	}
	if err := srv.Start(ctx); err != nil {
		return nil, err
	}
	exec := func(db, sql string) error {
		conn, err := pgx.Connect(ctx, srv.connString()+" dbname="+db)
		if err != nil {
			return err
		}
		defer conn.Close(context.Background())
		for _, s := range strings.Split(sql, "; ") {
			if _, err := conn.Exec(ctx, s); err != nil {
				return fmt.Errorf("%s: %w", s, err)
			}
		}
		return nil
	}
	if err := exec("postgres", "CREATE EXTENSION pg_buffercache; CREATE DATABASE work"); err != nil {
		return nil, err
	}
	if err := exec("work", "CREATE EXTENSION pg_buffercache; CREATE EXTENSION pg_visibility; "+
		"CREATE TABLE t (id int4, pad text) WITH (autovacuum_enabled = off); ALTER TABLE t ALTER COLUMN pad SET STORAGE PLAIN; "+
		"INSERT INTO t SELECT g, repeat('x', 1800) FROM generate_series(1, 4000) g"); err != nil {
		return nil, err
	}
	// Names of work's relations by file node, so pages read as pg_class/0/3.
	names := map[uint32]string{}
	var workOID, tfn uint32
	{
		conn, err := pgx.Connect(ctx, srv.connString()+" dbname=work")
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
				_, err = pgx.ForEachRow(rows, []any{&fn, &name}, func() error { names[fn] = name; return nil })
			}
		}
		conn.Close(context.Background())
		if err != nil {
			return nil, err
		}
	}
	snapshot := func(warm bool, stmts ...string) (map[string]int8, error) {
		if err := srv.Restart(ctx); err != nil {
			return nil, err
		}
		if warm {
			if err := exec("work", "SELECT 1"); err != nil {
				return nil, err
			}
		}
		for _, s := range stmts {
			if err := exec("work", s); err != nil {
				return nil, err
			}
		}
		conn, err := srv.Connect(ctx)
		if err != nil {
			return nil, err
		}
		defer conn.Close(context.Background())
		rows, err := conn.Query(ctx, "SELECT relfilenode, relforknumber, relblocknumber, usagecount FROM pg_buffercache WHERE reldatabase IN (0, $1)", workOID)
		if err != nil {
			return nil, err
		}
		out := map[string]int8{}
		var fn uint32
		var fork, usage int16
		var blk int64
		_, err = pgx.ForEachRow(rows, []any{&fn, &fork, &blk, &usage}, func() error {
			if fn != tfn {
				name, ok := names[fn]
				if !ok {
					name = fmt.Sprint(fn)
				}
				out[fmt.Sprintf("%s/%d/%d", name, fork, blk)] = int8(usage)
			}
			return nil
		})
		return out, err
	}
	base, err := snapshot(true)
	if err != nil {
		return nil, err
	}
	// The first session after a start rebuilds the relcache init file; its
	// pins are measured against a run with no session in work at all.
	cold, err := snapshot(false)
	if err != nil {
		return nil, err
	}
	first, err := snapshot(false, "SELECT 1")
	if err != nil {
		return nil, err
	}
	masked := 0
	for _, u := range base {
		if u == 5 {
			masked++
		}
	}
	prof = &CatalogProfile{Server: srv.Version, Kinds: map[string][]int8{}, Masked: masked}
	snaps := map[string]map[string]int8{}
	bases := map[string]map[string]int8{"first": cold}
	for _, k := range append(catalogKinds, struct{ name, sql string }{"buffercache", bufferQuery}) {
		s, err := snapshot(true, k.sql)
		if err != nil {
			return nil, err
		}
		snaps[k.name] = s
		bases[k.name] = base
	}
	snaps["first"] = first
	total := map[string]int{}
	for n, s := range snaps {
		for p, u := range s {
			if d := int(u - bases[n][p]); d > 0 {
				total[p] += d
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
			if d := s[p] - bases[name][p]; d > 0 {
				v[i] = d
			}
		}
		prof.Kinds[name] = v
	}
	return prof, nil
}

// WriteGo prints the profile as Go source for the simulator's catalog table.
func (p *CatalogProfile) WriteGo(w io.Writer, major int) {
	fmt.Fprintf(w, "// Measured by `pgbufsim catalog-profile` on PostgreSQL %s: %d catalog pages;\n", p.Server, len(p.Pages))
	fmt.Fprintf(w, "// the warm-up session alone took %d pages to usage 5, where further pins are not seen.\n", p.Masked)
	fmt.Fprintf(w, "var catalogPG%d = catalogProfile{\n\tpages: %d,\n\tkinds: map[catalogKind]string{\n", major, len(p.Pages))
	names := make([]string, 0, len(p.Kinds))
	for n := range p.Kinds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		var b strings.Builder
		for _, c := range p.Kinds[n] {
			b.WriteByte(byte('0' + c))
		}
		fmt.Fprintf(w, "\t\tcatalog%s: %q,\n", strings.ToUpper(n[:1])+n[1:], strings.TrimRight(b.String(), "0"))
	}
	fmt.Fprintf(w, "\t},\n}\n")
}
