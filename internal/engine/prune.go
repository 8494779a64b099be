package engine

import (
	"fmt"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/internal/engine/vacpage"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
)

// On-access pruning that sets pages all-visible (PostgreSQL 19).
//
// 19 sets pd_prune_xid on every page a non-frozen INSERT or COPY writes
// ("Set pd_prune_xid on insert", 378a216187), and a read-only scan — seq,
// index or bitmap: SO_HINT_REL_READ_ONLY — that reaches such a page once it is
// nearly full prunes it with HEAP_PAGE_PRUNE_SET_VM ("Allow on-access pruning
// to set pages all-visible", b46e1e54d0). For the pages the simulator has
// (live tuples of committed inserts, nothing to prune or freeze) that is:
//
//   - heap_page_prune_opt (pruneheap.c, 19): nothing unless pd_prune_xid is
//     set and PageGetHeapFreeSpace is below max(fillfactor reserve,
//     BLCKSZ/10); then the VM page is pinned (visibilitymap_pin, extending the
//     fork), and kept pinned by the scan from page to page;
//   - heap_prune_satisfies_vacuum hints every tuple (MarkBufferDirtyHint: an
//     FPI_FOR_HINT with checksums when the page was last logged before the
//     redo pointer);
//   - heap_page_will_set_vm: on access, with nothing pruned or frozen, the VM
//     is set only if the buffer is already dirty and needs no image
//     (XLogCheckBufferNeedsBackup, with the process's own doPageWrites: a
//     session that has logged nothing yet sees no page needing one, so the
//     first such page it reaches is set, and its record refreshes that); then the page is set all-visible (not
//     all-frozen: no freeze on access) in an XLOG_HEAP2_PRUNE_ON_ACCESS
//     (log_heap_prune_and_freeze: heap page REGBUF_NO_IMAGE unless hint bits
//     need WAL, the VM page as block 1, u16 flags and the conflict xid);
//   - otherwise pd_prune_xid is just cleared (do_hint_prune: MarkBufferDirtyHint).
//
// Either way the page is not pruned again until another insert. The
// inserting transaction must be visible to everyone
// (GlobalVisTestIsRemovableXid); a scan inside a transaction block that has
// written is refused rather than guessed.

// vmPin is a scan's rs_vmbuffer: the VM page it keeps pinned.
type vmPin struct {
	buf pg.Buffer
	blk pg.BlockNumber
}

// release unpins the VM page at the end of the scan.
func (v *vmPin) release(c *Cluster, be *bufmgr.Backend) {
	if v.buf != pg.InvalidBuffer {
		c.pool.Unpin(be, v.buf)
		v.buf = pg.InvalidBuffer
	}
}

// pin is visibilitymap_pin for heap block blk.
func (v *vmPin) pin(c *Cluster, be *bufmgr.Backend, rel *heap.Relation, blk pg.BlockNumber) error {
	want := blk / heapBlocksPerVMPage
	if v.buf != pg.InvalidBuffer && v.blk == want {
		return nil
	}
	v.release(c, be)
	b, _, err := c.forkReadBuf(be, rel, pg.VMFork, want, true)
	if err != nil {
		return err
	}
	v.buf, v.blk = b, want
	return nil
}

// pruneOnAccess is heap_page_prune_opt for a read-only scan in 19 (nothing
// before 19) of page blk in buffer b, pinned by be; vm is the scan's VM pin.
func (c *Cluster) pruneOnAccess(be *bufmgr.Backend, b pg.Buffer, rel *heap.Relation, blk pg.BlockNumber, vm *vmPin) error {
	if c.S.Version < 19 || !heap.OnAccessPrunable(rel, blk) {
		return nil
	}
	if c.txn.active && c.txn.wrote {
		return fmt.Errorf("version=19: a scan of %s inside a transaction block that has written reaches page %d, "+
			"which pd_prune_xid marks for pruning (heap_page_prune_opt): whether the inserting transaction is "+
			"visible to everyone yet is not modelled; commit first", rel.Name, blk)
	}
	if err := vm.pin(c, be, rel, blk); err != nil {
		return err
	}
	if rel.Flags(blk)&heap.PageAllVisible != 0 {
		// prune_freeze_fast_path: an all-visible page (COPY FREEZE's pages
		// continued from an earlier batch keep the VM bits but get
		// pd_prune_xid) only has its stale prune hint cleared.
		vacpage.ClearPruneHint(c.pool, be, b, rel, blk)
		return nil
	}
	if rel.Flags(blk)&heap.PageHinted == 0 {
		c.pool.MarkBufferDirtyHint(be, b, rel.Hole(blk))
		rel.SetFlags(blk, heap.PageHinted)
	}
	rel.ClearFlags(blk, heap.PagePrunable)
	lsn := c.pool.BufferLSN(b)
	if !c.pool.State(b).Has(pg.FlagDirty) || c.xlogCheckBufferNeedsBackup(be, lsn) {
		// heap_page_will_set_vm declines; pd_prune_xid is cleared as a hint.
		c.pool.MarkBufferDirtyHint(be, b, rel.Hole(blk))
		return nil
	}
	c.pool.MarkBufferDirty(be, b)
	c.pool.MarkBufferDirty(be, vm.buf)
	size := wal.SizeOfXLogRecord + wal.SizeOfBlockHeader + wal.SizeOfRelFileLocator + wal.SizeOfBlockNumber +
		wal.SizeOfBlockHeader + wal.SizeOfBlockNumber + // the VM page, BKPBLOCK_SAME_REL
		wal.SizeOfShortMainDataHdr + 2 + 4 // xl_heap_prune flags, conflict xid
	nfpi := 0
	heapFPIAllowed := c.pool.XLogHintBitIsNeeded() || lsn == 0
	if lsn == 0 { // REGBUF_FORCE_IMAGE (a page with no LSN: full_page_writes=off lets it get here)
		size += wal.SizeOfBlockImageHeader + pg.BLCKSZ - c.imageHole(be, true, b, rel.Hole(blk))
		nfpi++
	}
	if c.needsImage(c.pool.BufferLSN(vm.buf)) {
		size += wal.SizeOfBlockImageHeader + c.imageLen(be, c.pool.Tag(vm.buf), 0)
		nfpi++
	}
	rec, now := c.wal.Insert(be.Now, &be.WAL, size, nfpi)
	be.Now = now
	c.pool.SetPageLSN(vm.buf, rec)
	if heapFPIAllowed { // registered REGBUF_STANDARD, not REGBUF_NO_IMAGE
		c.pool.SetPageLSN(b, rec)
	}
	rel.SetFlags(blk, heap.PageAllVisible)
	return nil
}
