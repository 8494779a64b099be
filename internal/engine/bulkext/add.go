package bulkext

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/strategy"
)

// Env is what AddBlocks needs of the cluster.
type Env struct {
	Pool     *bufmgr.Pool
	Version  pg.Version
	PinLimit int // GetPinLimit (MaxProportionalPins)
	// RecordFreeSpace is RecordPageWithFreeSpace for heap block blk as it is
	// now; FSMVacuumRange is FreeSpaceMapVacuumRange over start…end.
	RecordFreeSpace func(be *bufmgr.Backend, rel *heap.Relation, blk pg.BlockNumber) error
	FSMVacuumRange  func(be *bufmgr.Backend, rel *heap.Relation, start, end pg.BlockNumber) error
}

// AddBlocks is RelationAddBlocks with a BulkInsertState (hio.c): the heap
// extended by ExtendBy pages, each a zeroed buffer from the ring
// (ExtendBufferedRelBy); the first is returned pinned, the others released
// for the state to use next. With the FSM, the pages past the numPages the
// insert needs are recorded as empty and the FSM's upper levels updated
// over all of them but the last (RelationAddBlocks passes the last block as
// FreeSpaceMapVacuumRange's exclusive end).
func (s *State) AddBlocks(e Env, be *bufmgr.Backend, rel *heap.Relation, ring *strategy.Ring, numPages int, useFSM bool) (pg.Buffer, pg.BlockNumber, error) {
	n := s.ExtendBy(e.Version, numPages, e.PinLimit)
	first, firstBlk := pg.InvalidBuffer, pg.InvalidBlockNumber
	fail := func(err error) (pg.Buffer, pg.BlockNumber, error) {
		if first != pg.InvalidBuffer {
			e.Pool.Unpin(be, first)
		}
		return pg.InvalidBuffer, 0, err
	}
	for i := 0; i < n; i++ {
		b, blk, err := e.Pool.Extend(be, rel.ID, ring)
		if err != nil {
			return fail(err)
		}
		rel.AddPage()
		if i == 0 {
			first, firstBlk = b, blk
			continue
		}
		e.Pool.Unpin(be, b)
	}
	s.Extended(firstBlk, n)
	if useFSM && numPages < n {
		for i := numPages; i < n; i++ {
			if err := e.RecordFreeSpace(be, rel, firstBlk+pg.BlockNumber(i)); err != nil {
				return fail(err)
			}
		}
		// FreeSpaceMapVacuumRange(rel, first_fsm_block, last_block): its end
		// is exclusive, so the last page's slot is left out of the upper
		// levels, and with one page entered nothing is updated (16–19).
		if last := n - 2; last >= numPages {
			if err := e.FSMVacuumRange(be, rel, firstBlk+pg.BlockNumber(numPages), firstBlk+pg.BlockNumber(last)); err != nil {
				return fail(err)
			}
		}
	}
	return first, firstBlk, nil
}
