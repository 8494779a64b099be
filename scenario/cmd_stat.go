package scenario

import (
	"fmt"
	"strings"
	"time"

	"github.com/cockroachdb/datadriven"
)

// Example: show stat bgwriter since=load
// Example: show stat tables pgbench_accounts
// Example: show stat database
func (e *Env) showStat(args []datadriven.CmdArg) (Output, error) {
	if len(args) == 0 || !positional(args[0]) {
		return Output{}, errorf("show stat: expected bgwriter [since=MARK], tables [TABLE ...] or database")
	}
	switch args[0].Key {
	case "bgwriter":
		return e.showStatBgwriter(args)
	case "tables":
		var names []string
		for _, a := range args[1:] {
			if !positional(a) {
				return Output{}, errorf("show stat tables: unexpected %s=... (list table names)", a.Key)
			}
			names = append(names, a.Key)
		}
		rows, err := e.C.StatTables(names...)
		if err != nil {
			return Output{}, err
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%-22s %13s %14s %12s %13s %9s %9s %13s %16s %17s %15s", "relname", "heap_blks_hit", "heap_blks_read",
			"idx_blks_hit", "idx_blks_read", "n_tup_ins", "n_tup_upd", "n_tup_hot_upd", "autovacuum_count", "autoanalyze_count", "last_autovacuum")
		js := map[string]any{}
		for _, r := range rows {
			last := "-"
			if r.LastAutovacuum >= 0 {
				last = simTime(r.LastAutovacuum).(string)
			}
			fmt.Fprintf(&b, "\n%-22s %13d %14d %12d %13d %9d %9d %13d %16d %17d %15s", r.Relname, r.HeapBlksHit, r.HeapBlksRead,
				r.IdxBlksHit, r.IdxBlksRead, r.NTupIns, r.NTupUpd, r.NTupHotUpd, r.AutovacuumCount, r.AutoanalyzeCount, last)
			js[r.Relname] = map[string]any{"heap_blks_hit": r.HeapBlksHit, "heap_blks_read": r.HeapBlksRead,
				"idx_blks_hit": r.IdxBlksHit, "idx_blks_read": r.IdxBlksRead,
				"n_tup_ins": r.NTupIns, "n_tup_upd": r.NTupUpd, "n_tup_hot_upd": r.NTupHotUpd,
				"n_ins_since_vacuum": r.NInsSinceVacuum, "n_mod_since_analyze": r.NModSinceAnalyze,
				"last_vacuum": simTime(r.LastVacuum), "last_autovacuum": simTime(r.LastAutovacuum),
				"last_analyze": simTime(r.LastAnalyze), "last_autoanalyze": simTime(r.LastAutoanalyze),
				"vacuum_count": r.VacuumCount, "autovacuum_count": r.AutovacuumCount,
				"analyze_count": r.AnalyzeCount, "autoanalyze_count": r.AutoanalyzeCount}
		}
		return Output{Text: b.String(), JSON: map[string]any{"tables": js}, Result: rows}, nil
	case "database":
		if len(args) > 1 {
			return Output{}, errorf("show stat database: takes no options")
		}
		d, err := e.C.StatDatabase()
		if err != nil {
			return Output{}, err
		}
		return Output{Text: fmt.Sprintf("blks_hit=%d blks_read=%d", d.BlksHit, d.BlksRead),
			JSON: map[string]any{"blks_hit": d.BlksHit, "blks_read": d.BlksRead}, Result: d}, nil
	}
	return Output{}, errorf("show stat %s: unknown (bgwriter, tables, database)", args[0].Key)
}

// simTime is a pg_stat_user_tables time as the simulated time since the
// cluster started (nil: never, PostgreSQL's NULL).
func simTime(ns int64) any {
	if ns < 0 {
		return nil
	}
	return time.Duration(ns).String()
}
