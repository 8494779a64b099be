// Package oltp runs pgbench on the engine: `pgbench -i` as the statements
// it sends, and the builtin scripts (tpcb-like, simple-update, select-only)
// transaction by transaction, each statement as the executor runs it
// against the buffer pool and the WAL: index lookups through the primary
// keys as CREATE INDEX built them, heap_update with HOT when the new
// version fits its page, on-access pruning, RelationGetBufferForTuple,
// unique checks, LP_DEAD marking, hint bits, commit records and the WAL
// flush at each commit.
//
// The state this needs beyond the engine's per-page heap model — line
// pointers by state, dead tuples, HOT chains, each row's current page and
// index entries — lives here, per pgbench table (Table). The tables are
// pgbench's own: rows of fixed width, updates that change one int4 column.
package oltp

import (
	"fmt"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/catalog"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/internal/engine"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/pgbench"
	"github.com/pgbufsim/pgbufsim/planner"
	"github.com/pgbufsim/pgbufsim/wal"
)

// Table names, as pgbench creates them.
const (
	Accounts = "pgbench_accounts"
	Tellers  = "pgbench_tellers"
	Branches = "pgbench_branches"
	History  = "pgbench_history"
)

// Tuple lengths of pgbench's rows (pg_column_size of a row, header
// included). pgbench_accounts (aid, bid, abalance int4, filler char(84)):
// the 24-byte header, the int4s and the filler blank-padded from COPY's
// empty field (a 1-byte varlena header): 121 bytes. pgbench_tellers (tid,
// bid, tbalance int4, filler char(84)) and pgbench_branches (bid, bbalance
// int4, filler char(88)) are loaded without the filler: NULL, a null
// bitmap in the 24-byte header, 36 and 32 bytes. pgbench_history (tid,
// bid, aid, delta int4, mtime timestamp, filler char(22)) likewise: 48.
const (
	AccountsLen = 121
	TellersLen  = 36
	BranchesLen = 32
	HistoryLen  = 48
)

// Bench is pgbench's tables in one cluster.
type Bench struct {
	c                                    *engine.Cluster
	Scale, Fillfactor                    int
	Accounts, Tellers, Branches, History *Table
	xid                                  uint32 // transactions started so far
}

// Tables lists the four tables in pgbench's order.
func (b *Bench) Tables() []*Table { return []*Table{b.Accounts, b.Branches, b.History, b.Tellers} }

// Owns reports whether name is one of the benchmark's tables or indexes.
func (b *Bench) Owns(name string) bool {
	for _, t := range b.Tables() {
		if t.Name == name || (t.Index != nil && t.Index.Name == name) {
			return true
		}
	}
	return false
}

// Stat is t's counters now: the pool's accesses to it and its indexes,
// and what the executor counted.
func (b *Bench) Stat(t *Table) TableStat {
	st := t.stat
	st.TableIO = b.c.StatIOTable(t.Rel)
	return st
}

// InitStep is one statement pgbench -i sends, with what it did.
type InitStep struct {
	SQL    string
	Result *engine.StmtResult // nil for statements the engine has no result for (DDL)
}

// Init is `pgbench -i -s scale -F fillfactor` (initCreateTables,
// initGenerateDataClientSide, initVacuum, initCreatePKeys): the four tables
// created, then in one transaction truncated and loaded — branches and
// tellers by one INSERT a row before 17, by COPY from 17; accounts by COPY,
// with FREEZE from 14 on; VACUUM ANALYZE of each; the primary keys.
func Init(c *engine.Cluster, scale, fillfactor int) (*Bench, []InitStep, error) {
	if scale < 1 {
		return nil, nil, &pg.SettingError{Name: "scale", Value: fmt.Sprint(scale), Allowed: "must be at least 1"}
	}
	if fillfactor < 10 || fillfactor > 100 {
		return nil, nil, &pg.SettingError{Name: "fillfactor", Value: fmt.Sprint(fillfactor), Allowed: "must be between 10 and 100"}
	}
	for _, n := range []string{History, Tellers, Accounts, Branches} {
		if _, ok := c.Relation(n); ok {
			return nil, nil, fmt.Errorf("pgbench init: relation %q already exists (pgbench drops its tables first; this cluster cannot drop them)", n)
		}
	}
	var steps []InitStep
	tables := map[string]*heap.Relation{}
	lens := map[string]int{Accounts: AccountsLen, Tellers: TellersLen, Branches: BranchesLen, History: HistoryLen}
	// pgbench's CREATE TABLEs: (aid, bid, abalance, filler), (tid, bid,
	// tbalance, filler), (bid, bbalance, filler), (tid, bid, aid, delta,
	// mtime, filler).
	cols := map[string][]string{Accounts: {"aid", "bid", "abalance", "filler"}, Tellers: {"tid", "bid", "tbalance", "filler"},
		Branches: {"bid", "bbalance", "filler"}, History: {"tid", "bid", "aid", "delta", "mtime", "filler"}}
	for _, n := range []string{History, Tellers, Accounts, Branches} {
		ff := fillfactor
		if n == History {
			ff = 100 // pgbench gives -F to the three others only
		}
		sh := heap.Shape{TupleLen: lens[n], Fillfactor: ff, PlannerWidth: lens[n] - 24}
		var r *heap.Relation
		if err := c.Command("pgbench init", engine.SessionTable, true, func() error {
			r = c.AddTable(n, sh)
			return nil
		}); err != nil {
			return nil, nil, err
		}
		r.HasToast = true // the char(n) filler is a varlena column
		r.StatsUnmodelled = true
		r.NCols, r.ColNames = len(cols[n]), cols[n]
		if n != History {
			// "with (fillfactor=F)": pg_class.reloptions (its row, which VACUUM
			// rewrites in place, is that much longer)
			r.Reloptions = []string{fmt.Sprintf("fillfactor=%d", fillfactor)}
		}
		if err := c.PlaceRows(r); err != nil {
			return nil, nil, err
		}
		if n == Accounts {
			// COPY's lines as pgbench's client-side generation writes them
			// ("aid\tbid\t0\t": the filler empty), which decide how many rows
			// each multi-insert batch holds (MAX_BUFFERED_BYTES).
			r.Columns = []string{"int4", "int4", "int4", "text:0"}
		}
		tables[n] = r
		steps = append(steps, InitStep{SQL: "create table " + n})
	}
	rows := map[string]int64{Branches: int64(scale), Tellers: 10 * int64(scale), Accounts: 100000 * int64(scale)}
	freeze := c.S.Version >= 14
	if err := c.BeginBlock(); err != nil {
		return nil, nil, err
	}
	steps = append(steps, InitStep{SQL: "begin"})
	for _, n := range []string{Accounts, Branches, History, Tellers} {
		if err := c.Truncate(tables[n]); err != nil {
			return nil, nil, err
		}
	}
	steps = append(steps, InitStep{SQL: "truncate table pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers"})
	for _, n := range []string{Branches, Tellers, Accounts} {
		if n != Accounts && c.S.Version < 17 {
			// Before 17 pgbench inserts branches and tellers a row at a time
			// (initBranch, initTeller): not frozen, hinted by the VACUUM after.
			var last *engine.StmtResult
			for range rows[n] {
				res, err := c.InsertSelect(tables[n], 1)
				if err != nil {
					return nil, nil, err
				}
				last = res
			}
			steps = append(steps, InitStep{SQL: fmt.Sprintf("insert into %s … values (…): %d rows, one statement each (the last shown)", n, rows[n]), Result: last})
			continue
		}
		res, err := c.Statement("copy", func() (*engine.StmtResult, error) { return c.CopyFrom(tables[n], rows[n], freeze) })
		if err != nil {
			return nil, nil, err
		}
		sql := "copy " + n + " from stdin"
		if freeze {
			sql += " with (freeze on)"
		}
		steps = append(steps, InitStep{SQL: sql, Result: res})
	}
	if err := c.CommitBlock(); err != nil {
		return nil, nil, err
	}
	steps = append(steps, InitStep{SQL: "commit"})
	for _, n := range []string{Branches, Tellers, Accounts, History} {
		r := tables[n]
		res, err := c.Statement("vacuum", func() (*engine.StmtResult, error) { return c.VacuumTable(r, false) })
		if err != nil {
			return nil, nil, err
		}
		steps = append(steps, InitStep{SQL: "vacuum analyze " + n, Result: res})
		if _, err := c.Statement("analyze", func() (*engine.StmtResult, error) { return c.AnalyzeTable(r) }); err != nil {
			return nil, nil, err
		}
	}
	b := &Bench{c: c, Scale: scale, Fillfactor: fillfactor}
	for _, k := range []struct {
		table, key string
		before     int
		dst        **Table
	}{{Branches, "bid", 4, &b.Branches}, {Tellers, "tid", 8, &b.Tellers}, {Accounts, "aid", 8, &b.Accounts}} {
		name := k.table + "_pkey"
		res, err := c.BuildPrimaryKey(name, tables[k.table])
		if err != nil {
			return nil, nil, err
		}
		steps = append(steps, InitStep{SQL: "alter table " + k.table + " add primary key (" + k.key + ")", Result: res})
		ix, _ := c.IndexNamed(name)
		after := 0 // tellers and branches: the balance ends the data (the filler is NULL)
		if k.table == Accounts {
			after = 85 // char(84): a 1-byte header and 84 blanks
		}
		*k.dst = newTable(k.table, k.key, tables[k.table], ix, k.before, after)
	}
	b.History = newTable(History, "", tables[History], nil, 0, 0)
	return b, steps, nil
}

// Builtin is one of pgbench's builtin scripts; Txn one transaction's draws.
type (
	Builtin = pgbench.Builtin
	Txn     = pgbench.Txn
)

// The builtin scripts (pgbench -b NAME).
const (
	TPCBLike     = pgbench.TPCBLike
	SimpleUpdate = pgbench.SimpleUpdate
	SelectOnly   = pgbench.SelectOnly
)

// Keys gives a client's transactions' draws in order.
type Keys interface{ Next() (Txn, error) }

// RunResult is what a run did, for pgbench's summary and the statistics views.
type RunResult struct {
	Transactions int
	Buf          bufmgr.BufferUsage
	WAL          wal.Usage
	TimeNs       int64 // the run's simulated duration, from the first transaction to the last commit
	Tables       map[string]TableStat
}

// Run runs n transactions of script on each client, client i drawing
// from keys[i], as `pgbench -n -c len(keys) -j 1 -t n` does: each client a
// session (its catalog lookups, its rd_targblock and cached metapages),
// pgbench's `select count(*) from pgbench_branches` first, then its
// transactions one after the other. Clients interleave on the simulated
// clock a whole transaction at a time (the model: a transaction is one
// step of the scheduler, so transactions never overlap and every one sees
// all the earlier ones committed); with one client that is exact.
func (b *Bench) Run(script Builtin, n int, keys []Keys) (*RunResult, error) {
	c := b.c
	if n < 1 {
		return nil, &pg.SettingError{Name: "transactions", Value: fmt.Sprint(n), Allowed: "must be at least 1"}
	}
	if len(keys) < 1 {
		return nil, &pg.SettingError{Name: "clients", Value: "0", Allowed: "must be at least 1"}
	}
	if c.InTransaction() {
		return nil, fmt.Errorf("pgbench run: a transaction block is open (commit first)")
	}
	before := map[string]TableStat{}
	for _, t := range b.Tables() {
		before[t.Name] = b.Stat(t)
	}
	walBefore := c.WAL().Total
	writesBefore := clientWrites(c)
	hitBefore, readBefore := c.StatIODatabase()
	catDirtied := c.CatalogPins().Dirtied
	// pgbench's setup connection first (GetTableInfo's queries): its own
	// session, its catalog lookups (measured), `select count(*) from
	// pgbench_branches` (whose planning reads the primary key's metapage
	// into this backend's rd_amcache, not the clients').
	setup, err := c.BeginStatement(catalog.PgbenchSetup)
	if err != nil {
		return nil, err
	}
	start := setup.Now
	{
		s := &session{b: b, be: setup, meta: map[*Table]bool{}, targ: map[*Table]pg.BlockNumber{}}
		done := false
		if err := c.RunClient(setup, func() (bool, error) {
			if done {
				return true, nil
			}
			done = true
			return false, s.scaleQuery()
		}); err != nil {
			return nil, err
		}
	}
	bes := make([]*bufmgr.Backend, len(keys))
	steps := make([]func() (bool, error), len(keys))
	// Each client's session: the catalog lookups of its first transaction's
	// planning (measured per builtin); later ones hit the caches.
	kind := map[Builtin]catalog.Kind{TPCBLike: catalog.PgbenchTPCB, SimpleUpdate: catalog.PgbenchSimpleUpdate, SelectOnly: catalog.PgbenchSelectOnly}[script]
	for i := range keys {
		be, err := c.BeginStatement(kind)
		if err != nil {
			return nil, err
		}
		s := &session{b: b, be: be, meta: map[*Table]bool{}, targ: map[*Table]pg.BlockNumber{}}
		done, k := 0, keys[i]
		bes[i] = be
		steps[i] = func() (bool, error) {
			if done == n {
				return true, nil
			}
			done++
			d, err := k.Next()
			if err != nil {
				return true, err
			}
			return false, s.transaction(script, d)
		}
	}
	if err := c.RunClients(bes, steps); err != nil {
		return nil, err
	}
	var end int64
	res := &RunResult{Transactions: n * len(keys), WAL: c.WAL().Total.Sub(walBefore), Tables: map[string]TableStat{}}
	for _, be := range append(bes, setup) {
		res.Buf.Dirtied += be.Buf.Dirtied
		end = max(end, be.Now)
	}
	// Buffers dirtied as the server's pool counts them (dirty buffers after
	// less before, plus those written): the sessions' catalog pages too
	// (their first hints of pgbench's catalog rows, their prunes).
	res.Buf.Dirtied += c.CatalogPins().Dirtied - catDirtied
	// Hits and reads as pg_stat_database counts them: every session's, its
	// catalog lookups included.
	hit, read := c.StatIODatabase()
	res.Buf.Hit, res.Buf.Read = hit-hitBefore, read-readBefore
	// Buffers written: the clients' writes of dirty victims (pg_stat_io's
	// writes), not the pages they added to relations, which EXPLAIN would
	// also count as written.
	res.Buf.Written = clientWrites(c) - writesBefore
	// The WAL the run inserted: its records, images and bytes.
	res.TimeNs = end - start
	for _, t := range b.Tables() {
		res.Tables[t.Name] = b.Stat(t).Sub(before[t.Name])
	}
	return res, nil
}

// clientWrites is pg_stat_io's writes by client backends, every context.
func clientWrites(c *engine.Cluster) int64 {
	var n int64
	for _, ctx := range c.Pool().Stats.Rel[bufmgr.ClientBackend] {
		n += ctx[bufmgr.OpWrites]
	}
	return n
}

// plan is the first planning of a statement on t in the session:
// get_relation_info reads its index's metapage (_bt_getrootheight), which
// rd_amcache keeps for the session.
func (s *session) plan(t *Table) error {
	if t.Index == nil || s.meta[t] {
		return nil
	}
	s.meta[t] = true
	b, err := s.read(t, t.Index.ID, 0, true)
	if err != nil {
		return err
	}
	s.unpin(b)
	return nil
}

// scaleQuery is pgbench's `select count(*) from pgbench_branches` at the start of a run.
func (s *session) scaleQuery() error {
	s.b.xid++
	s.xid, s.wrote = s.b.xid, false
	s.be.Now += s.b.c.Costs().StatementNs
	t := s.b.Branches
	if err := s.plan(t); err != nil {
		return err
	}
	s.readOnly = true
	defer func() { s.readOnly = false }()
	return s.seqScan(t, nil)
}

// seqScan reads every page of t (heapgetpage: a pin, heap_page_prune_opt,
// each tuple's visibility checked, which hints them), calling onPage with
// the page held.
func (s *session) seqScan(t *Table, onPage func(blk pg.BlockNumber) error) error {
	t.stat.SeqScan++
	vm := newVMPins() // the scan's rs_vmbuffer
	defer vm.release(s)
	for blk := range pg.BlockNumber(t.Rel.NPages()) {
		b, err := s.read(t, t.Rel.ID, blk, false)
		if err != nil {
			return err
		}
		if err := s.pruneOpt(t, b, blk, vm); err != nil {
			s.unpin(b)
			return err
		}
		s.hintPage(t, b, blk)
		s.be.Now += s.b.c.Costs().PageNs + int64(t.pages[blk].live+t.pages[blk].dead)*s.b.c.Costs().TupleNs
		if onPage != nil {
			if err := onPage(blk); err != nil {
				s.unpin(b)
				return err
			}
		}
		s.unpin(b)
	}
	return nil
}

// transaction runs one transaction of the script with the draws d.
func (s *session) transaction(script Builtin, d Txn) error {
	s.b.xid++
	s.xid, s.wrote = s.b.xid, false
	b := s.b
	stmt := func() { s.be.Now += s.b.c.Costs().StatementNs }
	if script == SelectOnly {
		stmt()
		if err := s.plan(b.Accounts); err != nil {
			return err
		}
		s.readOnly = true
		defer func() { s.readOnly = false }()
		return s.lookup(b.Accounts, d.AID, nil)
	}
	stmt() // BEGIN
	if err := s.updateBalance(b.Accounts, d.AID, d.Delta); err != nil {
		return err
	}
	stmt()
	s.readOnly = true
	err := s.lookup(b.Accounts, d.AID, nil)
	s.readOnly = false
	if err != nil {
		return err
	}
	if script == TPCBLike {
		if err := s.updateBalance(b.Tellers, d.TID, d.Delta); err != nil {
			return err
		}
		if err := s.updateBalance(b.Branches, d.BID, d.Delta); err != nil {
			return err
		}
	}
	stmt()
	if err := s.insert(b.History); err != nil {
		return err
	}
	stmt() // END: the commit record, flushed (synchronous_commit)
	end, now := s.b.c.WAL().Insert(s.be.Now, &s.be.WAL, wal.XactCommit, 0)
	s.be.Now = s.b.c.WAL().Flush(now, &s.be.WAL, end)
	return nil
}

// updateBalance is `UPDATE t SET balance = balance + delta WHERE key = k`
// as the planner runs it: an Index Scan of the primary key, or a Seq Scan
// where that is cheaper (the small tables); then for the row found the
// executor rereads it (table_tuple_fetch_row_version) and heap_update runs.
func (s *session) updateBalance(t *Table, k, delta int64) error {
	s.be.Now += s.b.c.Costs().StatementNs
	if k < 1 || k > int64(len(t.rows)) {
		return fmt.Errorf("pgbench: %s: key %d outside 1..%d", t.Name, k, len(t.rows))
	}
	if err := s.plan(t); err != nil {
		return err
	}
	do := func() error {
		if err := s.fetchRowVersion(t, pg.BlockNumber(t.rows[k-1].cur)); err != nil {
			return err
		}
		return s.update(t, k, int32(delta))
	}
	if s.seqCheaper(t) {
		target := pg.BlockNumber(t.rows[k-1].cur)
		return s.seqScan(t, func(blk pg.BlockNumber) error {
			if blk == target {
				return do()
			}
			return nil
		})
	}
	return s.lookup(t, k, do)
}

// seqCheaper is the planner's choice for a one-row equality lookup on t:
// cost_seqscan (every page at seq_page_cost, every tuple at cpu_tuple_cost
// plus the qual's cpu_operator_cost) against cost_index of a unique key
// (btcostestimate's descent — log2(tuples) comparisons and 50 operator costs
// a level — one index page and one heap page at random_page_cost, one
// index tuple and one heap tuple).
func (s *session) seqCheaper(t *Table) bool {
	if s.costs == nil {
		pc := planner.CostsFrom(s.b.c.S)
		s.costs = &pc
	}
	pc := s.costs
	tuples := t.Rel.RelTuples
	if tuples < 1 {
		tuples = float64(len(t.rows))
	}
	seq := float64(t.Rel.NPages())*pc.SeqPageCost + tuples*(pc.CPUTupleCost+pc.CPUOperatorCost)
	lg := 0
	for v := 1.0; v < tuples; v *= 2 {
		lg++
	}
	idx := float64(lg)*pc.CPUOperatorCost + float64(t.Index.Height()+1)*50*pc.CPUOperatorCost +
		2*pc.RandomPageCost + pc.CPUIndexTupleCost + pc.CPUTupleCost + 2*pc.CPUOperatorCost
	return seq < idx
}
