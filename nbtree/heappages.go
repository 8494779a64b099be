package nbtree

import (
	"slices"

	"github.com/pgbufsim/pgbufsim/internal/rng"
	"github.com/pgbufsim/pgbufsim/pg"
)

// KeyHeapPages is where the rows of values from..to lie, as the sequence of
// heap pages an index scan fetches them from, in index order: by value, and
// within a value by heap TID (nbtree keeps duplicates in TID order since
// PostgreSQL 12). The rows lie on pages distinct heap pages chosen within a
// span of the table that the correlation sets: span = pages + (N − pages)
// × (1 − |correlation|), placed where the values' rows would be if the
// table were in key order; correlation 1 gives consecutive pages, 0 the
// whole table. The rows are dealt over those pages in a random order (or in
// order, with correlation 1). The draw is seeded by seed (the cluster's), the
// index and the values, so the same query meets the same pages every time.
func (ix *Index) KeyHeapPages(seed uint64, from, to, rows, pages int64) []pg.BlockNumber {
	kl, rel := ix.Key(), ix.Rel
	nb := int64(rel.NPages())
	pages = min(pages, nb, rows)
	corr := kl.Correlation
	if corr < 0 {
		corr = -corr
	}
	span := pages + int64(float64(nb-pages)*(1-corr)+0.5)
	first, _ := kl.Entries(rel.Rows, from)
	startPage := first * nb / max(1, rel.Rows)
	startPage = min(startPage, nb-span)
	r := rng.New(seed ^ uint64(ix.ID)<<40 ^ uint64(from)<<20 ^ uint64(to))
	// pages distinct pages of the span (Floyd's sampling), ascending.
	chosen := make(map[int64]bool, pages)
	for j := span - pages; j < span; j++ {
		t := int64(r.Uint32()) % (j + 1)
		if chosen[t] {
			t = j
		}
		chosen[t] = true
	}
	set := make([]int64, 0, pages)
	for p := range chosen {
		set = append(set, startPage+p)
	}
	slices.Sort(set)
	// Deal the rows over the pages: every page gets one, the rest at random;
	// each value's rows in TID order.
	owner := make([]int64, rows)
	for i := range owner {
		if int64(i) < pages {
			owner[i] = set[i]
		} else {
			owner[i] = set[int64(r.Uint32())%pages]
		}
	}
	if corr < 1 {
		for i := len(owner) - 1; i > 0; i-- { // Fisher–Yates: which value each row belongs to
			j := int(r.Uint32()) % (i + 1)
			owner[i], owner[j] = owner[j], owner[i]
		}
	}
	nkeys := to - from + 1
	var visits []pg.BlockNumber
	for v := int64(0); v < nkeys; v++ {
		group := owner[v*rows/nkeys : (v+1)*rows/nkeys]
		slices.Sort(group)
		for _, p := range group {
			visits = append(visits, pg.BlockNumber(p))
		}
	}
	return visits
}
