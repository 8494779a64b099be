package pgbench

import (
	"fmt"
	"regexp"
	"strconv"
)

// The scenario commands `pgbench init scale=N [fillfactor=F]` and `pgbench
// run transactions=N [builtin=…] [seed=S] [clients=C]`: their settings,
// pgbench's arguments for them, and the run's result (the JSON contract
// between the simulator and verify).

// InitCmd is a `pgbench init`: pgbench -i -s Scale -F Fillfactor -q.
type InitCmd struct {
	Scale      int
	Fillfactor int // 100 when not given
}

// RunCmd is a `pgbench run`: pgbench -n -c Clients -j 1 -t Transactions
// --random-seed=Seed -b Builtin.
type RunCmd struct {
	Transactions int     // per client
	Builtin      Builtin // TPCBLike when not given
	Seed         uint64  // DefaultSeed when not given
	Clients      int     // 1 when not given
}

// Setting is one key=value of a command.
type Setting struct{ Key, Value string }

// ParseInit reads a `pgbench init`'s settings.
func ParseInit(settings []Setting) (InitCmd, error) {
	c := InitCmd{Fillfactor: 100}
	for _, s := range settings {
		n, err := strconv.Atoi(s.Value)
		switch {
		case s.Key == "scale" && err == nil:
			c.Scale = n
		case s.Key == "fillfactor" && err == nil:
			c.Fillfactor = n
		case s.Key == "scale" || s.Key == "fillfactor":
			return c, fmt.Errorf("%s=%s: an integer", s.Key, s.Value)
		default:
			return c, fmt.Errorf("pgbench init does not take %s=%s (scale=N [fillfactor=F])", s.Key, s.Value)
		}
	}
	return c, nil
}

// ParseRun reads a `pgbench run`'s settings.
func ParseRun(settings []Setting) (RunCmd, error) {
	c := RunCmd{Builtin: TPCBLike, Seed: DefaultSeed, Clients: 1}
	for _, s := range settings {
		var err error
		switch s.Key {
		case "transactions":
			c.Transactions, err = strconv.Atoi(s.Value)
		case "clients":
			c.Clients, err = strconv.Atoi(s.Value)
		case "seed":
			if c.Seed, err = strconv.ParseUint(s.Value, 10, 64); err != nil {
				return c, fmt.Errorf("seed=%s: an unsigned 64-bit integer", s.Value)
			}
		case "builtin":
			if c.Builtin, err = ParseBuiltin(s.Value); err != nil {
				return c, err
			}
		default:
			return c, fmt.Errorf("pgbench run does not take %s=%s (transactions=N [builtin=NAME] [seed=S] [clients=C])", s.Key, s.Value)
		}
		if err != nil {
			return c, fmt.Errorf("%s=%s: an integer", s.Key, s.Value)
		}
	}
	return c, nil
}

// Check refuses what `pgbench -i` would on that version.
func (c InitCmd) Check(version int) error { return checkInit(version, c.Scale, c.Fillfactor) }

// Check refuses what pgbench would on that version.
func (c RunCmd) Check(version int) error {
	if _, err := NewClients(version, c.Seed, c.Clients); err != nil {
		return err
	}
	if c.Transactions < 1 {
		return fmt.Errorf("transactions=%d: pgbench's -t/--transactions is from 1 to 2147483647", c.Transactions)
	}
	if c.Builtin.Script() == "" {
		return fmt.Errorf("builtin %v: pgbench's builtin scripts are tpcb-like, simple-update and select-only", c.Builtin)
	}
	return nil
}

// Args are pgbench's arguments for the init (before the database name).
func (c InitCmd) Args() []string {
	return []string{"-i", "-s", strconv.Itoa(c.Scale), "-F", strconv.Itoa(c.Fillfactor), "-q"}
}

// Args are pgbench's arguments for the run (before the database name).
func (c RunCmd) Args() []string {
	return []string{"-n", "-c", strconv.Itoa(c.Clients), "-j", "1", "-t", strconv.Itoa(c.Transactions),
		"--random-seed=" + strconv.FormatUint(c.Seed, 10), "-b", c.Builtin.String()}
}

// TableStats is one table's counters over a run, as pg_statio_user_tables
// (idx_* summed over the table's indexes) and pg_stat_user_tables count.
type TableStats struct {
	HeapBlksHit  int64 `json:"heap_blks_hit"`
	HeapBlksRead int64 `json:"heap_blks_read"`
	IdxBlksHit   int64 `json:"idx_blks_hit"`
	IdxBlksRead  int64 `json:"idx_blks_read"`
	NTupIns      int64 `json:"n_tup_ins"`
	NTupUpd      int64 `json:"n_tup_upd"`
	NTupHotUpd   int64 `json:"n_tup_hot_upd"`
}

// IndexStats is one index's counters over a run (pg_statio_user_indexes).
type IndexStats struct {
	IdxBlksHit  int64 `json:"idx_blks_hit"`
	IdxBlksRead int64 `json:"idx_blks_read"`
}

// Result is a `pgbench run`'s figures with the JSON field names of the
// scenario command's result: transactions, the run's shared buffer hits,
// reads, buffers dirtied and written, its WAL (pg_stat_wal's records, full
// page images and bytes), tps, and per table and per index (by relname and
// indexrelname) the statistics views' counters. On the server (verify's
// PgbenchRunFigures), deltas around the run:
//   - transactions and tps from pgbench's summary;
//   - shared_hit, shared_read: pg_stat_database blks_hit, blks_read (every
//     session pgbench opens: its setup connection's two queries and each
//     client's connection start, as well as the transactions);
//   - shared_written: every write of a shared buffer, by any process (15:
//     pg_stat_bgwriter buffers_checkpoint + buffers_clean + buffers_backend,
//     after a reload has made the checkpointer take in the backends'
//     writes, less the pages the relations grew by, which buffers_backend
//     counts too; 16+: pg_stat_io writes of object relation);
//   - shared_dirtied: the dirty buffers in pg_buffercache after less before,
//     plus shared_written (each dirtying makes one clean buffer dirty, each
//     write one dirty buffer clean);
//   - wal_*: pg_stat_wal; tables and indexes: pg_statio_user_tables,
//     pg_stat_user_tables, pg_statio_user_indexes.
type Result struct {
	Transactions  int64                 `json:"transactions"`
	SharedHit     int64                 `json:"shared_hit"`
	SharedRead    int64                 `json:"shared_read"`
	SharedDirtied int64                 `json:"shared_dirtied"`
	SharedWritten int64                 `json:"shared_written"`
	WALRecords    int64                 `json:"wal_records"`
	WALFPI        int64                 `json:"wal_fpi"`
	WALBytes      int64                 `json:"wal_bytes"`
	TPS           float64               `json:"tps"`
	Tables        map[string]TableStats `json:"tables"`
	Indexes       map[string]IndexStats `json:"indexes"`
}

var (
	reSummaryTxns = regexp.MustCompile(`(?m)^number of transactions actually processed: (\d+)/`)
	reSummaryTPS  = regexp.MustCompile(`(?m)^tps = ([0-9.]+)`)
)

// ParseSummary reads the transactions processed and the tps from what a
// pgbench run prints (its summary, the same on 15 to 19).
func ParseSummary(out string) (transactions int64, tps float64, err error) {
	m := reSummaryTxns.FindStringSubmatch(out)
	t := reSummaryTPS.FindStringSubmatch(out)
	if m == nil || t == nil {
		return 0, 0, fmt.Errorf(`no "number of transactions actually processed" and "tps =" lines in pgbench's output`)
	}
	transactions, _ = strconv.ParseInt(m[1], 10, 64)
	tps, _ = strconv.ParseFloat(t[1], 64)
	return transactions, tps, nil
}
