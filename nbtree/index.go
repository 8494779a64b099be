package nbtree

import (
	"iter"

	"github.com/google/btree"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
)

// Index is a btree on the implicit id column (1..rows in load order), or on
// another int key (NewOnKey). Its entries are numbered 0, 1, … in index
// order: entry e of an id index is key e+1. The block numbers are the
// metapage (0), then pages in the order they were made: a build's leaves,
// then each upper level; later, each page an insert adds. Only the identity
// of pages matters to the buffer manager.
type Index struct {
	// Name, Rel and ID are the index's name, its table and its storage; they
	// do not change after New.
	Name string
	Rel  *heap.Relation
	ID   pg.RelID

	keys   int64    // entries
	levels [][]page // the pages of each level left to right, leaves first; the last level is the root
	// space is, per level, the ordered map of its pages' low keys (space.go).
	space []*btree.BTreeG[sep]
	// right is, per level, the items on the rightmost page (keys on a leaf,
	// downlinks above); the others hold LeafKeys / InnerDownlinks.
	right  []int
	blocks int // pages in the relation, the metapage included
	// The inserting session's caches: the metapage (rd_amcache) and the
	// rightmost leaf (the fastpath's target block).
	metaCached bool
	cachedRoot pg.BlockNumber // the root the cached metapage names
	opened     bool           // the session has looked up the index's support functions
	fastpath   pg.BlockNumber
	// key is the layout of an index on a column other than id (nil for id).
	key *keyLayout
	// kt is the pages' keys of an index on a Hashed key (keyed.go), which
	// levels mirrors after each split (relayout).
	kt *keyedTree
}

// page is one page of a level: its block and the entry it starts at.
type page struct {
	blk   pg.BlockNumber
	first int64 // the index-order position of the first entry it covers
}

// New lays out the index CREATE INDEX builds on id over rel's rows
// (nbtsort.c): the leaves, then each level above, numbered after the
// metapage. An empty table gets the metapage alone; the first insert makes
// the root.
func New(name string, rel *heap.Relation, id pg.RelID) *Index {
	ix := &Index{Name: name, Rel: rel, ID: id, keys: rel.Rows, blocks: 1, fastpath: pg.InvalidBlockNumber}
	if ix.keys == 0 {
		return ix
	}
	n := int((ix.keys + LeafKeys - 1) / LeafKeys)
	firsts := make([]int64, n)
	for i := range firsts {
		firsts[i] = int64(i) * LeafKeys
	}
	ix.addLevels(firsts, int(ix.keys)-(n-1)*LeafKeys)
	return ix
}

// addLevels numbers a leaf per entry of firsts (the position of its first
// entry) after the pages so far, then each level above (InnerDownlinks
// downlinks a page) up to the root. right is the items on the rightmost
// leaf; each level records its rightmost page's count.
func (ix *Index) addLevels(firsts []int64, right int) {
	for {
		n := len(firsts)
		pages := make([]page, n)
		for i := range pages {
			pages[i] = page{blk: pg.BlockNumber(ix.blocks), first: firsts[i]}
			ix.blocks++
		}
		ix.pushLevel(pages, right)
		if n == 1 {
			return
		}
		above := (n + InnerDownlinks - 1) / InnerDownlinks
		right = n - (above-1)*InnerDownlinks
		up := make([]int64, above)
		for j := range up {
			up[j] = firsts[j*InnerDownlinks] // a page starts where its first child does
		}
		firsts = up
	}
}

// Pages is the index size: the metapage and every level.
func (ix *Index) Pages() int { return ix.blocks }

// Keys is the index's entries.
func (ix *Index) Keys() int64 { return ix.keys }

// Empty reports whether the index has no root yet (built on an empty table,
// nothing inserted since).
func (ix *Index) Empty() bool { return len(ix.levels) == 0 }

// Height is the root's level (_bt_getrootheight): 0 for a root leaf, and
// for an empty index.
func (ix *Index) Height() int { return max(len(ix.levels)-1, 0) }

// Levels is the pages on each level, leaves first, the root last.
func (ix *Index) Levels() []int {
	var out []int
	for _, lv := range ix.levels {
		out = append(out, len(lv))
	}
	return out
}

// Leaves is the number of leaf pages.
func (ix *Index) Leaves() int {
	if len(ix.levels) == 0 {
		return 0
	}
	return len(ix.levels[0])
}

// Block is the block number of page i (0-based, left to right) of level lv.
func (ix *Index) Block(lv, i int) pg.BlockNumber { return ix.levels[lv][i].blk }

// LeafOf is the leaf holding id k (k ≥ 1) of an id index. Every leaf but
// the rightmost holds LeafKeys keys; the rightmost holds the rest (up to
// MaxItems before it splits).
func (ix *Index) LeafOf(k int64) int { return ix.LeafOfPos(k - 1) }

// LeafOfPos is the leaf holding entry pos (pos ≥ 0, index order): the
// ordered search of the leaves' low keys (−1 when the index is empty).
func (ix *Index) LeafOfPos(pos int64) int {
	if len(ix.levels) == 0 {
		return -1
	}
	return ix.floor(0, pos)
}

// Path is root to leaf's parent: the pages _bt_search reads before the
// leaf, each the page of its level whose range holds the leaf's first entry.
func (ix *Index) Path(leaf int) []pg.BlockNumber {
	var out []pg.BlockNumber
	first := ix.levels[0][leaf].first
	for lv := 1; lv < len(ix.levels); lv++ {
		out = append([]pg.BlockNumber{ix.levels[lv][ix.floor(lv, first)].blk}, out...)
	}
	return out
}

// LeafEntries is leaf i's entries, as positions in index order [lo, hi):
// from its first entry to the next leaf's (the rightmost leaf: to the end).
func (ix *Index) LeafEntries(i int) (lo, hi int64) {
	lo, hi = ix.levels[0][i].first, ix.keys
	if i+1 < len(ix.levels[0]) {
		hi = ix.levels[0][i+1].first
	}
	return lo, hi
}

// HeapBlockOf is the heap page of the index's e-th entry (0-based, index
// order) in a table of tpp tuples a page: ids are in heap order. A declared
// key's entries are in (key, TID) order, its heap pages drawn per scan: an
// index-only scan over it that must visit the heap is not modelled
// (HeapBlockOf is then the id order).
func (ix *Index) HeapBlockOf(e, tpp int64) pg.BlockNumber { return pg.BlockNumber(e / tpp) }

// Correlation is the index column's pg_statistic correlation after ANALYZE:
// ids are inserted in heap order (1); a declared key has its declared one.
func (ix *Index) Correlation() float64 {
	if ix.key != nil {
		return ix.key.Correlation
	}
	return 1
}

// BuildPages is each page CREATE INDEX writes, in the order _bt_blwritepage
// logs them (the levels bottom-up, each left to right, the metapage last),
// with the hole of its image: the rightmost page of a level has no high key
// and only what is left; a key index's leaves have their posting lists.
func (ix *Index) BuildPages() iter.Seq2[pg.BlockNumber, int] {
	return func(yield func(pg.BlockNumber, int) bool) {
		for lv, pages := range ix.levels {
			n := len(pages)
			for i := 0; i < n; i++ {
				items := LeafItems
				if lv > 0 {
					items = InnerItems
				}
				if i == n-1 {
					items = ix.right[lv]
				}
				hole := ImageHole(items)
				if ix.key != nil && lv == 0 {
					hole = ix.key.leafHole(i)
				}
				if !yield(pages[i].blk, hole) {
					return
				}
			}
		}
		yield(MetaBlock, MetaImageHole)
	}
}

// StartSession forgets the previous session's caches (a statement is a new
// session): the metapage, the support functions, the fastpath block.
func (ix *Index) StartSession() {
	ix.metaCached, ix.opened = false, false
	ix.fastpath = pg.InvalidBlockNumber
}
