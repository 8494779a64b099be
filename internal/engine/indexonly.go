package engine

import (
	"fmt"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/catalog"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/nbtree"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/planner"
)

// # count(*) on a table with a btree: seq scan or index-only scan
//
// SELECT count(*) needs no column, so every btree on the table offers an
// Index Only Scan: all its entries, the heap visited only for pages the
// visibility map does not show all-visible. The planner takes it when it
// costs less than the (serial or parallel) seq scan — after a VACUUM
// (relallvisible) on a table whose rows are wider than its index entries,
// almost always. The costs follow cost_index, genericcostestimate and
// btcostestimate (costsize.c, selfuncs.c) for an index scan without quals.

// iosPlan is the cost of SELECT count(*) by an Index Only Scan of ix.
type iosPlan struct {
	ix           *nbtree.Index
	SerialCost   float64 // the scan and the Aggregate above it
	Workers      int     // a parallel index-only scan's workers (0: none)
	ParallelCost float64
}

// costIndexOnly prices a full index-only scan of ix for count(*)
// (planner.CostIndexOnly).
func (c *Cluster) costIndexOnly(ix *nbtree.Index, rel *heap.Relation, nblocks int, tuples float64) iosPlan {
	st := planner.IndexStats{Pages: ix.Pages(), Height: ix.Height(), Correlation: ix.Correlation()}
	p := planner.CostIndexOnly(planner.CostsFrom(c.S), planner.StatsOf(rel, nblocks), st, rel.Analyzed, tuples)
	return iosPlan{ix: ix, SerialCost: p.SerialCost, Workers: p.Workers, ParallelCost: p.ParallelCost}
}

// cheapestIndexOnly is the cheapest index-only plan over rel's indexes, and
// whether it beats the seq scan's plan (add_path keeps the cheaper total;
// a tie goes to the seq scan, considered first).
func (c *Cluster) cheapestIndexOnly(rel *heap.Relation, nblocks int, seq Plan) (iosPlan, bool, bool) {
	seqCost := seq.SerialCost
	if seq.Parallel {
		seqCost = seq.ParallelCost
	}
	var best iosPlan
	bestCost, parallel, found := seqCost, false, false
	for _, ix := range c.sortedIndexes(rel) {
		if ix.Empty() {
			continue // an empty index: the seq scan of an empty table is as cheap
		}
		p := c.costIndexOnly(ix, rel, nblocks, seq.EstimatedRows)
		if p.SerialCost < bestCost {
			best, bestCost, parallel, found = p, p.SerialCost, false, true
		}
		if p.Workers > 0 && p.ParallelCost < bestCost {
			best, bestCost, parallel, found = p, p.ParallelCost, true, true
		}
	}
	return best, parallel, found
}

// indexOnlyScan runs count(*) as an Index Only Scan of plan's index: the
// descent to the leftmost leaf (once, by the first participant, as a
// parallel btree scan's _bt_first does), then the leaves left to right —
// in a parallel scan each participant seizes the next leaf
// (_bt_parallel_seize) — and for every entry the visibility map bit of its
// heap page (the VM page stays pinned, one per participant), the heap page
// itself only when it is not all-visible (Heap Fetches), as
// IndexOnlyNext does.
func (c *Cluster) indexOnlyScan(leader *bufmgr.Backend, rel *heap.Relation, plan iosPlan, parallel bool, start int64) (*StmtResult, error) {
	s := c.S
	ix := plan.ix
	workers := 0
	if parallel {
		workers = min(plan.Workers, int(s.Int("max_parallel_workers")), int(s.Int("max_worker_processes")))
	}
	res := &StmtResult{Kind: "Index Only Scan using " + ix.Name, Relation: rel.Name, Workers: workers}
	if parallel {
		res.WorkersPlanned = plan.Workers
	}
	if ix.Key() != nil {
		if av, _ := rel.CountVisibility(); av < rel.NPages() || rel.NPages() > heapBlocksPerVMPage {
			return nil, fmt.Errorf("scan %s: the planner chooses an Index Only Scan using %s, which visits the heap (or several visibility-map pages) in the declared key's order: not modelled (VACUUM %s first, or drop the key index)", rel.Name, ix.Name, rel.Name)
		}
	}
	tpp := int64(rel.Shape.TuplesPerPage())
	leaves := ix.Leaves()
	nextLeaf, descended := 0, false
	var heapFetches int64
	hinted := map[pg.BlockNumber]int{}
	type scanState struct {
		vmBuf, heapBuf pg.Buffer
		vmBlk, heapBlk pg.BlockNumber
		prune          vmPin // the heap fetch's own VM pin for pruning on access (19)
	}
	var states []*scanState
	var ps []*participant
	add := func(be *bufmgr.Backend) {
		st := &scanState{vmBlk: pg.InvalidBlockNumber, heapBlk: pg.InvalidBlockNumber, prune: vmPin{buf: pg.InvalidBuffer}}
		states = append(states, st)
		p := &participant{be: be}
		p.step = func() (bool, error) {
			if !descended {
				descended = true
				for _, blk := range ix.Path(0) {
					if err := c.readRelease(be, pg.BufferTag{Rel: ix.ID, Block: blk}); err != nil {
						return true, err
					}
				}
			}
			if nextLeaf >= leaves {
				return true, nil
			}
			leaf := nextLeaf
			nextLeaf++
			lb, _, err := c.pool.ReadBuffer(be, pg.BufferTag{Rel: ix.ID, Block: ix.Block(0, leaf)}, nil)
			if err != nil {
				return true, err
			}
			defer c.pool.Unpin(be, lb)
			be.Now += c.costs.PageNs
			lo, hi := ix.LeafEntries(leaf)
			for e := lo; e < hi; e++ {
				blk := ix.HeapBlockOf(e, tpp)
				if want := blk / heapBlocksPerVMPage; want != st.vmBlk {
					if st.vmBuf != pg.InvalidBuffer {
						c.pool.Unpin(be, st.vmBuf)
					}
					st.vmBuf = pg.InvalidBuffer
					vb, ok, err := c.forkReadBuf(be, rel, pg.VMFork, want, false)
					if err != nil {
						return true, err
					}
					if ok {
						st.vmBuf = vb
					}
					st.vmBlk = want
				}
				if st.vmBuf != pg.InvalidBuffer && rel.Flags(blk)&heap.PageAllVisible != 0 {
					be.Now += c.costs.TupleAllVisNs
					continue
				}
				heapFetches++
				if blk != st.heapBlk {
					if st.heapBuf != pg.InvalidBuffer {
						c.pool.Unpin(be, st.heapBuf)
					}
					st.heapBuf = pg.InvalidBuffer
					if st.heapBuf, _, err = c.pool.ReadBuffer(be, pg.BufferTag{Rel: rel.ID, Block: blk}, nil); err != nil {
						st.heapBuf = pg.InvalidBuffer
						return true, err
					}
					if err = c.pruneOnAccess(be, st.heapBuf, rel, blk, &st.prune); err != nil {
						return true, err
					}
					st.heapBlk = blk
				}
				c.FetchTuple(be, rel, st.heapBuf, blk, hinted)
			}
			return false, nil
		}
		ps = append(ps, p)
	}
	if workers == 0 || s.Bool("parallel_leader_participation") {
		add(leader)
	}
	all := []*bufmgr.Backend{leader}
	for i := 0; i < workers; i++ {
		wb := bufmgr.NewBackend(bufmgr.BackgroundWorker, c.pool.IO().Cores().Run(leader.Now, c.costs.WorkerStartNs)) // its start-up takes a core
		if err := c.touchCatalog(wb, catalog.Worker); err != nil {
			return nil, err
		}
		all = append(all, wb)
		add(wb)
	}
	release := func() {
		for i, st := range states {
			be := ps[i].be
			for _, b := range []pg.Buffer{st.vmBuf, st.heapBuf} {
				if b != pg.InvalidBuffer {
					c.pool.Unpin(be, b)
				}
			}
			st.vmBuf, st.heapBuf = pg.InvalidBuffer, pg.InvalidBuffer
			st.prune.release(c, be)
		}
	}
	if err := c.run(ps); err != nil {
		release()
		return nil, err
	}
	release()
	rel.SettleHints(hinted)
	c.finish(append(ps, &participant{be: leader}))
	c.gatherResults(res, all)
	res.Extra = append(res.Extra, fmt.Sprintf("Heap Fetches: %d", heapFetches))
	res.TimeNs = c.now - start
	return res, nil
}
