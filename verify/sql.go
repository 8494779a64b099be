package verify

import "fmt"

// The SQL verify sends, in one place: the catalog profile (catalog.go) is
// measured with exactly these statements, so the simulator's catalog pins for
// a command are those of the session verify opens for it.

// sessionEnd ends every session: the backend reports its statistics before
// the second round trip completes (pg_stat_force_next_flush, then
// pgstat_report_stat runs before ReadyForQuery).
var sessionEnd = []string{"SELECT pg_stat_force_next_flush()", "SELECT 1"}

func sqlExplain(stmt string) string {
	return "EXPLAIN (ANALYZE, BUFFERS, WAL, FORMAT JSON) " + stmt
}

func sqlScan(table string) string { return sqlExplain("SELECT count(*) FROM " + table) }

func sqlInsert(table string, exprs string, from, to int64) string {
	return sqlExplain(fmt.Sprintf("INSERT INTO %s SELECT %s FROM generate_series(%d, %d) g", table, exprs, from, to))
}

func sqlCopy(table string, freeze bool) string {
	if freeze {
		return "COPY " + table + " FROM STDIN (FREEZE)"
	}
	return "COPY " + table + " FROM STDIN"
}

func sqlRelationPages(table string) string {
	return fmt.Sprintf("SELECT pg_relation_size('%s') / 8192", table)
}

func sqlVacuum(table, opts string) string { return fmt.Sprintf("VACUUM (%s) %s", opts, table) }

const (
	sqlClearSnapshot = "SELECT pg_stat_clear_snapshot()"
	sqlInsertLSN     = "SELECT pg_current_wal_insert_lsn()::text"
	sqlStatWAL       = "SELECT wal_records, wal_fpi, wal_bytes::bigint, wal_buffers_full FROM pg_stat_wal"
	// the show buffercache session
	sqlDatabaseOID = "SELECT oid FROM pg_database WHERE datname = current_database()"
	sqlUserTables  = "SELECT relname::text, pg_relation_filenode(oid) FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r'"
	// only when the scenario has indexes (so the catalog profile's query is unchanged otherwise)
	sqlUserIndexes = "SELECT relname::text, pg_relation_filenode(oid) FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'i'"
	sqlBuffers     = "SELECT relfilenode, reldatabase, relforknumber, isdirty, usagecount FROM pg_buffercache"
	// diagnose's corpus (Options.PlanDir): settings, and the cache with relation names
	sqlSettingsExport    = "SELECT name, setting, unit FROM pg_settings ORDER BY name"
	sqlBuffercacheExport = "SELECT b.bufferid, b.relfilenode, c.relname, b.relforknumber, b.relblocknumber, b.isdirty, b.usagecount FROM pg_buffercache b LEFT JOIN pg_class c ON c.relfilenode = b.relfilenode AND b.reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database()) ORDER BY b.bufferid"
)

// sqlCheckpointWritten is the checkpointer's count of buffers written.
func sqlCheckpointWritten(major int) string {
	if major >= 17 {
		return "SELECT buffers_written FROM pg_stat_checkpointer"
	}
	return "SELECT buffers_checkpoint FROM pg_stat_bgwriter"
}

// sqlStatBgwriter reads the background processes' counters as
// (timed, requested, buffers written by checkpoints, buffers_clean,
// maxwritten_clean, buffers_alloc): 17 moved the checkpoint columns to
// pg_stat_checkpointer.
func sqlStatBgwriter(major int) string {
	if major >= 17 {
		return "SELECT c.num_timed, c.num_requested, c.buffers_written, b.buffers_clean, b.maxwritten_clean, b.buffers_alloc FROM pg_stat_checkpointer c, pg_stat_bgwriter b"
	}
	return "SELECT checkpoints_timed, checkpoints_req, buffers_checkpoint, buffers_clean, maxwritten_clean, buffers_alloc FROM pg_stat_bgwriter"
}
