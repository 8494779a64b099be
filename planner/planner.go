// Package planner holds the planner's cost functions the simulator needs, as
// pure functions of the settings and a relation's statistics: whether
// SELECT count(*) runs as a serial or parallel Seq Scan or as an Index Only
// Scan of a btree, and with how many workers.
//
// # Sources
//
//   - compute_parallel_worker (allpaths.c): the log-3 rule over
//     min_parallel_table_scan_size / min_parallel_index_scan_size.
//   - cost_seqscan, cost_index, index_pages_fetched (costsize.c), with the
//     parallel divisor of get_parallel_divisor and cost_gather's setup and
//     per-tuple costs; the Aggregate's cpu_operator_cost per row (cost_agg).
//   - genericcostestimate and btcostestimate (selfuncs.c) for a btree
//     without quals.
//   - table_block_relation_estimate_size (tableam.c) for the row estimate,
//     estimate_rel_size's allvisfrac (plancat.c).
//
// Nothing here reads a buffer: the engine passes the statistics in (what
// VACUUM, ANALYZE and CREATE INDEX left in pg_class, the table's current
// size) and runs the plan chosen.
package planner

import (
	"math"

	"github.com/pgbufsim/pgbufsim/guc"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
)

// Costs are the planner's settings, by their GUC names.
type Costs struct {
	SeqPageCost, RandomPageCost                float64 // seq_page_cost, random_page_cost
	CPUTupleCost, CPUIndexTupleCost            float64 // cpu_tuple_cost, cpu_index_tuple_cost
	CPUOperatorCost                            float64 // cpu_operator_cost
	ParallelSetupCost, ParallelTupleCost       float64 // parallel_setup_cost, parallel_tuple_cost
	EffectiveCacheSize                         int     // effective_cache_size, in pages
	MinParallelTableScan, MinParallelIndexScan int     // min_parallel_table/index_scan_size, in pages
	MaxParallelWorkersPerGather                int     // max_parallel_workers_per_gather
	LeaderParticipation                        bool    // parallel_leader_participation
}

// CostsFrom reads the planner's settings.
func CostsFrom(s *guc.Settings) Costs {
	return Costs{
		SeqPageCost: s.Real("seq_page_cost"), RandomPageCost: s.Real("random_page_cost"),
		CPUTupleCost: s.Real("cpu_tuple_cost"), CPUIndexTupleCost: s.Real("cpu_index_tuple_cost"),
		CPUOperatorCost:   s.Real("cpu_operator_cost"),
		ParallelSetupCost: s.Real("parallel_setup_cost"), ParallelTupleCost: s.Real("parallel_tuple_cost"),
		EffectiveCacheSize:          int(s.Int("effective_cache_size")),
		MinParallelTableScan:        int(s.Int("min_parallel_table_scan_size")),
		MinParallelIndexScan:        int(s.Int("min_parallel_index_scan_size")),
		MaxParallelWorkersPerGather: int(s.Int("max_parallel_workers_per_gather")),
		LeaderParticipation:         s.Bool("parallel_leader_participation"),
	}
}

// RelStats are a table's statistics as the planner sees them.
type RelStats struct {
	Pages         int     // the table's current size (RelationGetNumberOfBlocks)
	RelPages      int     // pg_class.relpages (0: never vacuumed or analyzed)
	RelTuples     float64 // pg_class.reltuples (−1: unknown)
	RelAllVisible int     // pg_class.relallvisible
	PlannerWidth  int     // the row's estimated width (get_rel_data_width)
}

// StatsOf is a heap relation's statistics at nblocks pages.
func StatsOf(rel *heap.Relation, nblocks int) RelStats {
	return RelStats{Pages: nblocks, RelPages: rel.RelPages, RelTuples: rel.RelTuples,
		RelAllVisible: rel.RelAllVisible, PlannerWidth: rel.Shape.PlannerWidth}
}

// EstimatedTuples is estimate_rel_size's tuple count
// (table_block_relation_estimate_size): reltuples' density when vacuumed or
// analyzed, else a full page of tuples of the planner's width.
func EstimatedTuples(st RelStats) float64 {
	if st.Pages == 0 {
		return 0
	}
	var density float64
	if st.RelTuples >= 0 && st.RelPages > 0 {
		density = st.RelTuples / float64(st.RelPages)
	} else {
		width := st.PlannerWidth + pg.MaxAlign(heap.SizeofHeapTupleHdr) + heap.SizeOfItemID
		density = float64((pg.BLCKSZ - heap.SizeOfPageHeaderData) / width)
	}
	return math.Round(density * float64(st.Pages))
}

// AllVisFrac is estimate_rel_size's allvisfrac: relallvisible over the
// table's current pages, at most 1.
func AllVisFrac(st RelStats) float64 {
	if st.RelAllVisible == 0 || st.Pages <= 0 {
		return 0
	}
	if st.RelAllVisible >= st.Pages {
		return 1
	}
	return float64(st.RelAllVisible) / float64(st.Pages)
}

// IndexPagesFetched is index_pages_fetched: the Mackert–Lohman estimate of
// distinct heap pages fetched for n tuples of a t-page table, with
// effective_cache_size shared in proportion to the table's pages.
func IndexPagesFetched(n float64, t, indexPages int, effectiveCache float64) float64 {
	T := math.Max(float64(t), 1)
	total := math.Max(T+float64(indexPages), 1)
	b := effectiveCache * T / total
	if b <= 1 {
		b = 1
	} else {
		b = math.Ceil(b)
	}
	var pf float64
	if T <= b {
		pf = 2 * T * n / (2*T + n)
		if pf >= T {
			pf = T
		} else {
			pf = math.Ceil(pf)
		}
	} else {
		lim := 2 * T * b / (2*T - b)
		if n <= lim {
			pf = 2 * T * n / (2*T + n)
		} else {
			pf = b + (n-lim)*(T-b)/T
		}
		pf = math.Ceil(pf)
	}
	return pf
}

// ParallelWorkers is compute_parallel_worker's log-3 rule for pages against
// its minimum (min_parallel_table_scan_size or min_parallel_index_scan_size):
// none below it, one at it, one more each time the pages triple; at most limit.
func ParallelWorkers(pages, minPages, limit int) int {
	if pages < minPages {
		return 0
	}
	w := 1
	th := max(minPages, 1)
	for pages >= th*3 {
		w++
		th *= 3
		if th > (1<<31-1)/3 {
			break
		}
	}
	return min(w, limit)
}

// IndexBuildWorkers is plan_create_index_workers (planner.c) for a btree on
// a plain table of pages: ParallelWorkers over the heap's pages at most
// limit (max_parallel_maintenance_workers), then lowered while a
// participant's share of maintenance_work_mem (the leader's included) is
// under 32MB (maintenanceWorkMemKB: the default 64MB leaves room for one
// worker).
func IndexBuildWorkers(pages, minPages, limit, maintenanceWorkMemKB int) int {
	w := ParallelWorkers(pages, minPages, limit)
	for w > 0 && maintenanceWorkMemKB/(w+1) < 32*1024 {
		w--
	}
	return w
}

// parallelDivisor is get_parallel_divisor: the workers, plus the leader's
// share (1 − 0.3 × workers, when positive) if it participates.
func (c Costs) parallelDivisor(workers int) float64 {
	d := float64(workers)
	if c.LeaderParticipation {
		if lc := 1.0 - 0.3*float64(workers); lc > 0 {
			d += lc
		}
	}
	return d
}

// SeqScan is what the planner decided for a count(*) sequential scan.
type SeqScan struct {
	Workers       int // planned workers (compute_parallel_worker)
	Parallel      bool
	SerialCost    float64
	ParallelCost  float64
	EstimatedRows float64
}

// PlanSeqScan is the planner's choice for SELECT count(*): the worker count,
// then cost_seqscan + cost_agg for the serial plan against the
// partial-aggregate Gather plan.
func PlanSeqScan(c Costs, st RelStats) SeqScan {
	var pl SeqScan
	tuples := EstimatedTuples(st)
	pl.EstimatedRows = tuples
	pages := float64(st.Pages)
	pl.SerialCost = pages*c.SeqPageCost + tuples*c.CPUTupleCost + tuples*c.CPUOperatorCost
	pl.Workers = ParallelWorkers(st.Pages, c.MinParallelTableScan, c.MaxParallelWorkersPerGather)
	if pl.Workers > 0 {
		d := c.parallelDivisor(pl.Workers)
		pl.ParallelCost = pages*c.SeqPageCost + tuples*c.CPUTupleCost/d + tuples*c.CPUOperatorCost/d +
			c.ParallelSetupCost + c.ParallelTupleCost*float64(pl.Workers+1)
		pl.Parallel = pl.ParallelCost < pl.SerialCost
	}
	return pl
}

// IndexStats are a btree's statistics as the planner sees them.
type IndexStats struct {
	Pages  int // the index's size, the metapage included
	Height int // _bt_getrootheight: the root's level
	// Correlation is the column's pg_statistic correlation (used once the
	// table is analyzed).
	Correlation float64
}

// IndexOnlyScan is the cost of count(*) by an Index Only Scan.
type IndexOnlyScan struct {
	SerialCost   float64 // the scan and the Aggregate above it
	Workers      int     // a parallel index-only scan's workers (0: none)
	ParallelCost float64
}

// CostIndexOnly prices a full index-only scan for count(*) (no quals):
// btcostestimate (genericcostestimate: every index page at random_page_cost,
// cpu_index_tuple_cost per entry; the descent's comparisons and pages), then
// cost_index (the heap pages not all-visible, random unless the column's
// ANALYZE correlation says otherwise; cpu_tuple_cost per row), then the
// Aggregate's cpu_operator_cost per row. tuples is the seq scan's row
// estimate; analyzed says whether the correlation is known.
func CostIndexOnly(c Costs, st RelStats, ix IndexStats, analyzed bool, tuples float64) IndexOnlyScan {
	indexTuples := tuples // plancat.c: a non-partial index has the table's tuples
	numTuples := math.Max(math.Min(tuples, indexTuples), 1)
	numPages := 1.0
	if ix.Pages > 1 && indexTuples > 1 {
		numPages = math.Ceil(numTuples * float64(ix.Pages) / indexTuples)
	}
	indexStartup, indexTotal := 0.0, numPages*c.RandomPageCost+numTuples*c.CPUIndexTupleCost
	if indexTuples > 1 {
		d := math.Ceil(math.Log(indexTuples)/math.Log(2)) * c.CPUOperatorCost
		indexStartup += d
		indexTotal += d
	}
	d := float64(ix.Height+1) * 50 * c.CPUOperatorCost
	indexStartup += d
	indexTotal += d
	// cost_index, loop_count 1, index-only: heap pages times (1 − allvisfrac).
	visFrac := AllVisFrac(st)
	tuplesFetched := math.Max(math.Round(tuples), 1)
	pf := math.Ceil(IndexPagesFetched(tuplesFetched, st.Pages, ix.Pages, float64(c.EffectiveCacheSize)) * (1 - visFrac))
	maxIO := pf * c.RandomPageCost
	pf = math.Ceil(math.Ceil(float64(st.Pages)) * (1 - visFrac))
	minIO := 0.0
	if pf > 0 {
		minIO = c.RandomPageCost + (pf-1)*c.SeqPageCost
	}
	corr := 0.0
	if analyzed {
		corr = ix.Correlation
	}
	io := maxIO + corr*corr*(minIO-maxIO)
	cpuRun := c.CPUTupleCost * tuplesFetched
	agg := tuples * c.CPUOperatorCost
	p := IndexOnlyScan{SerialCost: indexStartup + (indexTotal - indexStartup) + io + cpuRun + agg}
	// A parallel index-only scan: compute_parallel_worker on the index pages
	// alone (rand_heap_pages = -1), the CPU run cost and the partial
	// aggregates divided among the participants, plus the Gather.
	p.Workers = ParallelWorkers(int(numPages), c.MinParallelIndexScan, c.MaxParallelWorkersPerGather)
	if p.Workers > 0 {
		div := c.parallelDivisor(p.Workers)
		p.ParallelCost = indexTotal + io + cpuRun/div + agg/div +
			c.ParallelSetupCost + c.ParallelTupleCost*float64(p.Workers+1)
	}
	return p
}
