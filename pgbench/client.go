package pgbench

import (
	"fmt"
	"strconv"
	"strings"
)

// Builtin is one of pgbench's builtin scripts (-b NAME).
type Builtin int

const (
	TPCBLike     Builtin = iota // -b tpcb-like, the default
	SimpleUpdate                // -b simple-update, -N
	SelectOnly                  // -b select-only, -S
)

var builtinNames = [...]string{"tpcb-like", "simple-update", "select-only"}

// String is pgbench's name of the script.
func (b Builtin) String() string {
	if b < 0 || int(b) >= len(builtinNames) {
		return fmt.Sprintf("Builtin(%d)", int(b))
	}
	return builtinNames[b]
}

// ParseBuiltin reads a builtin script's name as pgbench spells it. Only the
// full names are accepted (pgbench's findBuiltin also takes an unambiguous
// prefix, which a scenario has no need of).
func ParseBuiltin(name string) (Builtin, error) {
	for i, n := range builtinNames {
		if name == n {
			return Builtin(i), nil
		}
	}
	return 0, fmt.Errorf("builtin=%q: pgbench's builtin scripts are tpcb-like, simple-update and select-only", name)
}

// The builtin scripts' text, as builtin_script[] in pgbench.c has it
// (identical in 15 to 19; naccounts 100000, nbranches 1, ntellers 10). A
// builtin script is parsed by the same ParseScript as a -f file, so a file
// with this text draws exactly what -b does.
const (
	TPCBLikeScript = `\set aid random(1, 100000 * :scale)
\set bid random(1, 1 * :scale)
\set tid random(1, 10 * :scale)
\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;
UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
END;
`
	SimpleUpdateScript = `\set aid random(1, 100000 * :scale)
\set bid random(1, 1 * :scale)
\set tid random(1, 10 * :scale)
\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
END;
`
	SelectOnlyScript = `\set aid random(1, 100000 * :scale)
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
`
)

var builtinDescs = [...]string{"<builtin: TPC-B (sort of)>", "<builtin: simple update>", "<builtin: select only>"}

// Description is pgbench's description of the script (its "transaction
// type:" line).
func (b Builtin) Description() string {
	if b < 0 || int(b) >= len(builtinDescs) {
		return ""
	}
	return builtinDescs[b]
}

// Script is the builtin's script text.
func (b Builtin) Script() string {
	switch b {
	case TPCBLike:
		return TPCBLikeScript
	case SimpleUpdate:
		return SimpleUpdateScript
	case SelectOnly:
		return SelectOnlyScript
	}
	return ""
}

// Statements are the SQL commands of the builtin's script, in order, with
// pgbench's :variables still in them (the \set lines left out).
func (b Builtin) Statements() []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSuffix(b.Script(), "\n"), "\n") {
		if !strings.HasPrefix(l, `\`) {
			out = append(out, l)
		}
	}
	return out
}

// SetupQueries are what pgbench's setup connection sends before the
// clients connect, when a builtin script runs (GetTableInfo, pgbench.c):
// the scale from pgbench_branches' row count (which -s cannot override),
// then whether pgbench_accounts is partitioned. With -n nothing else: no
// vacuum, no truncate of history. Each client then opens its own
// connection, client 0 first.
var SetupQueries = []string{
	"select count(*) from pgbench_branches",
	"select o.n, p.partstrat, pg_catalog.count(i.inhparent) from pg_catalog.pg_class as c join pg_catalog.pg_namespace as n on (n.oid = c.relnamespace) cross join lateral (select pg_catalog.array_position(pg_catalog.current_schemas(true), n.nspname)) as o(n) left join pg_catalog.pg_partitioned_table as p on (p.partrelid = c.oid) left join pg_catalog.pg_inherits as i on (c.oid = i.inhparent) where c.relname = 'pgbench_accounts' and o.n is not null group by 1, 2 order by 1 asc limit 1",
}

// SQL is the transaction's statements as pgbench sends them in its default
// simple query mode: the script's commands with the variables replaced.
func (t Txn) SQL(b Builtin) []string {
	r := strings.NewReplacer(":aid", strconv.FormatInt(t.AID, 10), ":bid", strconv.FormatInt(t.BID, 10),
		":tid", strconv.FormatInt(t.TID, 10), ":delta", strconv.FormatInt(t.Delta, 10))
	st := b.Statements()
	for i := range st {
		st[i] = r.Replace(st[i])
	}
	return st
}

// The table sizes per unit of scale (naccounts, nbranches, ntellers in pgbench.c).
const (
	AccountsPerScale = 100000
	BranchesPerScale = 1
	TellersPerScale  = 10
)

// Txn is the keys one transaction of a builtin script uses: its \set
// variables. A select-only transaction draws only AID (the rest are 0).
type Txn struct {
	AID, BID, TID, Delta int64
}

// Client is one pgbench client (a CState): its id (:client_id) and the
// state its random functions draw from (cs_func_rs).
type Client struct {
	ID int
	rs PRNG
}

// State is the client's cs_func_rs state words, for tests and diagnostics.
func (c *Client) State() (s0, s1 uint64) { return c.rs.State() }

// Next draws one transaction of builtin b at the given scale, as pgbench
// evaluates the script's \set lines in order, each random(lo, hi) a getrand
// on the client's cs_func_rs (evalStandardFunc, PGBENCH_RANDOM). No
// transaction ever retries under the builtins' read-committed, conflict-free
// statements, so the state saved for a retry (st->random_state) is never
// restored. At scale 1, bid's random(1, 1) draws nothing.
func (c *Client) Next(b Builtin, scale int) (Txn, error) {
	if scale < 1 {
		return Txn{}, fmt.Errorf("scale=%d: pgbench's -s/--scale is from 1 to 2147483647", scale)
	}
	s := int64(scale)
	switch b {
	case TPCBLike, SimpleUpdate:
		var t Txn
		t.AID = c.rs.Rand(1, AccountsPerScale*s)
		t.BID = c.rs.Rand(1, BranchesPerScale*s)
		t.TID = c.rs.Rand(1, TellersPerScale*s)
		t.Delta = c.rs.Rand(-5000, 5000)
		return t, nil
	case SelectOnly:
		return Txn{AID: c.rs.Rand(1, AccountsPerScale*s)}, nil
	}
	return Txn{}, fmt.Errorf("builtin %v: pgbench's builtin scripts are tpcb-like, simple-update and select-only", b)
}

// Thread is one pgbench thread (a TState): its clients (indices into
// Run.Clients) and the states it draws from to choose among several scripts
// (ts_choose_rs), to throttle (ts_throttle_rs, --rate) and to sample the
// transaction log (ts_sample_rs, --sampling-rate). None of the three draws
// in a run of one builtin script without --rate or --sampling-rate.
type Thread struct {
	Clients                  []int
	Choose, Throttle, Sample PRNG
}

// Run is the random setup of `pgbench -c clients -j threads --random-seed=seed`.
type Run struct {
	Clients []*Client
	Threads []Thread
	// DefaultSeed is :default_seed, the seed of the hash functions (pgbench
	// stores the uint64 as an int64 variable).
	DefaultSeed int64
}

// checkVersion refuses the versions whose pgbench is not this model.
func checkVersion(version int) error {
	if version < 15 || version > 19 {
		return fmt.Errorf("version %d: pgbench is modelled for PostgreSQL 15 to 19 (before 15 it drew with pg_erand48, not pg_prng)", version)
	}
	return nil
}

// DefaultSeed is the --random-seed of a scenario's pgbench run that names
// none (pgbench itself would seed from the clock; a simulation may not).
const DefaultSeed uint64 = 0

// NewRun models pgbench's seeding (main, pgbench.c, the same in 15 to 19):
// set_random_seed seeds base_random_sequence with pg_prng_seed(seed); then
// each client in turn, 0 to clients-1, seeds its cs_func_rs from the next
// pg_prng_uint64 of it (initRandomState); then one more draw is
// :default_seed; then each thread in turn seeds ts_choose_rs,
// ts_throttle_rs and ts_sample_rs, in that order, from three more. Clients
// are dealt to threads in order, thread i taking (clients - dealt +
// threads - i - 1) / (threads - i) of them; threads above clients are
// reduced to clients, as pgbench does.
func NewRun(version int, seed uint64, clients, threads int) (*Run, error) {
	if err := checkVersion(version); err != nil {
		return nil, err
	}
	if clients < 1 {
		return nil, fmt.Errorf("clients=%d: pgbench's -c/--clients is from 1 to 2147483647", clients)
	}
	if threads < 1 {
		return nil, fmt.Errorf("threads=%d: pgbench's -j/--jobs is from 1 to 2147483647", threads)
	}
	if threads > clients {
		threads = clients
	}
	base := NewPRNG(seed)
	r := &Run{Clients: make([]*Client, clients), Threads: make([]Thread, threads)}
	for i := range r.Clients {
		c := &Client{ID: i}
		c.rs.Seed(base.Uint64())
		r.Clients[i] = c
	}
	r.DefaultSeed = int64(base.Uint64())
	dealt := 0
	for i := range r.Threads {
		t := &r.Threads[i]
		n := (clients - dealt + threads - i - 1) / (threads - i)
		for k := 0; k < n; k++ {
			t.Clients = append(t.Clients, dealt+k)
		}
		t.Choose.Seed(base.Uint64())
		t.Throttle.Seed(base.Uint64())
		t.Sample.Seed(base.Uint64())
		dealt += n
	}
	return r, nil
}

// NewClients is the clients of `pgbench -c clients -j 1 --random-seed=seed`
// on that version: client i draws its keys from its own state, whatever
// order the thread runs the clients in.
func NewClients(version int, seed uint64, clients int) ([]*Client, error) {
	r, err := NewRun(version, seed, clients, 1)
	if err != nil {
		return nil, err
	}
	return r.Clients, nil
}
