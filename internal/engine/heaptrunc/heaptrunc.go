// Package heaptrunc is VACUUM's truncation of the empty pages at a heap's
// end (vacuumlazy.c should_attempt_truncation, lazy_truncate_heap,
// count_nondeletable_pages; storage.c RelationTruncate with
// FreeSpaceMapPrepareTruncateRel and visibilitymap_prepare_truncate). The
// pages a COPY's bulk extension left unused (16+) are what it finds in a
// simulated table. The engine supplies the cluster's pieces in Env.
package heaptrunc

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/freespace"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/internal/engine/vacwal"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/strategy"
	"github.com/pgbufsim/pgbufsim/wal"
)

// Env is what the truncation needs of the cluster.
type Env struct {
	Pool *bufmgr.Pool
	WAL  *wal.WAL
	Ring *strategy.Ring // the VACUUM's
	// Fork is the storage of one of rel's forks; ReadFork reads its page blk
	// pinned, if the fork has it (fsm_readbuf / vm_readbuf without extending).
	Fork     func(rel *heap.Relation, f pg.ForkNumber) pg.RelID
	ReadFork func(be *bufmgr.Backend, rel *heap.Relation, f pg.ForkNumber, blk pg.BlockNumber) (pg.Buffer, bool, error)
	// ImageLen is the bytes an image of page t takes in a record (wal_compression).
	ImageLen func(be *bufmgr.Backend, t pg.BufferTag) int
	// FSMVacuumRange is FreeSpaceMapVacuumRange from heap block start on.
	FSMVacuumRange func(be *bufmgr.Backend, rel *heap.Relation, start pg.BlockNumber) error
}

// Truncate runs after VACUUM's heap scan of nblocks pages, nonempty being
// its nonempty_pages (one past the last scanned page with tuples). It
// returns the table's pages afterwards and whether the VACUUM took an XID
// (ConditionalLockRelation's AccessExclusiveLock is logged for standbys,
// LogAccessExclusiveLock, which assigns one: the transaction then ends with
// a commit record).
//
//   - Nothing unless should_attempt_truncation: at least 1,000 pages past
//     nonempty_pages or a sixteenth of the table.
//   - XLOG_STANDBY_LOCK; count_nondeletable_pages reads the pages backwards
//     from the end through the VACUUM's ring down to nonempty_pages,
//     stopping at the first with tuples.
//   - RelationTruncate: the FSM leaf holding the first removed block has its
//     slots cleared and the VM page its bits, each dirtied and, when hint
//     bits need WAL, logged whole (log_newpage_buffer); XLOG_SMGR_TRUNCATE,
//     flushed; the removed blocks' buffers dropped and the files cut
//     (smgrtruncate); FreeSpaceMapVacuumRange from the cut.
func Truncate(e Env, be *bufmgr.Backend, rel *heap.Relation, nblocks, nonempty int) (int, bool, error) {
	if !vacwal.ShouldTruncate(nblocks, nonempty) {
		return nblocks, false, nil
	}
	_, be.Now = e.WAL.Insert(be.Now, &be.WAL, vacwal.StandbyLockLen, 0)
	newPages := nonempty
	for blk := nblocks - 1; blk >= nonempty; blk-- {
		b, _, err := e.Pool.ReadBuffer(be, pg.BufferTag{Rel: rel.ID, Block: pg.BlockNumber(blk)}, e.Ring)
		if err != nil {
			return nblocks, true, err
		}
		e.Pool.Unpin(be, b)
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
		ok, err := clearForkPage(e, be, rel, pg.FSMFork, leaf)
		if err != nil {
			return nblocks, true, err
		}
		fsmKeep, fsmVacuum = int(leaf)+1, ok
	} else {
		fsmVacuum = e.Pool.NBlocks(e.Fork(rel, pg.FSMFork)) > fsmKeep
	}
	// visibilitymap_prepare_truncate: the VM page of the first removed block.
	vmBlk := pg.BlockNumber(newPages / freespace.HeapBlocksPerVMPage)
	vmKeep := int(vmBlk)
	if newPages%freespace.HeapBlocksPerVMPage != 0 {
		if _, err := clearForkPage(e, be, rel, pg.VMFork, vmBlk); err != nil {
			return nblocks, true, err
		}
		vmKeep++
	}
	lsn, now := e.WAL.Insert(be.Now, &be.WAL, vacwal.SmgrTruncateLen, 0)
	be.Now = e.WAL.Flush(now, &be.WAL, lsn)
	e.Pool.TruncateRel(rel.ID, newPages)
	e.Pool.TruncateRel(e.Fork(rel, pg.FSMFork), fsmKeep)
	e.Pool.TruncateRel(e.Fork(rel, pg.VMFork), vmKeep)
	rel.TruncatePages(newPages)
	if fsmVacuum {
		if err := e.FSMVacuumRange(be, rel, pg.BlockNumber(newPages)); err != nil {
			return newPages, true, err
		}
	}
	return newPages, true, nil
}

// clearForkPage is the partial-page step of FreeSpaceMapPrepareTruncateRel
// and visibilitymap_prepare_truncate: the fork's page blk, if the fork has
// it, is dirtied and — when hint bits need WAL — logged whole
// (log_newpage_buffer: XLOG_FPI forced to an image of the whole page). It
// reports whether the page existed.
func clearForkPage(e Env, be *bufmgr.Backend, rel *heap.Relation, f pg.ForkNumber, blk pg.BlockNumber) (bool, error) {
	b, ok, err := e.ReadFork(be, rel, f, blk)
	if err != nil || !ok {
		return false, err
	}
	e.Pool.MarkBufferDirty(be, b)
	if e.Pool.XLogHintBitIsNeeded() {
		lsn, now := e.WAL.Insert(be.Now, &be.WAL, vacwal.NewPageLen(e.ImageLen(be, e.Pool.Tag(b))), 1)
		be.Now = now
		e.Pool.SetPageLSN(b, lsn)
	}
	e.Pool.Unpin(be, b)
	return true, nil
}
