package engine

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/freespace"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/internal/engine/vacwal"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/strategy"
)

// vacuumTruncate is should_attempt_truncation and lazy_truncate_heap
// (vacuumlazy.c) after the heap scan of nblocks pages: the empty pages at
// the end go when there are enough of them (the pages a COPY's bulk
// extension left unused, 16+). It returns the table's pages afterwards and
// whether the VACUUM took an XID (the lock logged for standbys gives it one,
// so its transaction ends with a commit record).
//
//   - ConditionalLockRelation(AccessExclusiveLock): LogAccessExclusiveLock
//     assigns the XID and logs XLOG_STANDBY_LOCK.
//   - count_nondeletable_pages reads the pages backwards from the end
//     (through the VACUUM's ring) down to nonempty_pages, stopping at the
//     first with tuples.
//   - RelationTruncate: the FSM page holding the first removed block has its
//     slots cleared (FreeSpaceMapPrepareTruncateRel) and the VM page its
//     bits (visibilitymap_prepare_truncate), each dirtied and, when hint
//     bits need WAL, logged whole (log_newpage_buffer); XLOG_SMGR_TRUNCATE,
//     flushed; the removed blocks' buffers dropped (smgrtruncate); the FSM's
//     upper levels updated from the cut on (FreeSpaceMapVacuumRange).
func (c *Cluster) vacuumTruncate(be *bufmgr.Backend, rel *heap.Relation, ring *strategy.Ring, nblocks int) (int, bool, error) {
	nonempty := c.vacNonempty
	c.vacNonempty = 0
	if !vacwal.ShouldTruncate(nblocks, nonempty) {
		return nblocks, false, nil
	}
	be.Now, _ = c.insertRecord(be.Now, &be.WAL, vacwal.StandbyLockLen)
	newPages := nonempty
	for blk := nblocks - 1; blk >= nonempty; blk-- {
		b, _, err := c.pool.ReadBuffer(be, pg.BufferTag{Rel: rel.ID, Block: pg.BlockNumber(blk)}, ring)
		if err != nil {
			return nblocks, true, err
		}
		c.pool.Unpin(be, b)
		if rel.Tuples(pg.BlockNumber(blk)) > 0 {
			newPages = blk + 1
			break
		}
	}
	if newPages >= nblocks {
		return nblocks, true, nil
	}
	// FreeSpaceMapPrepareTruncateRel: the leaf of the first removed block.
	leaf := freespace.LogicalToPhysical(0, newPages/freespace.SlotsPerFSMPage)
	fsmKeep, fsmVacuum := int(leaf), false
	if newPages%freespace.SlotsPerFSMPage != 0 {
		ok, err := c.truncateForkPage(be, rel, pg.FSMFork, leaf)
		if err != nil {
			return nblocks, true, err
		}
		fsmKeep, fsmVacuum = int(leaf)+1, ok
	} else {
		fsmVacuum = c.pool.NBlocks(c.fork(rel, pg.FSMFork)) > fsmKeep
	}
	// visibilitymap_prepare_truncate: the VM page of the first removed block.
	vmBlk := pg.BlockNumber(newPages / heapBlocksPerVMPage)
	vmKeep := int(vmBlk)
	if newPages%heapBlocksPerVMPage != 0 {
		if _, err := c.truncateForkPage(be, rel, pg.VMFork, vmBlk); err != nil {
			return nblocks, true, err
		}
		vmKeep++
	}
	lsn, now := c.wal.Insert(be.Now, &be.WAL, vacwal.SmgrTruncateLen, 0)
	be.Now = c.wal.Flush(now, &be.WAL, lsn)
	c.pool.TruncateRel(rel.ID, newPages)
	c.pool.TruncateRel(c.fork(rel, pg.FSMFork), fsmKeep)
	c.pool.TruncateRel(c.fork(rel, pg.VMFork), vmKeep)
	rel.TruncatePages(newPages)
	if fsmVacuum {
		if err := c.fsmUpper.VacuumRange((*forkAccess)(c), be, rel, pg.BlockNumber(newPages), pg.InvalidBlockNumber); err != nil {
			return newPages, true, err
		}
	}
	return newPages, true, nil
}

// truncateForkPage is the partial-page step of FreeSpaceMapPrepareTruncateRel
// and visibilitymap_prepare_truncate: the fork's page blk, if the fork has
// it, is read, dirtied and — when hint bits need WAL — logged whole
// (log_newpage_buffer: XLOG_FPI forced to an image). It reports whether the
// page existed.
func (c *Cluster) truncateForkPage(be *bufmgr.Backend, rel *heap.Relation, f pg.ForkNumber, blk pg.BlockNumber) (bool, error) {
	b, ok, err := c.forkReadBuf(be, rel, f, blk, false)
	if err != nil || !ok {
		return false, err
	}
	c.pool.MarkBufferDirty(be, b)
	if c.pool.XLogHintBitIsNeeded() {
		lsn, now := c.wal.Insert(be.Now, &be.WAL, vacwal.NewPageLen(c.imageLen(be, c.pool.Tag(b), 0)), 1)
		be.Now = now
		c.pool.SetPageLSN(b, lsn)
	}
	c.pool.Unpin(be, b)
	return true, nil
}

// vacuumXactEnd ends the VACUUM's transaction for the table: with an XID
// (the truncation's lock), a commit record carrying the pg_class row's three
// invalidation messages, flushed; without one, the invalidations logged for
// standbys (XLOG_STANDBY_INVALIDATIONS: no xid, so no commit record).
func (c *Cluster) vacuumXactEnd(be *bufmgr.Backend, tookXID bool) {
	if !tookXID {
		be.Now, _ = c.insertRecord(be.Now, &be.WAL, vacwal.StandbyInvalidationsLen)
		return
	}
	c.xids++
	var end pg.LSN
	end, be.Now = c.wal.Insert(be.Now, &be.WAL, vacwal.CommitInvalsLen(3), 0)
	be.Now = c.wal.Flush(be.Now, &be.WAL, end)
}
