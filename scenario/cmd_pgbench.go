package scenario

import (
	"strconv"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/cluster"
)

// Example: pgbench init scale=10
// Example: pgbench run transactions=20000 builtin=select-only seed=3
func (e *Env) cmdPgbench(args []datadriven.CmdArg) (Output, error) {
	if len(args) == 0 || !positional(args[0]) || (args[0].Key != "init" && args[0].Key != "run") {
		return Output{}, errorf("pgbench: expected init or run: pgbench init scale=N [fillfactor=F] | pgbench run transactions=N [builtin=tpcb-like|simple-update|select-only] [seed=S] [clients=C]")
	}
	whole := func(name, v string, lo, hi int64) (int64, error) {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < lo || n > hi {
			return 0, errorf("pgbench %s: %s=%s: must be a whole number from %d to %d", args[0].Key, name, v, lo, hi)
		}
		return n, nil
	}
	if args[0].Key == "init" {
		scale, ff := int64(0), int64(100)
		for _, a := range args[1:] {
			v, err := argVal(a)
			if err != nil {
				return Output{}, err
			}
			switch a.Key {
			case "scale":
				// pgbench_accounts holds 100,000 × scale rows; its pages must fit a block number.
				if scale, err = whole("scale", v, 1, 100000); err != nil {
					return Output{}, err
				}
			case "fillfactor":
				if ff, err = whole("fillfactor", v, 10, 100); err != nil {
					return Output{}, err
				}
			default:
				return Output{}, errorf("pgbench init: unknown option %q (scale, fillfactor)", a.Key)
			}
		}
		if scale == 0 {
			return Output{}, errorf("pgbench init: give scale=N (pgbench -i -s N: 100,000 × N accounts)")
		}
		r, err := e.C.PgbenchInit(int(scale), int(ff))
		if err != nil {
			return Output{}, err
		}
		var steps []map[string]any
		for _, s := range r.Steps {
			st := map[string]any{"sql": s.SQL}
			if s.Result != nil {
				st["result"] = stmtJSON(s.Result)
			}
			steps = append(steps, st)
		}
		return Output{Text: r.String(), JSON: map[string]any{"scale": r.Scale, "fillfactor": r.Fillfactor, "steps": steps, "pages": r.Pages}, Result: r}, nil
	}
	spec := cluster.PgbenchRunSpec{}
	for _, a := range args[1:] {
		v, err := argVal(a)
		if err != nil {
			return Output{}, err
		}
		switch a.Key {
		case "transactions":
			n, err := whole("transactions", v, 1, 1<<31-1)
			if err != nil {
				return Output{}, err
			}
			spec.Transactions = int(n)
		case "builtin":
			spec.Builtin = v
		case "seed":
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				return Output{}, errorf("pgbench run: seed=%s: must be a whole number from 0 to 18446744073709551615 (--random-seed)", v)
			}
			spec.Seed = n
		case "clients":
			n, err := whole("clients", v, 1, 1000)
			if err != nil {
				return Output{}, err
			}
			spec.Clients = int(n)
		default:
			return Output{}, errorf("pgbench run: unknown option %q (transactions, builtin, seed, clients)", a.Key)
		}
	}
	if spec.Transactions == 0 {
		return Output{}, errorf("pgbench run: give transactions=N (pgbench -t N)")
	}
	r, err := e.C.PgbenchRun(spec)
	if err != nil {
		return Output{}, err
	}
	return Output{Text: r.String(), JSON: PgbenchJSON(r), Result: r}, nil
}

// PgbenchJSON is a run's JSON (the scenario language's field names).
func PgbenchJSON(r *cluster.PgbenchResult) map[string]any {
	tables := map[string]any{}
	for n, t := range r.Tables {
		tables[n] = map[string]any{"heap_blks_hit": t.HeapBlksHit, "heap_blks_read": t.HeapBlksRead,
			"idx_blks_hit": t.IdxBlksHit, "idx_blks_read": t.IdxBlksRead,
			"n_tup_ins": t.NTupIns, "n_tup_upd": t.NTupUpd, "n_tup_hot_upd": t.NTupHotUpd}
	}
	indexes := map[string]any{}
	for n, ix := range r.Indexes {
		indexes[n] = map[string]any{"idx_blks_hit": ix.IdxBlksHit, "idx_blks_read": ix.IdxBlksRead}
	}
	return map[string]any{"builtin": r.Builtin, "scale": r.Scale, "clients": r.Clients,
		"transactions": r.Transactions, "shared_hit": r.SharedHit, "shared_read": r.SharedRead,
		"shared_dirtied": r.SharedDirtied, "shared_written": r.SharedWritten,
		"wal_records": r.WALRecords, "wal_fpi": r.WALFPI, "wal_bytes": r.WALBytes,
		"tps": r.TPS, "latency_ms": r.LatencyMs, "time_ms": ms(r.TimeNs), "tables": tables, "indexes": indexes}
}
