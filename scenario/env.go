package scenario

import (
	"fmt"
	"strings"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/cluster"
)

// Env runs scenario commands against a cluster. Each command prints text (and
// a JSON value for --format=json); bad input returns an error naming the
// offending word and what would be accepted.
type Env struct {
	C    *cluster.Cluster
	Seed uint64
	// CheckInvariants runs the pool's invariant checks after every command (tests turn it on).
	CheckInvariants bool
	// Dir is the directory relative file names (replay's traces) are read
	// from: the scenario file's; empty means the working directory.
	Dir string
	// Record keeps the samples and frames that `pgbufsim plot` and `animate` draw (see Recording).
	Record bool
	// MarksReadIO is the clusters' cluster.Cluster.MarksReadIO (verify sets
	// it for a scenario that shows io, whose marks read pg_stat_io).
	MarksReadIO bool
	// FreshCatalogs makes each cluster's catalogs those of verify's setup
	// (cluster.Cluster.FreshCatalogs).
	FreshCatalogs bool

	teach teaching // trace, plot and the recording (teach.go, record.go)

	// line is the 1-based line of the command ExecStep runs (0: Exec
	// called directly); beginLine is the line of the open begin.
	line, beginLine int
}

// ExecStep runs one step of a file (Exec, remembering the step's line for
// errors that name an earlier line: an open begin, a mark's first use).
func (e *Env) ExecStep(st Step) (Output, error) {
	e.line = st.Line
	defer func() { e.line = 0 }()
	return e.Exec(st.Cmd, st.Args)
}

// Finish is the end of the scenario file: a transaction block still open
// is an error at its begin's line (PostgreSQL would roll it back when the
// session ends; a scenario says what it means).
func (e *Env) Finish(file string) error {
	if e.C != nil && e.C.InTransaction() {
		return &Error{File: file, Line: e.beginLine, Err: errorf("begin: the transaction block it opens is never committed (add commit after its last command)")}
	}
	return nil
}

// beginAt names the open begin's line (" at line N"), when known.
func (e *Env) beginAt() string {
	if e.beginLine == 0 {
		return ""
	}
	return fmt.Sprintf(" at line %d", e.beginLine)
}

// Output is one command's result: the text a scenario file shows, the JSON
// value of --format=json, and the engine's typed value both were made from.
type Output struct {
	Text string
	JSON any
	// Result is the engine's typed result, for Go callers that read figures
	// (the JSON's field names are the scenario language's contract for
	// tools, not a Go API):
	//
	//   - insert, copy, scan, vacuum, analyze, checkpoint, evict, index,
	//     index_scan: *cluster.StmtResult (scan repeat=N: the last run's,
	//     the one the JSON shows)
	//   - show buffercache: *cluster.Buffercache; show io: []cluster.IORow
	//     (only the rows shown: context=C filters them); show wal:
	//     cluster.WALReport; show settings: cluster.SettingsReport; show
	//     visibility: cluster.VisibilityReport; show replication:
	//     cluster.ReplicationReport; show corruption:
	//     cluster.CorruptionReport; show pool: cluster.PoolMap
	//   - pgbench init: *cluster.PgbenchInitResult; pgbench run:
	//     *cluster.PgbenchResult; show stat tables: []cluster.TableStats;
	//     show stat database: cluster.DatabaseStats
	//   - table: cluster.TableInfo; truncate: cluster.TruncateResult; drop
	//     caches: cluster.DropCachesResult; replay: *replay.Result;
	//     crash: cluster.CrashReport; recover: *cluster.RecoveryReport
	//   - cluster, set: Notices (the settings accepted but not simulated)
	//   - the others (begin, commit, restart, mark, sleep, trace, plot,
	//     crash after=writes:N): nil
	Result any
	// PowerFailure is the crash an armed `crash after=writes:N` fired
	// during this command (nil when none did): the command ran to its end,
	// but nothing it did after that moment survives.
	PowerFailure *cluster.CrashReport
}

// Notices is the typed result of cluster and set: what the server said
// about settings it accepts but does not simulate (none: the command
// printed "ok").
type Notices []string

// Stmt returns the statement result of insert, copy, scan, vacuum, analyze,
// checkpoint, evict, index and index_scan (nil, false for other commands).
func (o Output) Stmt() (*cluster.StmtResult, bool) {
	r, ok := o.Result.(*cluster.StmtResult)
	return r, ok && r != nil
}

// Command describes one scenario command; the table drives dispatch and `pgbufsim help`.
type Command struct {
	Name    string
	Usage   string
	Help    string
	handler func(e *Env, args []datadriven.CmdArg) (Output, error)
}

// Commands is the scenario language's command table.
var Commands []Command

func init() {
	Commands = []Command{
		// Example: cluster version=18 shared_buffers=128MB data_checksums=on
		{"cluster", "cluster version=N [GUC=value ...]", "initdb and start a new cluster (defaults are the version's own)", (*Env).cmdCluster},
		// Example: set effective_io_concurrency=32
		{"set", "set GUC=value ...", "change a run-time setting (restart-only settings are refused)", (*Env).cmdSet},
		// Example: restart
		{"restart", "restart", "shutdown checkpoint, shared buffers emptied, free list refilled (15–18)", (*Env).cmdRestart},
		// Example: table big rows=131072 tuple_bytes=1832 autovacuum=off
		{"table", "table NAME (rows=N | pages=N) [tuple_bytes=B | columns=(int4, text:1800, ...) | tuples_per_page=K] [fillfactor=F] [content=x|md5] [autovacuum=on|off]", "CREATE TABLE with a row shape; rows/pages is what insert loads", (*Env).cmdTable},
		// Example: insert big
		{"insert", "insert TABLE [rows=N]", "INSERT INTO TABLE SELECT … (the table's declared rows by default)", (*Env).cmdInsert},
		// Example: copy big freeze
		{"copy", "copy TABLE [freeze] [rows=N]", "COPY TABLE FROM STDIN [(FREEZE)] (the table's declared rows by default)", (*Env).cmdCopy},
		// Example: begin
		{"begin", "begin", "BEGIN: the following commands run in one transaction (COPY FREEZE needs the table created or truncated in it)", (*Env).cmdBegin},
		// Example: commit
		{"commit", "commit", "COMMIT", (*Env).cmdCommit},
		// Example: truncate big
		{"truncate", "truncate TABLE", "TRUNCATE: the table's buffers are invalidated onto the free list (InvalidateBuffer)", (*Env).cmdTruncate},
		// Example: checkpoint
		{"checkpoint", "checkpoint", "CHECKPOINT", (*Env).cmdCheckpoint},
		// Example: evict all
		{"evict", "evict all | evict TABLE", "pg_buffercache_evict_all() / pg_buffercache_evict_relation()", (*Env).cmdEvict},
		// Example: scan big repeat=6
		{"scan", "scan TABLE [repeat=N]", "SELECT count(*) FROM TABLE: a serial or parallel Seq Scan, or an Index Only Scan of a btree when the planner finds it cheaper", (*Env).cmdScan},
		// Example: vacuum big
		{"vacuum", "vacuum TABLE [freeze]", "VACUUM [FREEZE] TABLE", (*Env).cmdVacuum},
		// Example: index big_id on=big key=id
		{"index", "index NAME on=TABLE [key=id] [unique=on] | index NAME on=TABLE key=COL distinct=N [correlation=C] [unique=on] | index NAME on=TABLE key=COL values=hashint4 [unique=on]", "CREATE INDEX NAME ON TABLE (id): a btree built from the loaded table; another key column declares its distinct values (pg_stats.n_distinct) and its correlation from -1 to 1 (pg_stats.correlation), or values=hashint4: each row's key is hashint4(id), random keys the index keeps as rows are inserted (leaf splits)", (*Env).cmdIndex},
		// Example: index_scan big_id from=1 to=40000
		{"index_scan", "index_scan INDEX (key=K | from=A to=B) [order=index|sorted] [rows=N] [pages=N]", "an Index Scan of the rows with key K, or A to B (order=sorted: a Bitmap Heap Scan, each heap page once in block order); rows= and pages= declare how many rows and heap pages a key other than id matches", (*Env).cmdIndexScan},
		// Example: pgbench init scale=10
		{"pgbench", "pgbench init scale=N [fillfactor=F] | pgbench run transactions=N [builtin=tpcb-like|simple-update|select-only] [seed=S] [clients=C]", "pgbench -i -s N -F F; pgbench -n -c C -j 1 -t N --random-seed=S -b NAME: the builtin scripts statement by statement, the keys drawn as pgbench draws them", (*Env).cmdPgbench},
		// Example: analyze big
		{"analyze", "analyze TABLE", "ANALYZE TABLE: a block sample of 300 × default_statistics_target", (*Env).cmdAnalyze},
		// Example: drop caches
		{"drop", "drop caches", "echo 3 > /proc/sys/vm/drop_caches: the OS page cache loses every clean page", (*Env).cmdDropCaches},
		// Example: replay zipf.oracleGeneral format=oraclegeneral relation=trace
		{"replay", "replay FILE format=oraclegeneral|csv [relation=NAME]", "replay a block-access trace (libCacheSim oracleGeneral, or CSV lines relation,block[,op]): ReadBuffer + ReleaseBuffer per access; prints requests, hits, misses, evictions", (*Env).cmdReplay},
		// Example: sleep 1s
		{"sleep", "sleep DURATION", "let simulated time pass (background processes run)", (*Env).cmdSleep},
		// Example: mark before
		{"mark", "mark NAME", "remember the WAL position and all counters", (*Env).cmdMark},
		// Example: show buffercache big hot
		// Example: trace on events=(victim,usage)
		{"trace", "trace on [events=(free,hand,usage,victim,reuse,escape,reject,fpi,walflush,write)] [limit=N] | trace off", "print the buffer manager's steps, one line each, after each command's output", (*Env).cmdTrace},
		// Example: plot composition usage wal
		{"plot", "plot composition|usage|wal|fpi ... [title=T]", "a figure of these series over simulated time, drawn by pgbufsim plot FILE.scn -o out.svg|.png", (*Env).cmdPlot},
		// Example: crash after=writes:100
		{"crash", "crash [after=writes:N]", "power loss now, or as the N-th data page written to the device starts its write: unflushed WAL, shared buffers and the OS page cache lost, writes in flight torn", (*Env).cmdCrash},
		// Example: recover
		{"recover", "recover", "crash recovery: redo from the last checkpoint's redo pointer, torn pages restored from full-page images where the WAL has one", (*Env).cmdRecover},
		// Example: show buffercache big hot
		{"show", "show buffercache [TABLE ...] | show pool | show io [context=C] [since=MARK] | show wal [since=MARK] | show stat bgwriter [since=MARK] | show stat tables [TABLE ...] | show stat database | show settings | show visibility TABLE | show replication since=MARK | show corruption", "pg_buffercache, a map of every buffer (relation, usage, dirty, clock hand, ring), pg_stat_io, WAL, pg_stat_bgwriter (and pg_stat_checkpointer on 17+), pg_statio_user_tables with pg_stat_user_tables n_tup_*, pg_stat_database blks_*, settings, pg_visibility_map_summary, where the WAL goes (replicas, archive, logical decoding, incremental backup)", (*Env).cmdShow},
	}
}

// Exec runs one parsed command line.
func (e *Env) Exec(cmd string, args []datadriven.CmdArg) (out Output, err error) {
	for i := range Commands {
		if Commands[i].Name == cmd {
			if cmd != "cluster" && e.C == nil {
				return Output{}, fmt.Errorf("%s: no cluster yet (start with: cluster version=18 ...)", cmd)
			}
			args, notices, err := identifiers(cmd, args)
			if err != nil {
				return Output{}, err
			}
			if err := e.crashGate(cmd, args); err != nil {
				return Output{}, err
			}
			e.beforeCommand(cmd, args)
			out, err = Commands[i].handler(e, args)
			if len(notices) > 0 && err == nil {
				out.Text = strings.Join(notices, "\n") + "\n" + out.Text
			}
			e.serverLog(&out)
			e.powerFailure(&out)
			e.afterCommand(cmd, args, &out, err)
			if err == nil && e.CheckInvariants && e.C != nil {
				if ierr := e.C.CheckInvariants(); ierr != nil {
					return out, fmt.Errorf("after %s: %w", cmd, ierr)
				}
			}
			return out, err
		}
	}
	var names []string
	for _, c := range Commands {
		names = append(names, c.Name)
	}
	return Output{}, fmt.Errorf("unknown command %q (commands: %s)", cmd, strings.Join(names, ", "))
}

// argVal returns key=value's single value.
func argVal(a datadriven.CmdArg) (string, error) {
	if len(a.Vals) != 1 {
		return "", fmt.Errorf("%s: expected one value (%s=...)", a.Key, a.Key)
	}
	return a.Vals[0], nil
}

func positional(a datadriven.CmdArg) bool { return len(a.Vals) == 0 }
