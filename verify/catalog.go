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
}

// CatalogKinds are the sessions profiled: the SQL verify sends for each kind
// of command (sql.go), on a table t (id int4, pad text), or on pgbench's
// tables; "first" is a trivial first session after a start.
func CatalogKinds(major int) []CatalogKind {
	noPar := "SET max_parallel_workers_per_gather = 0"
	// a mark's session (markNow; pg_stat_io is read too only in scenarios that show it)
	session := []string{sqlClearSnapshot, sqlStatWAL, sqlInsertLSN}
	return []CatalogKind{
		{"session", session},
		{"scan", []string{noPar, sqlScan("t")}},
		{"scan1w", []string{"SET min_parallel_table_scan_size = 0", "SET parallel_setup_cost = 0", "SET max_parallel_workers_per_gather = 1", sqlScan("t")}},
		{"insert", []string{sqlInsert("t", "g, repeat('x', 1800)", 100001, 100004), sqlRelationPages("t")}},
		{"copy", []string{sqlClearSnapshot, sqlStatWAL, sqlInsertLSN, sqlCopy("t", false), sqlInsertLSN, sqlRelationPages("t")}},
		{"vacuum", []string{sqlVacuum("t", "VERBOSE")}},
		{"checkpoint", []string{sqlCheckpointWritten(major), sqlInsertLSN, "CHECKPOINT", sqlInsertLSN, sqlClearSnapshot, sqlCheckpointWritten(major)}},
		{"buffercache", []string{sqlDatabaseOID, sqlUserTables, sqlBuffers}},
		{"table", []string{"CREATE TABLE t2 (id int4, pad text) WITH (autovacuum_enabled=off)", "ALTER TABLE t2 ALTER COLUMN pad SET STORAGE PLAIN"}},
		// The statistics views' sessions: show stat tables, show stat
		// database, show stat bgwriter and show io (a mark's queries, then
		// the view; 15 has no pg_stat_io).
		{"statTables", []string{sqlClearSnapshot, sqlPgbenchTables}},
		{"statDatabase", []string{sqlClearSnapshot, sqlPgbenchDB}},
		{"statBgwriter", append(session[:len(session):len(session)], sqlStatBgwriter(major))},
		{"statIO", append(session[:len(session):len(session)], sqlStatIO(major))},
		// pgbench's sessions: its setup connection (GetTableInfo's
		// queries) and a client's first transaction of each builtin (its
		// statements planned once; later ones hit the relcache and syscache).
		{"pgbenchSetup", pgbench.SetupQueries},
		{"pgbenchTPCB", pgbenchTxn.SQL(pgbench.TPCBLike)},
		{"pgbenchSimpleUpdate", pgbenchTxn.SQL(pgbench.SimpleUpdate)},
		{"pgbenchSelectOnly", pgbenchTxn.SQL(pgbench.SelectOnly)},
		// The session verify reads a pgbench run's counters in before the
		// run (pgbenchRunFigures: its first reading, the wait for other
		// clients; the reading that counts comes after, its caches warm).
		{"pgbenchReading", pgbenchReadingSQL(major)},
		// ANALYZE and CREATE INDEX as verify's analyze and index commands
		// send them (actAnalyze, actIndex). Last, and analyze before index:
		// what they write stays for the kinds measured after them.
		{"analyze", []string{sqlInsertLSN, "ANALYZE (VERBOSE) t", sqlInsertLSN}},
		{"index", []string{sqlInsertLSN, "CREATE INDEX t_id ON t (id)", sqlInsertLSN, sqlRelationPages("t_id")}},
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

// SetSQL is what verify's set command sends (actSet), in one session.
func SetSQL(key, val string) []string {
	return []string{"SELECT pg_conf_load_time()", "ALTER SYSTEM SET " + key + " = '" + val + "'", "SELECT pg_reload_conf()", "SELECT pg_conf_load_time()"}
}
