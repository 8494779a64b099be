package engine

import (
	"encoding/binary"
	"fmt"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/strategy"
	"github.com/pgbufsim/pgbufsim/wal"
)

// A btree on the implicit id column (1..rows in load order), as CREATE INDEX
// builds it (nbtsort.c): leaves filled to fillfactor 90 and internal pages to
// 70, each non-rightmost page ending in a high key, bottom-up, written
// straight to storage (not through shared buffers) with one XLOG_FPI image a
// page. The block numbers here are the metapage (0), the leaves, then each
// upper level; only the identity of pages matters to the buffer manager.
type btreeIndex struct {
	name   string
	rel    *heap.Relation
	id     pg.RelID
	keys   int64              // entries: ids 1..keys
	levels [][]pg.BlockNumber // the pages of each level left to right, leaves first; the last level is the root
	// right is, per level, the items on the rightmost page (keys on a leaf,
	// downlinks above); the others hold btLeafKeys / btInnerDownlinks.
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
}

// btree page geometry for 16-byte index tuples (an int4 or int8 key after the
// 8-byte IndexTupleData, MAXALIGNed) with 4-byte line pointers: 8,152 bytes
// between the 24-byte header and the 16-byte special space, less the high
// key's reserved line pointer. _bt_buildadd starts a new page before adding
// an item once PageGetFreeSpace is below the fillfactor's reserve (819 bytes
// for leaves at 90, 2,457 for internal pages at 70), and the page's last item
// becomes its high key: 367 items with 366 keys on a leaf, 285 with 284
// downlinks on an internal page — what pageinspect shows on PostgreSQL 15.
// Ascending inserts end the same way: the rightmost leaf fills to 407 items,
// then _bt_split keeps 366 and the high key on the left (firstrightoff 367)
// and moves 41 and the new item to the new right page.
const (
	btItemSize       = 16 + 4
	btLeafItems      = (8144-819)/btItemSize + 1 // 367, the high key included
	btInnerItems     = (8144-2457)/btItemSize + 1
	btLeafKeys       = btLeafItems - 1   // 366
	btInnerDownlinks = btInnerItems - 1  // 284
	btMaxItems       = 8152 / btItemSize // 407: a rightmost page (no high key) is full
)

// newBtree lays out the index CREATE INDEX builds over the table's rows:
// leaves, then each level above, numbered after the metapage.
func newBtree(name string, rel *heap.Relation, id pg.RelID) *btreeIndex {
	ix := &btreeIndex{name: name, rel: rel, id: id, keys: rel.Rows, blocks: 1, fastpath: pg.InvalidBlockNumber}
	if ix.keys == 0 {
		return ix // the metapage alone; the first insert makes the root
	}
	n := int((ix.keys + btLeafKeys - 1) / btLeafKeys)
	ix.addLevels(n, int(ix.keys)-(n-1)*btLeafKeys)
	return ix
}

// addLevels numbers n leaves after the pages so far, then each level above
// (btInnerDownlinks downlinks a page) up to the root. right is the items on
// the rightmost leaf; each level records its rightmost page's count.
func (ix *btreeIndex) addLevels(n, right int) {
	for {
		lv := make([]pg.BlockNumber, n)
		for i := range lv {
			lv[i] = pg.BlockNumber(ix.blocks)
			ix.blocks++
		}
		ix.levels = append(ix.levels, lv)
		ix.right = append(ix.right, right)
		if n == 1 {
			return
		}
		above := (n + btInnerDownlinks - 1) / btInnerDownlinks
		right = n - (above-1)*btInnerDownlinks
		n = above
	}
}

// pages is the index size: the metapage and every level.
func (ix *btreeIndex) pages() int { return ix.blocks }

// block is the block number of page i of level lv.
func (ix *btreeIndex) block(lv, i int) pg.BlockNumber { return ix.levels[lv][i] }

// leafOf is the leaf holding key k.
// Every leaf but the rightmost holds btLeafKeys keys; the rightmost holds
// the rest (up to btMaxItems before it splits).
func (ix *btreeIndex) leafOf(k int64) int {
	return min(int((k-1)/btLeafKeys), len(ix.levels[0])-1)
}

// path is root to leaf's parent: the pages _bt_search reads before the leaf.
func (ix *btreeIndex) path(leaf int) []pg.BlockNumber {
	var out []pg.BlockNumber
	i := leaf
	for lv := 1; lv < len(ix.levels); lv++ {
		// Likewise a rightmost internal page holds the downlinks beyond the others'.
		i = min(i/btInnerDownlinks, len(ix.levels[lv])-1)
		out = append([]pg.BlockNumber{ix.block(lv, i)}, out...)
	}
	return out
}

// btImageHole is the hole of a standard btree page holding items line
// pointers and 16-byte tuples (the metapage: its 40-byte BTMetaPageData),
// which log_newpage leaves out of the page's image.
func btImageHole(items int, meta bool) int {
	if meta {
		return 8176 - (heap.SizeOfPageHeaderData + 40)
	}
	return 8152 - btItemSize*items
}

// btImageLen is the XLOG_FPI record of log_newpage for an image of imageBytes.
func btImageLen(imageBytes int) int {
	return wal.SizeOfXLogRecord + wal.SizeOfBlockHeader + wal.SizeOfBlockImageHeader + wal.SizeOfRelFileLocator +
		wal.SizeOfBlockNumber + imageBytes
}

// createIndex is CREATE INDEX NAME ON TABLE (id): the build's heap scan (a
// seq scan's strategy: a BULKREAD ring over NBuffers/4, hint bits set on every
// tuple it checks), then the index pages written and logged page by page.
func (c *Cluster) createIndex(name string, rel *heap.Relation, key *keyLayout) (*StmtResult, error) {
	be, err := c.beginStatement(catalogTable)
	if err != nil {
		return nil, err
	}
	start := c.now
	nblocks := rel.NPages()
	ringN := 0
	var ring *strategy.Ring
	if nblocks > c.S.NBuffers()/4 {
		ringN = c.RingBuffers(strategy.BulkRead)
		ring = strategy.NewRing(strategy.BulkRead, ringN)
	}
	next := pg.BlockNumber(0)
	cb := func() (pg.BlockNumber, bool) {
		if int(next) >= nblocks {
			return 0, false
		}
		next++
		return next - 1, true
	}
	p := c.scanParticipant(be, ring, rel, c.newStream(be, ring, rel, false, true, cb))
	if err := c.run([]*participant{p}); err != nil {
		return nil, err
	}
	be.Now = max(be.Now, c.now)
	id := pg.RelID(len(c.rels))
	c.rels = append(c.rels, nil)
	ix := newBtree(name, rel, id)
	if key != nil {
		ix = newKeyBtree(name, rel, id, key.column, key.distinct, key.correlation)
	}
	c.pool.CreateRel(id, 0, true)
	c.pool.ExtendOnDisk(be.Now, id, ix.pages())
	c.indexOwner(id, ix)
	// _bt_blwritepage: every page logged as it is written, the metapage last.
	for lv, pages := range ix.levels {
		n := len(pages)
		for i := 0; i < n; i++ {
			items := btLeafItems
			if lv > 0 {
				items = btInnerItems
			}
			if i == n-1 { // the rightmost page: no high key, and only what is left
				items = ix.right[lv]
			}
			hole := btImageHole(items, false)
			if ix.key != nil && lv == 0 {
				hole = ix.key.leafHole(i)
			}
			tag := pg.BufferTag{Rel: id, Block: ix.block(lv, i)}
			lsn, now := c.wal.Insert(be.Now, &be.WAL, btImageLen(c.imageLen(be, tag, hole)), 1)
			be.Now = now
			c.pool.SetPageLSNOnDisk(id, ix.block(lv, i), lsn)
		}
	}
	lsn, now := c.wal.Insert(be.Now, &be.WAL, btImageLen(c.imageLen(be, pg.BufferTag{Rel: id}, btImageHole(0, true))), 1)
	be.Now = now
	c.pool.SetPageLSNOnDisk(id, 0, lsn)
	if c.S.Version < 17 {
		// _bt_load ends with smgrimmedsync: the pages were written outside
		// shared buffers, so no checkpoint would flush them (17+ registers the
		// sync with the checkpointer instead: smgr_bulk_finish).
		be.Now = c.storage.Sync(be.Now, id)
	}
	if c.indexes == nil {
		c.indexes = map[string]*btreeIndex{}
	}
	c.indexes[name] = ix
	c.indexOwner(id, ix)
	// index_update_stats (index.c): the heap tuples the build counted, the
	// table's pages and its visibility map's all-visible pages go into the
	// table's pg_class row (an empty never-vacuumed table keeps reltuples −1).
	if rel.Rows > 0 || rel.RelTuples >= 0 {
		rel.RelTuples, rel.RelPages = float64(rel.Rows), nblocks
		rel.RelAllVisible, _ = rel.CountVisibility()
	}
	res := &StmtResult{Kind: "Create Index", Relation: rel.Name, Strategy: strategy.BulkRead, RingBuffers: ringN, Buf: be.Buf, WAL: be.WAL, IOReadNs: be.IOReadNs}
	if ringN == 0 {
		res.Strategy = strategy.Normal
	}
	leaves := 0
	if len(ix.levels) > 0 {
		leaves = len(ix.levels[0])
	}
	res.Extra = append(res.Extra, fmt.Sprintf("index %s: %d pages (%d leaves, %d levels)", name, ix.pages(), leaves, len(ix.levels)))
	res.IndexPages = ix.pages()
	if w := computeParallelWorker(c.S, nblocks, int(c.S.Int("max_parallel_maintenance_workers"))); w > 0 {
		// plan_create_index_workers would launch workers for the build scan.
		res.Extra = append(res.Extra, fmt.Sprintf("notice: PostgreSQL would build this with %d parallel workers; the simulated build is serial", w))
	}
	c.endStatement(be, true)
	c.finish([]*participant{p})
	res.TimeNs = c.now - start
	c.foldWAL(be)
	return res, nil
}

// indexScan is an Index Scan for ids from..to (nbtsearch.c, heapam_index_fetch_tuple):
// the root-to-leaf descent (the metapage was read at planning, which caches
// the root), each leaf of the range in turn, and for every entry a heap
// fetch that pins the tuple's page unless it is the page already held
// (ReleaseAndReadBuffer). No strategy: every new pin bumps the usage count.
// Each fetched tuple is checked (HeapTupleSatisfiesMVCC), so a page of a
// fresh load is hinted — an image with checksums after a checkpoint.
func (c *Cluster) indexScan(ix *btreeIndex, from, to int64) (*StmtResult, error) {
	rel := ix.rel
	be := bufmgr.NewBackend(bufmgr.ClientBackend, c.now)
	if err := c.touchCatalog(be, catalogScan); err != nil {
		return nil, err
	}
	// Planning: _bt_getrootheight reads the metapage (not in EXPLAIN's executor counters).
	saved, savedIO := be.Buf, be.IOReadNs
	if err := c.readRelease(be, pg.BufferTag{Rel: ix.id, Block: 0}); err != nil {
		return nil, err
	}
	be.Buf, be.IOReadNs = saved, savedIO
	be.Now += costs.StatementNs
	start := be.Now // EXPLAIN's Execution Time: from executor start
	askFrom, askTo := from, to
	cond := fmt.Sprintf("Index Cond: ((id >= %d) AND (id <= %d))", from, to)
	from, to = max(from, 1), min(to, ix.keys)
	tpp := int64(rel.Shape.TuplesPerPage())
	heapBuf, heapBlk := pg.InvalidBuffer, pg.InvalidBlockNumber
	vm := &vmPin{} // 19's on-access pruning pins the VM page
	defer func() { // on an error path too
		if heapBuf != pg.InvalidBuffer {
			c.pool.Unpin(be, heapBuf)
		}
		vm.release(c, be)
	}()
	hintedHere := map[pg.BlockNumber]int64{}
	var err error
	if from <= to && len(ix.levels) > 0 {
		for _, blk := range ix.path(ix.leafOf(from)) {
			if err = c.readRelease(be, pg.BufferTag{Rel: ix.id, Block: blk}); err != nil {
				return nil, err
			}
		}
		for leaf := ix.leafOf(from); leaf <= ix.leafOf(to); leaf++ {
			lb, _, err := c.pool.ReadBuffer(be, pg.BufferTag{Rel: ix.id, Block: ix.block(0, leaf)}, nil)
			if err != nil {
				return nil, err
			}
			unpinLeaf := func() { c.pool.Unpin(be, lb) }
			lo := max(from, int64(leaf)*btLeafKeys+1)
			hi := min(to, int64(leaf+1)*btLeafKeys)
			if leaf == len(ix.levels[0])-1 {
				hi = to // the rightmost leaf holds every key past the others
			}
			for k := lo; k <= hi; k++ {
				blk := pg.BlockNumber((k - 1) / tpp)
				if blk != heapBlk {
					if heapBuf != pg.InvalidBuffer {
						c.pool.Unpin(be, heapBuf)
					}
					heapBuf = pg.InvalidBuffer
					if heapBuf, _, err = c.pool.ReadBuffer(be, pg.BufferTag{Rel: rel.ID, Block: blk}, nil); err != nil {
						heapBuf = pg.InvalidBuffer
						unpinLeaf()
						return nil, err
					}
					if err = c.pruneOnAccess(be, heapBuf, rel, blk, vm); err != nil {
						unpinLeaf()
						return nil, err
					}
					heapBlk = blk
					be.Now += costs.PageNs
				}
				f := rel.Flags(blk)
				if f&(heap.PageHinted|heap.PageAllVisible) == 0 {
					if hintedHere[blk] == 0 {
						c.pool.MarkBufferDirtyHint(be, heapBuf, rel.Hole(blk))
					}
					hintedHere[blk]++
					be.Now += costs.TupleUnhintNs
				} else {
					be.Now += costs.TupleNs
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
	res := &StmtResult{Kind: "Index Scan using " + ix.name, Relation: rel.Name, Buf: be.Buf, WAL: be.WAL, IOReadNs: be.IOReadNs,
		From: askFrom, To: askTo}
	res.Extra = append(res.Extra, cond)
	return c.endIndexScan(be, res, start), nil
}

// endIndexScan ends a read-only scan: its hint-bit images make the WAL
// writer flush them (an asynchronous commit's XLogSetAsyncXactLSN), and its
// time is EXPLAIN's Execution Time, from executor start.
func (c *Cluster) endIndexScan(be *bufmgr.Backend, res *StmtResult, start int64) *StmtResult {
	c.finish([]*participant{{be: be}})
	if res.WAL.Records > 0 && c.wal.SetAsyncXactLSN(c.wal.InsertLSN()) {
		c.wakeWalWriter(c.now)
	}
	res.TimeNs = c.now - start
	c.foldWAL(be)
	return res
}

// sortedIndexes are rel's indexes in creation order.
func (c *Cluster) sortedIndexes(rel *heap.Relation) []*btreeIndex {
	var out []*btreeIndex
	for _, ix := range c.indexes {
		if ix.rel == rel {
			out = append(out, ix)
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].id < out[j-1].id; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// hasIndex reports whether rel has an index (whose maintenance by inserts is not modelled yet).
func (c *Cluster) hasIndex(rel *heap.Relation) bool { return len(c.sortedIndexes(rel)) > 0 }

// indexOwner names an index's storage in pg_buffercache-style output.
func (c *Cluster) indexOwner(id pg.RelID, ix *btreeIndex) {
	if c.indexByID == nil {
		c.indexByID = map[pg.RelID]*btreeIndex{}
	}
	c.indexByID[id] = ix
}

// Btree WAL records of ascending inserts, as pg_waldump shows them on 15:
// INSERT_LEAF 64 bytes (the 16-byte tuple as block data, offnum as main
// data); INSERT_UPPER 72 (the downlink, and the child as a second block);
// NEWROOT 90 for the first root (the metapage's 28-byte xl_btree_metadata)
// and 122 above a split root (two downlinks, 8 + 16 bytes, and the left
// child); SPLIT_R: xl_btree_split (10 bytes), the left page's new high key
// and the right page's tuples, 752 bytes for a leaf moving 42 tuples.
const (
	btBlockRef       = wal.SizeOfBlockHeader + wal.SizeOfRelFileLocator + wal.SizeOfBlockNumber // 20
	btSameRelRef     = wal.SizeOfBlockHeader + wal.SizeOfBlockNumber                            // 8
	btInsertLeafLen  = wal.SizeOfXLogRecord + btBlockRef + wal.SizeOfShortMainDataHdr + 2 + 16
	btInsertUpperLen = btInsertLeafLen + btSameRelRef
	btNewRootLeafLen = wal.SizeOfXLogRecord + btBlockRef + btSameRelRef + wal.SizeOfShortMainDataHdr + 8 + 28
	btNewRootLen     = btNewRootLeafLen + 8 + 16 + btSameRelRef
)

func btSplitLen(nright int) int {
	return wal.SizeOfXLogRecord + btBlockRef + btSameRelRef + wal.SizeOfShortMainDataHdr + 10 + 16 + 16*nright
}

// btWAL logs a record registering page b (REGBUF_STANDARD): when b was last
// logged before the redo pointer, an image of it (items on it afterwards,
// with a high key when not rightmost) replaces its block data.
func (c *Cluster) btWAL(be *bufmgr.Backend, b pg.Buffer, size, blockData, items int, more ...pg.Buffer) {
	nfpi := 0
	if c.needsImage(c.pool.BufferLSN(b)) {
		size += wal.SizeOfBlockImageHeader + c.imageLen(be, c.pool.Tag(b), 8152-btItemSize*items) - blockData
		nfpi = 1
	}
	lsn, now := c.wal.Insert(be.Now, &be.WAL, size, nfpi)
	be.Now = now
	c.pool.SetPageLSN(b, lsn)
	for _, o := range more {
		c.pool.SetPageLSN(o, lsn)
	}
}

// btPin pins an index page.
func (c *Cluster) btPin(be *bufmgr.Backend, ix *btreeIndex, blk pg.BlockNumber) (pg.Buffer, error) {
	b, _, err := c.pool.ReadBuffer(be, pg.BufferTag{Rel: ix.id, Block: blk}, nil)
	return b, err
}

// btNewPage is _bt_getbuf(P_NEW): the index has no free pages to reuse, so it
// is extended by a page through shared buffers.
func (c *Cluster) btNewPage(be *bufmgr.Backend, ix *btreeIndex) (pg.Buffer, pg.BlockNumber, error) {
	b, blk, err := c.pool.Extend(be, ix.id, nil)
	if err != nil {
		return 0, 0, err
	}
	ix.blocks++
	return b, blk, nil
}

// btMeta pins the metapage unless the session has it cached (rd_amcache).
func (c *Cluster) btMeta(be *bufmgr.Backend, ix *btreeIndex, dirty bool) (pg.Buffer, error) {
	b, err := c.btPin(be, ix, 0)
	if err != nil {
		return 0, err
	}
	ix.metaCached = true
	if len(ix.levels) > 0 {
		ix.cachedRoot = ix.levels[len(ix.levels)-1][0]
	}
	if dirty {
		c.pool.MarkBufferDirty(be, b)
	}
	return b, nil
}

// btInsert inserts the next key (ascending: the load's next id) into the
// index, as _bt_doinsert does for a key above all others: the fastpath pins
// the cached rightmost leaf when the tree has two levels above it and the
// leaf has room; otherwise _bt_search descends from the root (reading the
// metapage first in a new session). A full leaf splits (_bt_split), its
// downlink goes into the parent (_bt_insert_parent), which may split in
// turn; a split root gets a new root above it.
func (c *Cluster) btInsert(be *bufmgr.Backend, ix *btreeIndex) error {
	if !ix.opened {
		ix.opened = true
		if err := c.indexInsertPins(be); err != nil {
			return err
		}
	}
	if len(ix.levels) == 0 {
		// _bt_getroot(BT_WRITE) on an empty index: a root leaf.
		if err := c.btNewRoot(be, ix, btNewRootLeafLen, 0); err != nil {
			return err
		}
		ix.cachedRoot = ix.levels[0][0]
	}
	height := len(ix.levels) - 1
	leaf := ix.levels[0][len(ix.levels[0])-1]
	fast := ix.fastpath == leaf && height >= 2 && ix.right[0] < btMaxItems
	if !fast {
		root := ix.levels[height][0]
		if ix.metaCached && ix.cachedRoot != root {
			// _bt_getroot: the cached root is no longer the root (it split):
			// it is read, found stale, and the metapage read again.
			b, err := c.btPin(be, ix, ix.cachedRoot)
			if err != nil {
				return err
			}
			c.pool.Unpin(be, b)
			ix.metaCached = false
		}
		if !ix.metaCached {
			mb, err := c.btMeta(be, ix, false)
			if err != nil {
				return err
			}
			c.pool.Unpin(be, mb)
		}
		for lv := height; lv >= 1; lv-- {
			b, err := c.btPin(be, ix, ix.levels[lv][len(ix.levels[lv])-1])
			if err != nil {
				return err
			}
			c.pool.Unpin(be, b)
		}
	}
	lb, err := c.btPin(be, ix, leaf)
	if err != nil {
		return err
	}
	if err := c.btAdd(be, ix, 0, lb); err != nil {
		return err
	}
	c.pool.Unpin(be, lb)
	ix.keys++
	ix.fastpath = pg.InvalidBlockNumber
	if len(ix.levels)-1 >= 2 { // BTREE_FASTPATH_MIN_LEVEL
		ix.fastpath = ix.levels[0][len(ix.levels[0])-1]
	}
	return nil
}

// btAdd puts one item (a key on a leaf, a downlink above) on the rightmost
// page of level lv, pinned as b: in place when it has room, else by a split.
func (c *Cluster) btAdd(be *bufmgr.Backend, ix *btreeIndex, lv int, b pg.Buffer) error {
	c.pool.MarkBufferDirty(be, b)
	if ix.right[lv] < btMaxItems {
		ix.right[lv]++
		size := btInsertLeafLen
		if lv > 0 {
			size = btInsertUpperLen
		}
		c.btWAL(be, b, size, 16, ix.right[lv])
		return nil
	}
	// _bt_split of the rightmost page: the left keeps its fillfactor's worth
	// and a high key, the right gets the rest and the new item.
	keep := btLeafKeys
	if lv > 0 {
		keep = btInnerDownlinks
	}
	nright := ix.right[lv] - keep + 1
	rb, rblk, err := c.btNewPage(be, ix)
	if err != nil {
		return err
	}
	c.pool.MarkBufferDirty(be, rb)
	c.btWAL(be, b, btSplitLen(nright), 16, keep+1, rb)
	c.pool.Unpin(be, rb)
	ix.levels[lv] = append(ix.levels[lv], rblk)
	ix.right[lv] = nright
	if lv+1 < len(ix.levels) {
		pb, err := c.btPin(be, ix, ix.levels[lv+1][len(ix.levels[lv+1])-1])
		if err != nil {
			return err
		}
		if err := c.btAdd(be, ix, lv+1, pb); err != nil {
			return err
		}
		c.pool.Unpin(be, pb)
		return nil
	}
	// The root split: a new root above, with the two downlinks.
	return c.btNewRoot(be, ix, btNewRootLen, 2)
}

// btNewRoot is _bt_getroot's first root or _bt_newroot: a new page on a new
// top level holding items, the metapage dirtied to point at it, and the
// XLOG_BTREE_NEWROOT record (of size) registering both.
func (c *Cluster) btNewRoot(be *bufmgr.Backend, ix *btreeIndex, size, items int) error {
	mb, err := c.btMeta(be, ix, true)
	if err != nil {
		return err
	}
	nb, nblk, err := c.btNewPage(be, ix)
	if err != nil {
		return err
	}
	c.pool.MarkBufferDirty(be, nb)
	lsn, now := c.wal.Insert(be.Now, &be.WAL, size, 0)
	be.Now = now
	c.pool.SetPageLSN(nb, lsn)
	c.pool.SetPageLSN(mb, lsn)
	c.pool.Unpin(be, nb)
	c.pool.Unpin(be, mb)
	ix.levels = append(ix.levels, []pg.BlockNumber{nblk})
	ix.right = append(ix.right, items)
	return nil
}

// indexInsert is ExecInsertIndexTuples for one new row: each of the table's
// indexes gets its key. A statement is a new session: its caches start empty.
func (c *Cluster) indexInsert(be *bufmgr.Backend, indexes []*btreeIndex) error {
	for _, ix := range indexes {
		if err := c.btInsert(be, ix); err != nil {
			return err
		}
	}
	return nil
}

// indexSessionStart forgets the previous statement's session caches.
func (c *Cluster) indexSessionStart(rel *heap.Relation) {
	for _, ix := range c.sortedIndexes(rel) {
		ix.metaCached, ix.opened = false, false
		ix.fastpath = pg.InvalidBlockNumber
	}
}

// pageBytes builds btree page blk (nbtree.h, itup.h) for compressing its
// image: each item an IndexTupleData (the heap TID, or the child's block
// above the leaves, and t_info = 16) followed by the int4 key; the high key
// first on a non-rightmost page; the 16-byte BTPageOpaqueData at the end.
func (ix *btreeIndex) pageBytes(blk pg.BlockNumber) []byte {
	p := make([]byte, pg.BLCKSZ)
	binary.LittleEndian.PutUint16(p[16:], pg.BLCKSZ-16) // pd_special
	binary.LittleEndian.PutUint16(p[18:], pg.BLCKSZ|4)
	if blk == 0 { // the metapage: BTMetaPageData after the header
		binary.LittleEndian.PutUint32(p[24:], 0x053162)
		binary.LittleEndian.PutUint16(p[12:], uint16(heap.SizeOfPageHeaderData+40))
		binary.LittleEndian.PutUint16(p[14:], pg.BLCKSZ-16)
		return p
	}
	tpp := int64(ix.rel.Shape.TuplesPerPage())
	for lv, pages := range ix.levels {
		for i, b := range pages {
			if b != blk {
				continue
			}
			rightmost := i == len(pages)-1
			per := btLeafKeys
			if lv > 0 {
				per = btInnerDownlinks
			}
			n := per
			if rightmost {
				n = ix.right[lv]
			}
			// span is the keys one child of this page covers.
			span := int64(1)
			for l := 1; l <= lv; l++ {
				if l == 1 {
					span = btLeafKeys
				} else {
					span *= btInnerDownlinks
				}
			}
			type item struct{ blk, off, key uint32 }
			var items []item
			if !rightmost { // the high key: the next page's first key
				items = append(items, item{0, 0, uint32(int64((i+1)*per)*span + 1)})
			}
			for j := 0; j < n; j++ {
				c := int64(i*per + j) // entry index on this level
				if lv == 0 {
					items = append(items, item{uint32(c / tpp), uint32(c%tpp + 1), uint32(c + 1)})
				} else {
					child := ix.levels[lv-1][min(int(c), len(ix.levels[lv-1])-1)]
					items = append(items, item{uint32(child), 1, uint32(c*span + 1)})
				}
			}
			upper := pg.BLCKSZ - 16
			for j, it := range items {
				upper -= 16
				t := p[upper : upper+16]
				binary.LittleEndian.PutUint16(t[0:], uint16(it.blk>>16))
				binary.LittleEndian.PutUint16(t[2:], uint16(it.blk))
				binary.LittleEndian.PutUint16(t[4:], uint16(it.off))
				binary.LittleEndian.PutUint16(t[6:], 16)
				binary.LittleEndian.PutUint32(t[8:], it.key)
				binary.LittleEndian.PutUint32(p[heap.SizeOfPageHeaderData+4*j:], uint32(upper)|1<<15|16<<17)
			}
			binary.LittleEndian.PutUint16(p[12:], uint16(heap.SizeOfPageHeaderData+4*len(items)))
			binary.LittleEndian.PutUint16(p[14:], uint16(upper))
			sp := p[pg.BLCKSZ-16:]
			if i > 0 {
				binary.LittleEndian.PutUint32(sp[0:], uint32(pages[i-1]))
			}
			if !rightmost {
				binary.LittleEndian.PutUint32(sp[4:], uint32(pages[i+1]))
			}
			binary.LittleEndian.PutUint32(sp[8:], uint32(lv))
			flags := uint16(0)
			if lv == 0 {
				flags |= 1 // BTP_LEAF
			}
			if lv == len(ix.levels)-1 {
				flags |= 2 // BTP_ROOT
			}
			binary.LittleEndian.PutUint16(sp[12:], flags)
			return p
		}
	}
	return p
}
