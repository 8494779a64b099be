package cluster

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/catalog"
	"github.com/pgbufsim/pgbufsim/guc"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/internal/engine"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
)

// # Statements
//
// Every method below is one client command as a scenario runs it: a new
// session (its catalog pins, see catalog.go), the client's pause before a
// statement (costs.InterCommandNs), the statement, and what a crash armed
// with CrashAfterWrites leaves of it. A method that fails leaves the cluster
// usable, as a failed statement leaves a server.

// Set changes run-time settings, all or none (SET; restart-only settings
// are refused). It returns the notices for settings accepted but not
// simulated.
func (c *Cluster) Set(settings ...Setting) (notices []string, err error) {
	err = c.e.Command("set", catalog.Set, true, func() error {
		if len(settings) == 0 {
			return fmt.Errorf("set: expected GUC=value")
		}
		next := c.S.Clone()
		seen := map[string]string{}
		for _, st := range settings {
			if first, dup := seen[st.Name]; dup {
				return givenTwice(st, first)
			}
			seen[st.Name] = st.Value
			g := guc.Lookup(st.Name)
			if g != nil && g.Restart() && g.In(next.Version) {
				if g.IsMachine() {
					return &pg.SettingError{Name: st.Name, Value: st.Value, Allowed: "describes the machine; give it on the cluster command"}
				}
				if g.InitDB() {
					return &pg.SettingError{Name: st.Name, Value: st.Value, Allowed: "is chosen at initdb; start a new cluster with cluster ... " + st.Name + "=" + st.Value}
				}
				return &pg.SettingError{Name: st.Name, Value: st.Value, Allowed: "cannot be changed without restarting the server (set it on the cluster command)"}
			}
			n, err := next.Set(st.Name, st.Value)
			if err != nil {
				return err
			}
			if n != "" {
				notices = append(notices, n)
			}
		}
		c.S = next
		return c.e.SetSettings(next)
	})
	return notices, err
}

// Restart is a fast shutdown and start: the shutdown checkpoint writes every
// dirty buffer and logs XLOG_CHECKPOINT_SHUTDOWN (no REDO record, no standby
// snapshot); the pool comes back empty, on the free list in 15 to 18.
func (c *Cluster) Restart() error {
	return c.e.Command("restart", 0, false, func() error {
		if !c.e.InTransaction() {
			c.e.Autovacuum().Shutdown() // the shutdown ends the autovacuum workers first
		}
		return c.e.Restart()
	})
}

// DropCachesResult is what `echo 3 > /proc/sys/vm/drop_caches` did.
type DropCachesResult struct {
	Dropped int // clean pages the OS page cache lost
	Cached  int // dirty pages that stay until written back
}

// DropCaches empties the OS page cache of its clean pages.
func (c *Cluster) DropCaches() (DropCachesResult, error) {
	var r DropCachesResult
	err := c.e.Command("drop", 0, false, func() error {
		r.Dropped = c.e.Storage().DropCaches(c.e.Now())
		in, act := c.e.Storage().Cached()
		r.Cached = in + act
		return nil
	})
	return r, err
}

// Sleep lets d of simulated time pass; background processes run.
func (c *Cluster) Sleep(d time.Duration) error {
	return c.e.Command("sleep", engine.SessionPlain, true, func() error {
		if d < 0 {
			return fmt.Errorf("a duration cannot be negative")
		}
		if now := c.e.Now(); int64(d) > math.MaxInt64-now {
			// The clock counts nanoseconds in an int64: it would wrap.
			return fmt.Errorf("the simulated clock would pass its end (292 years after the cluster started): %s of simulated time has passed, so a sleep may last at most %s", fmtClock(now), fmtClock(math.MaxInt64-now))
		}
		c.e.AdvanceTo(c.e.Now() + int64(d))
		return nil
	})
}

// Insert is INSERT INTO table SELECT … of rows rows (0: the table's declared
// rows), one heap_insert each.
func (c *Cluster) Insert(table string, rows int64) (*StmtResult, error) {
	r, n, err := c.loadTarget("insert", table, rows)
	if err != nil {
		return nil, c.e.Failed(err)
	}
	return stmt(c.e.Statement("insert", func() (*engine.StmtResult, error) { return c.e.InsertSelect(r, n) }))
}

// Copy is COPY table FROM STDIN [(FREEZE)] of rows rows (0: the table's
// declared rows). FREEZE needs the table created or truncated in the open
// transaction block.
func (c *Cluster) Copy(table string, rows int64, freeze bool) (*StmtResult, error) {
	r, n, err := c.loadTarget("copy", table, rows)
	if err != nil {
		return nil, c.e.Failed(err)
	}
	return stmt(c.e.Statement("copy", func() (*engine.StmtResult, error) { return c.e.CopyFrom(r, n, freeze) }))
}

// loadTarget checks a load's table and row count.
func (c *Cluster) loadTarget(cmd, table string, rows int64) (*heap.Relation, int64, error) {
	if c.e.Down() {
		return nil, 0, fmt.Errorf("%s: %w", cmd, ErrDown)
	}
	r, err := c.e.TableNamed(table)
	if err != nil {
		return nil, 0, fmt.Errorf("%s %s: %w", cmd, table, err)
	}
	if err := c.pgbenchOwns(cmd, r.Name); err != nil {
		return nil, 0, err
	}
	if err := c.e.KeyIndexesMaintainable(r); err != nil {
		return nil, 0, fmt.Errorf("%s %s: %w", cmd, r.Name, err)
	}
	n := rows
	if n == 0 {
		n = r.Declared
	}
	if n < 1 {
		return nil, 0, fmt.Errorf("%s %s: rows=%d: must be a whole number of rows, at least 1", cmd, r.Name, rows)
	}
	if err := relSizeLimit(r.Rows+n, r.Shape.TuplesPerPage()); err != nil {
		return nil, 0, fmt.Errorf("%s %s: %w", cmd, r.Name, err)
	}
	return r, n, nil
}

// Analyze is ANALYZE table: a block sample of 300 × default_statistics_target.
func (c *Cluster) Analyze(table string) (*StmtResult, error) {
	r, err := c.e.TableFor("analyze", table)
	if err != nil {
		return nil, err
	}
	return stmt(c.e.Statement("analyze", func() (*engine.StmtResult, error) {
		c.e.Autovacuum().Cancel(r.ID) // its lock waits for a worker on the table, which is cancelled
		return c.e.AnalyzeTable(r)
	}))
}

// Begin is BEGIN: the following statements run in one transaction.
func (c *Cluster) Begin() error {
	return c.e.Command("begin", 0, false, c.e.BeginBlock)
}

// Commit is COMMIT (a commit record if the transaction wrote).
func (c *Cluster) Commit() error {
	return c.e.Command("commit", 0, false, c.e.CommitBlock)
}

// InTransaction reports whether a transaction block is open.
func (c *Cluster) InTransaction() bool { return c.e.InTransaction() }

// Checkpoint is CHECKPOINT, from its own session.
func (c *Cluster) Checkpoint() (*StmtResult, error) {
	if err := c.e.Session(engine.SessionCheckpoint); err != nil {
		return nil, err
	}
	return stmt(c.e.Statement("checkpoint", c.e.RunCheckpoint))
}

// Evict is pg_buffercache_evict_relation(table).
func (c *Cluster) Evict(table string) (*StmtResult, error) {
	if err := c.e.Session(engine.SessionPlain); err != nil {
		return nil, err
	}
	r, err := c.e.TableFor("evict", table)
	if err != nil {
		return nil, err
	}
	return stmt(c.e.Statement("evict", func() (*engine.StmtResult, error) { return c.e.EvictRelation(r) }))
}

// EvictAll is pg_buffercache_evict_all().
func (c *Cluster) EvictAll() (*StmtResult, error) {
	if err := c.e.Session(engine.SessionPlain); err != nil {
		return nil, err
	}
	return stmt(c.e.Statement("evict", func() (*engine.StmtResult, error) { return c.e.EvictRelation(nil) }))
}

// Scan is SELECT count(*) FROM table: a serial or parallel Seq Scan, or an
// Index Only Scan of one of its btrees when the planner finds it cheaper.
func (c *Cluster) Scan(table string) (*StmtResult, error) {
	r, err := c.e.TableFor("scan", table)
	if err != nil {
		return nil, err
	}
	return stmt(c.e.Statement("scan", func() (*engine.StmtResult, error) { return c.e.SeqScan(r) }))
}

// Vacuum is VACUUM [FREEZE] table.
func (c *Cluster) Vacuum(table string, freeze bool) (*StmtResult, error) {
	r, err := c.e.TableFor("vacuum", table)
	if err != nil {
		return nil, err
	}
	if c.e.InTransaction() {
		return nil, c.e.Failed(fmt.Errorf("vacuum %s: VACUUM cannot run inside a transaction block", r.Name))
	}
	if err := c.pgbenchOwns("vacuum", r.Name); err != nil {
		return nil, c.e.Failed(err)
	}
	return stmt(c.e.Statement("vacuum", func() (*engine.StmtResult, error) {
		c.e.Autovacuum().Cancel(r.ID) // its lock waits for a worker on the table, which is cancelled
		return c.e.VacuumTable(r, freeze)
	}))
}

// Mark remembers the WAL position and every counter under name, for the
// since= of StatIO, WALSince and Replication.
func (c *Cluster) Mark(name string) error {
	return c.e.Command("mark", engine.SessionPlain, true, func() error {
		if name == "" {
			// "" is the since= of no mark (since the cluster started).
			return fmt.Errorf("mark: expected a name")
		}
		if _, dup := c.e.GetMark(name); dup {
			return fmt.Errorf("mark %s: a mark named %q already exists; give each mark its own name (since=%s would be ambiguous)", name, name, name)
		}
		c.e.SetMark(name)
		return c.readIOAfterMark()
	})
}

// readIOAfterMark is the pg_stat_io query a mark's session runs after the
// WAL position when MarksReadIO: its catalog lookups (the measured show io
// session's pins beyond a plain session's; after an INSERT flood they are
// reads, each evicting a buffer) and prunes.
func (c *Cluster) readIOAfterMark() error {
	if c.MarksReadIO {
		return c.e.TouchCatalogAlso(catalog.StatIO)
	}
	return nil
}

// MarkInfo is what a mark remembered.
type MarkInfo struct {
	LSN    pg.LSN         // the insert LSN
	IO     bufmgr.IOStats // pg_stat_io's counters
	WAL    wal.Usage      // the WAL inserted so far
	TimeNs int64          // the simulated clock
}

// Mark returns what the named mark remembered.
func (c *Cluster) MarkInfo(name string) (MarkInfo, bool) {
	m, ok := c.e.GetMark(name)
	return MarkInfo{LSN: m.LSN, IO: m.IO, WAL: m.WAL, TimeNs: m.TimeNs}, ok
}

// TruncateResult is what TRUNCATE left.
type TruncateResult struct {
	FreeList int // buffers on the free list afterwards
}

// Truncate is TRUNCATE table: its buffers are invalidated onto the free
// list (DropRelationBuffers → InvalidateBuffer; in 19 they wait for the
// clock hand).
func (c *Cluster) Truncate(table string) (TruncateResult, error) {
	var res TruncateResult
	err := c.e.Command("truncate", engine.SessionPlain, true, func() error {
		r, err := c.e.TableNamed(table)
		if err != nil {
			return fmt.Errorf("truncate %s: %w", table, err)
		}
		if err := c.pgbenchOwns("truncate", r.Name); err != nil {
			return err
		}
		c.e.Autovacuum().Cancel(r.ID) // AccessExclusiveLock: a worker on the table is cancelled
		if err := c.e.Truncate(r); err != nil {
			return err
		}
		c.e.Autovacuum().Truncated(r.ID)
		res.FreeList = c.e.Pool().Control().FreeListLen()
		return nil
	})
	return res, err
}

// TableSpec describes a CREATE TABLE: the row shape and how many rows
// Insert and Copy load by default. Zero fields take the defaults; give the
// size as Rows or Pages and the shape as at most one of TupleBytes, Columns
// and TuplesPerPage.
type TableSpec struct {
	Name string
	// Rows or Pages: the rows Insert and Copy load (Pages × the tuples a page holds).
	Rows, Pages int64
	// TupleBytes is the heap tuple's length with its 23-byte header, 24..8164:
	// the columns (id int4, pad text) with pad that long.
	TupleBytes int
	// Columns are the column types: int2, int4, int8, float8, bool, date,
	// timestamp, uuid, text:N, varchar:N, bytea:N (N bytes).
	Columns []string
	// TuplesPerPage asks for the widest MAXALIGNed (id int4, pad text) tuple of
	// which exactly that many fit a page, 1..291.
	TuplesPerPage int
	// Fillfactor is the table's fillfactor, 10..100 (0: 100).
	Fillfactor int
	// Content is what pad holds: "x" (repeat('x', n), the default) or "md5"
	// (rpad(md5(id), n, md5(id+7))), which matters under wal_compression.
	Content string
	// Autovacuum is the table's autovacuum_enabled (nil: on; not simulated).
	Autovacuum *bool
}

// Allowed ranges of TableSpec, by scenario option name.
var tableAllowed = map[string]string{
	"rows":            "must be a whole number of rows, at least 1",
	"pages":           "must be a whole number of pages, at least 1 (a table of 0 pages cannot be loaded)",
	"tuple_bytes":     "must be between 24 and 8164 bytes (a heap tuple with its 23-byte header)",
	"tuples_per_page": "must be between 1 and 291 (MaxHeapTuplesPerPage)",
	"fillfactor":      "must be between 10 and 100",
	"content":         "x (the pad repeats 'x') or md5 (rpad(md5(id), n, md5(id+7)))",
}

// TableOptionAllowed says what a CREATE TABLE option (rows, pages,
// tuple_bytes, tuples_per_page, fillfactor, content) allows, for errors
// about values that do not even parse.
func TableOptionAllowed(option string) string { return tableAllowed[option] }

// TableInfo is a table's layout and size.
type TableInfo struct {
	Name          string
	Declared      int64 // the rows Insert and Copy load by default
	Rows          int64 // the rows loaded
	Pages         int   // the heap's pages
	TupleBytes    int   // heap tuple length, header included
	TuplesPerPage int
	Hole          int // bytes free between the line pointers and the tuples of a full page
}

// shape checks a spec and works out its heap shape and rows.
func (t *TableSpec) shape() (heap.Shape, int64, error) {
	name := t.Name
	shape := heap.Shape{TupleLen: 28, Fillfactor: 100, PlannerWidth: 4}
	bad := func(key string, v any) error {
		return &pg.SettingError{Name: key, Value: fmt.Sprint(v), Allowed: tableAllowed[key]}
	}
	haveShape := false
	switch {
	case t.Rows < 0:
		return shape, 0, bad("rows", t.Rows)
	case t.Pages < 0:
		return shape, 0, bad("pages", t.Pages)
	}
	if t.Columns != nil {
		if len(t.Columns) > maxHeapAttributeNumber {
			return shape, 0, fmt.Errorf("table %s: columns: %d columns: tables can have at most %d columns (MaxHeapAttributeNumber)", name, len(t.Columns), maxHeapAttributeNumber)
		}
		w, pw, err := columnsWidth(t.Columns)
		if err != nil {
			return shape, 0, fmt.Errorf("table %s: columns: %w", name, err)
		}
		if limit := pg.BLCKSZ - heap.SizeOfPageHeaderData - heap.SizeOfItemID; pg.MaxAlign(w) > limit {
			// heap_insert's "row is too big": the row must fit on one page.
			return shape, 0, fmt.Errorf("table %s: columns: a row of these %d columns is %d bytes with its header; a heap row must fit on an 8kB page: at most %d bytes (fewer or narrower columns)", name, len(t.Columns), w, limit)
		}
		shape.TupleLen, shape.PlannerWidth, haveShape = w, pw, true
	}
	if t.TupleBytes != 0 && t.Columns != nil {
		return shape, 0, fmt.Errorf("table %s: give columns=(...) or tuple_bytes=B, not both (the columns give the row's length)", name)
	}
	if t.TupleBytes != 0 {
		if t.TupleBytes < 24 {
			return shape, 0, bad("tuple_bytes", t.TupleBytes)
		}
		// (id int4, pad text): the planner sees int4 (4) + text (32).
		shape.TupleLen, shape.PlannerWidth, haveShape = t.TupleBytes, 36, true
	}
	if t.TuplesPerPage < 0 || t.TuplesPerPage > heap.MaxHeapTuplesPerPage {
		return shape, 0, bad("tuples_per_page", t.TuplesPerPage)
	}
	if t.Fillfactor != 0 {
		if t.Fillfactor < 10 || t.Fillfactor > 100 {
			return shape, 0, bad("fillfactor", t.Fillfactor)
		}
		shape.Fillfactor = t.Fillfactor
	}
	if t.Content != "" && t.Content != "x" && t.Content != "md5" {
		return shape, 0, bad("content", t.Content)
	}
	if tpp := t.TuplesPerPage; tpp > 0 {
		if haveShape {
			return shape, 0, fmt.Errorf("table %s: give tuples_per_page or a row shape (tuple_bytes, columns), not both", name)
		}
		// The widest MAXALIGNed tuple of which tpp fit on a page (at the fillfactor).
		shape.TupleLen = pg.MaxAlignDown((pg.BLCKSZ-heap.SizeOfPageHeaderData)/tpp - heap.SizeOfItemID)
		shape.PlannerWidth = 36
		for shape.TupleLen > heap.SizeofHeapTupleHdr+1 && shape.TuplesPerPage() < tpp {
			shape.TupleLen -= 8
		}
		if got := shape.TuplesPerPage(); got != tpp {
			return shape, 0, &pg.SettingError{Name: "tuples_per_page", Value: fmt.Sprint(tpp),
				Allowed: fmt.Sprintf("no MAXALIGNed tuple length gives exactly %d a page at fillfactor %d (%d-byte tuples give %d); give tuple_bytes and a fillfactor", tpp, shape.Fillfactor, shape.TupleLen, got)}
		}
	}
	if err := shape.Validate(); err != nil {
		return shape, 0, err
	}
	if t.Rows == 0 && t.Pages == 0 {
		return shape, 0, fmt.Errorf("table %s: give its size as rows=N or pages=N", name)
	}
	if t.Rows > 0 && t.Pages > 0 {
		return shape, 0, fmt.Errorf("table %s: give rows=N or pages=N, not both", name)
	}
	rows := t.Rows
	if rows == 0 {
		rows = t.Pages * int64(shape.TuplesPerPage())
	}
	if t.Pages > pgMaxRelBlocks {
		return shape, 0, fmt.Errorf("table %s: pages=%d: beyond PostgreSQL's %d blocks a relation (32TB: block numbers end at 0xFFFFFFFE)", name, t.Pages, int64(pgMaxRelBlocks))
	}
	if t.Pages > 0 && t.Pages > simMaxRelBlocks {
		return shape, 0, fmt.Errorf("table %s: pages=%d: beyond the simulator's limit of %d pages a relation (1TB; 16 bytes of state a page)", name, t.Pages, simMaxRelBlocks)
	}
	if err := relSizeLimit(rows, shape.TuplesPerPage()); err != nil {
		return shape, 0, fmt.Errorf("table %s: %w", name, err)
	}
	return shape, rows, nil
}

// CreateTable is CREATE TABLE with the spec's row shape.
func (c *Cluster) CreateTable(t TableSpec) (TableInfo, error) {
	var info TableInfo
	err := c.e.Command("table", engine.SessionTable, true, func() error {
		name := t.Name
		if name == "" {
			return fmt.Errorf("table: expected a name: table NAME rows=N ...")
		}
		if _, ok := c.e.Relation(name); ok {
			return fmt.Errorf("table %s: relation %q already exists", name, name)
		}
		shape, rows, err := t.shape()
		if err != nil {
			return err
		}
		hasVarlena := false
		for _, col := range t.Columns {
			typ, _, _ := strings.Cut(strings.TrimSpace(col), ":")
			if typ == "text" || typ == "varchar" || typ == "bytea" {
				hasVarlena = true
			}
		}
		r := c.e.AddTable(name, shape)
		r.Autovacuum = t.Autovacuum == nil || *t.Autovacuum
		if t.Fillfactor != 0 {
			r.Reloptions = append(r.Reloptions, fmt.Sprintf("fillfactor=%d", t.Fillfactor))
		}
		if !r.Autovacuum {
			r.Reloptions = append(r.Reloptions, "autovacuum_enabled=off")
		}
		r.Declared = rows
		// (id int4, pad text) shapes have a varlena column unless the row is the bare int; columns= say so themselves.
		r.HasToast = hasVarlena || (t.Columns == nil && shape.TupleLen > 28)
		r.Columns = t.Columns
		r.Content = t.Content
		if r.Content == "" {
			r.Content = "x"
		}
		if err := c.e.PlaceRows(r); err != nil {
			return err
		}
		info = TableInfo{Name: name, Declared: rows, TupleBytes: shape.TupleLen, TuplesPerPage: shape.TuplesPerPage(), Hole: shape.Hole(shape.TuplesPerPage())}
		return nil
	})
	return info, err
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
	pages := pg.DivCeil(rows, int64(tuplesPerPage))
	switch {
	case rows < 0 || pages > pgMaxRelBlocks:
		return fmt.Errorf("%d rows need more than PostgreSQL's %d blocks a relation (32TB: block numbers end at 0xFFFFFFFE)", rows, int64(pgMaxRelBlocks))
	case pages > simMaxRelBlocks:
		return fmt.Errorf("%d pages: beyond the simulator's limit of %d pages a relation (1TB; 16 bytes of state a page)", pages, simMaxRelBlocks)
	}
	return nil
}

// maxHeapAttributeNumber is MaxHeapAttributeNumber (htup_details.h).
const maxHeapAttributeNumber = 1600

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

// Table returns a table's layout and declared rows.
func (c *Cluster) Table(name string) (TableInfo, bool) {
	r, ok := c.e.Relation(name)
	if !ok {
		return TableInfo{}, false
	}
	tpp := r.Shape.TuplesPerPage()
	return TableInfo{Name: r.Name, Declared: r.Declared, Rows: r.Rows, Pages: r.NPages(),
		TupleBytes: r.Shape.TupleLen, TuplesPerPage: tpp, Hole: r.Shape.Hole(tpp)}, true
}

// fmtClock prints a span of simulated time in days, hours, minutes and
// seconds (whole seconds, rounded down).
func fmtClock(ns int64) string {
	sec := ns / 1e9
	d, h, m, s := sec/86400, sec/3600%24, sec/60%60, sec%60
	switch {
	case d > 0:
		return fmt.Sprintf("%dd %dh %dmin %ds", d, h, m, s)
	case h > 0:
		return fmt.Sprintf("%dh %dmin %ds", h, m, s)
	case m > 0:
		return fmt.Sprintf("%dmin %ds", m, s)
	}
	return fmt.Sprintf("%.3fs", float64(ns)/1e9)
}
