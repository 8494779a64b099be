// Package vacpage is VACUUM's first pass over one heap page of a fresh
// load (lazy_scan_prune): hint bits, freezing, PD_ALL_VISIBLE and the
// visibility map, with the records each version logs for them — 15–18's
// freeze record and XLOG_HEAP2_VISIBLE, 19's XLOG_HEAP2_PRUNE_VACUUM_SCAN
// with the VM folded in — and 19's fast path for a page whose prune hint is
// stale. The engine supplies the cluster's pieces in Env.
package vacpage

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
)

// Env is what a page's vacuuming needs of the cluster.
type Env struct {
	Pool    *bufmgr.Pool
	WAL     *wal.WAL
	Version pg.Version
	// PageNs and TupleUnhintNs are the cost model's page and per-tuple
	// visibility-check times.
	PageNs, TupleUnhintNs int64
	// NeedsImage is whether a page last logged at lsn goes into a record as
	// an image (before the redo pointer, full_page_writes).
	NeedsImage func(lsn pg.LSN) bool
	// NeedsBackup is XLogCheckBufferNeedsBackup with the process's own
	// doPageWrites (false until its first record).
	NeedsBackup func(be *bufmgr.Backend, lsn pg.LSN) bool
	// ImageHole is the hole an image of buffer b leaves out (hole its
	// pd_upper − pd_lower; wal_compression changes it), 0 unless image.
	ImageHole func(be *bufmgr.Backend, image bool, b pg.Buffer, hole int) int
	// ImageLen is the bytes an image of a page with no hole takes.
	ImageLen func(be *bufmgr.Backend, t pg.BufferTag) int
}

// Page is VACUUM's first pass over page blk (its tuples all live) in
// buffer b, with the VM page vmBuf pinned.
func Page(e *Env, be *bufmgr.Backend, b pg.Buffer, rel *heap.Relation, blk pg.BlockNumber, freeze bool, vmBuf pg.Buffer) {
	n := rel.Tuples(blk)
	be.Now += e.PageNs + int64(n)*e.TupleUnhintNs
	f := rel.Flags(blk)
	if n == 0 || f&heap.PageAllVisible != 0 && (!freeze || f&heap.PageAllFrozen != 0) {
		if e.Version >= 19 && f&heap.PageAllFrozen != 0 && f&heap.PagePrunable != 0 {
			ClearPruneHint(e.Pool, be, b, rel, blk) // lazy_scan_prune's fast path for an all-frozen page
		}
		return
	}
	if e.Version >= 19 {
		page19(e, be, b, rel, blk, freeze, vmBuf)
		return
	}
	fpiBefore := be.WAL.FPI
	if f&heap.PageHinted == 0 {
		e.Pool.MarkBufferDirtyHint(be, b, rel.Hole(blk))
		rel.SetFlags(blk, heap.PageHinted)
	}
	tookImage := be.WAL.FPI > fpiBefore
	// From 16 a page is frozen early when a hint-bit image was just taken
	// (freezing is cheap once the page is in WAL); 15 freezes only for FREEZE
	// (or tuples older than vacuum_freeze_min_age, which fresh loads are not).
	doFreeze := freeze || tookImage && e.Version >= 16
	if doFreeze && f&heap.PageAllFrozen == 0 {
		// XLOG_HEAP2_PRUNE_VACUUM_SCAN (17+) / FREEZE_PAGE (15, 16) with one freeze
		// plan for all tuples; the heap page is registered REGBUF_STANDARD, so a page
		// last logged before the redo pointer goes in as an image (full_page_writes).
		e.Pool.MarkBufferDirty(be, b)
		image := e.NeedsImage(e.Pool.BufferLSN(b))
		nfpi := 0
		if image {
			nfpi = 1
		}
		lsn, now := e.WAL.Insert(be.Now, &be.WAL, wal.FreezeRecordLen(e.Version, n, image, e.ImageHole(be, image, b, rel.Hole(blk))), nfpi)
		be.Now = now
		e.Pool.SetPageLSN(b, lsn)
	}
	// PageSetAllVisible + visibilitymap_set → the VM buffer dirtied, XLOG_HEAP2_VISIBLE
	// registering it (an image when the VM page was last logged before the redo pointer).
	e.Pool.MarkBufferDirty(be, b)
	LogVisible(e, be, b, vmBuf, rel.Hole(blk))
	rel.SetFlags(blk, heap.PageAllVisible)
	if doFreeze {
		rel.SetFlags(blk, heap.PageAllFrozen)
	}
}

// clearPruneHint is prune_freeze_fast_path (pruneheap.c, 19) on an
// all-visible page whose pd_prune_xid is set: PageClearPrunable through
// MarkBufferDirtyHint (an FPI_FOR_HINT when hint bits need WAL and the page
// was last logged before the redo pointer).
func ClearPruneHint(pool *bufmgr.Pool, be *bufmgr.Backend, b pg.Buffer, rel *heap.Relation, blk pg.BlockNumber) {
	rel.ClearFlags(blk, heap.PagePrunable)
	pool.MarkBufferDirtyHint(be, b, rel.Hole(blk))
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
func page19(e *Env, be *bufmgr.Backend, b pg.Buffer, rel *heap.Relation, blk pg.BlockNumber, freeze bool, vmBuf pg.Buffer) {
	n := rel.Tuples(blk)
	f := rel.Flags(blk)
	fpiBefore := be.WAL.FPI
	if f&heap.PageHinted == 0 {
		e.Pool.MarkBufferDirtyHint(be, b, rel.Hole(blk))
		rel.SetFlags(blk, heap.PageHinted)
	}
	tookImage := be.WAL.FPI > fpiBefore
	doHintPrune := f&heap.PagePrunable != 0 // pd_prune_xid set (by an insert), to be cleared
	lsn := e.Pool.BufferLSN(b)
	doFreeze := f&heap.PageAllFrozen == 0 && (freeze || tookImage ||
		doHintPrune && e.Pool.XLogHintBitIsNeeded() && e.NeedsBackup(be, lsn))

	e.Pool.MarkBufferDirty(be, b)
	e.Pool.MarkBufferDirty(be, vmBuf)
	size := wal.SizeOfXLogRecord + wal.SizeOfBlockHeader + wal.SizeOfRelFileLocator + wal.SizeOfBlockNumber
	// REGBUF_FORCE_IMAGE for a page with no LSN; else REGBUF_NO_IMAGE when
	// nothing is frozen and hint bits need no WAL.
	noImage := lsn != 0 && !doFreeze && !e.Pool.XLogHintBitIsNeeded()
	image := lsn == 0 || !noImage && e.NeedsImage(lsn)
	nfpi := 0
	switch {
	case image:
		size += wal.SizeOfBlockImageHeader + pg.BLCKSZ - e.ImageHole(be, true, b, rel.Hole(blk))
		nfpi++
	case doFreeze:
		size += 4 + 12 + 2*n // xlhp_freeze_plans up to its plans (nplans, padding), one xlhp_freeze_plan, n offsets
	}
	size += wal.SizeOfBlockHeader + wal.SizeOfBlockNumber // the VM page, BKPBLOCK_SAME_REL
	if e.NeedsImage(e.Pool.BufferLSN(vmBuf)) {
		size += wal.SizeOfBlockImageHeader + e.ImageLen(be, e.Pool.Tag(vmBuf))
		nfpi++
	}
	size += wal.SizeOfShortMainDataHdr + 2 + 4 // xl_heap_prune flags, conflict xid
	rec, now := e.WAL.Insert(be.Now, &be.WAL, size, nfpi)
	be.Now = now
	e.Pool.SetPageLSN(vmBuf, rec)
	if !noImage { // heap_fpi_allowed
		e.Pool.SetPageLSN(b, rec)
	}
	rel.SetFlags(blk, heap.PageAllVisible)
	rel.ClearFlags(blk, heap.PagePrunable)
	if doFreeze {
		rel.SetFlags(blk, heap.PageAllFrozen)
	}
}

// logVisible is visibilitymap_set logging XLOG_HEAP2_VISIBLE (log_heap_visible)
// after the heap page's own record, if any (heap_multi_insert's all-frozen
// pages in 15–18, VACUUM's first pass): the VM buffer dirtied and the record
// registering it (an image when the VM page was last logged before the redo
// pointer) and the heap page — REGBUF_NO_IMAGE unless hint bits need WAL
// (XLogHintBitIsNeeded: checksums or wal_log_hints), when the heap page too
// gets an image if last logged before the redo pointer (a page hinted
// before the checkpoint, by a scan or CREATE INDEX, and vacuumed after it).
// hole is the heap page's pd_upper − pd_lower.
func LogVisible(e *Env, be *bufmgr.Backend, b, vmBuf pg.Buffer, hole int) {
	e.Pool.MarkBufferDirty(be, vmBuf)
	size := wal.SizeOfXLogRecord + (wal.SizeOfBlockHeader + wal.SizeOfRelFileLocator + wal.SizeOfBlockNumber) +
		(wal.SizeOfBlockHeader + wal.SizeOfBlockNumber) + wal.SizeOfShortMainDataHdr + 5
	nfpi := 0
	if e.NeedsImage(e.Pool.BufferLSN(vmBuf)) {
		size += wal.SizeOfBlockImageHeader + e.ImageLen(be, e.Pool.Tag(vmBuf))
		nfpi = 1
	}
	hintWAL := e.Pool.XLogHintBitIsNeeded()
	if hintWAL && e.NeedsImage(e.Pool.BufferLSN(b)) {
		size += wal.SizeOfBlockImageHeader + pg.BLCKSZ - e.ImageHole(be, true, b, hole)
		nfpi++
	}
	lsn, now := e.WAL.Insert(be.Now, &be.WAL, size, nfpi)
	be.Now = now
	e.Pool.SetPageLSN(vmBuf, lsn)
	if hintWAL {
		e.Pool.SetPageLSN(b, lsn)
	}
}
