package verify

import (
	"strconv"

	"github.com/pgbufsim/pgbufsim/pgbench"
)

// The SQL whose catalog footprint package catprof measures (`pgbufsim
// catalog-profile`): the same statements verify sends, so a profile is what
// verify's own sessions pin.

// CatalogKind is one kind of session package catprof profiles: its name
// (catalog.Kind's, lower-cased first letter) and the SQL verify sends for it.
type CatalogKind struct {
	Name string
	SQL  []string
	// Before runs in a session of its own ahead of the kind's profile
	// measurement (before its restart): the catalogs as the kind is to be
	// measured on. The prune measurement's fresh clusters do without it.
	Before []string
	// More are the further sessions the kind's command opens, measured
	// with SQL's as one kind.
	More [][]string
}

// CatalogKinds are the sessions profiled: the SQL verify sends for each kind
// of command (sql.go), on a table t (id int4, pad text), or on pgbench's
// tables; "first" is a trivial first session after a start.
func CatalogKinds(major int) []CatalogKind {
	noPar := "SET max_parallel_workers_per_gather = 0"
	// a mark's session (markNow; pg_stat_io is read too only in scenarios that show it)
	session := []string{sqlClearSnapshot, sqlStatWAL, sqlInsertLSN}
	return []CatalogKind{
		{Name: "session", SQL: session},
		{Name: "scan", SQL: []string{noPar, sqlScan("t")}},
		{Name: "scan1w", SQL: []string{"SET min_parallel_table_scan_size = 0", "SET parallel_setup_cost = 0", "SET max_parallel_workers_per_gather = 1", sqlScan("t")}},
		{Name: "insert", SQL: []string{sqlInsert("t", "g, repeat('x', 1800)", 100001, 100004), sqlRelationPages("t")}},
		{Name: "copy", SQL: []string{sqlClearSnapshot, sqlStatWAL, sqlInsertLSN, sqlCopy("t", false), sqlInsertLSN, sqlRelationPages("t")}},
		{Name: "vacuum", SQL: []string{sqlVacuum("t", "VERBOSE")}},
		{Name: "checkpoint", SQL: []string{sqlCheckpointWritten(major), sqlInsertLSN, "CHECKPOINT", sqlInsertLSN, sqlClearSnapshot, sqlCheckpointWritten(major)}},
		{Name: "buffercache", SQL: []string{sqlDatabaseOID, sqlUserTables, sqlBuffers}},
		{Name: "table", SQL: []string{"CREATE TABLE t2 (id int4, pad text) WITH (autovacuum_enabled=off)", "ALTER TABLE t2 ALTER COLUMN pad SET STORAGE PLAIN"}},
		// The statistics views' sessions: show stat tables, show stat
		// database, show stat bgwriter and show io (a mark's queries, then
		// the view; 15 has no pg_stat_io).
		{Name: "statTables", SQL: []string{sqlClearSnapshot, sqlPgbenchTables}},
		{Name: "statDatabase", SQL: []string{sqlClearSnapshot, sqlPgbenchDB}},
		{Name: "statBgwriter", SQL: append(session[:len(session):len(session)], sqlStatBgwriter(major))},
		{Name: "statIO", SQL: append(session[:len(session):len(session)], sqlStatIO(major))},
		// pgbench's sessions: its setup connection (GetTableInfo's
		// queries) and a client's first transaction of each builtin (its
		// statements planned once; later ones hit the relcache and syscache).
		{Name: "pgbenchSetup", SQL: pgbench.SetupQueries},
		{Name: "pgbenchTPCB", SQL: pgbenchTxn.SQL(pgbench.TPCBLike)},
		{Name: "pgbenchSimpleUpdate", SQL: pgbenchTxn.SQL(pgbench.SimpleUpdate)},
		{Name: "pgbenchSelectOnly", SQL: pgbenchTxn.SQL(pgbench.SelectOnly)},
		// The session verify reads a pgbench run's counters in before the
		// run (pgbenchRunFigures: its first reading, the wait for other
		// clients; the reading that counts comes after, its caches warm).
		{Name: "pgbenchReading", SQL: pgbenchReadingSQL(major)},
		// ANALYZE and CREATE INDEX as verify's analyze and index commands
		// send them (actAnalyze, actIndex). Last, and analyze before index:
		// what they write stays for the kinds measured after them.
		{Name: "analyze", SQL: []string{sqlInsertLSN, "ANALYZE (VERBOSE) t", sqlInsertLSN}},
		{Name: "index", SQL: []string{sqlInsertLSN, "CREATE INDEX t_id ON t (id)", sqlInsertLSN, sqlRelationPages("t_id")}},
		// The same build with one maintenance worker (plan_create_index_workers
		// launches it: t is below the default min_parallel_table_scan_size);
		// less index, a build worker's own pins (catalog.IndexWorker). It is
		// measured on the catalogs index was: t analyzed (--append skips
		// analyze, whose pg_statistic rows index saw) and without t_id (a
		// full run's index made it); its own index is named apart.
		{Name: "index1w", Before: []string{"DROP INDEX IF EXISTS t_id", "ANALYZE t"},
			SQL: []string{"SET max_parallel_maintenance_workers = 1", "SET min_parallel_table_scan_size = 0",
				sqlInsertLSN, "CREATE INDEX t_id1w ON t (id)", sqlInsertLSN, sqlRelationPages("t_id1w")}},
		// verify's set (actSet) of a setting to its default, so the kinds
		// measured after it run as before; last: ALTER SYSTEM outlives the
		// restarts between kinds. Its sessions: the one that changes and
		// reloads, then one that sees the reload (actSet polls until a
		// session does: a new backend forked after the postmaster's reload
		// has it, so one).
		{Name: "set", SQL: SetSQL("max_parallel_workers_per_gather", "2"), More: [][]string{SetPollSQL()}},
	}
}

// pgbenchTxn is the transaction the pgbench kinds are measured with.
var pgbenchTxn = pgbench.Txn{AID: 1, BID: 1, TID: 1, Delta: 1}

// SQLVacuumVerbose is verify's VACUUM (VERBOSE) of table.
func SQLVacuumVerbose(table string) string { return sqlVacuum(table, "VERBOSE") }

// SQLInsertExplain is verify's EXPLAIN'd INSERT … SELECT of rows from…to.
func SQLInsertExplain(table, exprs string, from, to int64) string {
	return sqlInsert(table, exprs, from, to)
}

// SQLRelationPages is verify's query of rel's size in pages.
func SQLRelationPages(rel string) string { return sqlRelationPages(rel) }

// SessionEndSQL is what verify sends before it closes a session.
func SessionEndSQL() []string { return append([]string(nil), sessionEnd...) }

// VacuumVerboseHits reads the buffer hits of VACUUM VERBOSE's messages.
func VacuumVerboseHits(msgs string) (int, bool) {
	m := reVacBuf.FindStringSubmatch(msgs)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}

// SetSQL is what verify's set command sends in its first session (actSet).
func SetSQL(key, val string) []string {
	return []string{"SELECT pg_conf_load_time()", "ALTER SYSTEM SET " + key + " = '" + val + "'", "SELECT pg_reload_conf()"}
}

// SetPollSQL is what each of verify's set's further sessions sends, until
// one sees the reload (actSet).
func SetPollSQL() []string { return []string{"SELECT pg_conf_load_time()"} }
