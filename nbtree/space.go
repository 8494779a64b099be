package nbtree

import (
	"math"

	"github.com/google/btree"
	"github.com/pgbufsim/pgbufsim/pg"
)

// # The ordered key space
//
// Each level's pages cover consecutive ranges of entries in index order. A
// level's space maps each page's low key — the position of the first entry
// it covers — to the page's place on the level, in a google/btree ordered
// by low key. The leftmost page is stored at minus infinity, as P_LEFTMOST
// pages treat their first downlink (nbtsearch.c: _bt_compare's "minus
// infinity" item). The page holding entry pos is then the last page whose
// low key is at or below pos — _bt_binsrch on an internal page — found by
// one ordered search. A split appends one separator (the new right page's
// low key); nothing about the search assumes the keys arrived in order.

// spaceDegree is the google/btree degree of a level's space: up to 63
// separators a node, so that a search of 100,000 leaves touches three nodes.
const spaceDegree = 32

// sep is one page's low key and its place on its level (0-based, left to right).
type sep struct {
	low int64
	pos int
}

func sepLess(a, b sep) bool { return a.low < b.low }

// lowKey is page i's low key in the space: its first entry, or minus
// infinity for the leftmost page.
func lowKey(i int, first int64) int64 {
	if i == 0 {
		return math.MinInt64
	}
	return first
}

// pushLevel adds a level above the others (the build's next level, or a new root).
func (ix *Index) pushLevel(pages []page, right int) {
	t := btree.NewG(spaceDegree, sepLess)
	for i, p := range pages {
		t.ReplaceOrInsert(sep{lowKey(i, p.first), i})
	}
	ix.levels = append(ix.levels, pages)
	ix.right = append(ix.right, right)
	ix.space = append(ix.space, t)
}

// appendPage adds block blk as the new rightmost page of level lv, covering
// entries from first on (the right half of a split of the rightmost page).
func (ix *Index) appendPage(lv int, blk pg.BlockNumber, first int64) {
	i := len(ix.levels[lv])
	ix.levels[lv] = append(ix.levels[lv], page{blk: blk, first: first})
	ix.space[lv].ReplaceOrInsert(sep{lowKey(i, first), i})
}

// floor is the place on level lv of the page whose range holds entry pos:
// the last page whose low key is at or below it.
func (ix *Index) floor(lv int, pos int64) int {
	found := -1
	ix.space[lv].DescendLessOrEqual(sep{low: pos}, func(s sep) bool {
		found = s.pos
		return false
	})
	return found
}
