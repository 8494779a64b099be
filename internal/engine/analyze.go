package engine

import (
	"fmt"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/catalog"
	"github.com/pgbufsim/pgbufsim/internal/engine/autovac"
	"github.com/pgbufsim/pgbufsim/internal/engine/catpin"

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
// new relpages and reltuples in place, and each column its pg_statistic
// row (update_attstats); the commit record carries their invalidations.
func (c *Cluster) analyze(rel *heap.Relation) (*StmtResult, error) {
	_, c.cat.StatsModelled = catpin.StatColumns(rel)
	be, err := c.beginStatement(catalog.Analyze)
	if err != nil {
		return nil, err
	}
	start := c.now
	j := c.startAnalyze(be, rel, autovac.ManualCost(c.S))
	if err := c.run([]*participant{j.p}); err != nil {
		return nil, err
	}
	be.Now = max(be.Now, c.now)
	res, err := j.end()
	if err != nil {
		return nil, err
	}
	c.endStatement(be, true)
	c.finish([]*participant{j.p})
	res.TimeNs = c.now - start
	c.foldWAL(be)
	return res, nil
}

// anlJob is an ANALYZE under way, a sampled block a step: a statement's or
// an autovacuum worker's (auto), with the cost-based delay when cost is set.
type anlJob struct {
	job
	sampled int
	invals  int // the invalidation messages its commit record carries
}

// startAnalyze sets ANALYZE of rel up on be's process.
func (c *Cluster) startAnalyze(be *bufmgr.Backend, rel *heap.Relation, cost *autovac.Cost) *anlJob {
	j := &anlJob{job: c.newJob(be, rel)}
	j.nblocks = rel.NPages()
	target := 300 * int(c.S.Int("default_statistics_target"))
	bs := rng.NewBlockSampler(j.nblocks, target, &c.rng.PCG)
	ring := strategy.NewRing(strategy.Vacuum, j.ringN)
	cb := func() (pg.BlockNumber, bool) {
		if !bs.HasMore() {
			return 0, false
		}
		return pg.BlockNumber(bs.Next()), true
	}
	j.stream = c.newStream(be, ring, rel, true, false, cb)
	j.p.step = func() (bool, error) {
		bufAt := be.Buf // what this page costs, its read included
		b, blk, ok, err := j.stream.Next()
		if err != nil || !ok {
			j.stream.End()
			return true, err
		}
		j.sampled++
		n := rel.Tuples(blk)
		be.Now += c.costs.PageNs + int64(n)*c.costs.TupleUnhintNs
		if n > 0 && rel.Flags(blk)&heap.PageHinted == 0 {
			c.pool.MarkBufferDirtyHint(be, b, rel.Hole(blk))
			rel.SetFlags(blk, heap.PageHinted)
		}
		c.pool.Unpin(be, b)
		cost.After(be, bufAt) // vacuum_delay_point(true) before the next block (acquire_sample_rows)
		return false, nil
	}
	return j
}

// end is ANALYZE after its sample: the statistics' rows and pg_class's.
func (j *anlJob) end() (res *StmtResult, err error) {
	c, be, rel := j.c, j.be, j.rel
	if rel.Rows > 0 && j.auto {
		c.xids++ // the worker's own transaction writes the pg_statistic rows
	} else if rel.Rows > 0 {
		c.ddlXid() // update_attstats writes the columns' pg_statistic rows
	}
	j.invals, err = c.cat.Analyze(c.pool, c.wal, be, rel, j.nblocks, int(c.S.Int("default_statistics_target")), c.xids, &c.av.Counts(rel.ID).RelAllFrozen, c.needsImage)
	if err != nil {
		return nil, err
	}
	if !j.auto {
		c.invals += j.invals
	}
	rel.Analyzed = true
	res = &StmtResult{Kind: "Analyze", Relation: rel.Name, Strategy: strategy.Vacuum, RingBuffers: j.ringN,
		Buf: be.Buf, WAL: be.WAL, IOReadNs: be.IOReadNs}
	res.Extra = append(append(res.Extra, fmt.Sprintf("scanned %d of %d pages", j.sampled, j.nblocks)), c.cat.TakeNotes()...)
	if j.nblocks == 0 {
		res.Extra = append(res.Extra, "notice: the table is empty: nothing sampled")
	}
	res.Scanned, res.RelPages = j.sampled, j.nblocks
	c.av.Analyzed(rel.ID, j.auto, be.Now)
	return res, nil
}
