// Package indexscan runs the index scans a client asks for: an Index Scan of
// a btree in (key, TID) order (nodeIndexscan.c: _bt_first's descent, the
// leaf chain, heapam_index_fetch_tuple for each entry, every new heap page a
// pin with no strategy) and a Bitmap Heap Scan (nodeBitmapHeapscan.c: each
// heap page once, in block order, through a read stream that prefetches),
// on the engine's pool and clock. The btree's shape is package nbtree's.
package indexscan

import (
	"fmt"
	"slices"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/internal/engine"
	"github.com/pgbufsim/pgbufsim/nbtree"
	"github.com/pgbufsim/pgbufsim/pg"
)

// indexScan is an Index Scan for ids from..to (nbtsearch.c, heapam_index_fetch_tuple):
// the root-to-leaf descent (the metapage was read at planning, which caches
// the root), each leaf of the range in turn, and for every entry a heap
// fetch that pins the tuple's page unless it is the page already held
// (ReleaseAndReadBuffer). No strategy: every new pin bumps the usage count.
// Each fetched tuple is checked (HeapTupleSatisfiesMVCC), so a page of a
// fresh load is hinted — an image with checksums after a checkpoint.
func (c scan) indexScan(ix *nbtree.Index, from, to int64) (*engine.StmtResult, error) {
	rel := ix.Rel
	be := bufmgr.NewBackend(bufmgr.ClientBackend, c.Now())
	if err := c.TouchCatalog(be, engine.SessionScan); err != nil {
		return nil, err
	}
	// Planning: _bt_getrootheight reads the metapage (not in EXPLAIN's executor counters).
	saved, savedIO := be.Buf, be.IOReadNs
	if err := c.ReadRelease(be, pg.BufferTag{Rel: ix.ID, Block: 0}); err != nil {
		return nil, err
	}
	be.Buf, be.IOReadNs = saved, savedIO
	be.Now += c.Costs().StatementNs
	start := be.Now // EXPLAIN's Execution Time: from executor start
	askFrom, askTo := from, to
	cond := fmt.Sprintf("Index Cond: ((id >= %d) AND (id <= %d))", from, to)
	from, to = max(from, 1), min(to, ix.Keys())
	tpp := int64(rel.Shape.TuplesPerPage())
	heapBuf, heapBlk := pg.InvalidBuffer, pg.InvalidBlockNumber
	vm := engine.NewVMPin() // 19's on-access pruning pins the VM page
	defer func() {          // on an error path too
		if heapBuf != pg.InvalidBuffer {
			c.Pool().Unpin(be, heapBuf)
		}
		vm.Release(c.Cluster, be)
	}()
	hintedHere := map[pg.BlockNumber]int64{}
	var err error
	if from <= to && !ix.Empty() {
		for _, blk := range ix.Path(ix.LeafOf(from)) {
			if err = c.ReadRelease(be, pg.BufferTag{Rel: ix.ID, Block: blk}); err != nil {
				return nil, err
			}
		}
		for leaf := ix.LeafOf(from); leaf <= ix.LeafOf(to); leaf++ {
			lb, _, err := c.Pool().ReadBuffer(be, pg.BufferTag{Rel: ix.ID, Block: ix.Block(0, leaf)}, nil)
			if err != nil {
				return nil, err
			}
			unpinLeaf := func() { c.Pool().Unpin(be, lb) }
			// The leaf's keys in the range: entry e is id e+1.
			lo, hi := ix.LeafEntries(leaf)
			lo, hi = max(from, lo+1), min(to, hi)
			for k := lo; k <= hi; k++ {
				blk := pg.BlockNumber((k - 1) / tpp)
				if blk != heapBlk {
					if heapBuf != pg.InvalidBuffer {
						c.Pool().Unpin(be, heapBuf)
					}
					heapBuf = pg.InvalidBuffer
					if heapBuf, _, err = c.Pool().ReadBuffer(be, pg.BufferTag{Rel: rel.ID, Block: blk}, nil); err != nil {
						heapBuf = pg.InvalidBuffer
						unpinLeaf()
						return nil, err
					}
					if err = c.PruneOnAccess(be, heapBuf, rel, blk, vm); err != nil {
						unpinLeaf()
						return nil, err
					}
					heapBlk = blk
					be.Now += c.Costs().PageNs
				}
				f := rel.Flags(blk)
				if f&(heap.PageHinted|heap.PageAllVisible) == 0 {
					if hintedHere[blk] == 0 {
						c.Pool().MarkBufferDirtyHint(be, heapBuf, rel.Hole(blk))
					}
					hintedHere[blk]++
					be.Now += c.Costs().TupleUnhintNs
				} else {
					be.Now += c.Costs().TupleNs
				}
			}
			unpinLeaf()
		}
	}
	// A page is hinted through once every tuple on it was checked.
	for blk, n := range hintedHere {
		if n == int64(rel.Tuples(blk)) {
			rel.SetFlags(blk, heap.PageHinted)
		}
	}
	res := &engine.StmtResult{Kind: "Index Scan using " + ix.Name, Relation: rel.Name, Buf: be.Buf, WAL: be.WAL, IOReadNs: be.IOReadNs,
		From: askFrom, To: askTo}
	res.Extra = append(res.Extra, cond)
	return c.endIndexScan(be, res, start), nil
}

// endIndexScan ends a read-only scan: its hint-bit images make the WAL
// writer flush them (an asynchronous commit's XLogSetAsyncXactLSN), and its
// time is EXPLAIN's Execution Time, from executor start.
func (c scan) endIndexScan(be *bufmgr.Backend, res *engine.StmtResult, start int64) *engine.StmtResult {
	c.FinishBackend(be)
	if res.WAL.Records > 0 && c.WAL().SetAsyncXactLSN(c.WAL().InsertLSN()) {
		c.WakeWalWriter(c.Now())
	}
	res.TimeNs = c.Now() - start
	c.FoldWAL(be)
	return res
}

// indexScanKey is an index scan of values from..to on a key index: the
// descent, the leaves holding the values' entries, and a heap fetch per
// entry (the page pinned anew when it changes: ReleaseAndReadBuffer). With
// sorted, it is a Bitmap Heap Scan instead: the bitmap index scan reads the
// same leaves, then each heap page once in block order, prefetched.
func (c scan) indexScanKey(ix *nbtree.Index, from, to, rows, pages int64, sorted bool) (*engine.StmtResult, error) {
	rel, kl := ix.Rel, ix.Key()
	be, err := c.BeginStatement(engine.SessionScan)
	if err != nil {
		return nil, err
	}
	// Planning: _bt_getrootheight reads the metapage (not in EXPLAIN's executor counters).
	saved, savedIO := be.Buf, be.IOReadNs
	if err := c.ReadRelease(be, pg.BufferTag{Rel: ix.ID, Block: 0}); err != nil {
		return nil, err
	}
	be.Buf, be.IOReadNs = saved, savedIO
	start := be.Now // EXPLAIN's Execution Time: from executor start
	lo, _ := kl.Entries(rel.Rows, from)
	_, hi := kl.Entries(rel.Rows, to)
	if rows < 0 {
		rows = hi - lo
	}
	if pages < 0 {
		pages = rows // each row on its own page unless declared
		if kl.Correlation >= 1 || kl.Correlation <= -1 {
			pages = (rows + int64(rel.Shape.TuplesPerPage()) - 1) / int64(rel.Shape.TuplesPerPage())
		}
	}
	var visits []pg.BlockNumber
	if rows > 0 && !ix.Empty() {
		visits = ix.KeyHeapPages(c.Seed(), from, to, rows, pages)
		for _, blk := range ix.Path(ix.LeafOfPos(lo)) {
			if err := c.ReadRelease(be, pg.BufferTag{Rel: ix.ID, Block: blk}); err != nil {
				return nil, err
			}
			be.Now += c.Costs().PageNs
		}
		// _bt_readpage moves right while the page's high key does not pass the
		// last value; the leaves of positions lo..hi−1.
		for leaf := ix.LeafOfPos(lo); leaf <= ix.LeafOfPos(max(lo, hi-1)); leaf++ {
			if err := c.ReadRelease(be, pg.BufferTag{Rel: ix.ID, Block: ix.Block(0, leaf)}); err != nil {
				return nil, err
			}
			be.Now += c.Costs().PageNs
		}
	}
	kind := "Index Scan using " + ix.Name
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
	res := &engine.StmtResult{Kind: kind, Buf: be.Buf, WAL: be.WAL, IOReadNs: be.IOReadNs, From: from, To: to}
	if !sorted {
		res.Relation = rel.Name
	}
	if from == to {
		res.Extra = append(res.Extra, fmt.Sprintf("Index Cond: (%s = %d)", kl.Column, from))
	} else {
		res.Extra = append(res.Extra, fmt.Sprintf("Index Cond: ((%s >= %d) AND (%s <= %d))", kl.Column, from, kl.Column, to))
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
func (c scan) heapFetch(be *bufmgr.Backend, rel *heap.Relation, visits []pg.BlockNumber) error {
	cur, curBlk := pg.InvalidBuffer, pg.InvalidBlockNumber
	vm := engine.NewVMPin() // 19's on-access pruning pins the VM page
	defer func() {
		if cur != pg.InvalidBuffer {
			c.Pool().Unpin(be, cur)
		}
		vm.Release(c.Cluster, be)
	}()
	hinted := map[pg.BlockNumber]int{}
	for _, blk := range visits {
		if blk != curBlk {
			if cur != pg.InvalidBuffer {
				c.Pool().Unpin(be, cur)
				cur = pg.InvalidBuffer
			}
			b, _, err := c.Pool().ReadBuffer(be, pg.BufferTag{Rel: rel.ID, Block: blk}, nil)
			if err != nil {
				return err
			}
			cur, curBlk = b, blk
			if err := c.PruneOnAccess(be, b, rel, blk, vm); err != nil {
				return err
			}
		}
		c.FetchTuple(be, rel, cur, blk, hinted)
	}
	rel.SettleHints(hinted)
	return nil
}

// bitmapHeapFetch reads each page of an exact bitmap once, in block order.
// From 18 through a read stream (BitmapHeapScanNextBlock); before, with
// PrefetchBuffer running prefetch_target pages ahead of the scan, the
// target growing 0, 1, 2, 4, … up to effective_io_concurrency
// (BitmapAdjustPrefetchTarget); a prefetch of a page not in shared buffers is
// a posix_fadvise(WILLNEED).
func (c scan) bitmapHeapFetch(be *bufmgr.Backend, rel *heap.Relation, pages []pg.BlockNumber, rows map[pg.BlockNumber]int) error {
	hinted := map[pg.BlockNumber]int{}
	check := func(b pg.Buffer, blk pg.BlockNumber) {
		for range rows[blk] {
			c.FetchTuple(be, rel, b, blk, hinted)
		}
	}
	if c.S.Version >= 18 {
		i := 0
		rs := c.NewStream(be, nil, rel, false, false, func() (pg.BlockNumber, bool) {
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
			c.Pool().Unpin(be, b)
		}
		rel.SettleHints(hinted)
		return nil
	}
	maxTarget := int(c.S.Int("effective_io_concurrency"))
	target, prefetched := 0, 0
	for i, blk := range pages {
		for prefetched < len(pages) && prefetched <= i+target {
			if prefetched > i {
				t := pg.BufferTag{Rel: rel.ID, Block: pages[prefetched]}
				if c.Pool().Lookup(t) == pg.InvalidBuffer {
					c.Pool().IO().Advise(be, t, 1)
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
		b, _, err := c.Pool().ReadBuffer(be, pg.BufferTag{Rel: rel.ID, Block: blk}, nil)
		if err != nil {
			return err
		}
		check(b, blk)
		c.Pool().Unpin(be, b)
	}
	rel.SettleHints(hinted)
	return nil
}

// scan is the engine as the index scans use it.
type scan struct{ *engine.Cluster }

// Range is an Index Scan of an id index for ids from to to.
func Range(c *engine.Cluster, ix *nbtree.Index, from, to int64) (*engine.StmtResult, error) {
	return scan{c}.indexScan(ix, from, to)
}

// Key is an Index Scan (with sorted, a Bitmap Heap Scan) of a key index
// for keys from to to, with rows and pages as declared (−1: the layout's).
func Key(c *engine.Cluster, ix *nbtree.Index, from, to, rows, pages int64, sorted bool) (*engine.StmtResult, error) {
	return scan{c}.indexScanKey(ix, from, to, rows, pages, sorted)
}
