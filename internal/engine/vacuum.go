package engine

import (
	"fmt"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/internal/engine/vacpage"
	"github.com/pgbufsim/pgbufsim/internal/engine/vacwal"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/strategy"
)

// vacuum runs VACUUM on a table with no dead tuples (a fresh load): a
// BAS_VACUUM ring (whose dirty victims are written after a WAL flush, never
// rejected), a read stream at maintenance_io_concurrency (17+); per page not
// yet all-visible, hint bits through MarkBufferDirtyHint (an FPI_FOR_HINT when
// WAL-logged hints meet a page not logged since the redo pointer), then
// opportunistic freezing when that image was just taken (the 16+ rule:
// freezing is cheap once a full-page image is in WAL), then PD_ALL_VISIBLE and
// the visibility map with XLOG_HEAP2_VISIBLE. Afterwards pg_class.reltuples
// and relpages are known, which changes the planner's choices.
func (c *Cluster) vacuum(rel *heap.Relation, freeze bool) (*StmtResult, error) {
	be, err := c.beginStatement(catalogVacuum)
	if err != nil {
		return nil, err
	}
	start := c.now
	ringN := c.RingBuffers(strategy.Vacuum)
	ring := strategy.NewRing(strategy.Vacuum, ringN)
	nblocks := c.pool.NBlocks(rel.ID)
	next := pg.BlockNumber(0)
	// skippedVisible: an all-visible page that is not all-frozen was skipped,
	// so relfrozenxid cannot advance (heap_vacuum_rel: scanned_pages +
	// frozenskipped_pages < rel_pages).
	skippedVisible := false
	cb := func() (pg.BlockNumber, bool) {
		for int(next) < nblocks {
			blk := next
			next++
			// All-visible pages are skipped, all-frozen ones by an aggressive
			// VACUUM FREEZE too — but never the last page, which is always
			// scanned (to see whether the table can be truncated): models
			// lazy_scan_skip (vacuumlazy.c; the 32-page SKIP_PAGES_THRESHOLD
			// is not modelled).
			if f := rel.Flags(blk); (f&heap.PageAllVisible != 0 && !freeze || f&heap.PageAllFrozen != 0) && int(blk) != nblocks-1 {
				skippedVisible = skippedVisible || f&heap.PageAllFrozen == 0
				continue
			}
			return blk, true
		}
		return 0, false
	}
	stream := c.newStream(be, ring, rel, true, false, cb)
	// visibilitymap_pin: the VM page covering the current block stays pinned
	// until the scan moves past it.
	vmBuf, vmBlk := pg.InvalidBuffer, pg.InvalidBlockNumber
	scanned, scannedTuples := 0, 0
	p := &participant{be: be}
	p.step = func() (bool, error) {
		b, blk, ok, err := stream.Next()
		if err != nil || !ok {
			stream.End()
			return true, err
		}
		if want := blk / heapBlocksPerVMPage; want != vmBlk {
			if vmBuf != pg.InvalidBuffer {
				c.pool.Unpin(be, vmBuf)
			}
			if vmBuf, _, err = c.forkReadBuf(be, rel, pg.VMFork, want, true); err != nil {
				return true, err
			}
			vmBlk = want
		}
		scanned++
		scannedTuples += rel.Tuples(blk)
		c.vacuumPage(be, b, rel, blk, freeze, vmBuf)
		c.pool.Unpin(be, b)
		// lazy_scan_heap: the page's free space goes to the FSM after the page is released.
		return false, c.recordPageWithFreeSpace(be, rel, blk)
	}
	if err := c.run([]*participant{p}); err != nil {
		return nil, err
	}
	if vmBuf != pg.InvalidBuffer {
		c.pool.Unpin(be, vmBuf)
	}
	// FreeSpaceMapVacuumRange at the end of the heap scan.
	if err := c.fsmVacuum(be, rel); err != nil {
		return nil, err
	}
	be.Now = max(be.Now, c.now)
	if err := c.vacuumWindowPins(be); err != nil {
		return nil, err
	}
	if err := c.vacuumCleanupIndexes(be, rel); err != nil {
		return nil, err
	}
	tuples := vacEstimateReltuples(rel, nblocks, scanned, scannedTuples)
	relPages, tookXID, err := c.vacuumTruncate(be, rel, ring, nblocks)
	if err != nil {
		return nil, err
	}
	if err := c.vacUpdateRelstats(be, rel, relPages, !skippedVisible, tuples); err != nil {
		return nil, err
	}
	// VACUUM VERBOSE reports the table's usage up to here.
	res := &StmtResult{Kind: "Vacuum", Relation: rel.Name, Strategy: strategy.Vacuum, RingBuffers: ringN,
		Buf: be.Buf, WAL: be.WAL, IOReadNs: be.IOReadNs}
	// The transaction ends with the invalidations of the pg_class row logged
	// for standbys (XLOG_STANDBY_INVALIDATIONS: no xid, so no commit record);
	// then the table's TOAST relation, empty here, is vacuumed the same way.
	c.vacuumXactEnd(be, tookXID)
	if rel.HasToast {
		// The empty TOAST relation: its row changes the first time (reltuples
		// −1 → 0), later only when relfrozenxid can advance past new XIDs.
		if !rel.ToastVacuumed || rel.ToastFrozenAt != c.xids {
			rel.ToastVacuumed, rel.ToastFrozenAt = true, c.xids
			if err := c.inplaceUpdatePgClass(be); err != nil {
				return nil, err
			}
		}
		be.Now, _ = c.insertRecord(be.Now, &be.WAL, vacwal.StandbyInvalidationsLen)
	}
	c.finish([]*participant{p})
	res.TimeNs = c.now - start
	av, af := rel.CountVisibility()
	res.Extra = append(res.Extra, fmt.Sprintf("all-visible pages=%d all-frozen pages=%d", av, af))
	if res.WAL.Records > 0 {
		if c.wal.SetAsyncXactLSN(c.wal.InsertLSN()) {
			c.wakeWalWriter(c.now)
		}
	}
	c.foldWAL(be)
	return res, nil
}

// vacEstimateReltuples is vacwal.EstimateReltuples with pg_class's old figures.
func vacEstimateReltuples(rel *heap.Relation, total, scanned, scannedTuples int) float64 {
	return vacwal.EstimateReltuples(rel.RelPages, rel.RelTuples, total, scanned, scannedTuples)
}

// vacUpdateRelstats is vac_update_relstats: the new relpages, reltuples and
// relallvisible (which the planner reads from then on) and, for a VACUUM
// that may (advance), relfrozenxid go into pg_class in place — only when one
// of them changed: relfrozenxid moves to the oldest XID still running, past
// every transaction that had one since it was last set (vacuum.c).
func (c *Cluster) vacUpdateRelstats(be *bufmgr.Backend, rel *heap.Relation, nblocks int, advance bool, tuples float64) error {
	av, _ := rel.CountVisibility()
	dirty := rel.RelTuples != tuples || rel.RelPages != nblocks || rel.RelAllVisible != av
	if advance && rel.FrozenAt != c.xids {
		rel.FrozenAt, dirty = c.xids, true
	}
	rel.RelTuples = tuples
	rel.RelPages = nblocks
	rel.RelAllVisible = av
	if !dirty {
		return nil
	}
	return c.inplacePgClassRow(be, pgClassRowOf(c.S.Version, rel))
}

// pgClassRowOf is the length of rel's pg_class row data, with its reloptions.
func pgClassRowOf(v pg.Version, rel *heap.Relation) int {
	return vacwal.PgClassRow(v, rel.Reloptions...)
}

// inplaceUpdatePgClass is heap_inplace_update of a table's pg_class row: the
// pg_class page is pinned and dirtied, and XLOG_HEAP_INPLACE registers it
// (REGBUF_STANDARD: an image, without the row data, when the page was last
// logged before the redo pointer). The simulated catalog keeps the user
// tables' rows on one page, just past the pinned catalog pages.
func (c *Cluster) inplaceUpdatePgClass(be *bufmgr.Backend) error {
	return c.inplacePgClassRow(be, vacwal.PgClassRow(c.S.Version))
}

// inplacePgClassRow is inplaceUpdatePgClass of a row of rowData bytes.
func (c *Cluster) inplacePgClassRow(be *bufmgr.Backend, rowData int) error {
	blk := pg.BlockNumber(catalogFor(c.S.Version).Pages)
	b, _, err := c.pool.ReadBuffer(be, pg.BufferTag{Rel: pg.CatalogRel, Block: blk}, nil)
	if err != nil {
		return err
	}
	c.pool.MarkBufferDirty(be, b)
	image := c.needsImage(c.pool.BufferLSN(b))
	size, nfpi := vacwal.InplaceLen(c.S.Version, image, rowData), 0
	if image {
		nfpi = 1
	}
	lsn, now := c.wal.Insert(be.Now, &be.WAL, size, nfpi)
	be.Now = now
	c.pool.SetPageLSN(b, lsn)
	c.pool.Unpin(be, b)
	return nil
}

func (c *Cluster) vacuumPage(be *bufmgr.Backend, b pg.Buffer, rel *heap.Relation, blk pg.BlockNumber, freeze bool, vmBuf pg.Buffer) {
	if rel.Tuples(blk) > 0 {
		c.vacNonempty = int(blk) + 1 // lazy_scan_prune: the page has tuples
	}
	vacpage.Page(c.vacPageEnv(), be, b, rel, blk, freeze, vmBuf)
}

// vacPageEnv is the cluster's pieces for package vacpage (made once).
func (c *Cluster) vacPageEnv() *vacpage.Env {
	if c.vacEnv == nil {
		c.vacEnv = &vacpage.Env{Pool: c.pool, WAL: c.wal, Version: c.S.Version, PageNs: costs.PageNs,
			TupleUnhintNs: costs.TupleUnhintNs, NeedsImage: c.needsImage, NeedsBackup: c.xlogCheckBufferNeedsBackup, ImageHole: c.imageHole,
			ImageLen: func(be *bufmgr.Backend, t pg.BufferTag) int { return c.imageLen(be, t, 0) }}
	}
	return c.vacEnv
}
