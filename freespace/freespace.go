// Package freespace models a heap's free space map and the addressing of
// its visibility map: the two forks of a relation that live in shared
// buffers beside it (pg_buffercache shows them as "big/fsm" and "big/vm").
//
// # Free space map (freespace.c, fsmpage.c)
//
// The FSM is a tree of FSM_TREE_DEPTH = 3 levels of pages, stored
// depth-first (fsm_logical_to_physical): each leaf page holds one byte, a
// free-space category (fsm_space_avail_to_cat: 32-byte steps), for each of
// SlotsPerFSMPage heap pages, and each upper page the maximum of its
// children. An insert that finds no room asks the root (fsm_search), and
// records the page it filled (RecordPageWithFreeSpace →
// fsm_set_and_search on its leaf); VACUUM walks the whole tree
// (FreeSpaceMapVacuumRange → fsm_vacuum_page), setting each upper slot to
// its child's maximum. FSM pages are not WAL-logged: changes dirty them
// through MarkBufferDirtyHint, and an FSM page is not a standard page, so a
// hint image of it has no hole.
//
// # Visibility map (visibilitymap.c)
//
// Two bits per heap page (all-visible, all-frozen) after a page header:
// HEAPBLOCKS_PER_PAGE = (8192 − 24) × 4 heap pages per VM page.
//
// The buffer accesses go through Forks, which the engine implements on its
// buffer pool (fsm_readbuf / vm_readbuf, which extend the fork on demand).
package freespace

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
)

// SlotsPerFSMPage is SlotsPerFSMPage for 8 kB pages: NodesPerPage (8192 −
// 24-byte header − 4-byte fp_next_slot = 8164) minus NonLeafNodesPerPage
// (BLCKSZ/2 − 1 = 4095).
const SlotsPerFSMPage = 4069

// TreeDepth is FSM_TREE_DEPTH: three levels cover 2^32 heap blocks.
const TreeDepth = 3

// HeapBlocksPerVMPage is HEAPBLOCKS_PER_PAGE: (8192 − 24) × 4 heap pages per VM page.
const HeapBlocksPerVMPage = (pg.BLCKSZ - heap.SizeOfPageHeaderData) * 4

// MaxHeapTupleSize is MaxHeapTupleSize (= MaxFSMRequestSize): 8192 − MAXALIGN(24 + 4).
const MaxHeapTupleSize = pg.BLCKSZ - 32

// VMBlock is HEAPBLK_TO_MAPBLOCK: the VM page holding heap block blk's bits.
func VMBlock(blk pg.BlockNumber) pg.BlockNumber { return blk / HeapBlocksPerVMPage }

// Forks is what the FSM needs of the buffer manager.
type Forks interface {
	// ReadFork is fsm_readbuf / vm_readbuf: a pinned buffer for block blk of
	// rel's fork f; past the fork's end it extends the fork first when extend
	// is set, else there is nothing to read (ok false).
	ReadFork(be *bufmgr.Backend, rel *heap.Relation, f pg.ForkNumber, blk pg.BlockNumber, extend bool) (b pg.Buffer, ok bool, err error)
	// MarkBufferDirtyHint dirties b as a hint (an image when hints are WAL-logged).
	MarkBufferDirtyHint(be *bufmgr.Backend, b pg.Buffer, hole int)
	// Unpin releases b.
	Unpin(be *bufmgr.Backend, b pg.Buffer)
}

// LogicalToPhysical is fsm_logical_to_physical: FSM pages are stored
// depth-first, so the root is block 0, the first level-1 page block 1 and
// the first leaf block 2.
func LogicalToPhysical(level, logpageno int) pg.BlockNumber {
	leafno := logpageno
	for l := 0; l < level; l++ {
		leafno *= SlotsPerFSMPage
	}
	pages := 0
	for l := 0; l < TreeDepth; l++ {
		pages += leafno + 1
		leafno /= SlotsPerFSMPage
	}
	pages -= level
	return pg.BlockNumber(pages - 1)
}

// Category is fsm_space_avail_to_cat of a page's PageGetHeapFreeSpace
// (pd_upper − pd_lower less one line pointer): 32-byte steps, 255 for a page
// that could take the largest tuple.
func Category(rel *heap.Relation, blk pg.BlockNumber) int {
	avail := rel.Hole(blk) - heap.SizeOfItemID
	if avail < 0 {
		avail = 0
	}
	if avail >= MaxHeapTupleSize {
		return 255
	}
	return min(avail/32, 254)
}

// NeededCategory is fsm_space_needed_to_cat for a tuple of rel's: its
// MAXALIGNed length plus the fillfactor's reserve (RelationGetBufferForTuple's
// targetFreeSpace), in 32-byte steps rounded up, at most 255.
func NeededCategory(rel *heap.Relation) int {
	need := (rel.Shape.TupleLen+7)&^7 + pg.BLCKSZ*(100-rel.Shape.Fillfactor)/100
	return min((need+31)/32, 255)
}

// Search is fsm_search (freespace.c) for a page with need's category of
// free space. From the root it descends to a child whose slot claims
// room; on a page where none does, it corrects the slot its parent holds
// for it to the page's real maximum (fsm_set_and_search on the parent,
// dirtied hint-style) and starts over from the root. Upper slots go stale
// when a bulk extension entered empty pages (RelationAddBlocks) that the
// insert then filled: the first search after it corrects them. It returns
// whether a leaf slot has room; the simulator's inserts use their own
// target then (a page the FSM knows of has room only if it was entered
// empty by an extension and not filled since).
func (u *Upper) Search(fk Forks, be *bufmgr.Backend, rel *heap.Relation, need int) (bool, error) {
	nblocks := rel.NPages()
	leaves := max((nblocks-1)/SlotsPerFSMPage+1, 1)
	// children is how many pages of the level below page (level, logpage) has.
	children := func(level, logpage int) int {
		below := leaves
		for l := 1; l < level; l++ {
			below = (below-1)/SlotsPerFSMPage + 1
		}
		return min(below-logpage*SlotsPerFSMPage, SlotsPerFSMPage)
	}
	for restarts := 0; restarts <= 10000; restarts++ {
		level, logpage := TreeDepth-1, 0
		for {
			b, ok, err := fk.ReadFork(be, rel, pg.FSMFork, LogicalToPhysical(level, logpage), false)
			if err != nil || !ok {
				return false, err
			}
			// fsm_search_avail: a slot with at least need, else the page's maximum.
			slot, best := -1, 0
			if level == 0 {
				lo := logpage * SlotsPerFSMPage
				for blk := lo; blk < nblocks && blk < lo+SlotsPerFSMPage; blk++ {
					if v := int(rel.FSMValue(pg.BlockNumber(blk))); v >= need {
						slot = blk - lo
						break
					} else {
						best = max(best, v)
					}
				}
			} else {
				for c := 0; c < children(level, logpage); c++ {
					if v := u.slots[[3]int{int(rel.ID), level, logpage*SlotsPerFSMPage + c}]; v >= need {
						slot = c
						break
					} else {
						best = max(best, v)
					}
				}
			}
			fk.Unpin(be, b)
			switch {
			case slot >= 0 && level == 0:
				return true, nil
			case slot >= 0:
				level, logpage = level-1, logpage*SlotsPerFSMPage+slot
				continue
			case level == TreeDepth-1:
				return false, nil // no page has room
			}
			// The parent's slot for this page claimed room it does not have.
			parentLevel, parentPage := level+1, logpage/SlotsPerFSMPage
			pb, ok, err := fk.ReadFork(be, rel, pg.FSMFork, LogicalToPhysical(parentLevel, parentPage), false)
			if err != nil || !ok {
				return false, err
			}
			if u.slots == nil {
				u.slots = map[[3]int]int{}
			}
			if k := [3]int{int(rel.ID), parentLevel, logpage}; u.slots[k] != best {
				u.slots[k] = best
				fk.MarkBufferDirtyHint(be, pb, 0)
			}
			fk.Unpin(be, pb)
			break
		}
	}
	return false, nil
}

// RecordPageWithFreeSpace is fsm_set_and_search on the leaf of heap block
// blk: the leaf is read (the fork extended if needed) and, when the slot's
// value changes, dirtied through MarkBufferDirtyHint(buf, false).
func RecordPageWithFreeSpace(fk Forks, be *bufmgr.Backend, rel *heap.Relation, blk pg.BlockNumber) error {
	leaf := LogicalToPhysical(0, int(blk)/SlotsPerFSMPage)
	b, _, err := fk.ReadFork(be, rel, pg.FSMFork, leaf, true)
	if err != nil {
		return err
	}
	// fsm_set_avail changes the page only when the category changes: a page
	// left with under 32 bytes free is category 0, which the slot already holds.
	if cat := uint8(Category(rel, blk)); rel.FSMValue(blk) != cat {
		fk.MarkBufferDirtyHint(be, b, 0)
		rel.SetFSMValue(blk, cat)
	}
	fk.Unpin(be, b)
	return nil
}

// Upper holds the values of the FSMs' upper-level slots, per relation.
// The zero value is empty and ready to use.
type Upper struct {
	slots map[[3]int]int // (heap, level, child) → the slot's value
}

// Forget drops a relation's upper slots (TRUNCATE: a new relfilenode has no FSM).
func (u *Upper) Forget(rel pg.RelID) {
	for k := range u.slots {
		if k[0] == int(rel) {
			delete(u.slots, k)
		}
	}
}

// Vacuum is FreeSpaceMapVacuumRange over the whole heap (fsm_vacuum_page
// from the root): every FSM page covering the heap is read, and each upper
// slot takes its child page's maximum, the page dirtied hint-style when a
// slot changes. A child past the fork's end ends the walk.
func (u *Upper) Vacuum(fk Forks, be *bufmgr.Backend, rel *heap.Relation) error {
	return u.VacuumRange(fk, be, rel, 0, pg.BlockNumber(max(rel.NPages(), 1)-1))
}

// VacuumRange is FreeSpaceMapVacuumRange for heap blocks start…end
// (inclusive): fsm_vacuum_page descends only into the children whose heap
// blocks overlap the range; the others keep their slot values unread.
func (u *Upper) VacuumRange(fk Forks, be *bufmgr.Backend, rel *heap.Relation, start, end pg.BlockNumber) error {
	nblocks := rel.NPages()
	if nblocks == 0 {
		return nil
	}
	leaves := (nblocks-1)/SlotsPerFSMPage + 1
	if u.slots == nil {
		u.slots = map[[3]int]int{}
	}
	// visit returns the page's largest value, or ok=false when it does not exist.
	var visit func(level, logpage int) (int, bool, error)
	visit = func(level, logpage int) (int, bool, error) {
		b, ok, err := fk.ReadFork(be, rel, pg.FSMFork, LogicalToPhysical(level, logpage), false)
		if err != nil || !ok {
			return 0, false, err
		}
		best := 0
		if level == 0 {
			lo := logpage * SlotsPerFSMPage
			for blk := lo; blk < nblocks && blk < lo+SlotsPerFSMPage; blk++ {
				best = max(best, int(rel.FSMValue(pg.BlockNumber(blk))))
			}
		} else {
			span := 1 // leaves under one child
			for l := 1; l < level; l++ {
				span *= SlotsPerFSMPage
			}
			changed, eof := false, false
			for child := logpage * SlotsPerFSMPage; child*span < leaves && child < (logpage+1)*SlotsPerFSMPage; child++ {
				k := [3]int{int(rel.ID), level, child}
				if lo, hi := child*span*SlotsPerFSMPage, (child+1)*span*SlotsPerFSMPage; hi <= int(start) || lo > int(end) {
					best = max(best, u.slots[k]) // outside the range: not visited
					continue
				}
				v := 0
				if !eof {
					var exists bool
					if v, exists, err = visit(level-1, child); err != nil {
						return 0, false, err
					}
					eof = !exists
				}
				if u.slots[k] != v {
					u.slots[k] = v
					changed = true
				}
				best = max(best, v)
			}
			if changed {
				fk.MarkBufferDirtyHint(be, b, 0)
			}
		}
		fk.Unpin(be, b)
		return best, true, nil
	}
	_, _, err := visit(TreeDepth-1, 0)
	return err
}
