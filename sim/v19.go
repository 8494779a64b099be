package sim

import (
	"fmt"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
)

// What PostgreSQL 19 changes that this file refuses rather than fakes.
//
// 19 sets pd_prune_xid on every page a non-frozen INSERT or COPY writes
// (heap_insert, heap_multi_insert: "Set pd_prune_xid on insert", 378a216187),
// and a read-only scan that reaches such a page once it is nearly full
// prunes it and may set it all-visible in the visibility map, WAL-logging an
// XLOG_HEAP2_PRUNE_ON_ACCESS record with the VM bits (heap_page_prune_opt
// with HEAP_PAGE_PRUNE_SET_VM, b46e1e54d0). Sequential, index and bitmap
// scans all call heap_page_prune_opt. The simulator models neither the
// record nor the page turning all-visible under a scan, so on 19 a scan that
// reaches such a page is refused (errOnAccessPrune). A page with room left
// (at least max(fillfactor reserve, BLCKSZ/10) free) is not pruned, and its
// scan is modelled as in 18.

// onAccessPrunable reports whether heap_page_prune_opt (pruneheap.c, 19)
// would prune page blk of rel on access: the page has tuples and is not
// all-visible (so its pd_prune_xid, set by the insert, is still there), and
// PageGetHeapFreeSpace is below max(the fillfactor reserve, BLCKSZ/10). It
// assumes the inserting transaction is visible to everyone (committed, no
// older snapshot), which errs on the side of refusing.
func onAccessPrunable(rel *heap.Relation, blk pg.BlockNumber) bool {
	n := rel.Tuples(blk)
	if n == 0 || rel.Flags(blk)&heap.PageAllVisible != 0 {
		return false
	}
	return heapFreeSpace(rel, n) < pruneMinFree(rel.Shape.Fillfactor)
}

// heapFreeSpace is PageGetHeapFreeSpace of a page holding n tuples of the
// relation's shape: pd_upper − pd_lower less a new line pointer, 0 when the
// page has no line pointer to spare (MaxHeapTuplesPerPage).
func heapFreeSpace(rel *heap.Relation, n int) int {
	space := rel.Shape.Hole(n)
	if space < heap.SizeOfItemID || n >= heap.MaxHeapTuplesPerPage {
		return 0
	}
	return space - heap.SizeOfItemID
}

// pruneMinFree is heap_page_prune_opt's threshold: the fillfactor's
// reserve (RelationGetTargetPageFreeSpace), at least BLCKSZ/10.
func pruneMinFree(fillfactor int) int {
	return max(pg.BLCKSZ*(100-fillfactor)/100, pg.BLCKSZ/10)
}

// checkOnAccessPrune refuses, in 19, a scan reaching a page that on-access
// pruning would set all-visible.
func (c *Cluster) checkOnAccessPrune(rel *heap.Relation, blk pg.BlockNumber) error {
	if c.S.Version < 19 || !onAccessPrunable(rel, blk) {
		return nil
	}
	return fmt.Errorf("version=19: a scan of %s reaches page %d, which on-access pruning would set all-visible "+
		"(heap_page_prune_opt with HEAP_PAGE_PRUNE_SET_VM: %d bytes free, below %d) — not modelled; "+
		"VACUUM the table first, or give it a layout that leaves %d bytes free a page",
		rel.Name, blk, heapFreeSpace(rel, rel.Tuples(blk)), pruneMinFree(rel.Shape.Fillfactor), pruneMinFree(rel.Shape.Fillfactor))
}

// vacuumPage19 is VACUUM's first pass over one page that is not yet
// all-visible (or not all-frozen under FREEZE) in 19: lazy_scan_prune →
// heap_page_prune_and_freeze (pruneheap.c, 19), which sets the visibility
// map in its own XLOG_HEAP2_PRUNE_VACUUM_SCAN record — 19 has no
// XLOG_HEAP2_VISIBLE (a881cc9c7e, 1252a4ee28).
//
//   - The hint bits HeapTupleSatisfiesVacuum sets go through
//     MarkBufferDirtyHint as before (an FPI_FOR_HINT with checksums when the
//     page was last logged before the redo pointer).
//   - Freezing (heap_page_will_freeze): required under FREEZE; otherwise, all
//     tuples being freezable, when a hint image was just taken, or when the
//     page's pd_prune_xid is about to be cleared (do_hint_prune: the insert
//     set it, 19) and hint bits need WAL and the page needs an image
//     (XLogCheckBufferNeedsBackup).
//   - The record (log_heap_prune_and_freeze): the heap page as block 0,
//     REGBUF_STANDARD, forced to an image when its LSN is 0, registered
//     REGBUF_NO_IMAGE (and its LSN left alone) when nothing is frozen and hint
//     bits need no WAL; one freeze plan as block data when freezing; the VM
//     page as block 1 (same relation; an image when last logged before the
//     redo pointer); main data xl_heap_prune (u16 flags) and the conflict
//     horizon xid (the newest live xmin, always valid for unfrozen rows).
func (c *Cluster) vacuumPage19(be *bufmgr.Backend, b pg.Buffer, rel *heap.Relation, blk pg.BlockNumber, freeze bool, vmBuf pg.Buffer) {
	n := rel.Tuples(blk)
	f := rel.Flags(blk)
	fpiBefore := be.WAL.FPI
	if f&heap.PageHinted == 0 {
		c.pool.MarkBufferDirtyHint(be, b, rel.Hole(blk))
		rel.SetFlags(blk, heap.PageHinted)
	}
	tookImage := be.WAL.FPI > fpiBefore
	doHintPrune := f&heap.PageAllVisible == 0 // pd_prune_xid is set until the page turns all-visible
	lsn := c.pool.BufferLSN(b)
	doFreeze := f&heap.PageAllFrozen == 0 && (freeze || tookImage ||
		doHintPrune && c.pool.XLogHintBitIsNeeded() && c.needsImage(lsn))

	c.pool.MarkBufferDirty(be, b)
	c.pool.MarkBufferDirty(be, vmBuf)
	size := wal.SizeOfXLogRecord + wal.SizeOfBlockHeader + wal.SizeOfRelFileLocator + wal.SizeOfBlockNumber
	noImage := !doFreeze && !c.pool.XLogHintBitIsNeeded()
	image := !noImage && (lsn == 0 || c.needsImage(lsn))
	nfpi := 0
	switch {
	case image:
		size += wal.SizeOfBlockImageHeader + pg.BLCKSZ - c.imageHole(be, true, b, rel.Hole(blk))
		nfpi++
	case doFreeze:
		size += 2 + 12 + 2*n // xlhp_freeze_plans: nplans, one xlhp_freeze_plan, n offsets
	}
	size += wal.SizeOfBlockHeader + wal.SizeOfBlockNumber // the VM page, BKPBLOCK_SAME_REL
	if c.needsImage(c.pool.BufferLSN(vmBuf)) {
		size += wal.SizeOfBlockImageHeader + c.imageLen(be, c.pool.Tag(vmBuf), 0)
		nfpi++
	}
	size += wal.SizeOfShortMainDataHdr + 2 + 4 // xl_heap_prune flags, conflict xid
	rec, now := c.wal.Insert(be.Now, &be.WAL, size, nfpi)
	be.Now = now
	c.pool.SetPageLSN(vmBuf, rec)
	if !noImage {
		c.pool.SetPageLSN(b, rec)
	}
	rel.SetFlags(blk, heap.PageAllVisible)
	if doFreeze {
		rel.SetFlags(blk, heap.PageAllFrozen)
	}
}
