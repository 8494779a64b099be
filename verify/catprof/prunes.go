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

// MeasurePrunes measures, per kind of session verify sends (the pgbench
// kinds aside), the catalog pages it is the first to prune after verify's
// setup.
func MeasurePrunes(ctx context.Context, bin string) (map[string][]PruneRec, error) {
	srv0, err := verify.NewServer(bin)
	if err != nil {
		return nil, err
	}
	kinds := append([]verify.CatalogKind{{Name: "first"}}, verify.CatalogKinds(srv0.Major)...)
	out := map[string][]PruneRec{}
	for _, k := range kinds {
		if strings.HasPrefix(k.Name, "pgbench") || k.Name == "statIO" && srv0.Major < 16 {
			continue
		}
		recs := map[string]*PruneRec{}
		for _, checksums := range []bool{false, true} {
			got, err := measureKindPrunes(ctx, bin, checksums, k)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k.Name, err)
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
		for _, r := range recs {
			out[k.Name] = append(out[k.Name], *r)
		}
		sort.Slice(out[k.Name], func(i, j int) bool { return out[k.Name][i].Page < out[k.Name][j].Page })
	}
	return out, nil
}

func measureKindPrunes(ctx context.Context, bin string, checksums bool, k verify.CatalogKind) (got map[string]*PruneRec, err error) {
	srv, err := profileServer(ctx, bin, checksums)
	if err != nil {
		return nil, err
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
		return nil, err
	}
	if err := exec("CREATE EXTENSION pg_buffercache", "CREATE EXTENSION pg_visibility"); err != nil {
		return nil, err
	}
	names := map[uint32]string{}
	var db string
	{
		conn, err := srv.Connect(ctx)
		if err != nil {
			return nil, err
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
			return nil, err
		}
	}
	if err := srv.Restart(ctx); err != nil {
		return nil, err
	}
	if k.Name != "first" {
		if err := exec("SELECT 1"); err != nil {
			return nil, err
		}
		if err := srv.Restart(ctx); err != nil {
			return nil, err
		}
	}
	for _, sql := range append([][]string{k.SQL}, k.More...) {
		if err := exec(sql...); err != nil {
			return nil, err
		}
	}
	if err := srv.Restart(ctx); err != nil {
		return nil, err
	}
	lines, err := srv.WALLines(ctx)
	if err != nil {
		return nil, err
	}
	// The kind's records lie between the last two shutdown checkpoints.
	var shut []int
	for i, l := range lines {
		if strings.Contains(l, "CHECKPOINT_SHUTDOWN") {
			shut = append(shut, i)
		}
	}
	if len(shut) < 2 {
		return nil, fmt.Errorf("pg_waldump shows %d shutdown checkpoints", len(shut))
	}
	return prunesAfterLastRestart(lines[:shut[len(shut)-1]+1], db, names), nil
}

// WritePrunesGo prints the measured prunes as Go source for package catalog.
func WritePrunesGo(w io.Writer, server string, major int, prunes map[string][]PruneRec) {
	fmt.Fprintf(w, "// Measured by `pgbufsim catalog-profile --prunes` on PostgreSQL %s: per kind of session,\n", server)
	fmt.Fprintf(w, "// the catalog pages verify's setup left prunable that it is the first to prune (beyond a first\n")
	fmt.Fprintf(w, "// session's), with the records' lengths: with the image, the hint image and the plain record.\n")
	fmt.Fprintf(w, "var prunes%d = map[Kind][]Prune{\n", major)
	names := make([]string, 0, len(prunes))
	for n := range prunes {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if len(prunes[n]) == 0 {
			continue
		}
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
