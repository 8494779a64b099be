package engine

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/internal/engine/bulkext"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/strategy"
)

// addBlocks is bulkext's RelationAddBlocks with the cluster's pieces.
func (c *Cluster) addBlocks(be *bufmgr.Backend, rel *heap.Relation, ring *strategy.Ring, st *bulkext.State, numPages int, useFSM bool) (pg.Buffer, pg.BlockNumber, error) {
	return st.AddBlocks(bulkext.Env{Pool: c.pool, Version: c.S.Version, PinLimit: c.S.PinLimit(),
		RecordFreeSpace: c.recordPageWithFreeSpace,
		FSMVacuumRange: func(be *bufmgr.Backend, rel *heap.Relation, start, end pg.BlockNumber) error {
			return c.fsmUpper.VacuumRange((*forkAccess)(c), be, rel, start, end)
		}}, be, rel, ring, numPages, useFSM)
}
