package cluster

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
)

// A heap's free space map and visibility map are forks of the relation with
// their own pages in shared buffers (pg_buffercache shows them under the
// relation). Each fork is a separate storage in the pool, created on first use.

// fsmSlotsPerPage is SlotsPerFSMPage for 8 kB pages: NodesPerPage (8192 −
// 24-byte header − 4-byte fp_next_slot = 8164) minus NonLeafNodesPerPage
// (BLCKSZ/2 − 1 = 4095).
const fsmSlotsPerPage = 4069

// fsmTreeDepth is FSM_TREE_DEPTH: three levels cover 2^32 heap blocks.
const fsmTreeDepth = 3

// fsmLogicalToPhysical is fsm_logical_to_physical (freespace.c): FSM pages are
// stored depth-first, so the root is block 0, the first level-1 page block 1
// and the first leaf block 2.
func fsmLogicalToPhysical(level, logpageno int) pg.BlockNumber {
	leafno := logpageno
	for l := 0; l < level; l++ {
		leafno *= fsmSlotsPerPage
	}
	pages := 0
	for l := 0; l < fsmTreeDepth; l++ {
		pages += leafno + 1
		leafno /= fsmSlotsPerPage
	}
	pages -= level
	return pg.BlockNumber(pages - 1)
}

// forkRef names a fork's storage: its relation and fork number.
type forkRef struct {
	rel  *heap.Relation
	fork pg.ForkNumber
}

// forkSuffix is how pg_buffercache-style output names a fork ("big/fsm").
func forkSuffix(f pg.ForkNumber) string {
	switch f {
	case pg.FSMFork:
		return "/fsm"
	case pg.VMFork:
		return "/vm"
	}
	return ""
}

// fork returns the pool storage of one of rel's forks, creating it (empty) on first use.
func (c *Cluster) fork(rel *heap.Relation, f pg.ForkNumber) pg.RelID {
	if c.forks == nil {
		c.forks = map[[2]int]pg.RelID{}
		c.forkOwner = map[pg.RelID]forkRef{}
	}
	k := [2]int{int(rel.ID), int(f)}
	id, ok := c.forks[k]
	if !ok {
		id = pg.RelID(len(c.rels))
		c.rels = append(c.rels, nil)
		c.pool.CreateRel(id, 0, true)
		c.forks[k] = id
		c.forkOwner[id] = forkRef{rel, f}
	}
	return id
}

// forkReadBuf is fsm_readbuf / vm_readbuf: a pinned buffer for block blk of
// the fork; past the fork's end it is extended first when extend is set, else
// there is nothing to read (ok false). Up to 15 the extension writes zeroed
// pages straight to disk (fsm_extend, vm_extend) and the page is then read;
// from 16 ExtendBufferedRelTo gives every new page a buffer (usage 1, counted
// as an extend and, by EXPLAIN, as written) and returns the last one pinned.
func (c *Cluster) forkReadBuf(be *bufmgr.Backend, rel *heap.Relation, f pg.ForkNumber, blk pg.BlockNumber, extend bool) (pg.Buffer, bool, error) {
	id := c.fork(rel, f)
	if int(blk) >= c.pool.NBlocks(id) {
		if !extend {
			return pg.InvalidBuffer, false, nil
		}
		if c.S.Version >= 16 {
			for {
				b, nb, err := c.pool.Extend(be, id, nil)
				if err != nil {
					return pg.InvalidBuffer, false, err
				}
				if nb == blk {
					return b, true, nil
				}
				c.pool.Unpin(be, b)
			}
		}
		c.pool.ExtendOnDisk(be.Now, id, int(blk)+1)
	}
	// The fork is its own storage in the pool, so the tag needs no fork number.
	b, _, err := c.pool.ReadBuffer(be, pg.BufferTag{Rel: id, Block: blk}, nil)
	return b, err == nil, err
}

// fsmSearchRoot is fsm_search when no page has room: only the root is read,
// and its value says so. Our tables hold tuples of one size, so a page the
// FSM knows of never has room for another (it was recorded when full).
func (c *Cluster) fsmSearchRoot(be *bufmgr.Backend, rel *heap.Relation) error {
	b, ok, err := c.forkReadBuf(be, rel, pg.FSMFork, 0, false)
	if ok {
		c.pool.Unpin(be, b)
	}
	return err
}

// recordPageWithFreeSpace is fsm_set_and_search on the leaf of heap block
// blk: the leaf is read (the fork extended if needed) and, when the slot's
// value changes, dirtied through MarkBufferDirtyHint(buf, false) — an FSM
// page is not a standard page, so its hint image has no hole.
func (c *Cluster) recordPageWithFreeSpace(be *bufmgr.Backend, rel *heap.Relation, blk pg.BlockNumber) error {
	leaf := fsmLogicalToPhysical(0, int(blk)/fsmSlotsPerPage)
	b, _, err := c.forkReadBuf(be, rel, pg.FSMFork, leaf, true)
	if err != nil {
		return err
	}
	// fsm_set_avail changes the page only when the category changes: a page
	// left with under 32 bytes free is category 0, which the slot already holds.
	if cat := uint8(fsmCategory(rel, blk)); rel.FSMValue(blk) != cat {
		c.pool.MarkBufferDirtyHint(be, b, 0)
		rel.SetFSMValue(blk, cat)
	}
	c.pool.Unpin(be, b)
	return nil
}

// fsmCategory is fsm_space_avail_to_cat of a page's PageGetHeapFreeSpace
// (pd_upper − pd_lower less one line pointer): 32-byte steps, 255 for a page
// that could take the largest tuple.
func fsmCategory(rel *heap.Relation, blk pg.BlockNumber) int {
	avail := rel.Hole(blk) - heap.SizeOfItemID
	if avail < 0 {
		avail = 0
	}
	if avail >= maxHeapTupleSize {
		return 255
	}
	return min(avail/32, 254)
}

// maxHeapTupleSize is MaxHeapTupleSize (= MaxFSMRequestSize): 8192 − MAXALIGN(24 + 4).
const maxHeapTupleSize = pg.BLCKSZ - 32

// fsmVacuum is FreeSpaceMapVacuumRange over the whole heap (fsm_vacuum_page
// from the root): every FSM page covering the heap is read, and each upper
// slot takes its child page's maximum, the page dirtied hint-style
// (MarkBufferDirtyHint(buf, false)) when a slot changes. A child past the
// fork's end ends the walk.
func (c *Cluster) fsmVacuum(be *bufmgr.Backend, rel *heap.Relation) error {
	nblocks := rel.NPages()
	if nblocks == 0 {
		return nil
	}
	leaves := (nblocks-1)/fsmSlotsPerPage + 1
	if c.fsmUpper == nil {
		c.fsmUpper = map[[3]int]int{}
	}
	// visit returns the page's largest value, or ok=false when it does not exist.
	var visit func(level, logpage int) (int, bool, error)
	visit = func(level, logpage int) (int, bool, error) {
		b, ok, err := c.forkReadBuf(be, rel, pg.FSMFork, fsmLogicalToPhysical(level, logpage), false)
		if err != nil || !ok {
			return 0, false, err
		}
		best := 0
		if level == 0 {
			lo := logpage * fsmSlotsPerPage
			for blk := lo; blk < nblocks && blk < lo+fsmSlotsPerPage; blk++ {
				best = max(best, int(rel.FSMValue(pg.BlockNumber(blk))))
			}
		} else {
			span := 1 // leaves under one child
			for l := 1; l < level; l++ {
				span *= fsmSlotsPerPage
			}
			changed, eof := false, false
			for child := logpage * fsmSlotsPerPage; child*span < leaves && child < (logpage+1)*fsmSlotsPerPage; child++ {
				v := 0
				if !eof {
					var exists bool
					if v, exists, err = visit(level-1, child); err != nil {
						return 0, false, err
					}
					eof = !exists
				}
				k := [3]int{int(rel.ID), level, child}
				if c.fsmUpper[k] != v {
					c.fsmUpper[k] = v
					changed = true
				}
				best = max(best, v)
			}
			if changed {
				c.pool.MarkBufferDirtyHint(be, b, 0)
			}
		}
		c.pool.Unpin(be, b)
		return best, true, nil
	}
	_, _, err := visit(fsmTreeDepth-1, 0)
	return err
}
