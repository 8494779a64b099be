package engine

import (
	"fmt"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/catalog"
	"github.com/pgbufsim/pgbufsim/internal/engine/autovac"
	"github.com/pgbufsim/pgbufsim/internal/engine/catpin"
	"github.com/pgbufsim/pgbufsim/internal/engine/pgclass"
	"github.com/pgbufsim/pgbufsim/internal/engine/vacwal"

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

// statistics is update_attstats (analyze.c) after the sample: the
// pg_statistic row of each column (catpin.Pins.Statistics), from a sample
// of min(rows, 300 × default_statistics_target) rows (acquire_sample_rows'
// reservoir); none when the table is empty (do_analyze_rel computes
// statistics only for a non-empty sample). For a relation whose columns
// are not modelled the pages the measured profile dirtied are dirtied,
// without WAL. It returns the invalidation messages the rows add.
func (c *Cluster) statistics(be *bufmgr.Backend, rel *heap.Relation) (int, error) {
	target := int(c.S.Int("default_statistics_target"))
	sample := min(rel.Rows, int64(300*target))
	cols, ok := catpin.StatColumns(rel)
	if !ok {
		return 0, c.cat.DirtyStatistic(c.pool, c.wal, be)
	}
	return c.cat.Statistics(c.pool, c.wal, be, rel.ID, cols, int(sample), target, rel.Rows > int64(300*target), c.needsImage)
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
func (j *anlJob) end() (*StmtResult, error) {
	c, be, rel := j.c, j.be, j.rel
	if rel.Rows > 0 && j.auto {
		c.xids++ // the worker's own transaction writes the pg_statistic rows
	} else if rel.Rows > 0 {
		c.ddlXid() // update_attstats writes the columns' pg_statistic rows
	}
	invals, err := c.statistics(be, rel)
	if err != nil {
		return nil, err
	}
	if rel.UpdateRelstats(j.nblocks, float64(rel.Rows), false, c.xids, c.S.Version >= 18, &c.av.Counts(rel.ID).RelAllFrozen) {
		// vac_update_relstats' in-place update of pg_class: two catcache
		// messages (RELOID, RELNAMENSP) and the table's relcache message
		// (CacheInvalidateHeapTuple).
		invals += 3
		if err := c.inplacePgClassRow(be, pgclass.Key{Rel: rel.ID}, vacwal.PgClassRow(c.S.Version, rel.Reloptions...)); err != nil {
			return nil, err
		}
	}
	if j.auto {
		j.invals = invals
	} else {
		c.invals += invals
	}
	rel.Analyzed = true
	res := &StmtResult{Kind: "Analyze", Relation: rel.Name, Strategy: strategy.Vacuum, RingBuffers: j.ringN,
		Buf: be.Buf, WAL: be.WAL, IOReadNs: be.IOReadNs}
	res.Extra = append(res.Extra, fmt.Sprintf("scanned %d of %d pages", j.sampled, j.nblocks))
	if j.nblocks == 0 {
		res.Extra = append(res.Extra, "notice: the table is empty: nothing sampled")
	}
	res.Scanned, res.RelPages = j.sampled, j.nblocks
	c.av.Analyzed(rel.ID, j.auto, be.Now)
	return res, nil
}
