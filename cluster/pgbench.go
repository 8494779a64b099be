package cluster

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pgbufsim/pgbufsim/catalog"
	"github.com/pgbufsim/pgbufsim/internal/engine/oltp"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/pgbench"
)

// # pgbench
//
// PgbenchInit and PgbenchRun are `pgbench -i` and `pgbench -n -c C -j 1 -t N
// --random-seed=S -b NAME` on the simulated server: the builtin scripts'
// statements run one by one against the buffer pool and the WAL (package
// internal/engine/oltp), the random keys drawn as pgbench draws them.

// PgbenchInitStep is one statement `pgbench -i` sends and what it did (nil
// Result for the DDL and transaction control).
type PgbenchInitStep struct {
	SQL    string
	Result *StmtResult
}

// PgbenchInitResult is what `pgbench -i -s Scale -F Fillfactor` did.
type PgbenchInitResult struct {
	Scale, Fillfactor int
	Steps             []PgbenchInitStep
	// Pages is each table's and primary key's size afterwards, by name.
	Pages map[string]int
}

// String prints each statement with its EXPLAIN-style lines.
func (r *PgbenchInitResult) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "pgbench -i -s %d -F %d", r.Scale, r.Fillfactor)
	for _, s := range r.Steps {
		b.WriteString("\n" + s.SQL)
		if s.Result != nil {
			b.WriteString("\n  " + strings.ReplaceAll(s.Result.String(), "\n", "\n  "))
		}
	}
	return b.String()
}

// PgbenchInit creates and loads pgbench's tables at scale (100,000 × scale
// accounts) with fillfactor on accounts, tellers and branches, as
// `pgbench -i -s scale -F fillfactor` does on the cluster's version.
func (c *Cluster) PgbenchInit(scale, fillfactor int) (*PgbenchInitResult, error) {
	if c.e.Down() {
		return nil, c.e.Failed(fmt.Errorf("pgbench init: %w", ErrDown))
	}
	if c.bench != nil {
		return nil, c.e.Failed(fmt.Errorf("pgbench init: the pgbench tables exist already (one pgbench init per cluster)"))
	}
	if c.e.InTransaction() {
		return nil, c.e.Failed(fmt.Errorf("pgbench init: a transaction block is open (commit first)"))
	}
	b, steps, err := oltp.Init(c.e, scale, fillfactor)
	if err != nil {
		return nil, c.e.Failed(fmt.Errorf("pgbench init: %w", err))
	}
	c.bench = b
	r := &PgbenchInitResult{Scale: scale, Fillfactor: fillfactor, Pages: map[string]int{}}
	for _, t := range b.Tables() {
		r.Pages[t.Name] = t.Rel.NPages()
		if t.Index != nil {
			r.Pages[t.Index.Name] = t.Index.Pages()
		}
	}
	for _, s := range steps {
		r.Steps = append(r.Steps, PgbenchInitStep{SQL: s.SQL, Result: (*StmtResult)(s.Result)})
	}
	return r, nil
}

// PgbenchRunSpec is a `pgbench -n` run.
type PgbenchRunSpec struct {
	// Transactions is -t: transactions per client, at least 1.
	Transactions int
	// Builtin is -b: tpcb-like (""), simple-update or select-only.
	Builtin string
	// Seed is --random-seed.
	Seed uint64
	// Clients is -c (0: 1). Clients interleave a whole transaction at a time.
	Clients int
}

// PgbenchTableStats are a table's figures over the run:
// pg_statio_user_tables (the idx_* summed over its indexes) and
// pg_stat_user_tables.
type PgbenchTableStats struct {
	HeapBlksHit, HeapBlksRead, IdxBlksHit, IdxBlksRead int64
	NTupIns, NTupUpd, NTupHotUpd                       int64
}

// PgbenchIndexStats are an index's pg_statio_user_indexes figures over the run.
type PgbenchIndexStats struct{ IdxBlksHit, IdxBlksRead int64 }

// PgbenchResult is what a run did: pgbench's summary (simulated time) and
// the buffer, WAL and statistics views' counts over it.
type PgbenchResult struct {
	Builtin                                             string
	Scale, Clients, Transactions                        int
	SharedHit, SharedRead, SharedDirtied, SharedWritten int64
	WALRecords, WALFPI, WALBytes                        int64
	// TimeNs is the run's simulated duration; TPS and LatencyMs follow from it.
	TimeNs    int64
	TPS       float64
	LatencyMs float64
	Tables    map[string]PgbenchTableStats
	Indexes   map[string]PgbenchIndexStats
}

// builtinTitle is how pgbench names a builtin script in its summary.
var builtinTitle = map[string]string{"tpcb-like": "TPC-B (sort of)", "simple-update": "simple update", "select-only": "select only"}

// String prints pgbench's summary, then the buffer and WAL lines and the
// per-table statistics.
func (r *PgbenchResult) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "transaction type: <builtin: %s>\n", builtinTitle[r.Builtin])
	fmt.Fprintf(&b, "scaling factor: %d\nquery mode: simple\nnumber of clients: %d\nnumber of threads: 1\n", r.Scale, r.Clients)
	fmt.Fprintf(&b, "number of transactions per client: %d\n", r.Transactions/r.Clients)
	fmt.Fprintf(&b, "number of transactions actually processed: %d/%d\n", r.Transactions, r.Transactions)
	fmt.Fprintf(&b, "latency average = %.3f ms (simulated)\n", r.LatencyMs)
	fmt.Fprintf(&b, "tps = %.6f (simulated, without initial connection time)\n", r.TPS)
	fmt.Fprintf(&b, "Buffers: shared hit=%d read=%d dirtied=%d written=%d\n", r.SharedHit, r.SharedRead, r.SharedDirtied, r.SharedWritten)
	fmt.Fprintf(&b, "WAL: records=%d fpi=%d bytes=%d\n", r.WALRecords, r.WALFPI, r.WALBytes)
	fmt.Fprintf(&b, "%-22s %13s %14s %12s %13s %9s %9s %13s", "relname", "heap_blks_hit", "heap_blks_read",
		"idx_blks_hit", "idx_blks_read", "n_tup_ins", "n_tup_upd", "n_tup_hot_upd")
	for _, n := range sortedKeys(r.Tables) {
		t := r.Tables[n]
		fmt.Fprintf(&b, "\n%-22s %13d %14d %12d %13d %9d %9d %13d", n, t.HeapBlksHit, t.HeapBlksRead, t.IdxBlksHit, t.IdxBlksRead,
			t.NTupIns, t.NTupUpd, t.NTupHotUpd)
	}
	return b.String()
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// PgbenchRun runs the builtin script on the tables PgbenchInit made.
func (c *Cluster) PgbenchRun(s PgbenchRunSpec) (*PgbenchResult, error) {
	fail := func(err error) (*PgbenchResult, error) { return nil, c.e.Failed(fmt.Errorf("pgbench run: %w", err)) }
	if c.e.Down() {
		return fail(ErrDown)
	}
	if c.bench == nil {
		return fail(fmt.Errorf("no pgbench tables: run pgbench init first"))
	}
	name := s.Builtin
	if name == "" {
		name = "tpcb-like"
	}
	script, err := pgbench.ParseBuiltin(name)
	if err != nil {
		return fail(&pg.SettingError{Name: "builtin", Value: s.Builtin, Allowed: "tpcb-like, simple-update or select-only"})
	}
	if s.Transactions < 1 {
		return fail(&pg.SettingError{Name: "transactions", Value: fmt.Sprint(s.Transactions), Allowed: "must be at least 1"})
	}
	clients := s.Clients
	if clients == 0 {
		clients = 1
	}
	if clients < 1 || clients > 1000 {
		return fail(&pg.SettingError{Name: "clients", Value: fmt.Sprint(s.Clients), Allowed: "must be between 1 and 1000"})
	}
	keys, err := pgbenchKeys(int(c.S.Version), clients, s.Seed, c.bench.Scale, script)
	if err != nil {
		return fail(err)
	}
	var res *oltp.RunResult
	// The run's figures are the statistics views' counters around it: a
	// session reads them first (pg_stat_database, the pg_statio views,
	// pg_buffercache's dirty buffers; verify's pgbenchRunFigures), its
	// catalog pins and prunes before the run's (the measured pgbenchReading
	// profile); the reading after it is not part of the run.
	err = c.e.Command("pgbench run", catalog.PgbenchReading, true, func() error {
		c.e.Pause()
		var err error
		res, err = c.bench.Run(script, s.Transactions, keys)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("pgbench run: %w", err)
	}
	r := &PgbenchResult{Builtin: name, Scale: c.bench.Scale, Clients: clients, Transactions: res.Transactions,
		SharedHit: res.Buf.Hit, SharedRead: res.Buf.Read, SharedDirtied: res.Buf.Dirtied, SharedWritten: res.Buf.Written,
		WALRecords: res.WAL.Records, WALFPI: res.WAL.FPI, WALBytes: res.WAL.Bytes, TimeNs: res.TimeNs,
		Tables: map[string]PgbenchTableStats{}, Indexes: map[string]PgbenchIndexStats{}}
	if res.TimeNs > 0 {
		r.TPS = float64(res.Transactions) / (float64(res.TimeNs) / 1e9)
		r.LatencyMs = float64(res.TimeNs) / 1e6 * float64(clients) / float64(res.Transactions)
	}
	for _, t := range c.bench.Tables() {
		st := res.Tables[t.Name]
		r.Tables[t.Name] = PgbenchTableStats{st.HeapHit, st.HeapRead, st.IdxHit, st.IdxRead, st.Ins, st.Upd, st.HotUpd}
		if t.Index != nil {
			r.Indexes[t.Index.Name] = PgbenchIndexStats{st.IdxHit, st.IdxRead}
		}
	}
	return r, nil
}

// pgbenchOwns refuses a command that would change a pgbench table outside
// the pgbench executor, whose page state (dead tuples, HOT chains, index
// entries) the other commands do not know.
func (c *Cluster) pgbenchOwns(cmd, name string) error {
	if c.bench != nil && c.bench.Owns(name) {
		return fmt.Errorf("%s %s: a pgbench table: only pgbench run changes it (its dead tuples and HOT chains are not modelled for %s)", cmd, name, cmd)
	}
	return nil
}

// TableStats is one table's row of pg_statio_user_tables and
// pg_stat_user_tables, counted since the cluster started.
type TableStats struct {
	Relname                                            string
	HeapBlksHit, HeapBlksRead, IdxBlksHit, IdxBlksRead int64
	NTupIns, NTupUpd, NTupHotUpd                       int64
	// NInsSinceVacuum and NModSinceAnalyze are the counts autovacuum's
	// thresholds compare; the Last* times are simulated ns since the
	// cluster started (−1: never), the *Count the runs.
	NInsSinceVacuum, NModSinceAnalyze                            int64
	LastVacuum, LastAutovacuum, LastAnalyze, LastAutoanalyze     int64
	VacuumCount, AutovacuumCount, AnalyzeCount, AutoanalyzeCount int64
}

// StatTables is pg_statio_user_tables joined with pg_stat_user_tables for
// the named tables (none: every table, in creation order). The heap counts
// include the table's forks; the index counts sum its indexes; n_tup_upd
// and n_tup_hot_upd are counted by pgbench's updates (the only UPDATEs).
func (c *Cluster) StatTables(tables ...string) ([]TableStats, error) {
	var out []TableStats
	err := c.e.Command("show", 0, false, func() error {
		if err := c.e.QuerySession(catalog.StatTables); err != nil {
			return err
		}
		rels := c.e.Tables()
		if len(tables) > 0 {
			rels = nil
			for _, n := range tables {
				r, err := c.e.TableNamed(n)
				if err != nil {
					return fmt.Errorf("show stat tables %s: %w", n, err)
				}
				rels = append(rels, r)
			}
		}
		for _, r := range rels {
			io := c.e.StatIOTable(r)
			row := TableStats{Relname: r.Name, HeapBlksHit: io.HeapHit, HeapBlksRead: io.HeapRead,
				IdxBlksHit: io.IdxHit, IdxBlksRead: io.IdxRead, NTupIns: r.Inserted}
			av := c.e.Autovacuum().Counts(r.ID)
			row.NInsSinceVacuum, row.NModSinceAnalyze = av.InsSinceVacuum, av.ModSinceAnalyze
			row.LastVacuum, row.LastAutovacuum, row.LastAnalyze, row.LastAutoanalyze = av.LastVacuum, av.LastAutovacuum, av.LastAnalyze, av.LastAutoanalyze
			row.VacuumCount, row.AutovacuumCount, row.AnalyzeCount, row.AutoanalyzeCount = av.VacuumCount, av.AutovacuumCount, av.AnalyzeCount, av.AutoanalyzeCount
			if c.bench != nil {
				for _, t := range c.bench.Tables() {
					if t.Rel == r {
						st := c.bench.Stat(t)
						row.NTupUpd, row.NTupHotUpd = st.Upd, st.HotUpd
					}
				}
			}
			out = append(out, row)
		}
		return nil
	})
	return out, err
}

// DatabaseStats is pg_stat_database's block counts: every relation's, the catalogs' included.
type DatabaseStats struct{ BlksHit, BlksRead int64 }

// StatDatabase is pg_stat_database's blks_hit and blks_read since the cluster started.
func (c *Cluster) StatDatabase() (DatabaseStats, error) {
	var d DatabaseStats
	err := c.e.Command("show", 0, false, func() error {
		if err := c.e.QuerySession(catalog.StatDatabase); err != nil {
			return err
		}
		d.BlksHit, d.BlksRead = c.e.StatIODatabase()
		return nil
	})
	return d, err
}
