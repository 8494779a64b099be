package verify

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/pgbufsim/pgbufsim/pg"
)

// Indexes on hashint4 keys (index NAME on=T key=cN values=hashint4): the
// table's column cN holds hashint4(id) on the server from its first row on
// (every step is translated before any runs); each insert and copy compares
// the index's size, and COPY's WAL on the table includes the index's.

// hashedIndex reports whether st is an index on hashint4 keys, and its table.
func hashedIndex(st *step) (on string, hashed bool) {
	for i, a := range st.args {
		if i > 0 && a.Key == "on" {
			on = a.Vals[0]
		}
		hashed = hashed || i > 0 && a.Key == "values" && a.Vals[0] == "hashint4"
	}
	return on, hashed && st.cmd == "index"
}

// hashedKey makes the index's key, an int4 cN (N ≥ 2) of the table's columns=(…), hold hashint4(id).
func (r *runner) hashedKey(st *step, on string) (action, error) {
	t, col, unique := r.tables[on], "", ""
	for _, a := range st.args[1:] {
		if a.Key == "key" {
			col = a.Vals[0]
		} else if a.Key == "unique" && (a.Vals[0] == "on" || a.Vals[0] == "true") {
			unique = "UNIQUE "
		}
	}
	n, err := strconv.Atoi(strings.TrimPrefix(col, "c"))
	if t == nil || !strings.HasPrefix(col, "c") || err != nil || n < 2 || n > len(t.cols) || t.cols[n-1] != col+" int4" {
		return nil, fmt.Errorf("%s: no SQL translation: key=%s must name an int4 column after the first of the table's columns=(…) (c2, c3, …: verify names them so)", lineText(st), col)
	}
	t.exprs[n-1], t.fields[n-1] = "hashint4(g)", "hashint4"
	if r.keyCols == nil {
		r.keyCols = map[string][2]string{}
	}
	r.keyCols[st.args[0].Key] = [2]string{col, unique}
	return r.actIndex, nil
}

// keyedSizes is, for the step's indexes on hashint4 keys in name order,
// their size and filenode on the server.
func (r *runner) keyedSizes(ctx context.Context, st *step) (names []string, pages []int64, nodes []string, err error) {
	for ix := range st.keyed {
		names = append(names, ix)
	}
	if len(names) == 0 {
		return nil, nil, nil, nil // no session: the server's catalog pins stay the scenario's
	}
	slices.Sort(names)
	err = r.session(ctx, func(conn *pgx.Conn) error {
		for _, ix := range names {
			var n int64
			var node uint32
			if err := conn.QueryRow(ctx, sqlRelationPages(ix)+", pg_relation_filenode('"+ix+"')").Scan(&n, &node); err != nil {
				return err
			}
			pages, nodes = append(pages, n), append(nodes, strconv.FormatUint(uint64(node), 10))
		}
		return nil
	})
	return names, pages, nodes, err
}

// keyedPages compares the size of each index on hashint4 keys of the step's
// table after an insert or copy: exact, every split where _bt_findsplitloc makes it.
func (r *runner) keyedPages(ctx context.Context, st *step) error {
	names, pages, _, err := r.keyedSizes(ctx, st)
	for i, ix := range names[:len(pages)] { // up to a failed query
		r.rep.add(st, "index pages of "+ix, st.keyed[ix], pages[i], exact)
	}
	return err
}

// walOnTable is pg_waldump's records between the LSNs that touch the table
// or its indexes on hashint4 keys (the simulator's statement counts their inserts).
func (r *runner) walOnTable(ctx context.Context, st *step, lsn0, lsn1 pg.LSN, filenode uint32) (WALSummary, error) {
	_, _, nodes, err := r.keyedSizes(ctx, st)
	if err != nil {
		return WALSummary{}, err
	}
	nodes = append(nodes, strconv.FormatUint(uint64(filenode), 10))
	return r.srv.walDump(ctx, lsn0, lsn1, regexp.MustCompile(`rel \d+/\d+/(`+strings.Join(nodes, "|")+`)[ ,]`))
}
