package engine

import (
	"fmt"

	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/internal/rng"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/strategy"
)

// analyze runs ANALYZE TABLE (commands/analyze.c do_analyze_rel,
// acquire_sample_rows): a sample of 300 × default_statistics_target rows
// taken from as many blocks, chosen by Algorithm S and read in ascending
// order through a BAS_VACUUM ring (a read stream from 17). Every tuple of a
// sampled block goes through HeapTupleSatisfiesVacuum, which sets the hint
// bits a fresh load lacks: MarkBufferDirtyHint, so with checksums an image of
// each sampled page not logged since the checkpoint. Then pg_class gets the
// new relpages and reltuples in place. (The pg_statistic rows it writes are
// catalog work the model leaves out.)
func (c *Cluster) analyze(rel *heap.Relation) (*StmtResult, error) {
	be, err := c.beginStatement(catalogVacuum)
	if err != nil {
		return nil, err
	}
	start := c.now
	nblocks := rel.NPages()
	target := 300 * int(c.S.Int("default_statistics_target"))
	bs := rng.NewBlockSampler(nblocks, target, &c.rng.PCG)
	ringN := c.RingBuffers(strategy.Vacuum)
	ring := strategy.NewRing(strategy.Vacuum, ringN)
	cb := func() (pg.BlockNumber, bool) {
		if !bs.HasMore() {
			return 0, false
		}
		return pg.BlockNumber(bs.Next()), true
	}
	stream := c.newStream(be, ring, rel, true, false, cb)
	sampled := 0
	p := &participant{be: be}
	p.step = func() (bool, error) {
		b, blk, ok, err := stream.Next()
		if err != nil || !ok {
			stream.End()
			return true, err
		}
		sampled++
		n := rel.Tuples(blk)
		be.Now += costs.PageNs + int64(n)*costs.TupleUnhintNs
		if n > 0 && rel.Flags(blk)&heap.PageHinted == 0 {
			c.pool.MarkBufferDirtyHint(be, b, rel.Hole(blk))
			rel.SetFlags(blk, heap.PageHinted)
		}
		c.pool.Unpin(be, b)
		return false, nil
	}
	if err := c.run([]*participant{p}); err != nil {
		return nil, err
	}
	be.Now = max(be.Now, c.now)
	if rel.Rows > 0 {
		c.ddlXid() // update_attstats writes the columns' pg_statistic rows
	}
	if err := c.vacUpdateRelstats(be, rel, nblocks, false, float64(rel.Rows)); err != nil {
		return nil, err
	}
	rel.Analyzed = true
	res := &StmtResult{Kind: "Analyze", Relation: rel.Name, Strategy: strategy.Vacuum, RingBuffers: ringN,
		Buf: be.Buf, WAL: be.WAL, IOReadNs: be.IOReadNs}
	res.Extra = append(res.Extra, fmt.Sprintf("scanned %d of %d pages", sampled, nblocks))
	if nblocks == 0 {
		res.Extra = append(res.Extra, "notice: the table is empty: nothing sampled")
	}
	res.Scanned, res.RelPages = sampled, nblocks
	c.endStatement(be, true)
	c.finish([]*participant{p})
	res.TimeNs = c.now - start
	c.foldWAL(be)
	return res, nil
}
