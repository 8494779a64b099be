package engine

import (
	"fmt"
	"slices"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
)

// A btree on a column other than the implicit id: an int4 key with a declared
// number of distinct values (each value on rows/distinct rows, the first
// rows mod distinct values one more) and a declared correlation between key
// order and heap order. Where a value's rows lie in the heap is drawn from
// the correlation (see keyHeapPages); the index's own layout follows from
// the entries: CREATE INDEX sorts them by (key, heap TID) and, with
// deduplication (13+), packs each value's TIDs into posting-list tuples
// (nbtdedup.c) before filling leaves to fillfactor 90 (_bt_buildadd).
type keyLayout struct {
	column      string
	distinct    int64
	correlation float64
	// leafStart[i] is the position, in (key, TID) order, of leaf i's first entry.
	leafStart []int64
	// leafBytes[i] is the space leaf i's items take (tuples and line pointers).
	leafBytes []int
}

// Posting lists built by CREATE INDEX are capped at 10% of a page less a line
// pointer (nbtsort.c: maxpostingsize = MAXALIGN_DOWN(BLCKSZ·10/100) −
// sizeof(ItemIdData) = 812 bytes). A posting tuple is the 16-byte key tuple
// plus 6 bytes per TID, MAXALIGNed: at most 132 TIDs (808 bytes).
const (
	btPostingMax      = 812
	btPostingMaxTIDs  = (btPostingMax - 16) / 6 // 132
	btLeafFillLimit   = 8144 - 819              // a leaf takes items while its items use less than this
	btLeafSpace       = 8144
	btPlainTupleBytes = 16
)

func maxalign(n int) int { return (n + 7) &^ 7 }

// postingItems appends the item sizes (tuple + line pointer) of one key's d
// TIDs and the number of TIDs of each.
func postingItems(d int64, sizes []int, tids []int64) ([]int, []int64) {
	for d > 0 {
		n := min(d, btPostingMaxTIDs)
		sz := btPlainTupleBytes
		if n > 1 {
			sz = maxalign(16 + 6*int(n))
		}
		sizes = append(sizes, sz+4)
		tids = append(tids, n)
		d -= n
	}
	return sizes, tids
}

// newKeyBtree lays out the leaves of an index on column over rel's rows.
func newKeyBtree(name string, rel *heap.Relation, id pg.RelID, column string, distinct int64, corr float64) *btreeIndex {
	ix := &btreeIndex{name: name, rel: rel, id: id, keys: rel.Rows, blocks: 1, fastpath: pg.InvalidBlockNumber}
	kl := &keyLayout{column: column, distinct: distinct, correlation: corr}
	ix.key = kl
	if rel.Rows == 0 {
		return ix
	}
	used, pos := 0, int64(0)
	kl.leafStart = append(kl.leafStart, 0)
	var sizes []int
	var tids []int64
	base, extra := rel.Rows/distinct, rel.Rows%distinct
	for k := int64(0); k < distinct; k++ {
		d := base
		if k < extra {
			d++
		}
		sizes, tids = postingItems(d, sizes[:0], tids[:0])
		for i, sz := range sizes {
			// A new leaf once this one's items reach the fillfactor limit or
			// the item would not fit; the item that ends a leaf also gives
			// its high key (a truncated copy), so it starts the next one.
			if used >= btLeafFillLimit || used+sz > btLeafSpace {
				kl.leafBytes = append(kl.leafBytes, used)
				kl.leafStart = append(kl.leafStart, pos)
				used = 0
			}
			used += sz
			pos += tids[i]
		}
	}
	kl.leafBytes = append(kl.leafBytes, used)
	ix.addLevels(len(kl.leafStart), 0) // leaves: their holes come from leafBytes
	return ix
}

// keyRows is where value k's entries lie in (key, TID) order: [start, end).
// Values are 1..distinct.
func (kl *keyLayout) keyRows(rows, k int64) (start, end int64) {
	base, extra := rows/kl.distinct, rows%kl.distinct
	i := k - 1
	start = i*base + min(i, extra)
	end = start + base
	if i < extra {
		end++
	}
	return start, end
}

// leafOfPos is the leaf holding entry pos.
func (kl *keyLayout) leafOfPos(pos int64) int {
	i, found := slices.BinarySearch(kl.leafStart, pos)
	if found {
		return i
	}
	return i - 1
}

// leafHole is the hole of leaf i's image.
func (kl *keyLayout) leafHole(i int) int { return 8152 - kl.leafBytes[i] }

// keyHeapPages is where the rows of values from..to lie, as the sequence of
// heap pages an index scan fetches them from, in index order: by value, and
// within a value by heap TID (nbtree keeps duplicates in TID order since
// PostgreSQL 12). The rows lie on pages distinct heap pages chosen within a
// span of the table that the correlation sets: span = pages + (N − pages)
// × (1 − |correlation|), placed where the values' rows would be if the
// table were in key order; correlation 1 gives consecutive pages, 0 the
// whole table. The rows are dealt over those pages in a random order (or in
// order, with correlation 1). The draw is seeded by the cluster's seed, the
// index and the values, so the same query meets the same pages every time.
func (c *Cluster) keyHeapPages(ix *btreeIndex, from, to, rows, pages int64) []pg.BlockNumber {
	kl, rel := ix.key, ix.rel
	nb := int64(rel.NPages())
	pages = min(pages, nb, rows)
	corr := kl.correlation
	if corr < 0 {
		corr = -corr
	}
	span := pages + int64(float64(nb-pages)*(1-corr)+0.5)
	first, _ := kl.keyRows(rel.Rows, from)
	startPage := first * nb / max(1, rel.Rows)
	startPage = min(startPage, nb-span)
	rng := newPCG(c.seed ^ uint64(ix.id)<<40 ^ uint64(from)<<20 ^ uint64(to))
	// pages distinct pages of the span (Floyd's sampling), ascending.
	chosen := make(map[int64]bool, pages)
	for j := span - pages; j < span; j++ {
		t := int64(rng.next()) % (j + 1)
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
			owner[i] = set[int64(rng.next())%pages]
		}
	}
	if corr < 1 {
		for i := len(owner) - 1; i > 0; i-- { // Fisher–Yates: which value each row belongs to
			j := int(rng.next()) % (i + 1)
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

// indexScanKey is an index scan of values from..to on a key index: the
// descent, the leaves holding the values' entries, and a heap fetch per
// entry (the page pinned anew when it changes: ReleaseAndReadBuffer). With
// sorted, it is a Bitmap Heap Scan instead: the bitmap index scan reads the
// same leaves, then each heap page once in block order, prefetched.
func (c *Cluster) indexScanKey(ix *btreeIndex, from, to, rows, pages int64, sorted bool) (*StmtResult, error) {
	rel, kl := ix.rel, ix.key
	be, err := c.beginStatement(catalogScan)
	if err != nil {
		return nil, err
	}
	// Planning: _bt_getrootheight reads the metapage (not in EXPLAIN's executor counters).
	saved, savedIO := be.Buf, be.IOReadNs
	if err := c.readRelease(be, pg.BufferTag{Rel: ix.id, Block: 0}); err != nil {
		return nil, err
	}
	be.Buf, be.IOReadNs = saved, savedIO
	start := be.Now // EXPLAIN's Execution Time: from executor start
	lo, _ := kl.keyRows(rel.Rows, from)
	_, hi := kl.keyRows(rel.Rows, to)
	if rows < 0 {
		rows = hi - lo
	}
	if pages < 0 {
		pages = rows // each row on its own page unless declared
		if kl.correlation >= 1 || kl.correlation <= -1 {
			pages = (rows + int64(rel.Shape.TuplesPerPage()) - 1) / int64(rel.Shape.TuplesPerPage())
		}
	}
	var visits []pg.BlockNumber
	if rows > 0 && len(ix.levels) > 0 {
		visits = c.keyHeapPages(ix, from, to, rows, pages)
		for _, blk := range ix.path(kl.leafOfPos(lo)) {
			if err := c.readRelease(be, pg.BufferTag{Rel: ix.id, Block: blk}); err != nil {
				return nil, err
			}
			be.Now += costs.PageNs
		}
		// _bt_readpage moves right while the page's high key does not pass the
		// last value; the leaves of positions lo..hi−1.
		for leaf := kl.leafOfPos(lo); leaf <= kl.leafOfPos(max(lo, hi-1)); leaf++ {
			if err := c.readRelease(be, pg.BufferTag{Rel: ix.id, Block: ix.block(0, leaf)}); err != nil {
				return nil, err
			}
			be.Now += costs.PageNs
		}
	}
	kind := "Index Scan using " + ix.name
	if sorted {
		kind = "Bitmap Heap Scan on " + rel.Name
		perPage := map[pg.BlockNumber]int{}
		for _, b := range visits {
			perPage[b]++
		}
		visits = slices.Compact(slices.Sorted(slices.Values(visits)))
		err = c.bitmapHeapFetch(be, rel, visits, perPage)
	} else {
		err = c.heapFetch(be, rel, visits)
	}
	if err != nil {
		return nil, err
	}
	res := &StmtResult{Kind: kind, Buf: be.Buf, WAL: be.WAL, IOReadNs: be.IOReadNs, From: from, To: to}
	if !sorted {
		res.Relation = rel.Name
	}
	if from == to {
		res.Extra = append(res.Extra, fmt.Sprintf("Index Cond: (%s = %d)", kl.column, from))
	} else {
		res.Extra = append(res.Extra, fmt.Sprintf("Index Cond: ((%s >= %d) AND (%s <= %d))", kl.column, from, kl.column, to))
	}
	if sorted {
		res.Extra = append(res.Extra, fmt.Sprintf("Heap Blocks: exact=%d", len(visits)))
	}
	return c.endIndexScan(be, res, start), nil
}

// heapFetch is heapam_index_fetch_tuple for each entry in index order: a new
// page is pinned (no strategy: every new pin bumps its usage count), the
// tuple's visibility checked, which hints it (an image with checksums after
// a checkpoint) when its page is not yet hinted.
func (c *Cluster) heapFetch(be *bufmgr.Backend, rel *heap.Relation, visits []pg.BlockNumber) error {
	cur, curBlk := pg.InvalidBuffer, pg.InvalidBlockNumber
	vm := &vmPin{} // 19's on-access pruning pins the VM page
	defer func() {
		if cur != pg.InvalidBuffer {
			c.pool.Unpin(be, cur)
		}
		vm.release(c, be)
	}()
	hinted := map[pg.BlockNumber]int{}
	for _, blk := range visits {
		if blk != curBlk {
			if cur != pg.InvalidBuffer {
				c.pool.Unpin(be, cur)
				cur = pg.InvalidBuffer
			}
			b, _, err := c.pool.ReadBuffer(be, pg.BufferTag{Rel: rel.ID, Block: blk}, nil)
			if err != nil {
				return err
			}
			cur, curBlk = b, blk
			if err := c.pruneOnAccess(be, b, rel, blk, vm); err != nil {
				return err
			}
		}
		c.fetchTuple(be, rel, cur, blk, hinted)
	}
	c.settleHints(rel, hinted)
	return nil
}

// fetchTuple checks one fetched tuple: its fetch cost, and its hint bit.
func (c *Cluster) fetchTuple(be *bufmgr.Backend, rel *heap.Relation, b pg.Buffer, blk pg.BlockNumber, hinted map[pg.BlockNumber]int) {
	be.Now += costs.FetchNs
	if rel.Flags(blk)&(heap.PageHinted|heap.PageAllVisible) == 0 {
		if hinted[blk] == 0 {
			c.pool.MarkBufferDirtyHint(be, b, rel.Hole(blk))
		}
		hinted[blk]++
		be.Now += costs.TupleUnhintNs
	} else {
		be.Now += costs.TupleNs
	}
}

// settleHints marks pages whose every tuple was checked as hinted.
func (c *Cluster) settleHints(rel *heap.Relation, hinted map[pg.BlockNumber]int) {
	for blk, n := range hinted {
		if n == rel.Tuples(blk) {
			rel.SetFlags(blk, heap.PageHinted)
		}
	}
}

// bitmapHeapFetch reads each page of an exact bitmap once, in block order.
// From 18 through a read stream (BitmapHeapScanNextBlock); before, with
// PrefetchBuffer running prefetch_target pages ahead of the scan, the
// target growing 0, 1, 2, 4, … up to effective_io_concurrency
// (BitmapAdjustPrefetchTarget); a prefetch of a page not in shared buffers is
// a posix_fadvise(WILLNEED).
func (c *Cluster) bitmapHeapFetch(be *bufmgr.Backend, rel *heap.Relation, pages []pg.BlockNumber, rows map[pg.BlockNumber]int) error {
	hinted := map[pg.BlockNumber]int{}
	check := func(b pg.Buffer, blk pg.BlockNumber) {
		for range rows[blk] {
			c.fetchTuple(be, rel, b, blk, hinted)
		}
	}
	if c.S.Version >= 18 {
		i := 0
		rs := c.newStream(be, nil, rel, false, false, func() (pg.BlockNumber, bool) {
			if i >= len(pages) {
				return 0, false
			}
			i++
			return pages[i-1], true
		})
		defer rs.End()
		for {
			b, blk, ok, err := rs.Next()
			if err != nil {
				return err
			}
			if !ok {
				break
			}
			check(b, blk)
			c.pool.Unpin(be, b)
		}
		c.settleHints(rel, hinted)
		return nil
	}
	maxTarget := int(c.S.Int("effective_io_concurrency"))
	target, prefetched := 0, 0
	for i, blk := range pages {
		for prefetched < len(pages) && prefetched <= i+target {
			if prefetched > i {
				t := pg.BufferTag{Rel: rel.ID, Block: pages[prefetched]}
				if c.pool.Lookup(t) == pg.InvalidBuffer {
					c.pool.IO().Advise(be, t, 1)
				}
			}
			prefetched++
		}
		switch {
		case target >= maxTarget:
		case target >= maxTarget/2:
			target = maxTarget
		case target > 0:
			target *= 2
		default:
			target++
		}
		b, _, err := c.pool.ReadBuffer(be, pg.BufferTag{Rel: rel.ID, Block: blk}, nil)
		if err != nil {
			return err
		}
		check(b, blk)
		c.pool.Unpin(be, b)
	}
	c.settleHints(rel, hinted)
	return nil
}

// validIdent reports whether s is a plain SQL identifier.
func validIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || (r >= 'a' && r <= 'z') || (i > 0 && r >= '0' && r <= '9') {
			continue
		}
		return false
	}
	return true
}

// keyIndexesMaintainable refuses loads into a table with an index on a key
// other than id: where the new keys would go is not modelled.
func (c *Cluster) keyIndexesMaintainable(rel *heap.Relation) error {
	for _, ix := range c.sortedIndexes(rel) {
		if ix.key != nil {
			return fmt.Errorf("the table has an index on %s (%s): maintaining an index on a key other than id is not modelled; create it after loading", ix.key.column, ix.name)
		}
	}
	return nil
}
