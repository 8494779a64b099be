package nbtree

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/google/btree"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
)

// # Random keys
//
// A key declared Hashed holds, for row id, hashint4(id) — PostgreSQL's own
// hash of the id (hash_bytes_uint32, hashfn.c), a pseudo-random int4 the
// server computes the same way, so a real table can hold the very values.
// Such an index keeps its real key values page by page (keyedTree): each
// insert descends to the leaf whose range holds its key and, on a full
// leaf, splits it where _bt_findsplitloc would (nbtsplitloc.c), so leaf
// occupancy and depth evolve as PostgreSQL's do under random inserts.

// HashInt4 is hashint4(v) (hashfunc.c: hash_uint32 of the int4, read back as
// an int4): hash_bytes_uint32's final mix of the one word (hashfn.c).
func HashInt4(v int32) int32 {
	a := uint32(0x9e3779b9) + 4 + 3923095
	b, c := a, a
	a += uint32(v)
	rot := bits.RotateLeft32
	c ^= b
	c -= rot(b, 14)
	a ^= c
	a -= rot(c, 11)
	b ^= a
	b -= rot(a, 25)
	c ^= b
	c -= rot(b, 16)
	a ^= c
	a -= rot(c, 4)
	b ^= a
	b -= rot(a, 14)
	c ^= b
	c -= rot(b, 24)
	return int32(c)
}

// RowKey is the key of row id (1-based, load order) under a Hashed key.
func RowKey(id int64) int64 { return int64(HashInt4(int32(id))) }

// kpage is one page of a keyed tree: its block, its low key (minus
// infinity for the leftmost page of a level) and its items in order — on a
// leaf its keys, each with the heap TIDs its tuple holds (tids: 1 for a
// plain tuple, more for a posting list), above its downlinks, each the low
// key of its child.
type kpage struct {
	blk  pg.BlockNumber
	low  int64
	keys []int64
	tids []int32 // leaves only
	// bytes is the items' bytes with their line pointers, ents a leaf's
	// heap TIDs (recount).
	bytes int
	ents  int64
}

// recount sets bytes from the items.
func (p *kpage) recount() *kpage {
	p.bytes, p.ents = 0, 0
	for i := range p.keys {
		p.bytes += p.itemSize(i)
		if p.tids != nil {
			p.ents += int64(p.tids[i])
		}
	}
	return p
}

func kpageLess(a, b *kpage) bool { return a.low < b.low }

// keyedTree is the pages of each level of an index on a Hashed key,
// ordered by low key (leaves first).
type keyedTree struct {
	levels []*btree.BTreeG[*kpage]
	byBlk  map[pg.BlockNumber]*kpage
	probe  kpage // the search key of floor and next, not allocated each time
}

// floor is the page of level lv whose range holds key k: the last page
// whose low key is at or below it (_bt_binsrch's choice of downlink).
func (t *keyedTree) floor(lv int, k int64) *kpage {
	var found *kpage
	t.probe.low = k
	t.levels[lv].DescendLessOrEqual(&t.probe, func(p *kpage) bool {
		found = p
		return false
	})
	return found
}

// next is the page right of p on level lv (nil for the rightmost).
func (t *keyedTree) next(lv int, p *kpage) *kpage {
	var found *kpage
	t.probe.low = p.low + 1
	t.levels[lv].AscendGreaterOrEqual(&t.probe, func(q *kpage) bool {
		found = q
		return false
	})
	return found
}

func (t *keyedTree) rightmost(lv int, p *kpage) bool {
	m, _ := t.levels[lv].Max()
	return m == p
}

func (t *keyedTree) add(lv int, p *kpage) {
	for len(t.levels) <= lv {
		t.levels = append(t.levels, btree.NewG(spaceDegree, kpageLess))
	}
	t.levels[lv].ReplaceOrInsert(p)
	t.byBlk[p.blk] = p
}

// postingSize is a leaf tuple holding n heap TIDs with its line pointer: a
// plain 16-byte tuple, or a posting list (the key MAXALIGNed to 16 bytes,
// then 6 bytes a TID, MAXALIGNed).
func postingSize(n int32) int {
	if n == 1 {
		return ItemSize
	}
	return pg.MaxAlign(16+6*int(n)) + 4
}

// itemSize is item i of page p with its line pointer. A page above the
// leaves has its first downlink truncated to its IndexTupleData, 8 bytes
// ("minus infinity": _bt_sortaddtup in a build, _bt_split's right page).
func (p *kpage) itemSize(i int) int {
	if p.tids == nil {
		if i == 0 {
			return 8 + 4
		}
		return ItemSize
	}
	return postingSize(p.tids[i])
}

// used is the bytes p's items take, its high key's (a 16-byte pivot: one
// key, no heap TID, no posting list) included when it is not the rightmost.
func (t *keyedTree) used(lv int, p *kpage) int {
	n := p.bytes
	if !t.rightmost(lv, p) {
		n += ItemSize
	}
	return n
}

// fits reports whether p takes one more plain tuple: PageGetFreeSpace (the
// free bytes less a line pointer) at least its 16 bytes (_bt_findinsertloc).
func (t *keyedTree) fits(lv int, p *kpage) bool { return 8152-t.used(lv, p)-4 >= 16 }

// hashedKeys is the sorted keys of rows 1..rows under a Hashed key.
func hashedKeys(rows int64) []int64 {
	ks := make([]int64, rows)
	for i := range ks {
		ks[i] = RowKey(int64(i) + 1)
	}
	slices.Sort(ks)
	return ks
}

// buildKeyed makes the keyed tree of the index CREATE INDEX built: the
// leaves hold the sorted keys as the build cut them (leafStart), equal keys
// in one posting list, each level above the low keys of the pages below as
// addLevels grouped them.
func (ix *Index) buildKeyed(keys []int64) {
	t := &keyedTree{byBlk: map[pg.BlockNumber]*kpage{}}
	lowAt := func(pos int64) int64 {
		if pos == 0 {
			return math.MinInt64
		}
		return keys[pos]
	}
	for _, pages := range ix.levels {
		for i, pgi := range pages {
			p := &kpage{blk: pgi.blk, low: math.MinInt64}
			if i > 0 {
				p.low = lowAt(pgi.first)
			}
			t.byBlk[p.blk] = p
		}
	}
	for lv, pages := range ix.levels {
		for i, pgi := range pages {
			p := t.byBlk[pgi.blk]
			t.add(lv, p)
			end := int64(len(keys))
			if i+1 < len(pages) {
				end = pages[i+1].first
			}
			if lv == 0 {
				p.tids = []int32{}
				for _, k := range keys[pgi.first:end] {
					if n := len(p.keys); n > 0 && p.keys[n-1] == k {
						p.tids[n-1]++
						continue
					}
					p.keys = append(p.keys, k)
					p.tids = append(p.tids, 1)
				}
				p.recount()
				continue
			}
			t.levels[lv-1].AscendGreaterOrEqual(&kpage{low: p.low}, func(c *kpage) bool {
				if i+1 < len(pages) && c.low >= lowAt(pages[i+1].first) {
					return false
				}
				p.keys = append(p.keys, c.low)
				return true
			})
			p.recount()
		}
	}
	ix.kt = t
}

// relayout rebuilds the positional levels (Leaves, Block, Path, LeafEntries)
// from the keyed tree after a page was added: a leaf's first entry is the
// heap TIDs left of it, a page above starts where its first child does.
func (ix *Index) relayout() {
	ix.levels, ix.right, ix.space = nil, nil, nil
	for lv, lvl := range ix.kt.levels {
		var pages []page
		var pos int64
		k := 0
		lvl.Ascend(func(p *kpage) bool {
			if lv == 0 {
				pages = append(pages, page{blk: p.blk, first: pos})
				pos += p.ents
			} else {
				pages = append(pages, page{blk: p.blk, first: ix.levels[lv-1][k].first})
				k += len(p.keys)
			}
			return true
		})
		last, _ := lvl.Max()
		ix.pushLevel(pages, len(last.keys))
	}
}

// insertKeyed is _bt_doinsert of key k into an index on a Hashed key: the
// cached rightmost leaf when the key belongs there and it has room
// (_bt_search_insert's fastpath), else the descent from the root; then the
// leaf gets the tuple (_bt_insertonpg: XLOG_BTREE_INSERT_LEAF) or splits.
func (ix *Index) insertKeyed(w *Writer, k int64) error {
	t := ix.kt
	if ix.fastpath != pg.InvalidBlockNumber {
		lb, err := ix.pin(w, ix.fastpath)
		if err != nil {
			return err
		}
		p := t.byBlk[ix.fastpath]
		// _bt_search_insert: more free space than the tuple (PageGetFreeSpace > itemsz).
		if p != nil && t.rightmost(0, p) && len(p.keys) > 0 && k > p.keys[0] && 8152-t.used(0, p)-4 > 16 {
			return ix.leafInsert(w, p, lb, k)
		}
		w.Pool.Unpin(w.Backend, lb)
		ix.fastpath = pg.InvalidBlockNumber
	}
	if err := ix.readMeta(w); err != nil {
		return err
	}
	height := len(t.levels) - 1
	for lv := height; lv >= 1; lv-- {
		b, err := ix.pin(w, t.floor(lv, k).blk)
		if err != nil {
			return err
		}
		w.Pool.Unpin(w.Backend, b)
	}
	p := t.floor(0, k)
	lb, err := ix.pin(w, p.blk)
	if err != nil {
		return err
	}
	return ix.leafInsert(w, p, lb, k)
}

// leafInsert puts k on leaf p (pinned as lb) as a plain tuple after its
// equals (its heap TID is the highest): in place when it has room; else,
// from 13, _bt_dedup_pass first merges the page's equal keys into posting
// lists (XLOG_BTREE_DEDUP), and when that leaves no room, a split.
func (ix *Index) leafInsert(w *Writer, p *kpage, lb pg.Buffer, k int64) error {
	t := ix.kt
	pos, _ := slices.BinarySearch(p.keys, k+1)
	if ix.key.Unique && pos > 0 && p.keys[pos-1] == k {
		w.Pool.Unpin(w.Backend, lb)
		return fmt.Errorf("duplicate key value violates unique constraint %q: row %d's hashint4 key %d is already in the index", ix.Name, ix.keys+1, k)
	}
	ix.keys++
	if !t.fits(0, p) && !ix.key.Unique { // 13+: every simulated version
		ix.dedup(w, p, lb)
		pos, _ = slices.BinarySearch(p.keys, k+1)
	}
	if t.fits(0, p) {
		p.keys = slices.Insert(p.keys, pos, k)
		p.tids = slices.Insert(p.tids, pos, 1)
		p.bytes += ItemSize
		p.ents++
		ix.changeKeyed(w, lb, pg.InvalidBuffer, InsertLeafLen, tupleBytes, 8152-t.used(0, p))
		if t.rightmost(0, p) && len(t.levels)-1 >= fastpathMinLevel {
			ix.fastpath = p.blk
		}
		w.Pool.Unpin(w.Backend, lb)
		return nil
	}
	err := ix.splitKeyed(w, 0, p, lb, pg.InvalidBuffer, pos, k)
	w.Pool.Unpin(w.Backend, lb)
	if err == nil {
		ix.relayout()
	}
	return err
}

// dedup is _bt_dedup_pass on full leaf p: each run of equal keys (plain
// tuples and posting lists) becomes one posting list of up to 132 TIDs (an
// interval), logged as XLOG_BTREE_DEDUP (xl_btree_dedup's nintervals, the
// intervals as block data, 4 bytes each); a page without equal keys is left
// alone, unlogged.
func (ix *Index) dedup(w *Writer, p *kpage, lb pg.Buffer) {
	var keys []int64
	var tids []int32
	intervals := 0
	for i := 0; i < len(p.keys); {
		j, n := i, int32(0)
		for j < len(p.keys) && p.keys[j] == p.keys[i] && int(n+p.tids[j]) <= postingMaxTIDs {
			n += p.tids[j]
			j++
		}
		if j-i > 1 {
			intervals++
		}
		keys, tids = append(keys, p.keys[i]), append(tids, n)
		i = j
	}
	if intervals == 0 {
		return
	}
	p.keys, p.tids = keys, tids
	p.recount()
	data := 4 * intervals
	ix.changeKeyed(w, lb, pg.InvalidBuffer, wal.SizeOfXLogRecord+blockRef+wal.SizeOfShortMainDataHdr+2+data, data, 8152-ix.kt.used(0, p))
}

// changeKeyed is change for a page whose hole is known: b (and other)
// dirtied, the record logged with b's image in place of its data bytes when
// b was last logged before the redo pointer.
func (ix *Index) changeKeyed(w *Writer, b, other pg.Buffer, size, data, hole int) {
	p, be := w.Pool, w.Backend
	p.MarkBufferDirty(be, b)
	fpi := 0
	if w.FullPageWrites && p.BufferLSN(b) <= w.WAL.RedoRecPtr() {
		size += wal.SizeOfBlockImageHeader + w.Engine.ImageLen(b, hole) - data
		fpi = 1
	}
	if other != pg.InvalidBuffer {
		p.MarkBufferDirty(be, other)
	}
	lsn, now := w.WAL.Insert(be.Now, &be.WAL, size, fpi)
	be.Now = now
	p.SetPageLSN(b, lsn)
	if other != pg.InvalidBuffer {
		p.SetPageLSN(other, lsn)
	}
}

// SplitPoint is _bt_findsplitloc's choice for a page whose items, with
// their line pointers and the new one at newPos included, have sizes
// (hikey: the page's high key with its line pointer, 0 on the rightmost
// page): how many items the left page keeps. Every legal split point is
// tried in page order (_bt_recsplitloc: the left page pays for its new high
// key, the first right item, on a leaf sized as if it kept a heap TID and
// less a large posting list; above, the right page's first downlink loses
// its key), each with its delta between the two sides' free space
// (leftfree−rightfree, or on a rightmost page fillfactor·leftfree −
// (1−fillfactor)·rightfree: 90 for a leaf, the index's default, 70 above,
// BTREE_NONLEAF_FILLFACTOR), sorted by delta (_bt_deltasortsplits; between
// equal deltas page order, qsort's own order not modelled). On a leaf,
// among the splits within 5% of the best one's free space
// (_bt_defaultinterval) the first whose last left and first right keys
// differ wins (_bt_bestsplitloc's penalty); sameKey(i) reports whether
// items i−1 and i have equal keys. _bt_afternewitemoff never applies to a
// one-column index; a page of one key's duplicates (the many-duplicates
// and single-value strategies) does not arise with hashint4 keys, and
// takes the best delta.
func SplitPoint(sizes []int, newPos, hikey int, leaf, rightmost bool, sameKey func(i int) bool) (left int) {
	type split struct{ left, leftfree, rightfree, delta int }
	var splits []split
	newSize := sizes[newPos]
	total := 0
	for _, sz := range sizes {
		total += sz
	}
	oldTotal := total - newSize
	leftspace, rightspace := 8152, 8152-hikey
	toLeft := 0 // the items' bytes left of the split
	for l := 1; l < len(sizes); l++ {
		toLeft += sizes[l-1]
		first := sizes[l]
		leftfree, rightfree := leftspace-toLeft, rightspace-(total-toLeft)
		if leaf {
			posting := 0
			if l != newPos && first > 64 {
				posting = first - 4 - 16 // the TIDs a truncated high key leaves out
			}
			leftfree -= first + 8 - posting
		} else {
			leftfree -= first
			rightfree += first - (8 + 4)
		}
		if leftfree < 0 || rightfree < 0 {
			continue
		}
		var delta int
		switch {
		case rightmost && leaf:
			delta = int(int16(0.9*float64(leftfree) - 0.1*float64(rightfree)))
		case rightmost:
			delta = int(int16(0.7*float64(leftfree) - 0.3*float64(rightfree)))
		default:
			delta = leftfree - rightfree
		}
		splits = append(splits, split{l, leftfree, rightfree, max(delta, -delta)})
	}
	if len(splits) == 0 {
		return -1
	}
	slices.SortStableFunc(splits, func(a, b split) int { return a.delta - b.delta })
	if !leaf {
		return splits[0].left
	}
	tol := int(int16(float64(oldTotal) * 0.050))
	best := splits[0]
	for _, sp := range splits {
		if sp.leftfree < best.leftfree-tol || sp.rightfree < best.rightfree-tol ||
			sp.leftfree > best.leftfree+tol || sp.rightfree > best.rightfree+tol {
			break
		}
		if !sameKey(sp.left) {
			return sp.left
		}
	}
	return best.left
}

// splitKeyed is _bt_split of page p on level lv (pinned as b) taking key k
// at position pos: the left half stays in place, the right half goes to a
// new page (_bt_getbuf(P_NEW): the index has no free pages, so it is
// extended), the old right sibling's left link is changed, and one
// XLOG_BTREE_SPLIT_L or _R is logged; then the parent gets the downlink
// (_bt_insert_parent), or a split root a new root. child is the page whose
// split this downlink completes (above the leaves: its incomplete-split
// flag cleared in the same record).
func (ix *Index) splitKeyed(w *Writer, lv int, p *kpage, b, child pg.Buffer, pos int, k int64) error {
	t := ix.kt
	rightmost := t.rightmost(lv, p)
	keys := slices.Insert(slices.Clone(p.keys), pos, k)
	var tids []int32
	if p.tids != nil {
		tids = slices.Insert(slices.Clone(p.tids), pos, 1)
	}
	all := &kpage{keys: keys, tids: tids}
	sizes := make([]int, len(keys))
	for i := range sizes {
		sizes[i] = all.itemSize(i)
	}
	hikey := 0
	if !rightmost {
		hikey = ItemSize
	}
	left := SplitPoint(sizes, pos, hikey, lv == 0, rightmost, func(i int) bool { return keys[i-1] == keys[i] })
	newOnLeft := pos < left
	rb, rblk, err := ix.newPage(w)
	if err != nil {
		return err
	}
	var sib *kpage
	sb := pg.InvalidBuffer
	if !rightmost {
		sib = t.next(lv, p)
		if sb, err = ix.pin(w, sib.blk); err != nil {
			return err
		}
	}
	rp := &kpage{blk: rblk, low: keys[left], keys: slices.Clone(keys[left:])}
	p.keys = keys[:left:left]
	if tids != nil {
		rp.tids = slices.Clone(tids[left:])
		p.tids = tids[:left:left]
	}
	p.recount()
	t.add(lv, rp.recount())
	// The record: xl_btree_split, the left page (its new high key, the new
	// item when it went left), the right page's tuples (its high key
	// included), the sibling and the child by reference.
	rightBytes := t.used(lv, rp) - 4*len(rp.keys)
	if !rightmost {
		rightBytes -= 4 // the high key's line pointer
	}
	size := wal.SizeOfXLogRecord + blockRef + sameRelRef + wal.SizeOfShortMainDataHdr + 10 + tupleBytes + rightBytes
	leftData := tupleBytes
	if newOnLeft {
		size += tupleBytes
		leftData += tupleBytes
	}
	if sb != pg.InvalidBuffer {
		size += sameRelRef
	}
	if child != pg.InvalidBuffer {
		size += sameRelRef
	}
	pl, be := w.Pool, w.Backend
	fpi := 0
	image := func(buf pg.Buffer, hole, data int) {
		if w.FullPageWrites && pl.BufferLSN(buf) <= w.WAL.RedoRecPtr() {
			size += wal.SizeOfBlockImageHeader + w.Engine.ImageLen(buf, hole) - data
			fpi++
		}
	}
	pl.MarkBufferDirty(be, b)
	pl.MarkBufferDirty(be, rb)
	image(b, 8152-t.used(lv, p), leftData)
	if sb != pg.InvalidBuffer {
		pl.MarkBufferDirty(be, sb)
		image(sb, 8152-t.used(lv, sib), 0)
	}
	if child != pg.InvalidBuffer {
		pl.MarkBufferDirty(be, child) // just split below: logged after the redo pointer
	}
	lsn, now := w.WAL.Insert(be.Now, &be.WAL, size, fpi)
	be.Now = now
	for _, x := range []pg.Buffer{b, rb, sb, child} {
		if x != pg.InvalidBuffer {
			pl.SetPageLSN(x, lsn)
		}
	}
	if sb != pg.InvalidBuffer {
		pl.Unpin(be, sb)
	}
	pl.Unpin(be, rb)
	if lv+1 == len(t.levels) {
		return ix.newRootKeyed(w, lv, p, rp)
	}
	// _bt_insert_parent: the parent found again from the descent's stack
	// (_bt_getstackbuf reads it), the downlink inserted after p's.
	pp := t.floor(lv+1, p.low)
	pb, err := ix.pin(w, pp.blk)
	if err != nil {
		return err
	}
	defer pl.Unpin(be, pb)
	ppos, _ := slices.BinarySearch(pp.keys, rp.low)
	if t.fits(lv+1, pp) {
		pp.keys = slices.Insert(pp.keys, ppos, rp.low)
		pp.recount()
		ix.changeKeyed(w, pb, b, InsertUpperLen, tupleBytes, 8152-t.used(lv+1, pp))
		return nil
	}
	return ix.splitKeyed(w, lv+1, pp, pb, b, ppos, rp.low)
}

// newRootKeyed is _bt_newroot above a split root: a new page on a new top
// level holding downlinks to the two halves, the metapage pointing at it
// (XLOG_BTREE_NEWROOT).
func (ix *Index) newRootKeyed(w *Writer, lv int, l, r *kpage) error {
	blk, err := ix.logNewRoot(w, NewRootLen)
	if err != nil {
		return err
	}
	ix.kt.add(lv+1, (&kpage{blk: blk, low: math.MinInt64, keys: []int64{l.low, r.low}}).recount())
	return nil
}

// insertHashed is btinsert of the next row's key into an index on a Hashed
// key (the load's next id is the entries so far plus one): an empty index
// first gets its root leaf (_bt_getroot(BT_WRITE)).
func (ix *Index) insertHashed(w *Writer) error {
	if ix.kt == nil {
		ix.kt = &keyedTree{byBlk: map[pg.BlockNumber]*kpage{}}
	}
	if len(ix.kt.levels) == 0 {
		blk, err := ix.logNewRoot(w, NewRootLeafLen)
		if err != nil {
			return err
		}
		ix.kt.add(0, &kpage{blk: blk, low: math.MinInt64})
		ix.relayout()
		ix.cachedRoot = blk
	}
	if ix.keys >= MaxHashedRows {
		return fmt.Errorf("%s: the model keeps every hashint4 key: at most %d rows", ix.Name, MaxHashedRows)
	}
	return ix.insertKeyed(w, RowKey(ix.keys+1))
}

// MaxHashedRows is the most rows an index on a Hashed key takes: the model
// keeps each key (12 bytes), and ids stay within int4 far below it.
const MaxHashedRows = 50_000_000

// CheckKeyed checks an index on a Hashed key: each level's pages in low-key
// order hold sorted items within their ranges, and the positional levels
// mirror them (for tests).
func CheckKeyed(ix *Index) error {
	t := ix.kt
	if t == nil {
		return fmt.Errorf("%s: not an index on a hashed key", ix.Name)
	}
	for lv, lvl := range t.levels {
		var prev *kpage
		i := 0
		var err error
		lvl.Ascend(func(p *kpage) bool {
			if !slices.IsSorted(p.keys) {
				err = fmt.Errorf("level %d page %d: items out of order", lv, p.blk)
			}
			if len(p.keys) > 0 && p.keys[0] < p.low {
				err = fmt.Errorf("level %d page %d: item %d below its low key %d", lv, p.blk, p.keys[0], p.low)
			}
			if prev != nil && len(prev.keys) > 0 && prev.keys[len(prev.keys)-1] > p.low {
				err = fmt.Errorf("level %d page %d: the page left of it holds %d, above its low key %d", lv, p.blk, prev.keys[len(prev.keys)-1], p.low)
			}
			if ix.levels[lv][i].blk != p.blk {
				err = fmt.Errorf("level %d: page %d is block %d in the positional levels, %d in the keyed tree", lv, i, ix.levels[lv][i].blk, p.blk)
			}
			prev = p
			i++
			return err == nil
		})
		if err != nil {
			return err
		}
		if lv > 0 {
			n := 0
			lvl.Ascend(func(p *kpage) bool { n += len(p.keys); return true })
			if n != t.levels[lv-1].Len() {
				return fmt.Errorf("level %d: %d downlinks for %d pages below", lv, n, t.levels[lv-1].Len())
			}
		}
	}
	return nil
}

// HashedDuplicate reports two rows among 1..rows whose hashint4 keys are
// equal (the first such pair in key order), as a unique build's sort finds.
func HashedDuplicate(rows int64) (a, b int64, dup bool) {
	type kr struct{ k, id int64 }
	ks := make([]kr, rows)
	for i := range ks {
		ks[i] = kr{RowKey(int64(i) + 1), int64(i) + 1}
	}
	slices.SortFunc(ks, func(x, y kr) int {
		if x.k != y.k {
			return cmpInt(x.k, y.k)
		}
		return cmpInt(x.id, y.id)
	})
	for i := 1; i < len(ks); i++ {
		if ks[i].k == ks[i-1].k {
			return ks[i-1].id, ks[i].id, true
		}
	}
	return 0, 0, false
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// newHashed lays out CREATE INDEX on a Hashed key: the rows' keys sorted,
// equal ones in posting lists (postingItems), the leaves cut as
// _bt_buildadd cuts them (nbtsort.c) — before adding an item, a leaf whose
// free space (PageGetFreeSpace) is below the item and a heap TID, or below
// the fillfactor's reserve once its last item is truncated to a high key
// (last_truncextra: a posting list's TIDs), is finished, and its last item
// moves to the next leaf, its copy left behind as the high key — then the
// levels above.
func (ix *Index) newHashed(kl *keyLayout) {
	keys := hashedKeys(ix.Rel.Rows)
	leafStart := []int64{0}
	used, n, last, lastTIDs, lastExtra := 0, 0, 0, int64(0), 0
	var pos int64
	var sizes []int
	var tids []int64
	for h := 0; h < len(keys); {
		e := h + 1
		for e < len(keys) && keys[e] == keys[h] {
			e++
		}
		sizes, tids = postingItems(int64(e-h), sizes[:0], tids[:0])
		for i, sz := range sizes {
			free := leafSpace - used // PageGetFreeSpace: the high key's line pointer and the next item's
			if n > 0 && (free < sz-4+8 || (free+lastExtra < 819 && n > 1)) {
				kl.leafBytes = append(kl.leafBytes, used-last+ItemSize)
				leafStart = append(leafStart, pos-lastTIDs)
				used, n = last, 1
			}
			used += sz
			n++
			last, lastTIDs, lastExtra = sz, tids[i], sz-4-plainTupleBytes
			pos += tids[i]
		}
		h = e
	}
	kl.leafBytes = append(kl.leafBytes, used)
	ix.addLevels(leafStart, 0)
	ix.buildKeyed(keys)
	kl.Distinct = int64(len(slices.Compact(slices.Clone(keys))))
}

// keyedPageBytes fills p with page blk of an index on a Hashed key as
// PageBytes does: the high key first when not rightmost, then each item
// with its key (a posting list's TIDs after it). The model keeps no heap
// TIDs: a leaf item's are written as item numbers on block 0.
func (ix *Index) keyedPageBytes(p []byte, blk pg.BlockNumber) []byte {
	t := ix.kt
	kp := t.byBlk[blk]
	if kp == nil {
		return p
	}
	lv := 0
	for l := range t.levels {
		if g, ok := t.levels[l].Get(kp); ok && g == kp {
			lv = l
		}
	}
	type item struct {
		key  int64
		size int
	}
	var items []item
	if nx := t.next(lv, kp); nx != nil {
		items = append(items, item{nx.low, ItemSize}) // the high key: the right sibling's low key
	}
	for i, k := range kp.keys {
		items = append(items, item{k, kp.itemSize(i)})
	}
	upper := pg.BLCKSZ - 16
	for j, it := range items {
		sz := it.size - 4
		upper -= sz
		tup := p[upper : upper+sz]
		binary.LittleEndian.PutUint16(tup[4:], uint16(j+1))
		binary.LittleEndian.PutUint16(tup[6:], uint16(sz))
		if sz > 8 {
			binary.LittleEndian.PutUint32(tup[8:], uint32(it.key))
		}
		binary.LittleEndian.PutUint32(p[heap.SizeOfPageHeaderData+4*j:], uint32(upper)|1<<15|uint32(sz)<<17)
	}
	binary.LittleEndian.PutUint16(p[12:], uint16(heap.SizeOfPageHeaderData+4*len(items)))
	binary.LittleEndian.PutUint16(p[14:], uint16(upper))
	flags := uint16(0)
	if lv == 0 {
		flags |= 1 // BTP_LEAF
	}
	if lv == len(t.levels)-1 {
		flags |= 2 // BTP_ROOT
	}
	binary.LittleEndian.PutUint32(p[pg.BLCKSZ-8:], uint32(lv))
	binary.LittleEndian.PutUint16(p[pg.BLCKSZ-4:], flags)
	return p
}
