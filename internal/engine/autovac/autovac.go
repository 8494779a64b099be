// Package autovac is PostgreSQL's autovacuum as processes on the simulated
// clock: the launcher (autovacuum.c's AutoVacLauncherMain,
// rebuild_database_list, launcher_determine_sleep, launch_worker), its
// workers (do_autovacuum, relation_needs_vacanalyze, table_recheck_autovac),
// the cost-based delay they run under (vacuum.c's vacuum_delay_point,
// autovac_balance_cost) and the pgstat counters they read
// (pg_stat_user_tables' n_ins_since_vacuum and n_mod_since_analyze, reset by
// pgstat_report_vacuum and pgstat_report_analyze).
//
// The work itself, VACUUM and ANALYZE of one table, is the engine's: a
// worker asks its Host for a Job and steps it a page at a time, so the
// engine's scheduler interleaves the worker's pages with a statement's, the
// checkpointer's and the background writer's by simulated time.
//
// # One database
//
// The simulated cluster has one database with statistics (the scenario's),
// so rebuild_database_list schedules it alone: its first worker is due one
// autovacuum_naptime after the launcher starts (the server's start), and
// launch_worker puts the next one autovacuum_naptime after each launch.
// A worker still busy when the next is due leaves the new one the tables it
// is not working on, up to autovacuum_max_workers at a time.
//
// # What the model leaves out
//
// Anti-wraparound vacuums (the tables' XID ages are not modelled), TOAST
// tables' own thresholds (they are empty), the worker's fork and connection
// time beyond its catalog pins, and tables the engine cannot vacuum (a
// pgbench table's dead tuples and HOT chains: see Candidate.Refused).
package autovac

import (
	"math"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/guc"
	"github.com/pgbufsim/pgbufsim/pg"
)

// TableStat is one table's pgstat entry as a worker reads it, with its
// pg_class figures.
type TableStat struct {
	// RelTuples, RelPages and RelAllFrozen are pg_class's (reltuples −1
	// before the first VACUUM or ANALYZE; relallfrozen from 18).
	RelTuples    float64
	RelPages     int
	RelAllFrozen int
	// Dead is n_dead_tup, InsSinceVacuum n_ins_since_vacuum (13+) and
	// ModSinceAnalyze n_mod_since_analyze, as flushed to pgstat.
	Dead, InsSinceVacuum, ModSinceAnalyze int64
}

// Decision is relation_needs_vacanalyze's answer with the thresholds it compared.
type Decision struct {
	Vacuum, Analyze                     bool
	VacThresh, InsThresh, AnlThresh     float64
	InsEnabled                          bool
	ScoreVac, ScoreIns, ScoreAnl, Score float64 // 19's prioritisation
}

// f4 rounds to float4, as the C code computes the thresholds in float4.
func f4(x float64) float64 { return float64(float32(x)) }

// NeedsVacAnalyze is relation_needs_vacanalyze (autovacuum.c) for a table
// whose autovacuum_enabled is on and whose XID age is not near
// autovacuum_freeze_max_age, with the settings' thresholds (the model's
// tables have no per-table threshold reloptions):
//
//	vacthresh    = vacuum_threshold + vacuum_scale_factor × reltuples          (18+: at most vacuum_max_threshold)
//	vacinsthresh = insert_threshold + insert_scale_factor × reltuples          (18+: × the unfrozen pages' fraction)
//	anlthresh    = analyze_threshold + analyze_scale_factor × reltuples
//
// with reltuples < 0 (never vacuumed or analyzed) taken as 0, and vacuum when
// n_dead_tup > vacthresh or (insert_threshold ≥ 0 and n_ins_since_vacuum >
// vacinsthresh), analyze when n_mod_since_analyze > anlthresh.
func NeedsVacAnalyze(s *guc.Settings, t TableStat) Decision {
	v := s.Version
	reltuples := t.RelTuples
	if reltuples < 0 {
		reltuples = 0
	}
	pcntUnfrozen := 1.0
	if v >= 18 && t.RelPages > 0 && t.RelAllFrozen > 0 {
		pcntUnfrozen = f4(1 - f4(float64(min(t.RelAllFrozen, t.RelPages))/float64(t.RelPages)))
	}
	var d Decision
	d.VacThresh = f4(float64(s.Int("autovacuum_vacuum_threshold")) + f4(s.Real("autovacuum_vacuum_scale_factor")*reltuples))
	if v >= 18 {
		if mx := s.Int("autovacuum_vacuum_max_threshold"); mx >= 0 && d.VacThresh > float64(mx) {
			d.VacThresh = float64(mx)
		}
	}
	insBase := s.Int("autovacuum_vacuum_insert_threshold")
	d.InsEnabled = insBase >= 0
	d.InsThresh = f4(float64(insBase) + f4(s.Real("autovacuum_vacuum_insert_scale_factor")*reltuples*pcntUnfrozen))
	d.AnlThresh = f4(float64(s.Int("autovacuum_analyze_threshold")) + f4(s.Real("autovacuum_analyze_scale_factor")*reltuples))
	d.Vacuum = float64(t.Dead) > d.VacThresh || d.InsEnabled && float64(t.InsSinceVacuum) > d.InsThresh
	d.Analyze = float64(t.ModSinceAnalyze) > d.AnlThresh
	if v >= 19 {
		// 19 orders the worker's tables by the largest of the weighted
		// ratios of each count to its threshold (the XID-age scores are 0
		// here: the model's tables are young).
		d.ScoreVac = float64(t.Dead) / math.Max(d.VacThresh, 1) * s.Real("autovacuum_vacuum_score_weight")
		if d.InsEnabled {
			d.ScoreIns = float64(t.InsSinceVacuum) / math.Max(d.InsThresh, 1) * s.Real("autovacuum_vacuum_insert_score_weight")
		}
		d.ScoreAnl = float64(t.ModSinceAnalyze) / math.Max(d.AnlThresh, 1) * s.Real("autovacuum_analyze_score_weight")
		d.Score = math.Max(d.ScoreVac, math.Max(d.ScoreIns, d.ScoreAnl))
	}
	return d
}

// CostLimit is the worker's vacuum_cost_limit and vacuum_cost_delay (ns):
// autovacuum_vacuum_cost_limit and _delay, −1 meaning the vacuum_ ones
// (VacuumUpdateCosts), the limit shared evenly among the workers running
// (autovac_balance_cost: every worker has the same settings here), at least 1.
func CostLimit(s *guc.Settings, workers int) (limit int64, delayNs int64) {
	limit = s.Int("autovacuum_vacuum_cost_limit")
	if limit <= 0 {
		limit = s.Int("vacuum_cost_limit")
	}
	delayNs = s.Int("autovacuum_vacuum_cost_delay")
	if delayNs < 0 {
		delayNs = s.Int("vacuum_cost_delay")
	}
	if workers > 1 {
		limit = max(limit/int64(workers), 1)
	}
	return limit, delayNs
}

// Cost is VacuumCostBalance: the pages a vacuum touched, weighed by
// vacuum_cost_page_hit, _miss and _dirty (charged where the buffer manager
// counts a hit, a read and a page newly dirtied).
type Cost struct {
	Balance int64
	// Limit and DelayNs are the vacuum_cost_limit and vacuum_cost_delay in force.
	Limit, DelayNs int64
	// Hit, Miss and Dirty are the page costs.
	Hit, Miss, Dirty int64
	// DelayedNs sums the naps (18's "delay time").
	DelayedNs int64
}

// NewCost is the cost state of a vacuum with the given limit and delay.
func NewCost(s *guc.Settings, limit, delayNs int64) *Cost {
	return &Cost{Limit: limit, DelayNs: delayNs, Hit: s.Int("vacuum_cost_page_hit"),
		Miss: s.Int("vacuum_cost_page_miss"), Dirty: s.Int("vacuum_cost_page_dirty")}
}

// ManualCost is a manual VACUUM's or ANALYZE's cost state: nil (no delay)
// unless vacuum_cost_delay is set.
func ManualCost(s *guc.Settings) *Cost {
	if s.Int("vacuum_cost_delay") <= 0 {
		return nil
	}
	return NewCost(s, s.Int("vacuum_cost_limit"), s.Int("vacuum_cost_delay"))
}

// After is the delay point after a page: the hits, reads and pages dirtied
// since before are charged and be naps if the balance reached the limit.
// A nil Cost (no delay) does nothing.
func (c *Cost) After(be *bufmgr.Backend, before bufmgr.BufferUsage) {
	if c == nil {
		return
	}
	c.Charge(be.Buf.Hit-before.Hit, be.Buf.Read-before.Read, be.Buf.Dirtied-before.Dirtied)
	be.Now += c.DelayPoint()
}

// Charge adds hits, misses and pages dirtied to the balance.
func (c *Cost) Charge(hit, miss, dirty int64) {
	c.Balance += hit*c.Hit + miss*c.Miss + dirty*c.Dirty
}

// DelayPoint is vacuum_delay_point: with the cost-based delay active
// (vacuum_cost_delay > 0) and the balance at the limit, nap
// delay × balance / limit milliseconds, at most 4 × delay, whole
// microseconds (pg_usleep), and reset the balance. It returns the nap in ns.
func (c *Cost) DelayPoint() int64 {
	if c.DelayNs <= 0 || c.Balance < c.Limit {
		return 0
	}
	msec := float64(c.DelayNs) / 1e6 * float64(c.Balance) / float64(c.Limit)
	if mx := float64(c.DelayNs) / 1e6 * 4; msec > mx {
		msec = mx
	}
	c.Balance = 0
	ns := int64(msec*1000) * 1000
	c.DelayedNs += ns
	return ns
}

// Ref is a table's identity for the worker.
type Ref struct {
	ID   pg.RelID
	Name string
}
