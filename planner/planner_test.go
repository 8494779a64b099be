package planner

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/guc"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

func defaults(t *testing.T, v int) Costs {
	t.Helper()
	s, err := guc.DefaultSettings(pg.Version(v))
	require.NoError(t, err)
	return CostsFrom(s)
}

// compute_parallel_worker with min_parallel_table_scan_size 8MB = 1,024
// pages: none below, one from 1,024, two from 3,072, three from 9,216
// (capped at max_parallel_workers_per_gather 2 by default).
func TestParallelWorkers(t *testing.T) {
	c := defaults(t, 15)
	require.Equal(t, 1024, c.MinParallelTableScan)
	for _, x := range []struct{ pages, limit, want int }{
		{1023, 2, 0}, {1024, 2, 1}, {3071, 2, 1}, {3072, 2, 2}, {9216, 2, 2}, {9216, 8, 3}, {27648, 8, 4},
	} {
		require.Equal(t, x.want, ParallelWorkers(x.pages, c.MinParallelTableScan, x.limit), "%d pages", x.pages)
	}
	// min 0 (min_parallel_index_scan_size=0): one worker from the first page.
	require.Equal(t, 1, ParallelWorkers(1, 0, 8))
}

// A vacuumed table of 6,000 rows on 1,500 pages: cost_seqscan 1,500 ×
// seq_page_cost 1 + 6,000 × cpu_tuple_cost 0.01 = 1,560, plus the Aggregate's
// 6,000 × cpu_operator_cost 0.0025 = 15 → 1,575. Two workers (1,500 ≥ 1,024):
// divisor 1 + (1 − 0.3) = 1.7 → 1,500 + 75 / 1.7 + 1,000 + 0.1 × 2 = 2,544.32…,
// so the serial plan wins.
// TestIndexBuildWorkers: plan_create_index_workers lowers the workers while
// maintenance_work_mem / (workers + 1) is under 32MB. A 100,000-page table
// asks ParallelWorkers for 2 (the limit, max_parallel_maintenance_workers=2):
// at 64MB, 64/3 < 32 leaves 1 (64/2 = 32); at 128MB, 128/3 = 42.7 keeps 2; at
// 32MB, 32/2 = 16 leaves none; a table under min_parallel_table_scan_size
// (1,024 pages) gets none whatever the memory.
func TestIndexBuildWorkers(t *testing.T) {
	require.Equal(t, 1, IndexBuildWorkers(100000, 1024, 2, 64*1024))
	require.Equal(t, 2, IndexBuildWorkers(100000, 1024, 2, 128*1024))
	require.Equal(t, 0, IndexBuildWorkers(100000, 1024, 2, 32*1024))
	require.Equal(t, 0, IndexBuildWorkers(1000, 1024, 2, 1<<30))
}

func TestPlanSeqScan(t *testing.T) {
	c := defaults(t, 15)
	st := RelStats{Pages: 1500, RelPages: 1500, RelTuples: 6000}
	require.Equal(t, 6000.0, EstimatedTuples(st))
	p := PlanSeqScan(c, st)
	require.InDelta(t, 1575.0, p.SerialCost, 1e-9)
	require.Equal(t, 1, p.Workers)
	require.InDelta(t, 1500+75/1.7+1000+0.2, p.ParallelCost, 1e-9)
	require.False(t, p.Parallel)
	// Never vacuumed: the density comes from the width, (8192 − 24) /
	// (36 + 24 + 4) = 127 rows a page → 1,500 × 127 = 190,500 rows.
	require.Equal(t, 190500.0, EstimatedTuples(RelStats{Pages: 1500, RelTuples: -1, PlannerWidth: 36}))
}

// index_pages_fetched with the cache larger than the table: 2·T·N / (2·T + N),
// capped at T. 6,000 tuples of 1,500 pages: 2,000 → 1,500; 600 tuples:
// 2·1,500·600 / 3,600 = 500.
func TestIndexPagesFetched(t *testing.T) {
	require.Equal(t, 1500.0, IndexPagesFetched(6000, 1500, 19, 524288))
	require.Equal(t, 500.0, IndexPagesFetched(600, 1500, 19, 524288))
	// A cache of 100 pages (b = ⌈100·1,500/1,519⌉ = 99) below the table: lim =
	// 2·1,500·99 / (3,000 − 99) = 102.4…; 600 > lim → 99 + (600 − 102.4)·1,401/1,500 → ⌈563.8⌉ = 564.
	require.Equal(t, 564.0, IndexPagesFetched(600, 1500, 19, 100))
}

// The index-only scan of TestIndexOnlyCost (cluster), from the statistics
// alone: 19 index pages, height 1, all visible → 181.2825.
func TestCostIndexOnly(t *testing.T) {
	c := defaults(t, 15)
	st := RelStats{Pages: 1500, RelPages: 1500, RelTuples: 6000, RelAllVisible: 1500}
	p := CostIndexOnly(c, st, IndexStats{Pages: 19, Height: 1, Correlation: 1}, false, 6000)
	require.InDelta(t, 181.2825, p.SerialCost, 1e-9)
	require.Zero(t, p.Workers) // 19 pages < min_parallel_index_scan_size 64
	require.Equal(t, 1.0, AllVisFrac(st))
	require.Equal(t, 0.5, AllVisFrac(RelStats{Pages: 1500, RelAllVisible: 750}))
}
