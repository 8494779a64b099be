package sim

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
)

// Env runs scenario commands against a cluster. Each command prints text (and
// a JSON value for --format=json); bad input returns an error naming the
// offending word and what would be accepted.
type Env struct {
	C    *Cluster
	Seed uint64
	// CheckInvariants runs the pool's invariant checks after every command (tests turn it on).
	CheckInvariants bool
	// Dir is the directory relative file names (replay's traces) are read
	// from: the scenario file's; empty means the working directory.
	Dir string
	// Record keeps the samples and frames that `pgbufsim plot` and `animate` draw (see Recording).
	Record bool

	teach teaching // trace, plot and the recording (teach.go, record.go)
}

// Output is one command's result.
type Output struct {
	Text string
	JSON any
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
		{"index", "index NAME on=TABLE [key=id]", "CREATE INDEX NAME ON TABLE (id): a btree built from the loaded table", (*Env).cmdIndex},
		// Example: index_scan big_id from=1 to=40000
		{"index_scan", "index_scan INDEX key=K | from=A to=B", "an Index Scan of the rows with id K, or A to B", (*Env).cmdIndexScan},
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
		{"show", "show buffercache [TABLE ...] | show pool | show io [context=C] [since=MARK] | show wal [since=MARK] | show settings | show visibility TABLE | show replication since=MARK | show corruption", "pg_buffercache, a map of every buffer (relation, usage, dirty, clock hand, ring), pg_stat_io, WAL, settings, pg_visibility_map_summary, where the WAL goes (replicas, archive, logical decoding, incremental backup)", (*Env).cmdShow},
	}
}

// Exec runs one parsed command line.
func (e *Env) Exec(cmd string, args []datadriven.CmdArg) (out Output, err error) {
	for i := range Commands {
		if Commands[i].Name == cmd {
			if cmd != "cluster" && e.C == nil {
				return Output{}, fmt.Errorf("%s: no cluster yet (start with: cluster version=18 ...)", cmd)
			}
			if kind, ok := sessionKind(cmd, args); ok {
				if err := e.C.session(kind); err != nil {
					return Output{}, err
				}
			}
			if err := e.crashGate(cmd, args); err != nil {
				return Output{}, err
			}
			e.beforeCommand(cmd)
			out, err = Commands[i].handler(e, args)
			e.crashAfterCommand(&out)
			e.afterCommand(cmd, args, &out, err)
			if err == nil && e.C != nil && e.C.wal.Err() != nil {
				return out, fmt.Errorf("%s: %w", cmd, e.C.wal.Err())
			}
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

// sessionKind says which commands are a client session of their own whose
// catalog pins are not part of a statement the engine runs (scan, insert,
// vacuum and show buffercache pin theirs as they start).
func sessionKind(cmd string, args []datadriven.CmdArg) (catalogKind, bool) {
	switch cmd {
	case "checkpoint":
		return catalogCheckpoint, true
	case "table":
		return catalogTable, true
	case "set", "truncate", "evict", "mark", "sleep":
		return catalogSession, true
	case "show":
		if len(args) > 0 && (args[0].Key == "wal" || args[0].Key == "io" || args[0].Key == "visibility") {
			return catalogSession, true
		}
	}
	return 0, false
}

// argVal returns key=value's single value.
func argVal(a datadriven.CmdArg) (string, error) {
	if len(a.Vals) != 1 {
		return "", fmt.Errorf("%s: expected one value (%s=...)", a.Key, a.Key)
	}
	return a.Vals[0], nil
}

func positional(a datadriven.CmdArg) bool { return len(a.Vals) == 0 }

func (e *Env) cmdCluster(args []datadriven.CmdArg) (Output, error) {
	v := pg.DefaultVersion
	for _, a := range args {
		if a.Key == "version" {
			s, err := argVal(a)
			if err != nil {
				return Output{}, err
			}
			n, err := strconv.Atoi(s)
			if err != nil || n < int(pg.MinVersion) || n > int(pg.MaxVersion) {
				return Output{}, &pg.SettingError{Name: "version", Value: s, Allowed: fmt.Sprintf("supported versions are %d to %d", pg.MinVersion, pg.MaxVersion)}
			}
			v = pg.Version(n)
		}
	}
	s, err := DefaultSettings(v)
	if err != nil {
		return Output{}, err
	}
	var notices []string
	for _, a := range args {
		if a.Key == "version" {
			continue
		}
		if positional(a) {
			return Output{}, fmt.Errorf("%s: expected GUC=value", a.Key)
		}
		val, err := argVal(a)
		if err != nil {
			return Output{}, err
		}
		n, err := s.Set(a.Key, val)
		if err != nil {
			return Output{}, err
		}
		if n != "" {
			notices = append(notices, n)
		}
	}
	c, err := NewCluster(s, e.Seed)
	if err != nil {
		return Output{}, err
	}
	e.C = c
	text := "ok"
	if len(notices) > 0 {
		text = strings.Join(notices, "\n")
	}
	return Output{Text: text, JSON: map[string]any{"notices": notices}}, nil
}

func (e *Env) cmdSet(args []datadriven.CmdArg) (Output, error) {
	if len(args) == 0 {
		return Output{}, fmt.Errorf("set: expected GUC=value")
	}
	next := e.C.S.clone()
	var notices []string
	for _, a := range args {
		val, err := argVal(a)
		if err != nil {
			return Output{}, err
		}
		g := lookupGUC(a.Key)
		if g != nil && g.restart && g.in(next.Version) {
			if g.machine {
				return Output{}, &pg.SettingError{Name: a.Key, Value: val, Allowed: "describes the machine; give it on the cluster command"}
			}
			if g.initdb {
				return Output{}, &pg.SettingError{Name: a.Key, Value: val, Allowed: "is chosen at initdb; start a new cluster with cluster ... " + a.Key + "=" + val}
			}
			return Output{}, &pg.SettingError{Name: a.Key, Value: val, Allowed: "cannot be changed without restarting the server (set it on the cluster command)"}
		}
		n, err := next.Set(a.Key, val)
		if err != nil {
			return Output{}, err
		}
		if n != "" {
			notices = append(notices, n)
		}
	}
	e.C.S = next
	e.C.pool.TrackIOTiming = next.Bool("track_io_timing")
	if err := e.C.applyWALCompression(); err != nil {
		return Output{}, err
	}
	text := "ok"
	if len(notices) > 0 {
		text = strings.Join(notices, "\n")
	}
	return Output{Text: text, JSON: map[string]any{"notices": notices}}, nil
}

func (e *Env) cmdRestart(args []datadriven.CmdArg) (Output, error) {
	if len(args) > 0 {
		return Output{}, fmt.Errorf("restart: takes no arguments")
	}
	c := e.C
	if c.txn.active {
		return Output{}, fmt.Errorf("restart: a transaction block is open (commit first)")
	}
	// Shutdown checkpoint: every dirty buffer written, the XLOG_CHECKPOINT_SHUTDOWN
	// record flushed (no REDO record, no standby snapshot); then an empty pool.
	be := bufmgr.NewBackend(bufmgr.Checkpointer, c.now)
	c.pool.BufferSync(be, true)
	be.Now = c.storage.SyncAll(be.Now)
	be.Now = c.wal.ShutdownCheckpoint(be.Now, &be.WAL)
	c.checkpointDone(c.wal.RedoRecPtr(), c.pool.RelSizes())
	c.finish([]*participant{{be: be}})
	c.foldWAL(be)
	c.pool.Reset()
	c.sync = syncScanTable{}
	c.initFileStale = true
	return Output{Text: "ok", JSON: map[string]any{}}, nil
}

func (e *Env) cmdDropCaches(args []datadriven.CmdArg) (Output, error) {
	if len(args) != 1 || !positional(args[0]) || args[0].Key != "caches" {
		return Output{}, fmt.Errorf("drop: expected: drop caches")
	}
	n := e.C.storage.DropCaches(e.C.now)
	in, act := e.C.storage.Cached()
	return Output{Text: fmt.Sprintf("ok: %d pages dropped from the OS page cache; %d dirty pages stay", n, in+act),
		JSON: map[string]any{"dropped": n, "cached": in + act}}, nil
}

func (e *Env) cmdSleep(args []datadriven.CmdArg) (Output, error) {
	if len(args) != 1 || !positional(args[0]) {
		return Output{}, fmt.Errorf("sleep: expected one duration, e.g. sleep 200ms")
	}
	ns, err := pg.ParseDuration(args[0].Key, 1e9)
	if err != nil || ns < 0 {
		return Output{}, fmt.Errorf("sleep %s: %v", args[0].Key, err)
	}
	e.C.advanceTo(e.C.now + ns)
	return Output{Text: "ok", JSON: map[string]any{}}, nil
}

func (e *Env) table(name string) (*heap.Relation, error) {
	r, ok := e.C.byName[name]
	if !ok {
		return nil, fmt.Errorf("relation %q does not exist", name)
	}
	return r, nil
}

func (e *Env) cmdTable(args []datadriven.CmdArg) (Output, error) {
	if len(args) == 0 || !positional(args[0]) {
		return Output{}, fmt.Errorf("table: expected a name: table NAME rows=N ...")
	}
	name := args[0].Key
	if _, ok := e.C.byName[name]; ok {
		return Output{}, fmt.Errorf("table %s: relation %q already exists", name, name)
	}
	shape := heap.Shape{TupleLen: 28, Fillfactor: 100, PlannerWidth: 4}
	var rows, pages int64 = -1, -1
	tpp := 0
	autovac := true
	haveShape := false
	haveColumns, hasVarlena := false, false
	content := "x"
	var columns []string
	for _, a := range args[1:] {
		if positional(a) {
			return Output{}, fmt.Errorf("table %s: unexpected %q (expected key=value)", name, a.Key)
		}
		if a.Key == "columns" {
			haveColumns = true
			for _, col := range a.Vals {
				typ, _, _ := strings.Cut(strings.TrimSpace(col), ":")
				if typ == "text" || typ == "varchar" || typ == "bytea" {
					hasVarlena = true
				}
			}
			w, pw, err := columnsWidth(a.Vals)
			if err != nil {
				return Output{}, fmt.Errorf("table %s: columns: %w", name, err)
			}
			shape.TupleLen, shape.PlannerWidth, haveShape = w, pw, true
			columns = a.Vals
			continue
		}
		val, err := argVal(a)
		if err != nil {
			return Output{}, err
		}
		num := func(lo int64, allowed string) (int64, error) {
			n, err := strconv.ParseInt(val, 10, 64)
			if err != nil || n < lo {
				return 0, &pg.SettingError{Name: a.Key, Value: val, Allowed: allowed}
			}
			return n, nil
		}
		switch a.Key {
		case "rows":
			if rows, err = num(1, "must be a whole number of rows, at least 1"); err != nil {
				return Output{}, err
			}
		case "pages":
			if pages, err = num(1, "a table of 0 pages cannot be loaded; pages must be at least 1"); err != nil {
				return Output{}, err
			}
		case "tuple_bytes":
			n, err := num(24, "must be between 24 and 8164 bytes (a heap tuple with its 23-byte header)")
			if err != nil {
				return Output{}, err
			}
			// (id int4, pad text): the planner sees int4 (4) + text (32).
			shape.TupleLen, shape.PlannerWidth, haveShape = int(n), 36, true
		case "tuples_per_page":
			n, err := num(1, "must be between 1 and 291 (MaxHeapTuplesPerPage)")
			if err != nil || n > heap.MaxHeapTuplesPerPage {
				return Output{}, &pg.SettingError{Name: a.Key, Value: val, Allowed: "must be between 1 and 291 (MaxHeapTuplesPerPage)"}
			}
			tpp = int(n)
		case "fillfactor":
			n, err := num(10, "must be between 10 and 100")
			if err != nil || n > 100 {
				return Output{}, &pg.SettingError{Name: a.Key, Value: val, Allowed: "must be between 10 and 100"}
			}
			shape.Fillfactor = int(n)
		case "content":
			if val != "x" && val != "md5" {
				return Output{}, &pg.SettingError{Name: a.Key, Value: val, Allowed: "x (the pad repeats 'x') or md5 (rpad(md5(id), n, md5(id+7)))"}
			}
			content = val
		case "autovacuum":
			switch val {
			case "on", "true":
				autovac = true
			case "off", "false":
				autovac = false
			default:
				return Output{}, &pg.SettingError{Name: a.Key, Value: val, Allowed: "must be on or off"}
			}
		default:
			return Output{}, fmt.Errorf("table %s: unknown option %q (rows, pages, tuple_bytes, columns, tuples_per_page, fillfactor, content, autovacuum)", name, a.Key)
		}
	}
	if tpp > 0 {
		if haveShape {
			return Output{}, fmt.Errorf("table %s: give tuples_per_page or a row shape (tuple_bytes, columns), not both", name)
		}
		// The widest MAXALIGNed tuple of which tpp fit on a page (at the fillfactor).
		shape.TupleLen = ((pg.BLCKSZ-heap.SizeOfPageHeaderData)/tpp - heap.SizeOfItemID) &^ 7
		shape.PlannerWidth = 36
		for shape.TupleLen > heap.SizeofHeapTupleHdr+1 && shape.TuplesPerPage() < tpp {
			shape.TupleLen -= 8
		}
		if got := shape.TuplesPerPage(); got != tpp {
			return Output{}, &pg.SettingError{Name: "tuples_per_page", Value: strconv.Itoa(tpp),
				Allowed: fmt.Sprintf("no MAXALIGNed tuple length gives exactly %d a page at fillfactor %d (%d-byte tuples give %d); give tuple_bytes and a fillfactor", tpp, shape.Fillfactor, shape.TupleLen, got)}
		}
	}
	if err := shape.Validate(); err != nil {
		return Output{}, err
	}
	if rows < 0 && pages < 0 {
		return Output{}, fmt.Errorf("table %s: give its size as rows=N or pages=N", name)
	}
	if rows >= 0 && pages >= 0 {
		return Output{}, fmt.Errorf("table %s: give rows=N or pages=N, not both", name)
	}
	if rows < 0 {
		rows = pages * int64(shape.TuplesPerPage())
	}
	if err := relSizeLimit(rows, shape.TuplesPerPage()); err != nil {
		return Output{}, fmt.Errorf("table %s: %w", name, err)
	}
	c := e.C
	id := pg.RelID(len(c.rels))
	r := heap.NewRelation(id, name, shape)
	r.Autovacuum = autovac
	r.Declared = rows
	// (id int4, pad text) shapes have a varlena column unless the row is the bare int; columns= say so themselves.
	r.HasToast = hasVarlena || (!haveColumns && shape.TupleLen > 28)
	r.Columns = columns
	r.Content = content
	c.rels = append(c.rels, r)
	c.byName[name] = r
	if c.txn.active {
		c.txn.created[id] = true
	}
	c.pool.CreateRel(id, 0, true)
	text := fmt.Sprintf("ok: %d bytes a tuple, %d tuples a page, hole %d bytes", shape.TupleLen, shape.TuplesPerPage(), shape.Hole(shape.TuplesPerPage()))
	return Output{Text: text, JSON: map[string]any{"tuple_bytes": shape.TupleLen, "tuples_per_page": shape.TuplesPerPage()}}, nil
}

// Relation size limits. PostgreSQL's: block numbers end at MaxBlockNumber
// (0xFFFFFFFE), so a relation has at most 2^32 − 1 blocks (32TB). The
// simulator's: 134,217,728 pages (1TB) a relation, whose per-page state
// (the buffer mapping entry, the page LSN, hint/visibility flags and free
// space: 16 bytes a page) then takes ~2.1GB.
const (
	pgMaxRelBlocks  = 1<<32 - 1
	simMaxRelBlocks = 1 << 27
)

// relSizeLimit refuses a table that would outgrow either limit.
func relSizeLimit(rows int64, tuplesPerPage int) error {
	pages := (rows + int64(tuplesPerPage) - 1) / int64(tuplesPerPage)
	switch {
	case rows < 0 || pages > pgMaxRelBlocks:
		return fmt.Errorf("%d rows need more than PostgreSQL's %d blocks a relation (32TB: block numbers end at 0xFFFFFFFE)", rows, int64(pgMaxRelBlocks))
	case pages > simMaxRelBlocks:
		return fmt.Errorf("%d pages: beyond the simulator's limit of %d pages a relation (1TB; 16 bytes of state a page)", pages, simMaxRelBlocks)
	}
	return nil
}

// columnsWidth computes a row's heap tuple length with PostgreSQL's
// alignment (heap_compute_data_size): int2/int4/int8/float8/bool/date/
// timestamp/uuid fixed-width at their alignment; text:N a varlena of N bytes
// (1-byte header when it fits in 126 bytes, else 4-byte header, int-aligned).
// The planner's width counts 32 for a text column.
func columnsWidth(cols []string) (tlen, plannerWidth int, err error) {
	off := 0
	align := func(a int) { off = (off + a - 1) &^ (a - 1) }
	for _, col := range cols {
		typ, nstr, hasN := strings.Cut(strings.TrimSpace(col), ":")
		switch typ {
		case "int2":
			align(2)
			off += 2
			plannerWidth += 2
		case "int4", "int", "integer", "date":
			align(4)
			off += 4
			plannerWidth += 4
		case "int8", "bigint", "float8", "timestamp", "timestamptz":
			align(8)
			off += 8
			plannerWidth += 8
		case "bool", "boolean":
			off++
			plannerWidth++
		case "uuid":
			off += 16
			plannerWidth += 16
		case "text", "varchar", "bytea":
			if !hasN {
				return 0, 0, fmt.Errorf("%s needs a length, e.g. %s:1800", typ, typ)
			}
			n, e := strconv.Atoi(nstr)
			if e != nil || n < 0 || n > 8000 {
				return 0, 0, fmt.Errorf("%s: length must be 0..8000", col)
			}
			if n+1 <= 127 {
				off += 1 + n
			} else {
				align(4)
				off += 4 + n
			}
			plannerWidth += 32
		default:
			return 0, 0, fmt.Errorf("unknown column type %q (int2, int4, int8, float8, bool, date, timestamp, uuid, text:N, varchar:N, bytea:N)", typ)
		}
	}
	return pg.MaxAlign(heap.SizeofHeapTupleHdr) + off, plannerWidth, nil
}
