package verify

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/pgbufsim/pgbufsim/pg"
)

// Indexes on hashint4 keys (index NAME on=T key=cN values=hashint4): the
// table's column cN holds hashint4(id) on the server, from its first row on
// (the translation runs before any step does), and each insert and copy
// compares the index's size with the simulator's, whose leaves split as the
// random keys arrive.

// hashedIndex reports whether st is an index on hashint4 keys, and its table.
func hashedIndex(st *step) (string, bool) {
	if st.cmd != "index" {
		return "", false
	}
	on, hashed := "", false
	for _, a := range st.args[1:] {
		switch {
		case a.Key == "on":
			on = a.Vals[0]
		case a.Key == "values" && a.Vals[0] == "hashint4":
			hashed = true
		}
	}
	return on, hashed
}

// hashedKey makes the index's key column, an int4 cN of the table's
// columns=(…), hold hashint4(id).
func (r *runner) hashedKey(st *step, on string) (action, error) {
	t := r.tables[on]
	col, unique := "", ""
	for _, a := range st.args[1:] {
		switch a.Key {
		case "key":
			col = a.Vals[0]
		case "unique":
			if v := a.Vals[0]; v == "on" || v == "true" {
				unique = "UNIQUE "
			}
		}
	}
	n, err := strconv.Atoi(strings.TrimPrefix(col, "c"))
	if t == nil || !strings.HasPrefix(col, "c") || err != nil || n < 2 || n > len(t.cols) || !strings.HasSuffix(t.cols[n-1], " int4") {
		return nil, fmt.Errorf("%s: no SQL translation: key=%s must name an int4 column after the first of the table's columns=(…) (c2, c3, …: verify names them so)", lineText(st), col)
	}
	t.exprs[n-1], t.fields[n-1] = "hashint4(g)", "hashint4"
	if r.keyCols == nil {
		r.keyCols = map[string][2]string{}
	}
	r.keyCols[st.args[0].Key] = [2]string{col, unique}
	return r.actIndex, nil
}

// keyedPages compares the size of each index on hashint4 keys of the
// step's table after an insert or copy.
func (r *runner) keyedPages(ctx context.Context, st *step) error {
	names := make([]string, 0, len(st.keyed))
	for ix := range st.keyed {
		names = append(names, ix)
	}
	sort.Strings(names)
	for _, ix := range names {
		var pages int64
		if err := r.session(ctx, func(conn *pgx.Conn) error {
			return conn.QueryRow(ctx, sqlRelationPages(ix)).Scan(&pages)
		}); err != nil {
			return err
		}
		r.rep.add(st, "index pages of "+ix, st.keyed[ix], pages, exact) // every split where _bt_findsplitloc makes it
	}
	return nil
}

// walOnTable is pg_waldump's records between the LSNs that touch the
// table's filenode or one of its indexes on hashint4 keys (the simulator's
// statement counters include their inserts).
func (r *runner) walOnTable(ctx context.Context, st *step, lsn0, lsn1 pg.LSN, filenode uint32) (WALSummary, error) {
	nodes := []string{strconv.FormatUint(uint64(filenode), 10)}
	for ix := range st.keyed {
		var n uint32
		if err := r.session(ctx, func(conn *pgx.Conn) error {
			return conn.QueryRow(ctx, "SELECT pg_relation_filenode('"+ix+"')").Scan(&n)
		}); err != nil {
			return WALSummary{}, err
		}
		nodes = append(nodes, strconv.FormatUint(uint64(n), 10))
	}
	sort.Strings(nodes)
	return r.srv.walDump(ctx, lsn0, lsn1, regexp.MustCompile(`rel \d+/\d+/(`+strings.Join(nodes, "|")+`)[ ,]`))
}
