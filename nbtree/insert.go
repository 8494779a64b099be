package nbtree

import (
	"errors"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
)

// Writer is one backend's insertions into an index during a statement. Its
// pins, page changes and WAL records go straight to the buffer pool and
// the log, as nbtinsert.c calls bufmgr.c and XLogInsert; what only the
// cluster knows — an image's size under wal_compression, the catalog —
// goes through Engine.
type Writer struct {
	Pool    *bufmgr.Pool
	Backend *bufmgr.Backend
	WAL     *wal.WAL
	// FullPageWrites is full_page_writes during the statement.
	FullPageWrites bool
	Engine         Engine
}

// Engine is what an insertion needs of the cluster running it.
type Engine interface {
	// ImageLen is the bytes of b's full-page image with hole bytes left
	// out, after wal_compression, its CPU time charged to the backend.
	ImageLen(b pg.Buffer, hole int) int
	// OpenIndex is the catalog lookups of a session's first insertion into
	// an index (its support functions, index_open's relcache entry).
	OpenIndex() error
}

// errKeyInsert refuses an insert into an index on a key other than id.
var errKeyInsert = errors.New("nbtree: inserting into an index on a key other than id is not modelled")

// Insert inserts the next id (ascending: the load's next row) into the
// index, as _bt_doinsert does for a key above all others: the fastpath pins
// the cached rightmost leaf when the tree has two levels above it and the
// leaf has room; otherwise _bt_search descends from the root (reading the
// metapage first in a new session). A full leaf splits (_bt_split), its
// downlink goes into the parent (_bt_insert_parent), which may split in
// turn; a split root gets a new root above it.
func (ix *Index) Insert(w *Writer) error {
	if ix.key != nil && !ix.key.Hashed {
		return errKeyInsert
	}
	if !ix.opened {
		ix.opened = true
		if err := w.Engine.OpenIndex(); err != nil {
			return err
		}
	}
	if ix.key != nil {
		return ix.insertHashed(w)
	}
	if len(ix.levels) == 0 {
		// _bt_getroot(BT_WRITE) on an empty index: a root leaf.
		if err := ix.newRoot(w, NewRootLeafLen, 0); err != nil {
			return err
		}
		ix.cachedRoot = ix.levels[0][0].blk
	}
	height := len(ix.levels) - 1
	leaf := ix.rightmost(0)
	fast := ix.fastpath == leaf && height >= fastpathMinLevel && ix.right[0] < MaxItems
	if !fast {
		if err := ix.readMeta(w); err != nil {
			return err
		}
		// _bt_search: each level's rightmost page, root to leaf's parent,
		// read and released on the way down (_bt_relandgetbuf).
		for lv := height; lv >= 1; lv-- {
			b, err := ix.pin(w, ix.rightmost(lv))
			if err != nil {
				return err
			}
			w.Pool.Unpin(w.Backend, b)
		}
	}
	lb, err := ix.pin(w, leaf)
	if err != nil {
		return err
	}
	if err := ix.add(w, 0, lb); err != nil {
		return err
	}
	w.Pool.Unpin(w.Backend, lb)
	ix.keys++
	ix.fastpath = pg.InvalidBlockNumber
	if len(ix.levels)-1 >= fastpathMinLevel {
		ix.fastpath = ix.rightmost(0)
	}
	return nil
}

// readMeta is _bt_getroot's use of the session's cached metapage: a cached
// root that is no longer the root (it split) is read, found stale, and the
// metapage read again; a session without the cache reads the metapage.
func (ix *Index) readMeta(w *Writer) error {
	root := ix.levels[len(ix.levels)-1][0].blk
	if ix.metaCached && ix.cachedRoot != root {
		b, err := ix.pin(w, ix.cachedRoot)
		if err != nil {
			return err
		}
		w.Pool.Unpin(w.Backend, b)
		ix.metaCached = false
	}
	if !ix.metaCached {
		mb, err := ix.pin(w, MetaBlock)
		if err != nil {
			return err
		}
		w.Pool.Unpin(w.Backend, mb)
		ix.cacheMeta()
	}
	return nil
}

// rightmost is the block of level lv's rightmost page.
func (ix *Index) rightmost(lv int) pg.BlockNumber {
	pages := ix.levels[lv]
	return pages[len(pages)-1].blk
}

// add puts one item (a key on a leaf, a downlink above) on the rightmost
// page of level lv, pinned as b: in place when it has room (_bt_insertonpg),
// else by a split.
func (ix *Index) add(w *Writer, lv int, b pg.Buffer) error {
	if ix.right[lv] < MaxItems {
		ix.right[lv]++
		size := InsertLeafLen
		if lv > 0 {
			size = InsertUpperLen
		}
		ix.change(w, b, pg.InvalidBuffer, size, ix.right[lv])
		return nil
	}
	// _bt_split of the rightmost page: the left keeps its fillfactor's worth
	// and a high key, the right gets the rest and the new item.
	keep := LeafKeys
	if lv > 0 {
		keep = InnerDownlinks
	}
	nright := ix.right[lv] - keep + 1
	rb, rblk, err := ix.newPage(w) // before the critical section, as _bt_split allocates it
	if err != nil {
		return err
	}
	ix.change(w, b, rb, SplitLen(nright), keep+1)
	w.Pool.Unpin(w.Backend, rb)
	// The right page's low key: its first entry (on a leaf, the new key is
	// entry ix.keys, the last of its nright), or its first child's.
	first := ix.keys + 1 - int64(nright)
	if lv > 0 {
		below := ix.levels[lv-1]
		first = below[len(below)-nright].first
	}
	ix.appendPage(lv, rblk, first)
	ix.right[lv] = nright
	if lv+1 < len(ix.levels) {
		pb, err := ix.pin(w, ix.rightmost(lv+1))
		if err != nil {
			return err
		}
		if err := ix.add(w, lv+1, pb); err != nil {
			return err
		}
		w.Pool.Unpin(w.Backend, pb)
		return nil
	}
	// The root split: a new root above, with the two downlinks.
	return ix.newRoot(w, NewRootLen, 2)
}

// change is the critical section of an insert or a split: page b (and
// other) dirtied, then the record of size logged, registering b
// REGBUF_STANDARD: when b was last logged before the redo pointer, an
// image of it (items on it afterwards, with a high key when not rightmost)
// replaces its block data, the tuple (XLogRecordAssemble); the record's
// LSN goes on both pages (PageSetLSN). One function on the hot path of
// every insert.
func (ix *Index) change(w *Writer, b, other pg.Buffer, size, items int) {
	p, be := w.Pool, w.Backend
	p.MarkBufferDirty(be, b)
	fpi := 0
	if w.FullPageWrites && p.BufferLSN(b) <= w.WAL.RedoRecPtr() {
		size += wal.SizeOfBlockImageHeader + w.Engine.ImageLen(b, ImageHole(items)) - tupleBytes
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

// newRoot is _bt_getroot's first root or _bt_newroot: a new page on a new
// top level holding items, the metapage changed to point at it, and the
// XLOG_BTREE_NEWROOT record (of size) registering both.
func (ix *Index) newRoot(w *Writer, size, items int) error {
	nblk, err := ix.logNewRoot(w, size)
	if err != nil {
		return err
	}
	ix.pushLevel([]page{{blk: nblk, first: 0}}, items) // the root covers every entry
	return nil
}

// logNewRoot pins the metapage, extends the index by the new root and logs
// the XLOG_BTREE_NEWROOT record of size; it returns the root's block.
func (ix *Index) logNewRoot(w *Writer, size int) (pg.BlockNumber, error) {
	mb, err := ix.pin(w, MetaBlock)
	if err != nil {
		return 0, err
	}
	ix.cacheMeta()
	nb, nblk, err := ix.newPage(w)
	if err != nil {
		return 0, err
	}
	w.Pool.MarkBufferDirty(w.Backend, nb)
	w.Pool.MarkBufferDirty(w.Backend, mb)
	lsn, now := w.WAL.Insert(w.Backend.Now, &w.Backend.WAL, size, 0) // both REGBUF_WILL_INIT: never an image
	w.Backend.Now = now
	w.Pool.SetPageLSN(nb, lsn)
	w.Pool.SetPageLSN(mb, lsn)
	w.Pool.Unpin(w.Backend, nb)
	w.Pool.Unpin(w.Backend, mb)
	return nblk, nil
}

// pin pins block blk of the index (ReadBuffer, no strategy: a new pin bumps
// the page's usage count).
func (ix *Index) pin(w *Writer, blk pg.BlockNumber) (pg.Buffer, error) {
	b, _, err := w.Pool.ReadBuffer(w.Backend, pg.BufferTag{Rel: ix.ID, Block: blk}, nil)
	return b, err
}

// newPage is _bt_getbuf(P_NEW) (_bt_allocbuf from 17): the index has no
// free pages to reuse, so it is extended by a page through shared buffers.
func (ix *Index) newPage(w *Writer) (pg.Buffer, pg.BlockNumber, error) {
	b, blk, err := w.Pool.Extend(w.Backend, ix.ID, nil)
	if err != nil {
		return 0, 0, err
	}
	ix.blocks++
	return b, blk, nil
}

// cacheMeta notes that the session read the metapage (_bt_getroot's
// rd_amcache): the root it names is the root now.
func (ix *Index) cacheMeta() {
	ix.metaCached = true
	if len(ix.levels) > 0 {
		ix.cachedRoot = ix.levels[len(ix.levels)-1][0].blk
	}
}
