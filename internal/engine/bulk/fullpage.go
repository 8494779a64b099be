package bulk

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/freespace"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
)

// FullPage is what an INSERT's next row does with its target page blk of
// rel, which the caller found full (RelationGetBufferForTuple, then
// RecordAndGetPageWithFreeSpace), in one step when all of it is hits:
// ReadBuffer of the target and its release (the tuple does not fit); the
// FSM leaf of blk read, its slot set to the page's category
// (fsm_set_and_search: MarkBufferDirtyHint if the slot changes) and
// released; the FSM root read and released (fsm_search: no page has room).
// Each is a hit by a backend holding no other pin: PinForRead's time and
// count and the usage count bump (RepeatHits) — the leaf, when its slot
// changes, pinned for real around the hint. fsm is rel's FSM fork in the
// pool. It does nothing and returns false — the caller then takes the row
// path — when the backend holds a pin or one of the pages is not in the
// pool (a read, or the FSM extended).
func FullPage(p *bufmgr.Pool, fsm pg.RelID, be *bufmgr.Backend, rel *heap.Relation, blk pg.BlockNumber) bool {
	if RowByRow || be.PinCount() != 0 {
		return false
	}
	leaf := freespace.LogicalToPhysical(0, int(blk)/freespace.SlotsPerFSMPage)
	target := p.Lookup(pg.BufferTag{Rel: rel.ID, Block: blk})
	lb := p.Lookup(pg.BufferTag{Rel: fsm, Block: leaf})
	root := p.Lookup(pg.BufferTag{Rel: fsm, Block: 0})
	if target == pg.InvalidBuffer || lb == pg.InvalidBuffer || root == pg.InvalidBuffer {
		return false
	}
	be.Now += p.PinCost()
	p.RepeatHits(be, target, 1)
	if cat := uint8(freespace.Category(rel, blk)); rel.FSMValue(blk) != cat {
		b, _, _ := p.PinForRead(be, pg.BufferTag{Rel: fsm, Block: leaf}, nil) // a hit: lb
		p.MarkBufferDirtyHint(be, b, 0)
		rel.SetFSMValue(blk, cat)
		p.Unpin(be, b)
	} else {
		be.Now += p.PinCost()
		p.RepeatHits(be, lb, 1)
	}
	be.Now += p.PinCost()
	p.RepeatHits(be, root, 1)
	return true
}
