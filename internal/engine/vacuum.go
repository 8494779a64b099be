package engine

import (
	"fmt"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/catalog"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/internal/engine/autovac"
	"github.com/pgbufsim/pgbufsim/internal/engine/pgclass"
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
	be, err := c.beginStatement(catalog.Vacuum)
	if err != nil {
		return nil, err
	}
	start := c.now
	j := c.startVacuum(be, rel, freeze, autovac.ManualCost(c.S))
	if err := c.run([]*participant{j.p}); err != nil {
		return nil, err
	}
	res, err := j.end()
	if err != nil {
		return nil, err
	}
	c.finish([]*participant{j.p})
	res.TimeNs = c.now - start
	av, af := rel.CountVisibility()
	res.Extra = append(res.Extra, fmt.Sprintf("all-visible pages=%d all-frozen pages=%d", av, af))
	c.asyncCommit(res.WAL.Records, c.now)
	c.foldWAL(be)
	return res, nil
}

// job is a VACUUM's or ANALYZE's process and table: a statement's or an
// autovacuum worker's (auto).
type job struct {
	c              *Cluster
	be             *bufmgr.Backend
	rel            *heap.Relation
	p              *participant
	auto           bool
	ringN, nblocks int
	ring           *strategy.Ring
	stream         *bufmgr.ReadStream
	vmBuf          pg.Buffer // the visibility map page VACUUM holds pinned
}

// Abort ends a cancelled worker's job: its pins released, nothing
// recorded in pg_class (the worker's "canceling autovacuum task").
func (j *job) Abort() {
	j.stream.End()
	if j.vmBuf != pg.InvalidBuffer {
		j.c.pool.Unpin(j.be, j.vmBuf)
	}
}

func (c *Cluster) newJob(be *bufmgr.Backend, rel *heap.Relation) job {
	return job{c: c, be: be, rel: rel, p: &participant{be: be}, ringN: c.RingBuffers(strategy.Vacuum), nblocks: c.pool.NBlocks(rel.ID)}
}

// vacJob is a VACUUM under way, a page a step: a statement's or an
// autovacuum worker's (auto), with the cost-based delay when cost is set.
type vacJob struct {
	job
	cost                   *autovac.Cost
	scanned, scannedTuples int
	skippedVisible         bool
	avBefore, afBefore     int
	frozenPages            int
	frozenTuples           int64
	nonempty               int // one past the last page with tuples (what truncation may keep)
}

// startVacuum sets VACUUM of rel up on be's process: its BAS_VACUUM ring
// and read stream; the job's participant steps it.
func (c *Cluster) startVacuum(be *bufmgr.Backend, rel *heap.Relation, freeze bool, cost *autovac.Cost) *vacJob {
	j := &vacJob{job: c.newJob(be, rel), cost: cost}
	j.avBefore, j.afBefore = rel.CountVisibility()
	ring := strategy.NewRing(strategy.Vacuum, j.ringN)
	j.ring = ring
	next := pg.BlockNumber(0)
	// skippedVisible: an all-visible page that is not all-frozen was skipped,
	// so relfrozenxid cannot advance (heap_vacuum_rel: scanned_pages +
	// frozenskipped_pages < rel_pages).
	cb := func() (pg.BlockNumber, bool) {
		for int(next) < j.nblocks {
			blk := next
			next++
			// All-visible pages are skipped, all-frozen ones by an aggressive
			// VACUUM FREEZE too — but never the last page, which is always
			// scanned (to see whether the table can be truncated): models
			// lazy_scan_skip (vacuumlazy.c; the 32-page SKIP_PAGES_THRESHOLD
			// is not modelled).
			if f := rel.Flags(blk); (f&heap.PageAllVisible != 0 && !freeze || f&heap.PageAllFrozen != 0) && int(blk) != j.nblocks-1 {
				j.skippedVisible = j.skippedVisible || f&heap.PageAllFrozen == 0
				continue
			}
			return blk, true
		}
		return 0, false
	}
	j.stream = c.newStream(be, ring, rel, true, false, cb)
	// visibilitymap_pin: the VM page covering the current block stays pinned
	// until the scan moves past it.
	vmBlk := pg.InvalidBlockNumber
	j.p.step = func() (bool, error) {
		bufAt := be.Buf // what this page costs, its read included
		b, blk, ok, err := j.stream.Next()
		if err != nil || !ok {
			j.stream.End()
			return true, err
		}
		if want := blk / heapBlocksPerVMPage; want != vmBlk {
			if j.vmBuf != pg.InvalidBuffer {
				c.pool.Unpin(be, j.vmBuf)
			}
			if j.vmBuf, _, err = c.forkReadBuf(be, rel, pg.VMFork, want, true); err != nil {
				return true, err
			}
			vmBlk = want
		}
		j.scanned++
		j.scannedTuples += rel.Tuples(blk)
		wasFrozen := rel.Flags(blk)&heap.PageAllFrozen != 0
		c.vacuumPage(be, b, rel, blk, freeze, j.vmBuf)
		if rel.Tuples(blk) > 0 {
			j.nonempty = int(blk) + 1 // lazy_scan_prune: the page has tuples (nonempty_pages)
		}
		if !wasFrozen && rel.Flags(blk)&heap.PageAllFrozen != 0 {
			j.frozenPages++
			j.frozenTuples += int64(rel.Tuples(blk))
		}
		c.pool.Unpin(be, b)
		// lazy_scan_heap: the page's free space goes to the FSM after the page is released.
		err = c.recordPageWithFreeSpace(be, rel, blk)
		j.cost.After(be, bufAt) // vacuum_delay_point, before the next page
		return false, err
	}
	return j
}

// end is VACUUM after its heap scan: the FSM vacuumed, pg_class's row
// updated, the transaction's invalidations, the TOAST relation. The
// result carries the usage VACUUM VERBOSE reports.
func (j *vacJob) end() (*StmtResult, error) {
	c, be, rel := j.c, j.be, j.rel
	if j.vmBuf != pg.InvalidBuffer {
		c.pool.Unpin(be, j.vmBuf)
	}
	// FreeSpaceMapVacuumRange at the end of the heap scan.
	if err := c.fsmVacuum(be, rel); err != nil {
		return nil, err
	}
	if !j.auto {
		be.Now = max(be.Now, c.now)
	}
	if err := c.vacuumWindowPins(be, rel); err != nil {
		return nil, err
	}
	if err := c.vacuumCleanupIndexes(be, rel); err != nil {
		return nil, err
	}
	tuples := vacwal.EstimateReltuples(rel.RelPages, rel.RelTuples, j.nblocks, j.scanned, j.scannedTuples)
	relPages, tookXID, err := c.vacuumTruncate(be, rel, j.ring, j.nblocks, j.nonempty)
	if err != nil {
		return nil, err
	}
	if err := c.vacUpdateRelstats(be, rel, relPages, !j.skippedVisible, tuples); err != nil {
		return nil, err
	}
	// VACUUM VERBOSE reports the table's usage up to here.
	res := &StmtResult{Kind: "Vacuum", Relation: rel.Name, Strategy: strategy.Vacuum, RingBuffers: j.ringN,
		Buf: be.Buf, WAL: be.WAL, IOReadNs: be.IOReadNs}
	// The transaction ends with the invalidations of the pg_class row logged
	// for standbys (XLOG_STANDBY_INVALIDATIONS: no xid, so no commit record);
	// then the table's TOAST relation, empty here, is vacuumed the same way
	// (not by autovacuum: without VACOPT_PROCESS_TOAST it is a table of its own).
	c.vacuumXactEnd(be, tookXID)
	if rel.HasToast && !j.auto {
		if err := c.cat.VacuumHints(c.pool, c.wal, be, rel.ID, true, c.needsImage); err != nil {
			return nil, err
		}
		// The empty TOAST relation: its row changes the first time (reltuples
		// −1 → 0), later only when relfrozenxid can advance past new XIDs.
		if !rel.ToastVacuumed || rel.ToastFrozenAt != c.xids {
			rel.ToastVacuumed, rel.ToastFrozenAt = true, c.xids
			if err := c.inplacePgClassRow(be, pgclass.Key{Rel: rel.ID, Kind: pgclass.Toast}, vacwal.PgClassRow(c.S.Version)); err != nil {
				return nil, err
			}
		}
		be.Now, _ = c.insertRecord(be.Now, &be.WAL, vacwal.StandbyInvalidationsLen)
	}
	if err := c.cat.VacuumHints(c.pool, c.wal, be, rel.ID, false, c.needsImage); err != nil { // vac_update_datfrozenxid
		return nil, err
	}
	c.av.Vacuumed(rel.ID, j.auto, be.Now)
	return res, nil
}

// asyncCommit is the end of a transaction without an XID that wrote WAL at
// time t: its records are flushed asynchronously (XLogSetAsyncXactLSN wakes
// the WAL writer).
func (c *Cluster) asyncCommit(records int64, t int64) {
	if records > 0 && c.wal.SetAsyncXactLSN(c.wal.InsertLSN()) {
		c.wakeWalWriter(t)
	}
}

// vacUpdateRelstats is vac_update_relstats: the new relpages, reltuples and
// relallvisible (which the planner reads from then on) and, for a VACUUM
// that may (advance), relfrozenxid go into pg_class in place — only when one
// of them changed: relfrozenxid moves forward to the oldest XID left
// unfrozen, or past every transaction once every page is frozen (vacuum.c).
func (c *Cluster) vacUpdateRelstats(be *bufmgr.Backend, rel *heap.Relation, nblocks int, advance bool, tuples float64) error {
	if !rel.UpdateRelstats(nblocks, tuples, advance, c.xids, c.S.Version >= 18, &c.av.Counts(rel.ID).RelAllFrozen) {
		return nil
	}
	return c.inplacePgClassRow(be, pgclass.Key{Rel: rel.ID}, vacwal.PgClassRow(c.S.Version, rel.Reloptions...))
}

// inplacePgClassRow is heap_inplace_update of key's pg_class row of rowData
// bytes (catpin.Pins.Inplace).
func (c *Cluster) inplacePgClassRow(be *bufmgr.Backend, key pgclass.Key, rowData int) error {
	return c.cat.Inplace(c.pool, c.wal, be, key, rowData, c.needsImage)
}

func (c *Cluster) vacuumPage(be *bufmgr.Backend, b pg.Buffer, rel *heap.Relation, blk pg.BlockNumber, freeze bool, vmBuf pg.Buffer) {
	vacpage.Page(c.vacPageEnv(), be, b, rel, blk, freeze, vmBuf)
}

// vacPageEnv is the cluster's pieces for package vacpage (made once).
func (c *Cluster) vacPageEnv() *vacpage.Env {
	if c.vacEnv == nil {
		c.vacEnv = &vacpage.Env{Pool: c.pool, WAL: c.wal, Version: c.S.Version, PageNs: c.costs.PageNs,
			TupleUnhintNs: c.costs.TupleUnhintNs, NeedsImage: c.needsImage, NeedsBackup: c.xlogCheckBufferNeedsBackup, ImageHole: c.imageHole,
			ImageLen: func(be *bufmgr.Backend, t pg.BufferTag) int { return c.imageLen(be, t, 0) }}
	}
	return c.vacEnv
}
