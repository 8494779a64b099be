package nbtree

import (
	"errors"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
)

// Engine is what an insertion needs of the cluster running it: one
// backend's pins, its WAL records and its clock. Each method charges its
// cost to that backend's simulated time.
type Engine interface {
	// ReadBuffer pins page t (ReadBuffer, no strategy: a new pin bumps the
	// page's usage count).
	ReadBuffer(t pg.BufferTag) (pg.Buffer, error)
	// ReleaseBuffer unpins b.
	ReleaseBuffer(b pg.Buffer)
	// MarkBufferDirty dirties b.
	MarkBufferDirty(b pg.Buffer)
	// ExtendBufferedRel adds a page to relation rel through shared buffers
	// and returns it pinned.
	ExtendBufferedRel(rel pg.RelID) (pg.Buffer, pg.BlockNumber, error)
	// NeedsImage reports whether a record registering b must carry b's
	// image: its page was last logged before the redo pointer and
	// full_page_writes is on (XLogRecordAssemble).
	NeedsImage(b pg.Buffer) bool
	// ImageLen is the bytes of b's image with hole bytes left out, after
	// wal_compression.
	ImageLen(b pg.Buffer, hole int) int
	// XLogInsert inserts a record of size bytes carrying fpi full-page
	// images and sets the LSN of the buffers it registers, b and other
	// (other may be InvalidBuffer), to the record's (PageSetLSN).
	XLogInsert(size, fpi int, b, other pg.Buffer)
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
func (ix *Index) Insert(e Engine) error {
	if ix.key != nil {
		return errKeyInsert
	}
	if !ix.opened {
		ix.opened = true
		if err := e.OpenIndex(); err != nil {
			return err
		}
	}
	if len(ix.levels) == 0 {
		// _bt_getroot(BT_WRITE) on an empty index: a root leaf.
		if err := ix.newRoot(e, NewRootLeafLen, 0); err != nil {
			return err
		}
		ix.cachedRoot = ix.levels[0][0].blk
	}
	height := len(ix.levels) - 1
	leaf := ix.rightmost(0)
	fast := ix.fastpath == leaf && height >= fastpathMinLevel && ix.right[0] < MaxItems
	if !fast {
		root := ix.levels[height][0].blk
		if ix.metaCached && ix.cachedRoot != root {
			// _bt_getroot: the cached root is no longer the root (it split):
			// it is read, found stale, and the metapage read again.
			b, err := ix.pin(e, ix.cachedRoot)
			if err != nil {
				return err
			}
			e.ReleaseBuffer(b)
			ix.metaCached = false
		}
		if !ix.metaCached {
			mb, err := ix.meta(e, false)
			if err != nil {
				return err
			}
			e.ReleaseBuffer(mb)
		}
		for lv := height; lv >= 1; lv-- {
			b, err := ix.pin(e, ix.rightmost(lv))
			if err != nil {
				return err
			}
			e.ReleaseBuffer(b)
		}
	}
	lb, err := ix.pin(e, leaf)
	if err != nil {
		return err
	}
	if err := ix.add(e, 0, lb); err != nil {
		return err
	}
	e.ReleaseBuffer(lb)
	ix.keys++
	ix.fastpath = pg.InvalidBlockNumber
	if len(ix.levels)-1 >= fastpathMinLevel {
		ix.fastpath = ix.rightmost(0)
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
func (ix *Index) add(e Engine, lv int, b pg.Buffer) error {
	e.MarkBufferDirty(b)
	if ix.right[lv] < MaxItems {
		ix.right[lv]++
		size := InsertLeafLen
		if lv > 0 {
			size = InsertUpperLen
		}
		ix.log(e, b, size, tupleBytes, ix.right[lv], pg.InvalidBuffer)
		return nil
	}
	// _bt_split of the rightmost page: the left keeps its fillfactor's worth
	// and a high key, the right gets the rest and the new item.
	keep := LeafKeys
	if lv > 0 {
		keep = InnerDownlinks
	}
	nright := ix.right[lv] - keep + 1
	rb, rblk, err := ix.newPage(e)
	if err != nil {
		return err
	}
	e.MarkBufferDirty(rb)
	ix.log(e, b, SplitLen(nright), tupleBytes, keep+1, rb)
	e.ReleaseBuffer(rb)
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
		pb, err := ix.pin(e, ix.rightmost(lv+1))
		if err != nil {
			return err
		}
		if err := ix.add(e, lv+1, pb); err != nil {
			return err
		}
		e.ReleaseBuffer(pb)
		return nil
	}
	// The root split: a new root above, with the two downlinks.
	return ix.newRoot(e, NewRootLen, 2)
}

// newRoot is _bt_getroot's first root or _bt_newroot: a new page on a new
// top level holding items, the metapage dirtied to point at it, and the
// XLOG_BTREE_NEWROOT record (of size) registering both.
func (ix *Index) newRoot(e Engine, size, items int) error {
	mb, err := ix.meta(e, true)
	if err != nil {
		return err
	}
	nb, nblk, err := ix.newPage(e)
	if err != nil {
		return err
	}
	e.MarkBufferDirty(nb)
	e.XLogInsert(size, 0, nb, mb)
	e.ReleaseBuffer(nb)
	e.ReleaseBuffer(mb)
	ix.pushLevel([]page{{blk: nblk, first: 0}}, items) // the root covers every entry
	return nil
}

// log logs a record registering page b (REGBUF_STANDARD) and other: when b
// was last logged before the redo pointer, an image of it (items on it
// afterwards, with a high key when not rightmost) replaces its blockData
// bytes of block data.
func (ix *Index) log(e Engine, b pg.Buffer, size, blockData, items int, other pg.Buffer) {
	fpi := 0
	if e.NeedsImage(b) {
		size += wal.SizeOfBlockImageHeader + e.ImageLen(b, ImageHole(items)) - blockData
		fpi = 1
	}
	e.XLogInsert(size, fpi, b, other)
}

// pin pins an index page.
func (ix *Index) pin(e Engine, blk pg.BlockNumber) (pg.Buffer, error) {
	return e.ReadBuffer(pg.BufferTag{Rel: ix.ID, Block: blk})
}

// newPage is _bt_getbuf(P_NEW) (_bt_allocbuf from 17): the index has no
// free pages to reuse, so it is extended by a page through shared buffers.
func (ix *Index) newPage(e Engine) (pg.Buffer, pg.BlockNumber, error) {
	b, blk, err := e.ExtendBufferedRel(ix.ID)
	if err != nil {
		return 0, 0, err
	}
	ix.blocks++
	return b, blk, nil
}

// meta pins the metapage and caches it for the session (_bt_getroot's
// rd_amcache), dirtied when the root changes (_bt_newroot).
func (ix *Index) meta(e Engine, dirty bool) (pg.Buffer, error) {
	b, err := ix.pin(e, MetaBlock)
	if err != nil {
		return 0, err
	}
	ix.metaCached = true
	if len(ix.levels) > 0 {
		ix.cachedRoot = ix.levels[len(ix.levels)-1][0].blk
	}
	if dirty {
		e.MarkBufferDirty(b)
	}
	return b, nil
}
