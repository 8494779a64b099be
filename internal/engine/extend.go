package engine

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/internal/engine/bulkext"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/strategy"
)

// addBlocks is RelationAddBlocks with a BulkInsertState (hio.c): the heap
// extended by the pages bulkext decides (one before 16), each a zeroed
// buffer from the ring; the first is initialised, dirtied and returned
// pinned, the others released for the state to use next. With the FSM, the
// pages past the numPages the insert needs are recorded as empty and the
// FSM's upper levels updated over them (FreeSpaceMapVacuumRange).
func (c *Cluster) addBlocks(be *bufmgr.Backend, rel *heap.Relation, ring *strategy.Ring, st *bulkext.State, numPages int, useFSM bool) (pg.Buffer, pg.BlockNumber, error) {
	n := st.ExtendBy(c.S.Version, numPages, c.S.PinLimit())
	first, firstBlk := pg.InvalidBuffer, pg.InvalidBlockNumber
	for i := 0; i < n; i++ {
		b, blk, err := c.pool.Extend(be, rel.ID, ring)
		if err != nil {
			if first != pg.InvalidBuffer {
				c.pool.Unpin(be, first)
			}
			return pg.InvalidBuffer, 0, err
		}
		rel.AddPage()
		if i == 0 {
			first, firstBlk = b, blk
			continue
		}
		c.pool.Unpin(be, b)
	}
	st.Extended(firstBlk, n)
	if useFSM && numPages < n {
		for i := numPages; i < n; i++ {
			if err := c.recordPageWithFreeSpace(be, rel, firstBlk+pg.BlockNumber(i)); err != nil {
				c.pool.Unpin(be, first)
				return pg.InvalidBuffer, 0, err
			}
		}
		if err := c.fsmUpper.VacuumRange((*forkAccess)(c), be, rel, firstBlk+pg.BlockNumber(numPages), firstBlk+pg.BlockNumber(n-1)); err != nil {
			c.pool.Unpin(be, first)
			return pg.InvalidBuffer, 0, err
		}
	}
	return first, firstBlk, nil
}
