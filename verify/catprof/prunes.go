package catprof

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/pgbufsim/pgbufsim/pgbench"
	"github.com/pgbufsim/pgbufsim/verify"
)

// Catalog pruning on access is a workload input too. verify's setup (CREATE
// EXTENSION pg_buffercache, pg_visibility, then a restart) updates pg_proc
// rows, leaving dead tuples and pd_prune_xid on catalog pages that have less
// than BLCKSZ/10 free; the first session whose lookups reach such a page
// prunes it (heap_page_prune_opt, pruneheap.c): after a checkpoint one
// record with the page's image, or, when hint bits are WAL-logged, an
// XLOG_FPI_FOR_HINT of the page its visibility checks hinted
// (MarkBufferDirtyHint) and then a plain prune record. Which pages a kind
// of session reaches is read off pg_waldump: per kind, a fresh cluster set
// up as verify's, one trivial first session (which rebuilds the relcache
// init file and prunes what every first session prunes), a restart, then
// the kind's session; its prune records are the kind's, beyond the first
// session's.

// PruneRec is a catalog page a kind of session prunes on access, with the
// WAL record lengths measured: the prune with the page's image (hints not
// WAL-logged), the hint image before it and the plain prune (hints logged).
type PruneRec struct {
	Page               string // relation/block
	Image, Hint, Plain int
}

var (
	reRecLen   = regexp.MustCompile(`len \(rec/tot\):\s*\d+/\s*(\d+),`)
	reBlkRef   = regexp.MustCompile(`blkref #0: rel \d+/(\d+)/(\d+)(?: fork \S+)? blk (\d+)`)
	pruneDescs = []string{"desc: PRUNE", "desc: PRUNE_ON_ACCESS"}
)

// prunesAfterLastRestart reads the catalog prune records (and, with
// hints, the FPI_FOR_HINT before each) that follow the last-but-one shutdown
// checkpoint of lines, keyed by page.
func prunesAfterLastRestart(lines []string, db string, names map[uint32]string) map[string]*PruneRec {
	last := -1
	var shut []int
	for i, l := range lines {
		if strings.Contains(l, "CHECKPOINT_SHUTDOWN") {
			shut = append(shut, i)
		}
	}
	if len(shut) >= 2 {
		last = shut[len(shut)-2]
	}
	out := map[string]*PruneRec{}
	hint := map[string]int{}
	for _, l := range lines[last+1:] {
		m := reBlkRef.FindStringSubmatch(l)
		n := reRecLen.FindStringSubmatch(l)
		if m == nil || n == nil || m[1] != db {
			continue
		}
		fn, _ := strconv.ParseUint(m[2], 10, 32)
		if fn >= 16384 {
			continue // the measurement's own table
		}
		name, ok := names[uint32(fn)]
		if !ok {
			name = m[2]
		}
		page := name + "/" + m[3]
		size, _ := strconv.Atoi(n[1])
		if strings.Contains(l, "desc: FPI_FOR_HINT") {
			hint[page] = size
			continue
		}
		isPrune := false
		for _, d := range pruneDescs {
			isPrune = isPrune || strings.Contains(l, d+" ")
		}
		if !isPrune || out[page] != nil {
			continue
		}
		r := &PruneRec{Page: page}
		if strings.Contains(l, " FPW") {
			r.Image = size
		} else {
			r.Plain, r.Hint = size, hint[page]
		}
		out[page] = r
	}
	return out
}

// MeasurePrunes measures, per kind of session verify sends, the catalog
// pages it is the first to prune after verify's setup (the pgbench kinds
// after pgbench's tables were created too, a client's after the setup
// connection's).
// Kinds in skip (ReadPrunesGo's of an earlier measurement) are left out.
// For the pgbench kinds it also gives the catalog pages each session is the
// first to hint (dirty without pruning them), in the order a verified run
// makes them: pgbench -i, the reading session, the setup connection, a
// client.
func MeasurePrunes(ctx context.Context, bin string, skip map[string][]PruneRec) (map[string][]PruneRec, map[string][]string, error) {
	srv0, err := verify.NewServer(bin)
	if err != nil {
		return nil, nil, err
	}
	kinds := append([]verify.CatalogKind{{Name: "first"}}, verify.CatalogKinds(srv0.Major)...)
	out := map[string][]PruneRec{}
	hints := map[string][]string{}
	var reading []string
	for _, k := range kinds {
		if k.Name == "pgbenchReading" {
			reading = k.SQL
		}
	}
	for _, k := range kinds {
		if _, ok := skip[k.Name]; ok || k.Name == "statIO" && srv0.Major < 16 {
			continue
		}
		recs := map[string]*PruneRec{}
		for _, checksums := range []bool{false, true} {
			got, hinted, err := measureKindPrunes(ctx, bin, checksums, k, reading)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", k.Name, err)
			}
			if !checksums && strings.HasPrefix(k.Name, "pgbench") {
				hints[k.Name] = hinted
			}
			for p, r := range got {
				if recs[p] == nil {
					recs[p] = &PruneRec{Page: p}
				}
				if checksums {
					recs[p].Hint, recs[p].Plain = r.Hint, r.Plain
				} else {
					recs[p].Image = r.Image
				}
			}
		}
		out[k.Name] = []PruneRec{} // measured, if only to prune nothing
		for _, r := range recs {
			out[k.Name] = append(out[k.Name], *r)
		}
		sort.Slice(out[k.Name], func(i, j int) bool { return out[k.Name][i].Page < out[k.Name][j].Page })
	}
	return out, hints, nil
}

// measureKindPrunes measures one kind's prunes in a fresh cluster, and for
// a pgbench kind the catalog pages its session leaves dirty that it did not
// prune (relation/fork/block): the rows it is the first to hint.
func measureKindPrunes(ctx context.Context, bin string, checksums bool, k verify.CatalogKind, reading []string) (got map[string]*PruneRec, hinted []string, err error) {
	srv, err := profileServer(ctx, bin, checksums)
	if err != nil {
		return nil, nil, err
	}
	defer func() {
		if cerr := srv.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	exec := func(sql ...string) error {
		conn, err := srv.Connect(ctx)
		if err != nil {
			return err
		}
		defer conn.Close(context.Background())
		return runSession(ctx, conn, sql)
	}
	// The kinds' table first (its DDL's dead tuples are pruned by this
	// setup's sessions), then verify's setup.
	if err := exec("CREATE TABLE t (id int4, pad text) WITH (autovacuum_enabled = off)", "ALTER TABLE t ALTER COLUMN pad SET STORAGE PLAIN",
		"INSERT INTO t SELECT g, repeat('x', 1800) FROM generate_series(1, 4000) g", "VACUUM t", "SELECT count(*) FROM pg_class"); err != nil {
		return nil, nil, err
	}
	if err := exec("CREATE EXTENSION pg_buffercache", "CREATE EXTENSION pg_visibility"); err != nil {
		return nil, nil, err
	}
	pgb := strings.HasPrefix(k.Name, "pgbench")
	if pgb {
		// pgbench's tables after the setup, as a scenario's pgbench init
		// makes them: the server's pgbench -i (its drops, truncate, COPY,
		// VACUUM ANALYZE and primary keys reach catalog pages of their own).
		if err := srv.PgbenchInit(ctx, 1, 100); err != nil {
			return nil, nil, err
		}
		// verify's pgbench init then reads each relation's size, in a session.
		ts, err := pgbench.Tables(srv.Major, 1, 100)
		if err != nil {
			return nil, nil, err
		}
		var sizes []string
		for _, t := range ts {
			sizes = append(sizes, verify.SQLRelationPages(t.Name))
			if t.Index != "" {
				sizes = append(sizes, verify.SQLRelationPages(t.Index))
			}
		}
		if err := exec(sizes...); err != nil {
			return nil, nil, err
		}
	}
	names := map[uint32]string{}
	var db string
	{
		conn, err := srv.Connect(ctx)
		if err != nil {
			return nil, nil, err
		}
		err = conn.QueryRow(ctx, "SELECT oid::text FROM pg_database WHERE datname = 'postgres'").Scan(&db)
		var rows pgx.Rows
		if err == nil {
			rows, err = conn.Query(ctx, "SELECT pg_relation_filenode(oid), relname FROM pg_class WHERE pg_relation_filenode(oid) < 16384")
		}
		if err == nil {
			var fn uint32
			var name string
			_, err = pgx.ForEachRow(rows, []any{&fn, &name}, func() error { names[fn] = name; return nil })
		}
		conn.Close(context.Background())
		if err != nil {
			return nil, nil, err
		}
	}
	if err := srv.Restart(ctx); err != nil {
		return nil, nil, err
	}
	if k.Name != "first" {
		if err := exec("SELECT 1"); err != nil {
			return nil, nil, err
		}
		if err := srv.Restart(ctx); err != nil {
			return nil, nil, err
		}
	}
	// pgbench's sessions come in a verified run's order: verify's reading
	// session, pgbench's setup connection (GetTableInfo), then a client;
	// what the earlier ones prune and hint is theirs.
	var before [][]string
	switch {
	case !pgb || k.Name == "pgbenchReading":
	case k.Name == "pgbenchSetup":
		before = [][]string{reading}
	default:
		before = [][]string{reading, pgbench.SetupQueries}
	}
	for _, sql := range before {
		if err := exec(sql...); err != nil {
			return nil, nil, err
		}
		if err := srv.Restart(ctx); err != nil {
			return nil, nil, err
		}
	}
	for _, sql := range append([][]string{k.SQL}, k.More...) {
		if err := exec(sql...); err != nil {
			return nil, nil, err
		}
	}
	if pgb {
		// The catalog pages left dirty (the pool was clean after the restart).
		conn, err := srv.Connect(ctx)
		if err != nil {
			return nil, nil, err
		}
		rows, err := conn.Query(ctx, "SELECT relfilenode, relforknumber, relblocknumber FROM pg_buffercache WHERE isdirty AND reldatabase = $1::oid AND relfilenode < 16384", db)
		if err == nil {
			var fn uint32
			var fork int16
			var blk int64
			_, err = pgx.ForEachRow(rows, []any{&fn, &fork, &blk}, func() error {
				if name, ok := names[fn]; ok {
					hinted = append(hinted, fmt.Sprintf("%s/%d/%d", name, fork, blk))
				}
				return nil
			})
		}
		conn.Close(context.Background())
		if err != nil {
			return nil, nil, err
		}
	}
	if err := srv.Restart(ctx); err != nil {
		return nil, nil, err
	}
	lines, err := srv.WALLines(ctx)
	if err != nil {
		return nil, nil, err
	}
	// The kind's records lie between the last two shutdown checkpoints.
	var shut []int
	for i, l := range lines {
		if strings.Contains(l, "CHECKPOINT_SHUTDOWN") {
			shut = append(shut, i)
		}
	}
	if len(shut) < 2 {
		return nil, nil, fmt.Errorf("pg_waldump shows %d shutdown checkpoints", len(shut))
	}
	got = prunesAfterLastRestart(lines[:shut[len(shut)-1]+1], db, names)
	// A pruned page is dirty too: it is the prune's, not a hint's.
	kept := hinted[:0]
	for _, h := range hinted {
		parts := strings.Split(h, "/")
		if got[parts[0]+"/"+parts[2]] == nil || parts[1] != "0" {
			kept = append(kept, h)
		}
	}
	sort.Strings(kept)
	return got, kept, nil
}

// WritePrunesGo prints the measured prunes as Go source for package catalog.
func WritePrunesGo(w io.Writer, server string, major int, prunes map[string][]PruneRec) {
	fmt.Fprintf(w, "// Measured by `pgbufsim catalog-profile --prunes` on PostgreSQL %s: per kind of session,\n", server)
	fmt.Fprintf(w, "// the catalog pages verify's setup left prunable that it is the first to prune (beyond a first\n")
	fmt.Fprintf(w, "// session's), with the records' lengths: with the image, the hint image and the plain record.\n")
	fmt.Fprintf(w, "var prunes%d = map[Kind][]Prune{\n", major)
	for _, n := range sortedKinds(prunes) {
		// A kind that prunes nothing is listed too: it was measured.
		fmt.Fprintf(w, "\t%s: {", strings.ToUpper(n[:1])+n[1:])
		for i, r := range prunes[n] {
			if i > 0 {
				fmt.Fprint(w, ", ")
			}
			fmt.Fprintf(w, "{%q, %d, %d, %d}", r.Page, r.Image, r.Hint, r.Plain)
		}
		fmt.Fprintf(w, "},\n")
	}
	fmt.Fprintf(w, "}\n")
}

var (
	rePruneKind = regexp.MustCompile(`(?m)^\t(\w+):\s*\{(.*)\},$`)
	rePruneRec  = regexp.MustCompile(`\{"([^"]+)", (\d+), (\d+), (\d+)\}`)
)

// varBlock is the text of src's "var NAME… = map…{ … }" block, or "".
func varBlock(src []byte, name string) string {
	s := string(src)
	i := strings.Index(s, "var "+name)
	if i < 0 {
		return ""
	}
	j := strings.Index(s[i:], "\n}\n")
	if j < 0 {
		return ""
	}
	return s[i : i+j+3]
}

// ReadPrunesGo reads the kinds and prunes of a file WritePrunesGo wrote
// (catalog/prunesNN.go), keyed as MeasurePrunes keys them.
func ReadPrunesGo(src []byte) map[string][]PruneRec {
	out := map[string][]PruneRec{}
	for _, m := range rePruneKind.FindAllStringSubmatch(varBlock(src, "prunes"), -1) {
		name := strings.ToLower(m[1][:1]) + m[1][1:]
		out[name] = []PruneRec{}
		for _, r := range rePruneRec.FindAllStringSubmatch(m[2], -1) {
			img, _ := strconv.Atoi(r[2])
			hint, _ := strconv.Atoi(r[3])
			plain, _ := strconv.Atoi(r[4])
			out[name] = append(out[name], PruneRec{Page: r[1], Image: img, Hint: hint, Plain: plain})
		}
	}
	return out
}

var reHint = regexp.MustCompile(`\{"([^"]+)", -?\d+(?:, "")?\}`)

// ReadHintsGo reads the pgbench kinds' first hints of a file WriteHintsGo
// wrote after the prunes (catalog/prunesNN.go): the hinted pages, not the
// pruned ones (the prunes say those).
func ReadHintsGo(src []byte) map[string][]string {
	out := map[string][]string{}
	for _, m := range rePruneKind.FindAllStringSubmatch(varBlock(src, "hints"), -1) {
		name := strings.ToLower(m[1][:1]) + m[1][1:]
		out[name] = []string{}
		for _, h := range reHint.FindAllStringSubmatch(m[2], -1) {
			out[name] = append(out[name], h[1])
		}
	}
	return out
}

// WriteHintsGo prints the pgbench kinds' first hints as Go source for
// package catalog, each page with its index in the profile's page list
// (pages, catalog/pgNN.go's; -1 for a page the profile does not have).
// A page a kind prunes (prunes) is listed too, with its prune: the prune
// dirties it.
func WriteHintsGo(w io.Writer, major int, hints map[string][]string, prunes map[string][]PruneRec, pages []string) {
	at := map[string]int{}
	for i, p := range pages {
		at[p] = i
	}
	fmt.Fprintf(w, "\n// The catalog pages each of pgbench's sessions is the first to hint (dirty, not prune) in a\n")
	fmt.Fprintf(w, "// verified run's order (pgbench -i, the reading session, the setup connection, a client), each\n")
	fmt.Fprintf(w, "// with its index in PG%d's pages (-1: a page the profile lacks); a page the kind prunes, with\n", major)
	fmt.Fprintf(w, "// its prune (prunes%d), is dirtied by the prune.\n", major)
	fmt.Fprintf(w, "var hints%d = map[Kind][]Hint{\n", major)
	for _, n := range sortedKinds(hints) {
		fmt.Fprintf(w, "\t%s: {", strings.ToUpper(n[:1])+n[1:])
		type hint struct{ page, prune string }
		var hs []hint
		for _, p := range hints[n] {
			hs = append(hs, hint{page: p})
		}
		for _, r := range prunes[n] {
			rel, blk, _ := strings.Cut(r.Page, "/")
			hs = append(hs, hint{page: rel + "/0/" + blk, prune: r.Page})
		}
		sort.Slice(hs, func(i, j int) bool { return hs[i].page < hs[j].page })
		for i, h := range hs {
			if i > 0 {
				fmt.Fprint(w, ", ")
			}
			idx, ok := at[h.page]
			if !ok {
				idx = -1
			}
			if h.prune != "" {
				fmt.Fprintf(w, "{%q, %d, %q}", h.page, idx, h.prune)
			} else {
				fmt.Fprintf(w, "{%q, %d, \"\"}", h.page, idx)
			}
		}
		fmt.Fprintf(w, "},\n")
	}
	fmt.Fprintf(w, "}\n")
}

// sortedKinds is m's kinds in order.
func sortedKinds[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
