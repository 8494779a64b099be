package freespace

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

// fakeForks records the FSM's buffer accesses; the fork has size blocks.
type fakeForks struct {
	size          int
	reads, hinted []pg.BlockNumber
	pinned        int
}

func (f *fakeForks) ReadFork(be *bufmgr.Backend, rel *heap.Relation, fork pg.ForkNumber, blk pg.BlockNumber, extend bool) (pg.Buffer, bool, error) {
	if int(blk) >= f.size {
		if !extend {
			return pg.InvalidBuffer, false, nil
		}
		f.size = int(blk) + 1
	}
	f.reads = append(f.reads, blk)
	f.pinned++
	return pg.Buffer(blk + 1), true, nil
}

func (f *fakeForks) MarkBufferDirtyHint(be *bufmgr.Backend, b pg.Buffer, hole int) {
	f.hinted = append(f.hinted, pg.BlockNumber(b-1))
}

func (f *fakeForks) Unpin(be *bufmgr.Backend, b pg.Buffer) { f.pinned-- }

// Depth-first storage (fsm_logical_to_physical): root 0, the first level-1
// page 1, then its 4,069 leaves at 2..4070; the second level-1 page at 4071
// and its first leaf (leaf 4069) at 4072.
func TestLogicalToPhysical(t *testing.T) {
	require.Equal(t, pg.BlockNumber(0), LogicalToPhysical(2, 0))
	require.Equal(t, pg.BlockNumber(1), LogicalToPhysical(1, 0))
	require.Equal(t, pg.BlockNumber(2), LogicalToPhysical(0, 0))
	require.Equal(t, pg.BlockNumber(3), LogicalToPhysical(0, 1))
	require.Equal(t, pg.BlockNumber(4070), LogicalToPhysical(0, 4068))
	require.Equal(t, pg.BlockNumber(4071), LogicalToPhysical(1, 1))
	require.Equal(t, pg.BlockNumber(4072), LogicalToPhysical(0, 4069))
	// 32,672 heap pages per VM page: (8192 − 24) × 4.
	require.Equal(t, 32672, HeapBlocksPerVMPage)
	require.Equal(t, pg.BlockNumber(1), VMBlock(32672))
}

// A page of four 1,832-byte tuples has a hole of 8192 − 24 − 4 × (1,832 + 4)
// = 824 bytes: 820 free after a line pointer, category 820/32 = 25. An
// empty page has 8,168 − 4 = 8,164 ≥ MaxHeapTupleSize 8,160: category 255.
// Recording a full page dirties its leaf once; recording it again changes
// nothing; the leaf of heap page 0 is FSM block 2, extended on demand.
func TestRecordPageWithFreeSpace(t *testing.T) {
	rel := heap.NewRelation(1, "t", heap.Shape{TupleLen: 1832, Fillfactor: 100})
	blk := rel.AddPage()
	require.Equal(t, 255, Category(rel, blk))
	for i := 0; i < 4; i++ {
		rel.AddTuple(blk, false)
	}
	require.Equal(t, 824, rel.Hole(blk))
	require.Equal(t, 25, Category(rel, blk))
	f := &fakeForks{}
	be := bufmgr.NewBackend(bufmgr.ClientBackend, 0)
	require.NoError(t, RecordPageWithFreeSpace(f, be, rel, blk))
	require.Equal(t, []pg.BlockNumber{2}, f.reads)
	require.Equal(t, []pg.BlockNumber{2}, f.hinted)
	require.EqualValues(t, 25, rel.FSMValue(blk))
	require.NoError(t, RecordPageWithFreeSpace(f, be, rel, blk))
	require.Len(t, f.hinted, 1, "an unchanged category does not dirty the page")
	require.Zero(t, f.pinned)
	// With no upper slot set, fsm_search reads the root only: no room.
	f.reads = nil
	var u Upper
	found, err := u.Search(f, be, rel, NeededCategory(rel))
	require.NoError(t, err)
	require.False(t, found)
	require.Equal(t, []pg.BlockNumber{0}, f.reads)
}

// NeededCategory: a 1,832-byte tuple needs 1,832 bytes (MAXALIGNed already),
// category ⌈1832/32⌉ = 58; at fillfactor 90 it also needs the 819-byte
// reserve (8192 × 10/100): ⌈2651/32⌉ = 83.
func TestNeededCategory(t *testing.T) {
	require.Equal(t, 58, NeededCategory(heap.NewRelation(1, "t", heap.Shape{TupleLen: 1832, Fillfactor: 100})))
	require.Equal(t, 83, NeededCategory(heap.NewRelation(1, "t", heap.Shape{TupleLen: 1832, Fillfactor: 90})))
}

// fsm_search with stale upper slots: a bulk extension entered heap page 0
// empty (category 255) and updated the upper levels, then the insert
// filled it (4 tuples: category 25) and recorded it on the leaf only. The
// search for 58 descends root (slot 255) → level-1 page (255) → leaf (max
// 25): none; the level-1 slot is corrected to 25 (block 1 read and
// dirtied), then from the root again: root (255) → level-1 page (25):
// none; the root's slot is corrected (block 0 read and dirtied); from the
// root once more: 25 < 58, no page has room.
func TestSearchCorrectsStaleUpperSlots(t *testing.T) {
	rel := heap.NewRelation(1, "t", heap.Shape{TupleLen: 1832, Fillfactor: 100})
	blk := rel.AddPage()
	f := &fakeForks{}
	be := bufmgr.NewBackend(bufmgr.ClientBackend, 0)
	var u Upper
	require.NoError(t, RecordPageWithFreeSpace(f, be, rel, blk))
	require.EqualValues(t, 255, rel.FSMValue(blk))
	require.NoError(t, u.VacuumRange(f, be, rel, blk, blk))
	rel.AddTuples(blk, 4, false)
	require.NoError(t, RecordPageWithFreeSpace(f, be, rel, blk))
	f.reads, f.hinted = nil, nil

	found, err := u.Search(f, be, rel, NeededCategory(rel))
	require.NoError(t, err)
	require.False(t, found)
	require.Equal(t, []pg.BlockNumber{0, 1, 2, 1, 0, 1, 0, 0}, f.reads)
	require.Equal(t, []pg.BlockNumber{1, 0}, f.hinted)
	require.Zero(t, f.pinned)

	// The slots are right now: the next search reads the root only.
	f.reads, f.hinted = nil, nil
	_, err = u.Search(f, be, rel, NeededCategory(rel))
	require.NoError(t, err)
	require.Equal(t, []pg.BlockNumber{0}, f.reads)
	require.Empty(t, f.hinted)

	// A page with room (an empty one entered by an extension) is found.
	empty := rel.AddPage()
	require.NoError(t, RecordPageWithFreeSpace(f, be, rel, empty))
	require.NoError(t, u.VacuumRange(f, be, rel, empty, empty))
	found, err = u.Search(f, be, rel, NeededCategory(rel))
	require.NoError(t, err)
	require.True(t, found)
}

// VACUUM's walk: root, level-1 page, the leaf; the two upper pages take the
// leaf's maximum (25) and are dirtied once; a second walk changes nothing.
func TestUpperVacuum(t *testing.T) {
	rel := heap.NewRelation(1, "t", heap.Shape{TupleLen: 1832, Fillfactor: 100})
	blk := rel.AddPage()
	for i := 0; i < 4; i++ {
		rel.AddTuple(blk, false)
	}
	f := &fakeForks{}
	be := bufmgr.NewBackend(bufmgr.ClientBackend, 0)
	require.NoError(t, RecordPageWithFreeSpace(f, be, rel, blk))
	f.reads, f.hinted = nil, nil
	var u Upper
	require.NoError(t, u.Vacuum(f, be, rel))
	require.Equal(t, []pg.BlockNumber{0, 1, 2}, f.reads)
	require.ElementsMatch(t, []pg.BlockNumber{0, 1}, f.hinted)
	f.hinted = nil
	require.NoError(t, u.Vacuum(f, be, rel))
	require.Empty(t, f.hinted)
	u.Forget(1)
	require.NoError(t, u.Vacuum(f, be, rel))
	require.Len(t, f.hinted, 2, "after Forget the slots are set again")
	require.Zero(t, f.pinned)
}
