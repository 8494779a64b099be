package engine

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
)

// # Heap fetches
//
// What an index scan (or an index-only scan that must visit the heap) does
// to the heap page holding one tuple it fetches: heapam_index_fetch_tuple's
// visibility check, which hints the tuple.

// FetchTuple checks one fetched tuple (an index scan's, package indexscan's too): its fetch cost, and its hint bit.
func (c *Cluster) FetchTuple(be *bufmgr.Backend, rel *heap.Relation, b pg.Buffer, blk pg.BlockNumber, hinted map[pg.BlockNumber]int) {
	be.Now += c.costs.FetchNs
	if rel.Flags(blk)&(heap.PageHinted|heap.PageAllVisible) == 0 {
		if hinted[blk] == 0 {
			c.pool.MarkBufferDirtyHint(be, b, rel.Hole(blk))
		}
		hinted[blk]++
		be.Now += c.costs.TupleUnhintNs
	} else {
		be.Now += c.costs.TupleNs
	}
}
