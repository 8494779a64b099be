package engine

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/freespace"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
)

// A heap's free space map and visibility map are forks of the relation with
// their own pages in shared buffers (pg_buffercache shows them under the
// relation). Each fork is a separate storage in the pool, created on first use.

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
	// Every filled page asks for its FSM and VM forks: a slice indexed by
	// the heap's id answers without the map's hashing (forks are never
	// removed, so the cache never goes stale).
	if i := int(rel.ID); i < len(c.forkIDs) && f <= pg.VMFork && c.forkIDs[i][f] != 0 {
		return c.forkIDs[i][f] - 1
	}
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
	if f <= pg.VMFork {
		for int(rel.ID) >= len(c.forkIDs) {
			c.forkIDs = append(c.forkIDs, [pg.VMFork + 1]pg.RelID{})
		}
		c.forkIDs[rel.ID][f] = id + 1
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

// forkAccess is the cluster as the free space map sees it: converting
// *Cluster to it allocates nothing (the FSM is on every filled page's path).
type forkAccess Cluster

func (f *forkAccess) ReadFork(be *bufmgr.Backend, rel *heap.Relation, fork pg.ForkNumber, blk pg.BlockNumber, extend bool) (pg.Buffer, bool, error) {
	return (*Cluster)(f).forkReadBuf(be, rel, fork, blk, extend)
}

func (f *forkAccess) MarkBufferDirtyHint(be *bufmgr.Backend, b pg.Buffer, hole int) {
	f.pool.MarkBufferDirtyHint(be, b, hole)
}

func (f *forkAccess) Unpin(be *bufmgr.Backend, b pg.Buffer) { f.pool.Unpin(be, b) }

// fsmSearchRoot is fsm_search for a page with room for one of rel's tuples
// (freespace.Upper.Search).
func (c *Cluster) fsmSearchRoot(be *bufmgr.Backend, rel *heap.Relation) error {
	_, err := c.fsmUpper.Search((*forkAccess)(c), be, rel, freespace.NeededCategory(rel))
	return err
}

// recordPageWithFreeSpace is RecordPageWithFreeSpace for heap block blk.
func (c *Cluster) recordPageWithFreeSpace(be *bufmgr.Backend, rel *heap.Relation, blk pg.BlockNumber) error {
	return freespace.RecordPageWithFreeSpace((*forkAccess)(c), be, rel, blk)
}

// fsmVacuum is FreeSpaceMapVacuumRange over the whole heap.
func (c *Cluster) fsmVacuum(be *bufmgr.Backend, rel *heap.Relation) error {
	return c.fsmUpper.Vacuum((*forkAccess)(c), be, rel)
}

// heapBlocksPerVMPage is HEAPBLOCKS_PER_PAGE (freespace).
const heapBlocksPerVMPage = freespace.HeapBlocksPerVMPage
