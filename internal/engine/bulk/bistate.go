package bulk

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/internal/engine/bulkext"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/strategy"
)

// FSM is the free space map as RelationGetBufferForTuple uses it.
type FSM interface {
	// FSMSearchRoot is fsm_search when no page has room (the root is read).
	FSMSearchRoot(be *bufmgr.Backend, rel *heap.Relation) error
	// RecordFreeSpace is RecordPageWithFreeSpace for heap block blk.
	RecordFreeSpace(be *bufmgr.Backend, rel *heap.Relation, blk pg.BlockNumber) error
}

// InsertState is a BulkInsertState (COPY's): the ring that supplies new
// pages' buffers, and the current page, kept pinned between batches
// (bistate->current_buf).
type InsertState struct {
	Pool   *bufmgr.Pool
	FSM    FSM
	Ring   *strategy.Ring
	UseFSM bool // not TABLE_INSERT_SKIP_FSM (the relfilenode is not new in this transaction)
	Cur    pg.Buffer
	CurBlk pg.BlockNumber
	// Ext is the state's bulk extension (16+); AddBlocks extends the
	// relation (bulkext's RelationAddBlocks with the cluster's pieces).
	Ext       bulkext.State
	AddBlocks func(be *bufmgr.Backend, rel *heap.Relation, ring *strategy.Ring, st *bulkext.State, numPages int, useFSM bool) (pg.Buffer, pg.BlockNumber, error)
}

// NewInsertState is GetBulkInsertState: no current page.
func NewInsertState(p *bufmgr.Pool, fsm FSM, ring *strategy.Ring, useFSM bool) *InsertState {
	return &InsertState{Pool: p, FSM: fsm, Ring: ring, UseFSM: useFSM, Cur: pg.InvalidBuffer, CurBlk: pg.InvalidBlockNumber}
}

// release drops the state's pin of its current page.
func (s *InsertState) release(be *bufmgr.Backend) {
	if s.Cur != pg.InvalidBuffer {
		s.Pool.Unpin(be, s.Cur)
		s.Cur, s.CurBlk = pg.InvalidBuffer, pg.InvalidBlockNumber
	}
}

// Free is FreeBulkInsertState's release of the current page.
func (s *InsertState) Free(be *bufmgr.Backend) { s.release(be) }

// GetBuffer is RelationGetBufferForTuple with the state, asked for
// numPages pages to extend by (heap_multi_insert's count): the current page
// if a tuple fits on it; without one, the FSM's answer (its root, as no page
// has room) then the last page; a full page goes on to the next page of an
// ongoing bulk extension (16+: read in, new, initialised and dirtied), or is
// recorded in the FSM; failing all, the relation is extended (AddBlocks:
// RelationAddBlocks, by one page before 16). A page other than the current
// one gets a new pin (ReadBufferBI).
func (s *InsertState) GetBuffer(be *bufmgr.Backend, rel *heap.Relation, numPages int) (pg.Buffer, pg.BlockNumber, error) {
	target := s.CurBlk
	if target == pg.InvalidBlockNumber {
		if s.UseFSM {
			if err := s.FSM.FSMSearchRoot(be, rel); err != nil {
				return 0, 0, err
			}
		}
		if np := rel.NPages(); np > 0 {
			target = pg.BlockNumber(np - 1)
		}
	}
	if target != pg.InvalidBlockNumber {
		if target != s.CurBlk {
			s.release(be)
			b, _, err := s.Pool.ReadBuffer(be, pg.BufferTag{Rel: rel.ID, Block: target}, s.Ring)
			if err != nil {
				return 0, 0, err
			}
			s.Cur, s.CurBlk = b, target
		}
		if rel.Fits(target) {
			return s.Cur, target, nil
		}
		if next, ok := s.Ext.Next(); ok {
			if s.UseFSM {
				if err := s.FSM.RecordFreeSpace(be, rel, target); err != nil {
					return 0, 0, err
				}
			}
			s.release(be)
			b, _, err := s.Pool.ReadBuffer(be, pg.BufferTag{Rel: rel.ID, Block: next}, s.Ring)
			if err != nil {
				return 0, 0, err
			}
			s.Pool.MarkBufferDirty(be, b)
			s.Cur, s.CurBlk = b, next
			return b, next, nil
		}
		if s.UseFSM {
			if err := s.FSM.RecordFreeSpace(be, rel, target); err != nil {
				return 0, 0, err
			}
			if err := s.FSM.FSMSearchRoot(be, rel); err != nil {
				return 0, 0, err
			}
		}
	}
	s.release(be)
	b, blk, err := s.AddBlocks(be, rel, s.Ring, &s.Ext, numPages, s.UseFSM)
	if err != nil {
		return 0, 0, err
	}
	s.Cur, s.CurBlk = b, blk
	return b, blk, nil
}
