package autovac

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/guc"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

func settings(t *testing.T, v pg.Version, kv ...string) *guc.Settings {
	t.Helper()
	s, err := guc.DefaultSettings(v)
	require.NoError(t, err)
	for i := 0; i+1 < len(kv); i += 2 {
		_, err := s.Set(kv[i], kv[i+1])
		require.NoError(t, err)
	}
	return s
}

// A table never vacuumed or analyzed has reltuples −1, which
// relation_needs_vacanalyze takes as 0 on every version: the thresholds are
// the bare base thresholds, 50 / 1000 / 50 by default, and the comparisons
// are strict (>).
func TestThresholdsBeforeFirstVacuum(t *testing.T) {
	for v := pg.Version(15); v <= 19; v++ {
		s := settings(t, v)
		d := NeedsVacAnalyze(s, TableStat{RelTuples: -1, InsSinceVacuum: 1000, ModSinceAnalyze: 50})
		require.Equal(t, 50.0, d.VacThresh, "v%d", v)
		require.Equal(t, 1000.0, d.InsThresh, "v%d", v)
		require.Equal(t, 50.0, d.AnlThresh, "v%d", v)
		require.False(t, d.Vacuum, "v%d: 1000 inserts is not > 1000", v)
		require.False(t, d.Analyze, "v%d: 50 changes is not > 50", v)
		d = NeedsVacAnalyze(s, TableStat{RelTuples: -1, InsSinceVacuum: 1001, ModSinceAnalyze: 51})
		require.True(t, d.Vacuum && d.Analyze, "v%d", v)
	}
}

// With reltuples = 131,072 (the seed tables' size):
//
//	vacthresh = 50 + 0.2 × 131072 = 26,264.4
//	insthresh = 1000 + 0.2 × 131072 = 27,214.4 (15–17, and 18+ with nothing frozen)
//	anlthresh = 50 + 0.1 × 131072 = 13,157.2
//
// From 18 the insert scale factor is multiplied by the unfrozen pages'
// fraction: relallfrozen 16,384 of relpages 32,768 → 0.5, so
// insthresh = 1000 + 0.2 × 131072 × 0.5 = 14,107.2.
func TestThresholdsScaled(t *testing.T) {
	st := TableStat{RelTuples: 131072, RelPages: 32768, RelAllFrozen: 16384}
	for v := pg.Version(15); v <= 19; v++ {
		d := NeedsVacAnalyze(settings(t, v), st)
		require.InDelta(t, 26264.4, d.VacThresh, 0.01, "v%d", v)
		require.InDelta(t, 13157.2, d.AnlThresh, 0.01, "v%d", v)
		want := 27214.4
		if v >= 18 {
			want = 14107.2
		}
		require.InDelta(t, want, d.InsThresh, 0.01, "v%d", v)
	}
	// 20,000 inserts since the last vacuum: past 18's threshold, not 17's.
	st.InsSinceVacuum = 20000
	require.False(t, NeedsVacAnalyze(settings(t, 17), st).Vacuum)
	require.True(t, NeedsVacAnalyze(settings(t, 18), st).Vacuum)
}

// 18's autovacuum_vacuum_max_threshold caps the dead-tuple threshold: a
// billion-row table's 50 + 0.2 × 1e9 = 200,000,050 becomes 100,000,000
// (the default cap); 17 has no cap.
func TestVacuumMaxThreshold(t *testing.T) {
	st := TableStat{RelTuples: 1e9, Dead: 150_000_000}
	require.False(t, NeedsVacAnalyze(settings(t, 17), st).Vacuum)
	d := NeedsVacAnalyze(settings(t, 18), st)
	require.Equal(t, 1e8, d.VacThresh)
	require.True(t, d.Vacuum)
	d = NeedsVacAnalyze(settings(t, 18, "autovacuum_vacuum_max_threshold", "-1"), st)
	require.InDelta(t, 2.0000005e8, d.VacThresh, 100)
	require.False(t, d.Vacuum)
}

// autovacuum_vacuum_insert_threshold = −1 turns the insert trigger off.
func TestInsertThresholdDisabled(t *testing.T) {
	st := TableStat{RelTuples: -1, InsSinceVacuum: 1e9}
	d := NeedsVacAnalyze(settings(t, 16, "autovacuum_vacuum_insert_threshold", "-1"), st)
	require.False(t, d.InsEnabled)
	require.False(t, d.Vacuum)
}

// 19's score: the largest weighted count/threshold ratio. 2,000 inserts
// over an insert threshold of 1,000 score 2; 60 changes over an analyze
// threshold of 50 score 1.2; the score is 2, and halving the insert weight
// makes it max(1, 1.2) = 1.2.
func TestScore19(t *testing.T) {
	st := TableStat{RelTuples: -1, InsSinceVacuum: 2000, ModSinceAnalyze: 60}
	d := NeedsVacAnalyze(settings(t, 19), st)
	require.InDelta(t, 2.0, d.Score, 1e-9)
	d = NeedsVacAnalyze(settings(t, 19, "autovacuum_vacuum_insert_score_weight", "0.5"), st)
	require.InDelta(t, 1.2, d.Score, 1e-9)
	require.Zero(t, NeedsVacAnalyze(settings(t, 18), st).Score, "18 does not order by score")
}

// vacuum_delay_point with autovacuum's defaults (limit 200 from
// vacuum_cost_limit, delay 2 ms): a balance of 220 naps 2 × 220 / 200 =
// 2.2 ms; a balance of 1,000 would nap 10 ms but is capped at 4 × 2 = 8 ms;
// below the limit there is no nap. Two workers share the limit: 100 each.
func TestCostDelay(t *testing.T) {
	s := settings(t, 18)
	limit, delay := CostLimit(s, 1)
	require.Equal(t, int64(200), limit)
	require.Equal(t, int64(2e6), delay)
	c := NewCost(s, limit, delay)
	c.Charge(199, 0, 0)
	require.Zero(t, c.DelayPoint())
	c.Charge(1, 0, 1) // 200 + 20
	require.Equal(t, int64(2_200_000), c.DelayPoint())
	require.Zero(t, c.Balance)
	c.Charge(0, 500, 0) // 500 misses × 2
	require.Equal(t, int64(8_000_000), c.DelayPoint())
	l2, _ := CostLimit(s, 2)
	require.Equal(t, int64(100), l2)
	// -1 for the autovacuum delay means vacuum_cost_delay (0: no naps).
	_, d0 := CostLimit(settings(t, 18, "autovacuum_vacuum_cost_delay", "-1"), 1)
	require.Zero(t, d0)
	// A fractional delay is kept: 0.5 ms × 220 / 200 = 0.55 ms.
	c = NewCost(s, 200, 500_000)
	c.Charge(220, 0, 0)
	require.Equal(t, int64(550_000), c.DelayPoint())
}

// log_autovacuum_min_duration: 0 logs all, −1 none, else runs at least that long.
func TestLogged(t *testing.T) {
	require.True(t, logged(0, 1))
	require.False(t, logged(-1e6, 1e12))
	require.False(t, logged(600e9, 599e9))
	require.True(t, logged(600e9, 600e9))
}
