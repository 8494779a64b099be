package engine

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/internal/engine/heaptrunc"
	"github.com/pgbufsim/pgbufsim/internal/engine/vacwal"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/strategy"
)

// vacuumTruncate is heaptrunc.Truncate with the cluster's pieces and the
// VACUUM's nonempty_pages.
func (c *Cluster) vacuumTruncate(be *bufmgr.Backend, rel *heap.Relation, ring *strategy.Ring, nblocks, nonempty int) (int, bool, error) {
	return heaptrunc.Truncate(heaptrunc.Env{Pool: c.pool, WAL: c.wal, Ring: ring, Fork: c.fork,
		ReadFork: func(be *bufmgr.Backend, rel *heap.Relation, f pg.ForkNumber, blk pg.BlockNumber) (pg.Buffer, bool, error) {
			return c.forkReadBuf(be, rel, f, blk, false)
		},
		ImageLen: func(be *bufmgr.Backend, t pg.BufferTag) int { return c.imageLen(be, t, 0) },
		FSMVacuumRange: func(be *bufmgr.Backend, rel *heap.Relation, start pg.BlockNumber) error {
			return c.fsmUpper.VacuumRange((*forkAccess)(c), be, rel, start, pg.InvalidBlockNumber)
		}}, be, rel, nblocks, nonempty)
}

// vacuumXactEnd ends the VACUUM's transaction for the table: with an XID
// (the truncation's lock), a commit record carrying the pg_class row's three
// invalidation messages, flushed; without one, the invalidations logged for
// standbys (XLOG_STANDBY_INVALIDATIONS: no xid, so no commit record).
func (c *Cluster) vacuumXactEnd(be *bufmgr.Backend, tookXID bool) {
	size := vacwal.StandbyInvalidationsLen
	if tookXID {
		c.xids++
		size = vacwal.CommitInvalsLen(3)
	}
	end, now := c.wal.Insert(be.Now, &be.WAL, size, 0)
	be.Now = now
	if tookXID {
		be.Now = c.wal.Flush(be.Now, &be.WAL, end)
	}
}
