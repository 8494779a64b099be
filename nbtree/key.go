package nbtree

import (
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
)

// Key declares a btree on a column other than the implicit id: an int4 key
// with Distinct values 1..Distinct (each value on rows/Distinct rows, the
// first rows mod Distinct values one more) and a Correlation between key
// order and heap order (pg_stats.correlation: 1 together, 0 anywhere).
//
// A Hashed key is instead hashint4(id) on each row (RowKey): pseudo-random
// int4 values, nearly all distinct, that the index keeps as rows are
// inserted (keyed.go); Distinct is then what the build counted.
type Key struct {
	Column      string
	Distinct    int64
	Correlation float64
	Hashed      bool
	// Unique is CREATE UNIQUE INDEX: an insert of a Hashed key already in
	// the index fails as _bt_check_unique does.
	Unique bool
}

// Entries is where value v's entries lie in (key, TID) order among rows
// rows: [start, end).
func (k *Key) Entries(rows, v int64) (start, end int64) {
	base, extra := rows/k.Distinct, rows%k.Distinct
	i := v - 1
	start = i*base + min(i, extra)
	end = start + base
	if i < extra {
		end++
	}
	return start, end
}

// keyLayout is a key index's declaration and what its leaves hold. Where a
// value's rows lie in the heap is drawn from the correlation by the scan
// that fetches them; the index's own layout follows from the entries:
// CREATE INDEX sorts them by (key, heap TID) and, with deduplication (13+),
// packs each value's TIDs into posting-list tuples (nbtdedup.c) before
// filling leaves to fillfactor 90 (_bt_buildadd).
type keyLayout struct {
	Key
	// leafBytes[i] is the space leaf i's items take (tuples and line pointers).
	leafBytes []int
}

// Posting lists built by CREATE INDEX are capped at 10% of a page less a line
// pointer (nbtsort.c: maxpostingsize = MAXALIGN_DOWN(BLCKSZ·10/100) −
// sizeof(ItemIdData) = 812 bytes). A posting tuple is the 16-byte key tuple
// plus 6 bytes per TID, MAXALIGNed: at most 132 TIDs (808 bytes).
const (
	postingMax      = 812
	postingMaxTIDs  = (postingMax - 16) / 6 // 132
	leafFillLimit   = 8144 - 819            // a leaf takes items while its items use less than this
	leafSpace       = 8144
	plainTupleBytes = 16
)

// postingItems appends the item sizes (tuple + line pointer) of one key's d
// TIDs and the number of TIDs of each, as the build's deduplication forms
// them (nbtsort.c: _bt_sort_dedup_finish_pending).
func postingItems(d int64, sizes []int, tids []int64) ([]int, []int64) {
	for d > 0 {
		n := min(d, postingMaxTIDs)
		sz := plainTupleBytes
		if n > 1 {
			sz = pg.MaxAlign(16 + 6*int(n))
		}
		sizes = append(sizes, sz+4)
		tids = append(tids, n)
		d -= n
	}
	return sizes, tids
}

// NewOnKey lays out the index CREATE INDEX builds on key k over rel's rows:
// the leaves their posting lists fill, then each level above.
func NewOnKey(name string, rel *heap.Relation, id pg.RelID, k Key) *Index {
	ix := &Index{Name: name, Rel: rel, ID: id, keys: rel.Rows, blocks: 1, fastpath: pg.InvalidBlockNumber}
	kl := &keyLayout{Key: k}
	ix.key = kl
	if rel.Rows == 0 {
		return ix
	}
	used, pos := 0, int64(0)
	leafStart := []int64{0}
	var sizes []int
	var tids []int64
	if k.Hashed {
		ix.newHashed(kl)
		return ix
	}
	base, extra := rel.Rows/k.Distinct, rel.Rows%k.Distinct
	for v := int64(0); v < k.Distinct; v++ {
		d := base
		if v < extra {
			d++
		}
		sizes, tids = postingItems(d, sizes[:0], tids[:0])
		for i, sz := range sizes {
			// A new leaf once this one's items reach the fillfactor limit or
			// the item would not fit; the item that ends a leaf also gives
			// its high key (a truncated copy), so it starts the next one.
			if used >= leafFillLimit || used+sz > leafSpace {
				kl.leafBytes = append(kl.leafBytes, used)
				leafStart = append(leafStart, pos)
				used = 0
			}
			used += sz
			pos += tids[i]
		}
	}
	kl.leafBytes = append(kl.leafBytes, used)
	ix.addLevels(leafStart, 0) // leaves: their holes come from leafBytes
	return ix
}

// Key is the declaration of an index on a column other than id (nil for an
// id index), not to be changed.
// Column is the indexed column's name: the key's, else id.
func (ix *Index) Column() string {
	if k := ix.Key(); k != nil {
		return k.Column
	}
	return "id"
}

func (ix *Index) Key() *Key {
	if ix.key == nil {
		return nil
	}
	return &ix.key.Key
}

// leafHole is the hole of leaf i's image.
func (kl *keyLayout) leafHole(i int) int { return 8152 - kl.leafBytes[i] }
