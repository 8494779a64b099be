package oltp

import (
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/internal/engine"
	"github.com/pgbufsim/pgbufsim/nbtree"
	"github.com/pgbufsim/pgbufsim/pg"
)

// row is one row's state: where its current version is, its HOT chain
// there, its balance (what an UPDATE's record leaves out depends on the
// bytes) and whether a reader still has hint bits to set on it.
type row struct {
	cur uint32 // the block of the current version
	// rootGen is the page's prune count when the row's root tuple died
	// (a HOT update made the chain): the root is a redirect once the page
	// has been pruned since. staleGen is the prune count + 1 for which the
	// row's redirect root gained dead members (0: none).
	rootGen, staleGen uint32
	// upd is the transaction that last updated the row (0: the load,
	// frozen and hinted); hinted is whether a reader has hinted it since.
	upd     uint32
	balance int32
	hot     bool // the current version is a heap-only tuple (its root is not itself)
	hinted  bool
}

// entry is one index tuple of a row: the block of the chain root it
// points at, when the row left it, and whether a scan marked it LP_DEAD.
type entry struct {
	blk uint32
	// gone is the transaction that moved the row off blk (0: its current
	// version is there): the chain is dead to all once gone is older than
	// every snapshot.
	gone   uint32
	killed bool
}

// Table is one pgbench table: its heap and primary key, and the per-page
// and per-row state OLTP traffic changes.
type Table struct {
	Name string
	Rel  *heap.Relation
	// Index is the primary key (nil for pgbench_history).
	Index *nbtree.Index
	// Key is the key column's name (aid, tid, bid).
	Key string
	// before and after are the data bytes before and after the int4 the
	// builtin scripts change (the balance), for log_heap_update's prefix and suffix.
	before, after int
	width         int // MAXALIGN(tuple length)
	pages         []page
	rows          []row // rows[k-1] is key k
	// ents holds the index entries of rows that have more than the one
	// CREATE INDEX made (a non-HOT update adds one), in TID order.
	ents  map[int64][]entry
	tpp   int64              // rows a page as COPY loaded them
	paths [][]pg.BlockNumber // per leaf, the pages above it (path)
	// leafItems is the items each leaf has gained (inserts less deletions);
	// garbage is BTP_HAS_GARBAGE.
	leafItems []int16
	garbage   []bool
	// stat is the counters only the OLTP executor keeps (the accesses are the pool's).
	stat TableStat
}

// TableStat is what pg_statio_user_tables and pg_stat_user_tables count
// for the table (the heap counts include its forks, the index counts sum
// its indexes), with the on-access prunes that logged a record.
type TableStat struct {
	engine.TableIO
	Ins, Upd, HotUpd int64
	SeqScan, IdxScan int64
	Prunes           int64
}

// Sub is the difference of two snapshots of the counters.
func (s TableStat) Sub(o TableStat) TableStat {
	return TableStat{engine.TableIO{HeapHit: s.HeapHit - o.HeapHit, HeapRead: s.HeapRead - o.HeapRead,
		IdxHit: s.IdxHit - o.IdxHit, IdxRead: s.IdxRead - o.IdxRead},
		s.Ins - o.Ins, s.Upd - o.Upd, s.HotUpd - o.HotUpd, s.SeqScan - o.SeqScan, s.IdxScan - o.IdxScan, s.Prunes - o.Prunes}
}

// newTable takes over a loaded table: row k on block (k−1)/tpp as COPY put it, every page full of live tuples.
func newTable(name, key string, rel *heap.Relation, ix *nbtree.Index, before, after int) *Table {
	t := &Table{Name: name, Rel: rel, Index: ix, Key: key, before: before, after: after,
		width: pg.MaxAlign(rel.Shape.TupleLen), ents: map[int64][]entry{}}
	t.tpp = int64(rel.Shape.TuplesPerPage())
	t.pages = make([]page, rel.NPages())
	for blk := range t.pages {
		n := uint16(rel.Tuples(pg.BlockNumber(blk)))
		t.pages[blk] = page{nline: n, live: n}
	}
	if key != "" {
		t.rows = make([]row, rel.Rows)
		for k := range t.rows {
			t.rows[k] = row{cur: uint32(int64(k) / t.tpp), hinted: true}
		}
	}
	if ix != nil {
		t.leafItems = make([]int16, ix.Leaves())
		t.garbage = make([]bool, ix.Leaves())
	}
	return t
}

// entries is row k's index entries in TID order.
func (t *Table) entries(k int64) []entry {
	if e, ok := t.ents[k]; ok {
		return e
	}
	tpp := int64(t.Rel.Shape.TuplesPerPage())
	return []entry{{blk: uint32((k - 1) / tpp)}}
}

// entriesInto copies row k's entries into buf (reusing its array).
func (t *Table) entriesInto(k int64, buf []entry) []entry {
	if e, ok := t.ents[k]; ok {
		return append(buf[:0], e...)
	}
	return append(buf[:0], entry{blk: t.baseBlock(k)})
}

// baseBlock is where COPY put row k.
func (t *Table) baseBlock(k int64) uint32 { return uint32((k - 1) / t.tpp) }

// leafOf is the leaf holding key k's entries: CREATE INDEX filled every
// leaf but the last with nbtree.LeafKeys keys, and no key is ever added
// (updates add entries for existing keys).
func (t *Table) leafOf(k int64) int { return min(int((k-1)/nbtree.LeafKeys), t.Index.Leaves()-1) }

// path is the pages _bt_search reads above leaf i, root first, cached.
func (t *Table) path(i int) []pg.BlockNumber {
	if t.paths == nil {
		t.paths = make([][]pg.BlockNumber, t.Index.Leaves())
	}
	if t.paths[i] == nil {
		t.paths[i] = t.Index.Path(i)
	}
	return t.paths[i]
}

// setEntries stores row k's entries.
func (t *Table) setEntries(k int64, e []entry) { t.ents[k] = e }

// hole is page blk's pd_upper − pd_lower, what its image leaves out.
func (t *Table) hole(blk pg.BlockNumber) int { return t.pages[blk].freeSpace(t.width) }

// leafItemsNow is the items on leaf i: what CREATE INDEX left (the high key
// included unless the leaf is the rightmost) plus what inserts added.
func (t *Table) leafItemsNow(i int) int {
	lo, hi := t.Index.LeafEntries(i)
	n := int(hi - lo)
	if i+1 < t.Index.Leaves() {
		n++
	}
	return n + int(t.leafItems[i])
}

// leafHole is leaf i's image hole.
func (t *Table) leafHole(i int) int { return nbtree.ImageHole(t.leafItemsNow(i)) }

// leafFree is the room left on leaf i for one more item (PageGetFreeSpace of a btree page).
func (t *Table) leafFree(i int) int { return 8152 - nbtree.ItemSize*t.leafItemsNow(i) }

// rowData is the row's data bytes after t_hoff with the given balance: the
// bytes before it (keys), the int4 little-endian, the blank-padded filler
// after it (its 1-byte varlena header included). Only equality of bytes
// matters, so the keys and filler are drawn as constants.
func (t *Table) rowData(buf []byte, balance int32) []byte {
	buf = buf[:0]
	for range t.before {
		buf = append(buf, 1)
	}
	u := uint32(balance)
	buf = append(buf, byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
	for range t.after {
		buf = append(buf, ' ')
	}
	return buf
}
