package engine

import (
	"math"
	"testing"

	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/stretchr/testify/require"
)

// TestIndexOnlyCost: the planner's cost of count(*) by an Index Only Scan,
// against PostgreSQL 15's own estimate for the same table (the real plan in
// diagnose/testdata/pg15/cks-on-L18-scan.json: Index Only Scan "Total Cost"
// 166.28, Aggregate 181.29). 6,000 rows of 1,832 bytes on 1,500 pages,
// vacuumed (allvisfrac 1), an id btree of 19 pages (metapage, root, 17
// leaves), height 1. By hand:
//
//	genericcostestimate: 19 pages × random_page_cost 4 = 76, plus 6,000 ×
//	  cpu_index_tuple_cost 0.005 = 30 → 106
//	btcostestimate: ⌈log2 6,000⌉ = 13 comparisons × 0.0025 = 0.0325, and
//	  (height 1 + 1) × 50 × 0.0025 = 0.25 → 106.2825
//	cost_index: no heap page (allvisfrac 1); 6,000 × cpu_tuple_cost 0.01 = 60
//	  → 166.2825; the Aggregate adds 6,000 × cpu_operator_cost = 15 → 181.2825
//	  (PostgreSQL's 181.29 also has the one output row's cpu_tuple_cost).
//
// The seq scan: 1,500 + 6,000 × (0.01 + 0.0025) = 1,575.
func TestIndexOnlyCost(t *testing.T) {
	c := open15(t, "clean", 6000, 1832, false)
	rel, err := c.TableNamed("clean")
	require.NoError(t, err)
	nblocks := c.pool.NBlocks(rel.ID)
	seq := c.planSeqScan(rel, nblocks)
	require.InDelta(t, 1575.0, seq.SerialCost, 1e-9)
	ios, parallel, ok := c.cheapestIndexOnly(rel, nblocks, seq)
	require.True(t, ok)
	require.False(t, parallel) // 19 index pages < min_parallel_index_scan_size (64)
	require.InDelta(t, 181.2825, ios.SerialCost, 1e-9)
	require.InDelta(t, 166.28, math.Round((ios.SerialCost-15)*100)/100, 1e-9)
	// Without VACUUM no page is all-visible: index_pages_fetched(6,000 tuples,
	// 1,500 pages, 19 index pages, effective_cache_size 4GB ≥ the table) =
	// 2·1,500·6,000 / (2·1,500 + 6,000) = 2,000 → capped at 1,500 pages, each at
	// random_page_cost (no ANALYZE: correlation 0): +6,000 → 6,181.28 > 1,575.
	rel.RelAllVisible = 0
	ios0 := c.costIndexOnly(ios.ix, rel, nblocks, seq.EstimatedRows)
	require.InDelta(t, 181.2825+6000, ios0.SerialCost, 1e-9)
	_, _, ok = c.cheapestIndexOnly(rel, nblocks, seq)
	require.False(t, ok)
	// After ANALYZE the id column's correlation is 1: the heap pages cost
	// min_IO_cost = 4 + 1,499 × seq_page_cost 1 = 1,503 → 1,684.28, still above the seq scan.
	rel.Analyzed = true
	ios1 := c.costIndexOnly(ios.ix, rel, nblocks, seq.EstimatedRows)
	require.InDelta(t, 181.2825+1503, ios1.SerialCost, 1e-9)
}

// TestParallelIndexOnlyCost: verify/testdata/suite/21-parallel-index-only-scan.scn,
// where PostgreSQL 15 runs count(*) as a parallel index-only scan with two
// workers. 300,000 rows, 20 a page: 15,000 pages; the id btree: 825 pages,
// height 2. By hand:
//
//	seq scan: 15,000 + 300,000 × (0.01 + 0.0025) = 18,750; two workers
//	  (15,000 pages ≥ 1,024·3·3 → 3, capped at 2), divisor 2 + (1 − 0.6) =
//	  2.4: 15,000 + 3,750 / 2.4 + 1,000 + 0.1 × 3 = 17,562.8
//	index-only: 825 × 4 + 300,000 × 0.005 = 4,800; ⌈log2 300,000⌉ = 19 ×
//	  0.0025 = 0.0475; (2 + 1) × 50 × 0.0025 = 0.375 → 4,800.4225; + 3,000
//	  (cpu_tuple_cost) + 750 (the aggregate) = 8,550.4225 serial; parallel
//	  (825 ≥ 64·3·3 → 3, capped at 2): 4,800.4225 + 3,750 / 2.4 + 1,000.3 =
//	  7,363.2225, the cheapest.
func TestParallelIndexOnlyCost(t *testing.T) {
	c := open15(t, "w", 300000, 400, true)
	rel, err := c.TableNamed("w")
	require.NoError(t, err)
	nblocks := c.pool.NBlocks(rel.ID)
	require.Equal(t, 15000, nblocks)
	seq := c.planSeqScan(rel, nblocks)
	require.InDelta(t, 18750.0, seq.SerialCost, 1e-6)
	require.InDelta(t, 17562.8, seq.ParallelCost, 1e-6)
	ios, parallel, ok := c.cheapestIndexOnly(rel, nblocks, seq)
	require.True(t, ok)
	require.True(t, parallel)
	require.Equal(t, 825, ios.ix.Pages())
	require.Equal(t, 2, ios.Workers)
	require.InDelta(t, 8550.4225, ios.SerialCost, 1e-6)
	require.InDelta(t, 7363.2225, ios.ParallelCost, 1e-6)
}

// open15 opens a PostgreSQL 15 cluster of 16MB with checksums, creates and
// loads a table of (id int4, pad text) rows of tupleBytes, and indexes its
// id before or after a VACUUM.
func open15(t *testing.T, name string, rows int64, tupleBytes int, indexFirst bool) *Cluster {
	t.Helper()
	s, err := DefaultSettings(15)
	require.NoError(t, err)
	for _, kv := range [][2]string{{"shared_buffers", "16MB"}, {"data_checksums", "on"}} {
		_, err := s.Set(kv[0], kv[1])
		require.NoError(t, err)
	}
	c, err := NewCluster(s, 1)
	require.NoError(t, err)
	r := c.AddTable(name, heap.Shape{TupleLen: tupleBytes, Fillfactor: 100, PlannerWidth: 36})
	r.Declared, r.HasToast = rows, true
	_, err = c.InsertSelect(r, rows)
	require.NoError(t, err)
	index := func() {
		_, err := c.BuildIndex(name+"_id", r, nil)
		require.NoError(t, err)
	}
	if indexFirst {
		index()
	}
	_, err = c.VacuumTable(r, false)
	require.NoError(t, err)
	if !indexFirst {
		index()
	}
	require.NoError(t, c.CheckInvariants())
	return c
}
