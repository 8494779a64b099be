package scenario

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// badPrelude starts the cluster most bad-input cases run in: lines 1 to 3.
const badPrelude = "cluster version=18 shared_buffers=1MB\ntable t rows=1000\ninsert t\n"

// badRun runs a scenario as `pgbufsim run` does (ExecStep, then Finish)
// and returns its first error as run prints it, "bad.scn:LINE: …" (or
// "accepted", or the panic).
func badRun(src, dir string) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprintf("panic: %v", r)
		}
	}()
	f, err := Parse("bad.scn", src)
	if err != nil {
		return err.Error()
	}
	env := &Env{Seed: 1, CheckInvariants: true, Dir: dir}
	for _, st := range f.Steps {
		if _, err := env.ExecStep(st); err != nil {
			return (&Error{File: "bad.scn", Line: st.Line, Err: err}).Error()
		}
	}
	if err := env.Finish("bad.scn"); err != nil {
		return err.Error()
	}
	return "accepted"
}

// TestBadInput: every bad input is refused with the file, the line, the
// word or setting, its value and what is allowed; none panics, none is
// accepted. A case without "!" runs after badPrelude (so its first line is
// line 4); "\n" separates the lines of a case; @NUL@ is "a", a NUL byte and
// "b"; @NxINT8@ is N int8 columns.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, writeFile(dir, "x.csv", "t,1\n"))
	require.GreaterOrEqual(t, len(badInputs), 200)
	for _, c := range badInputs {
		body := strings.ReplaceAll(c.src, `\n`, "\n")
		body = strings.ReplaceAll(body, "@NUL@", "a\x00b")
		body = strings.ReplaceAll(body, "@2000INT8@", strings.Repeat("int8, ", 1999)+"int8")
		body = strings.ReplaceAll(body, "@1100INT8@", strings.Repeat("int8, ", 1099)+"int8")
		src := body + "\n"
		if !c.alone {
			src = badPrelude + src
		}
		got := strings.ReplaceAll(badRun(src, dir), dir, "DIR")
		require.NotEqual(t, "accepted", got, "%s", c.src)
		require.NotContains(t, got, "panic", "%s", c.src)
		require.Equal(t, c.want, got, "%s", c.src)
	}
}

func writeFile(dir, name, text string) error {
	return os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
}

var badInputs = []struct {
	alone     bool // run without badPrelude
	src, want string
}{
	{true, "frobnicate", "bad.scn:1: unknown command \"frobnicate\" (commands: cluster, set, restart, table, insert, copy, begin, commit, truncate, checkpoint, evict, scan, vacuum, index, index_scan, pgbench, analyze, drop, replay, sleep, mark, trace, plot, crash, recover, show)"},
	{true, "scan t", "bad.scn:1: scan: no cluster yet (start with: cluster version=18 ...)"},
	{true, "cluster version=14", "bad.scn:1: version=14: supported versions are 15 to 19"},
	{true, "cluster version=abc", "bad.scn:1: version=abc: supported versions are 15 to 19"},
	{true, "cluster version=18 shared_buffers=64kB", "bad.scn:1: shared_buffers=64kB: below the minimum of 16 buffers (128kB)"},
	{true, "cluster version=18 shared_buffers=lots", "bad.scn:1: shared_buffers=lots: not a size (want a number with an optional unit B, kB, MB, GB, TB)"},
	{true, "cluster version=18 shared_buffers=1.5XB", "bad.scn:1: shared_buffers=1.5XB: unknown unit \"XB\" (valid units are B, kB, MB, GB and TB)"},
	{true, "cluster version=18 shared_buffers=9999999TB", "bad.scn:1: shared_buffers=9999999TB: above PostgreSQL's maximum of 1073741823 buffers (8TB)"},
	{true, "cluster version=18 shared_buffers=512GB", "bad.scn:1: shared_buffers=512GB: beyond the simulator's limit of 33554432 buffers (256GB; ~20 bytes of memory a buffer); PostgreSQL allows up to 8TB"},
	{true, "cluster version=18 no_such_guc=1", "bad.scn:1: no_such_guc=1: unrecognized configuration parameter (see 'pgbufsim help settings')"},
	{true, "cluster version=18 work_mem=4MB", "bad.scn:1: work_mem=4MB: a PostgreSQL setting the simulator does not model (nothing it changes is simulated); leave it out (the settings it models: 'pgbufsim help settings')"},
	{true, "cluster version=18 random_page_cost=-1", "bad.scn:1: random_page_cost=-1: must be a number from 0 to 1099511627776"},
	{true, "cluster version=18 random_page_cost=abc", "bad.scn:1: random_page_cost=abc: must be a number from 0 to 1099511627776"},
	{true, "cluster version=18 host_time_scale=0", "bad.scn:1: host_time_scale=0: must be a number greater than 0, at most 100"},
	{true, "cluster version=18 host_time_scale=101", "bad.scn:1: host_time_scale=101: must be a number greater than 0, at most 100"},
	{true, "cluster version=18 host_cpus=1025", "bad.scn:1: host_cpus=1025: outside the allowed range 0..1024"},
	{true, "cluster version=18 host_cpus=-1", "bad.scn:1: host_cpus=-1: outside the allowed range 0..1024"},
	{true, "cluster version=18 host_cpus=two", "bad.scn:1: host_cpus=two: must be an integer from 0 to 1024"},
	{true, "cluster version=18 host_sched_slice=2s", "bad.scn:1: host_sched_slice=2s: outside the allowed range -1ms..1s"},
	{true, "cluster version=18 host_sched_slice=fast", "bad.scn:1: host_sched_slice=fast: not a duration (want a number with an optional unit us, ms, s, min, h, d)"},
	{true, "cluster version=16 io_combine_limit=128kB", "bad.scn:1: io_combine_limit=128kB: unrecognized configuration parameter in PostgreSQL 16 (added in 17)"},
	{true, "cluster version=18 io_combine_limit=2MB", "bad.scn:1: io_combine_limit=2MB: outside the allowed range 1..128 (8kB..1MB)"},
	{true, "cluster version=17 io_combine_limit=512kB", "bad.scn:1: io_combine_limit=512kB: outside the allowed range 1..32 (8kB..256kB) in PostgreSQL 17"},
	{true, "cluster version=18 effective_io_concurrency=5000", "bad.scn:1: effective_io_concurrency=5000: outside the allowed range 0..1000"},
	{true, "cluster version=18 effective_io_concurrency=1e9", "bad.scn:1: effective_io_concurrency=1e9: outside the allowed range 0..1000"},
	{true, "cluster version=18 effective_io_concurrency=16kB", "bad.scn:1: effective_io_concurrency=16kB: must be an integer from 0 to 1000"},
	{true, "cluster version=18 maintenance_work_mem=512kB", "bad.scn:1: maintenance_work_mem=512kB: outside the allowed range 1024..2147483647 (1MB..2147483647kB)"},
	{true, "cluster version=18 vacuum_buffer_usage_limit=64kB", "bad.scn:1: vacuum_buffer_usage_limit=64kB: must be 0 or between 128kB and 16GB"},
	{true, "cluster version=18 wal_writer_delay=0", "bad.scn:1: wal_writer_delay=0: outside the allowed range 1ms..10s"},
	{true, "cluster version=18 wal_writer_delay=20s", "bad.scn:1: wal_writer_delay=20s: outside the allowed range 1ms..10s"},
	{true, "cluster version=18 wal_writer_delay=5parsecs", "bad.scn:1: wal_writer_delay=5parsecs: unknown unit \"parsecs\" (valid units are us, ms, s, min, h and d)"},
	{true, "cluster version=18 wal_writer_delay=1000000d", "bad.scn:1: wal_writer_delay=1000000d: out of range (at most 106751d, the simulated clock's 292 years)"},
	{true, "cluster version=18 wal_buffers=-2", "bad.scn:1: wal_buffers=-2: outside the allowed range -1..262143 (-1 or 8kB..2097144kB)"},
	{true, "cluster version=18 shared_buffers=1MB shared_buffers=2MB", "bad.scn:1: shared_buffers=2MB: given twice on one line (first as shared_buffers=1MB); give each setting once"},
	{true, "cluster version=18 data_checksums=maybe", "bad.scn:1: data_checksums=maybe: must be a boolean (on/off/true/false)"},
	{true, "cluster version=18 io_method=posix", "bad.scn:1: io_method=posix: must be one of worker, sync, io_uring"},
	{true, "cluster version=19 io_method=io_uring", "bad.scn:1: io_method=io_uring: version=19: io_uring is not modelled; give io_method=worker or sync"},
	{true, "cluster version=19 freelist=on", "bad.scn:1: freelist=on: PostgreSQL 19 has no free list (2c78940527); freelist=on is a what-if for 15 to 18 only"},
	{true, "cluster version=18 device=floppy", "bad.scn:1: device=floppy: must be one of cloud-ebs, hdd, nvme, sata-ssd"},
	{true, "cluster version=18 read_ahead_kb=3", "bad.scn:1: read_ahead_kb=3: must be a multiple of 4 (the kernel reads ahead in 4kB pages) from 0 to 65536"},
	{true, "cluster version=18 os_cache=100TB", "bad.scn:1: os_cache=100TB: must be from 0 (no page cache: every read goes to the device) to 24TB (the largest machines sold)"},
	{true, "cluster version=18 ring=0", "bad.scn:1: ring=0: must be auto or a number of buffers from 1 to 1073741823"},
	{true, "cluster version=18 ring=lots", "bad.scn:1: ring=lots: must be auto or a number of buffers from 1 to 1073741823"},
	{true, "cluster version=18 usage_max=0", "bad.scn:1: usage_max=0: outside the allowed range 1..5"},
	{true, "cluster version=18 reject=never", "bad.scn:1: reject=never: must be one of pg, flush"},
	{true, "cluster version=18 replacement=random", "bad.scn:1: replacement=random: must be one of clock, lru, 2q, arc, clock-pro"},
	{true, "cluster version=18 shared_buffers", "bad.scn:1: shared_buffers: expected GUC=value"},
	{true, "cluster version=18 max_connections=0", "bad.scn:1: max_connections=0: outside the allowed range 1..262143"},
	{true, "cluster version=18 io_workers=0", "bad.scn:1: io_workers=0: outside the allowed range 1..32"},
	{true, "cluster version=19 io_workers=3", "bad.scn:1: io_workers=3: unrecognized configuration parameter in PostgreSQL 19 (removed after 18)"},
	{true, "cluster version=18 io_min_workers=2", "bad.scn:1: io_min_workers=2: unrecognized configuration parameter in PostgreSQL 18 (added in 19)"},
	{true, "cluster version=18 max_wal_senders=-1", "bad.scn:1: max_wal_senders=-1: outside the allowed range 0..262143"},
	{true, "cluster version=18 parallel_setup_cost=1e300", "bad.scn:1: parallel_setup_cost=1e300: must be a number from 0 to 1099511627776"},
	{false, "set effective_io_concurrency=-1", "bad.scn:4: effective_io_concurrency=-1: outside the allowed range 0..1000"},
	{false, "set effective_io_concurrency=2 effective_io_concurrency=3", "bad.scn:4: effective_io_concurrency=3: given twice on one line (first as effective_io_concurrency=2); give each setting once"},
	{false, "set shared_buffers=256MB", "bad.scn:4: shared_buffers=256MB: cannot be changed without restarting the server (set it on the cluster command)"},
	{false, "set data_checksums=off", "bad.scn:4: data_checksums=off: is chosen at initdb; start a new cluster with cluster ... data_checksums=off"},
	{false, "set os_cache=1GB", "bad.scn:4: os_cache=1GB: describes the machine; give it on the cluster command"},
	{false, "set work_mem=4MB", "bad.scn:4: work_mem=4MB: a PostgreSQL setting the simulator does not model (nothing it changes is simulated); leave it out (the settings it models: 'pgbufsim help settings')"},
	{false, "set no_such_guc=1", "bad.scn:4: no_such_guc=1: unrecognized configuration parameter (see 'pgbufsim help settings')"},
	{false, "set", "bad.scn:4: set: expected GUC=value"},
	{false, "set effective_io_concurrency", "bad.scn:4: effective_io_concurrency: expected one value (effective_io_concurrency=...)"},
	{false, "set wal_compression=brotli", "bad.scn:4: wal_compression=brotli: must be one of off, on, pglz, lz4, zstd"},
	{false, "set track_io_timing=sometimes", "bad.scn:4: track_io_timing=sometimes: must be a boolean (on/off/true/false)"},
	{false, "table t2", "bad.scn:4: table t2: give its size as rows=N or pages=N"},
	{false, "table", "bad.scn:4: table: expected a name: table NAME rows=N ..."},
	{false, "table t2 rows=10 rows=20", "bad.scn:4: rows=20: given twice on one line (first as rows=10); give each option once"},
	{false, "table t rows=10", "bad.scn:4: table t: relation \"t\" already exists"},
	{false, "table t2 pages=0", "bad.scn:4: pages=0: must be a whole number of pages, at least 1 (a table of 0 pages cannot be loaded)"},
	{false, "table t2 pages=-5", "bad.scn:4: pages=-5: must be a whole number of pages, at least 1 (a table of 0 pages cannot be loaded)"},
	{false, "table t2 pages=1e12", "bad.scn:4: pages=1e12: write it in digits (pages=1000000000000); must be a whole number of pages, at least 1 (a table of 0 pages cannot be loaded)"},
	{false, "table t2 pages=1000000000000", "bad.scn:4: table t2: pages=1000000000000: beyond PostgreSQL's 4294967295 blocks a relation (32TB: block numbers end at 0xFFFFFFFE)"},
	{false, "table t2 pages=4294967295", "bad.scn:4: table t2: pages=4294967295: beyond the simulator's limit of 134217728 pages a relation (1TB; 16 bytes of state a page)"},
	{false, "table t2 pages=1.5", "bad.scn:4: pages=1.5: not a whole number in digits; must be a whole number of pages, at least 1 (a table of 0 pages cannot be loaded)"},
	{false, "table t2 rows=0", "bad.scn:4: rows=0: must be a whole number of rows, at least 1"},
	{false, "table t2 rows=99999999999999999999", "bad.scn:4: rows=99999999999999999999: out of range: at most 9223372036854775807 (a 64-bit integer); must be a whole number of rows, at least 1"},
	{false, "table t2 rows=lots", "bad.scn:4: rows=lots: not a whole number in digits; must be a whole number of rows, at least 1"},
	{false, "table t2 rows=10 pages=10", "bad.scn:4: table t2: give rows=N or pages=N, not both"},
	{false, "table t2 rows=100 tuple_bytes=9000", "bad.scn:4: tuple_bytes=9000: must be between 24 and 8164 (a heap tuple must fit on an 8kB page)"},
	{false, "table t2 rows=100 tuple_bytes=10", "bad.scn:4: tuple_bytes=10: must be between 24 and 8164 bytes (a heap tuple with its 23-byte header)"},
	{false, "table t2 rows=100 tuple_bytes=abc", "bad.scn:4: tuple_bytes=abc: not a whole number in digits; must be between 24 and 8164 bytes (a heap tuple with its 23-byte header)"},
	{false, "table t2 rows=100 fillfactor=5", "bad.scn:4: fillfactor=5: must be between 10 and 100"},
	{false, "table t2 rows=100 fillfactor=101", "bad.scn:4: fillfactor=101: must be between 10 and 100"},
	{false, "table t2 rows=100 tuples_per_page=0", "bad.scn:4: tuples_per_page=0: must be between 1 and 291 (MaxHeapTuplesPerPage)"},
	{false, "table t2 rows=100 tuples_per_page=300", "bad.scn:4: tuples_per_page=300: must be between 1 and 291 (MaxHeapTuplesPerPage)"},
	{false, "table t2 rows=100 tuples_per_page=10 tuple_bytes=100", "bad.scn:4: table t2: give tuples_per_page or a row shape (tuple_bytes, columns), not both"},
	{false, "table t2 rows=100 content=random", "bad.scn:4: content=random: x (the pad repeats 'x') or md5 (rpad(md5(id), n, md5(id+7)))"},
	{false, "table t2 rows=100 autovacuum=maybe", "bad.scn:4: autovacuum=maybe: must be on or off"},
	{false, "table t2 rows=100 colour=blue", "bad.scn:4: table t2: unknown option \"colour\" (rows, pages, tuple_bytes, columns, tuples_per_page, fillfactor, content, autovacuum)"},
	{false, "table t2 rows=100 extra", "bad.scn:4: table t2: unexpected \"extra\" (expected key=value)"},
	{false, "table t2 rows=100 columns=(int4, blob)", "bad.scn:4: table t2: columns: unknown column type \"blob\" (int2, int4, int8, float8, bool, date, timestamp, uuid, text:N, varchar:N, bytea:N)"},
	{false, "table t2 rows=100 columns=(text)", "bad.scn:4: table t2: columns: text needs a length, e.g. text:1800"},
	{false, "table t2 rows=100 columns=(text:9000)", "bad.scn:4: table t2: columns: text:9000: length must be 0..8000"},
	{false, "table t2 rows=10 columns=(@2000INT8@)", "bad.scn:4: table t2: columns: 2000 columns: tables can have at most 1600 columns (MaxHeapAttributeNumber)"},
	{false, "table t2 rows=10 columns=(@1100INT8@)", "bad.scn:4: table t2: columns: a row of these 1100 columns is 8824 bytes with its header; a heap row must fit on an 8kB page: at most 8164 bytes (fewer or narrower columns)"},
	{false, "table @NUL@ rows=10", "bad.scn:4: table: invalid byte sequence for encoding \"UTF8\": 0x00 (a NUL byte in \"a\\x00b\"; PostgreSQL refuses one anywhere in a statement)"},
	{false, "insert", "bad.scn:4: insert: expected a table name"},
	{false, "insert nosuch", "bad.scn:4: insert nosuch: relation \"nosuch\" does not exist"},
	{false, "insert t rows=0", "bad.scn:4: insert t: rows=0: must be a whole number of rows in digits, at least 1"},
	{false, "insert t rows=-1", "bad.scn:4: insert t: rows=-1: must be a whole number of rows in digits, at least 1"},
	{false, "insert t rows=abc", "bad.scn:4: insert t: rows=abc: must be a whole number of rows in digits, at least 1"},
	{false, "copy nosuch", "bad.scn:4: copy nosuch: relation \"nosuch\" does not exist"},
	{false, "copy t freeze", "bad.scn:4: copy t freeze: cannot perform COPY FREEZE because the table was not created or truncated in the current subtransaction"},
	{false, "copy t rows=abc", "bad.scn:4: copy t: rows=abc: must be a whole number of rows in digits, at least 1"},
	{false, "truncate", "bad.scn:4: truncate: expected a table name"},
	{false, "truncate nosuch", "bad.scn:4: truncate nosuch: relation \"nosuch\" does not exist"},
	{false, "begin extra", "bad.scn:4: begin: takes no arguments"},
	{false, "commit", "bad.scn:4: commit: there is no transaction in progress"},
	{false, "commit extra", "bad.scn:4: commit: takes no arguments"},
	{false, "begin\\nbegin", "bad.scn:5: begin: there is already a transaction in progress"},
	{false, "begin\\ncluster version=18", "bad.scn:5: cluster cannot run inside a transaction block (begin at line 4 is not committed; commit first)"},
	{false, "begin", "bad.scn:4: begin: the transaction block it opens is never committed (add commit after its last command)"},
	{false, "checkpoint now", "bad.scn:4: checkpoint: takes no arguments"},
	{false, "evict", "bad.scn:4: evict: expected 'evict all' or 'evict TABLE'"},
	{false, "evict nosuch", "bad.scn:4: evict nosuch: relation \"nosuch\" does not exist"},
	{false, "evict all t", "bad.scn:4: evict: expected 'evict all' or 'evict TABLE'"},
	{false, "scan", "bad.scn:4: scan: expected a table name"},
	{false, "scan nosuch", "bad.scn:4: scan nosuch: relation \"nosuch\" does not exist"},
	{false, "scan t repeat=0", "bad.scn:4: scan t: repeat=0: must be between 1 and 1000"},
	{false, "scan t repeat=abc", "bad.scn:4: scan t: repeat=abc: must be between 1 and 1000"},
	{false, "scan t colour=red", "bad.scn:4: scan t: unknown option \"colour\" (repeat)"},
	{false, "vacuum", "bad.scn:4: vacuum: expected a table name"},
	{false, "vacuum nosuch", "bad.scn:4: vacuum nosuch: relation \"nosuch\" does not exist"},
	{false, "vacuum t full", "bad.scn:4: vacuum t: unknown option \"full\" (freeze)"},
	{false, "analyze", "bad.scn:4: analyze: expected a table name"},
	{false, "analyze nosuch", "bad.scn:4: analyze nosuch: relation \"nosuch\" does not exist"},
	{false, "index", "bad.scn:4: index: expected a name: index NAME on=TABLE [key=id]"},
	{false, "index i", "bad.scn:4: index i: give the table: on=TABLE"},
	{false, "index i on=nosuch", "bad.scn:4: index i: relation \"nosuch\" does not exist"},
	{false, "index t on=t", "bad.scn:4: index t: relation \"t\" already exists"},
	{false, "index i on=t key=nosuch", "bad.scn:4: index i: key=nosuch: declare how many distinct values it has: distinct=N (the model's rows have only id)"},
	{false, "index i on=t distinct=0", "bad.scn:4: index i: distinct=0: expected the number of distinct key values, at least 1"},
	{false, "index i on=t colour=red", "bad.scn:4: index i: unknown option \"colour\" (on, key, unique, distinct, correlation, values)"},
	{false, "index i on=t key=k values=md5", "bad.scn:4: index i: values=md5: expected hashint4 (each row's key is hashint4(id))"},
	{false, "index i on=t key=k values=hashint4 distinct=5", "bad.scn:4: index i: values=hashint4: the values give the distinct count and the correlation; distinct= and correlation= declare another key's"},
	{false, "index i on=t key=k values=hashint4\nindex_scan i key=1", "bad.scn:5: index_scan i: an index scan of hashint4 keys is not modelled (their rows' heap pages are not kept)"},
	{false, "index_scan nosuch key=1", "bad.scn:4: index_scan nosuch: index \"nosuch\" does not exist"},
	{false, "index i on=t\\nindex_scan i", "bad.scn:5: index_scan i: give key=K, or from=A to=B with A ≤ B"},
	{false, "index i on=t\\nindex_scan i from=10 to=1", "bad.scn:5: index_scan i: give key=K, or from=A to=B with A ≤ B"},
	{false, "index i on=t\\nindex_scan i key=abc", "bad.scn:5: index_scan i: key=abc: expected a whole number in digits"},
	{false, "drop", "bad.scn:4: drop: expected: drop caches"},
	{false, "drop tables", "bad.scn:4: drop: expected: drop caches"},
	{false, "drop caches now", "bad.scn:4: drop: expected: drop caches"},
	{false, "replay", "bad.scn:4: replay: expected a trace file: replay FILE format=oraclegeneral|csv [relation=NAME]"},
	{false, "replay nosuch.csv format=csv", "bad.scn:4: replay nosuch.csv: open DIR/nosuch.csv: no such file or directory"},
	{false, "replay x.csv", "bad.scn:4: replay x.csv: give the trace's format=oraclegeneral or format=csv"},
	{false, "replay x.csv format=parquet", "bad.scn:4: replay x.csv: format=parquet: unknown trace format (oraclegeneral or csv)"},
	{false, "replay x.csv format=csv relation=t", "bad.scn:4: replay x.csv: relation= is for oraclegeneral traces; CSV lines name their relation"},
	{false, "replay x.csv format=csv colour=red", "bad.scn:4: replay x.csv: unknown option \"colour\" (format, relation)"},
	{false, "sleep", "bad.scn:4: sleep: expected one duration, e.g. sleep 200ms (units us, ms, s, min, h, d)"},
	{false, "sleep 1000000d", "bad.scn:4: sleep 1000000d: out of range (at most 106751d, the simulated clock's 292 years)"},
	{false, "sleep 300000d", "bad.scn:4: sleep 300000d: out of range (at most 106751d, the simulated clock's 292 years)"},
	// The WAL writer's longest cycle makes the first 100000 days quick to simulate.
	{true, "cluster version=18 wal_writer_delay=10s\\nsleep 100000d\\nsleep 100000d", "bad.scn:3: sleep 100000d: the simulated clock would pass its end (292 years after the cluster started): 100000d 0h 0min 0s of simulated time has passed, so a sleep may last at most 6751d 23h 47min 16s"},
	{false, "sleep -1s", "bad.scn:4: sleep -1s: a duration cannot be negative (0 or more, e.g. sleep 200ms)"},
	{false, "sleep abc", "bad.scn:4: sleep abc: not a duration (want a number with an optional unit us, ms, s, min, h, d)"},
	{false, "sleep 5parsecs", "bad.scn:4: sleep 5parsecs: unknown unit \"parsecs\" (valid units are us, ms, s, min, h and d)"},
	{false, "sleep 1s 2s", "bad.scn:4: sleep: expected one duration, e.g. sleep 200ms (units us, ms, s, min, h, d)"},
	{false, "mark", "bad.scn:4: mark: expected one name"},
	{false, "mark a\\nmark a", "bad.scn:5: mark a: a mark named \"a\" already exists; give each mark its own name (since=a would be ambiguous)"},
	{false, "mark a b", "bad.scn:4: mark: expected one name"},
	{false, "trace", "bad.scn:4: trace: expected on or off (trace on [events=(victim,usage,…)] [limit=N])"},
	{false, "trace sideways", "bad.scn:4: trace: expected on or off (trace on [events=(victim,usage,…)] [limit=N])"},
	{false, "trace on events=(nothing)", "bad.scn:4: events=nothing: is not an event (reuse, escape, free, hand, usage, victim, reject, fpi, walflush, write)"},
	{false, "trace on limit=0", "bad.scn:4: limit=0: must be a whole number of event lines a command, at least 1"},
	{false, "trace on limit=abc", "bad.scn:4: limit=abc: must be a whole number of event lines a command, at least 1"},
	{false, "plot", "bad.scn:4: plot: name at least one series (composition, usage, wal, fpi)"},
	{false, "plot nothing", "bad.scn:4: plot: unknown series \"nothing\" (composition, usage, wal, fpi)"},
	{false, "show", "bad.scn:4: show: expected buffercache, io, wal, settings or visibility"},
	{false, "show nothing", "bad.scn:4: show nothing: unknown (buffercache, pool, io, wal, settings, visibility, replication, corruption, stat)"},
	{false, "show buffercache nosuch", "bad.scn:4: show buffercache nosuch: relation \"nosuch\" does not exist"},
	{false, "show io context=nothing", "bad.scn:4: show io: context=nothing: must be normal, bulkread, bulkwrite, vacuum or init"},
	{false, "show io since=nomark", "bad.scn:4: show io: since=nomark: no such mark (set one with: mark nomark)"},
	{false, "show wal since=nomark", "bad.scn:4: show wal: since=nomark: no such mark (set one with: mark nomark)"},
	{false, "show visibility", "bad.scn:4: show visibility: expected a table name"},
	{false, "show visibility nosuch", "bad.scn:4: show visibility nosuch: relation \"nosuch\" does not exist"},
	{false, "show replication", "bad.scn:4: show replication: give since=MARK"},
	{false, "crash after=reads:3", "bad.scn:4: crash: after=reads:3: expected after=writes:N with N ≥ 1 (the N-th data page written to the device)"},
	{false, "crash after=writes:abc", "bad.scn:4: crash: after=writes:abc: expected after=writes:N with N ≥ 1 (the N-th data page written to the device)"},
	{false, "crash after=writes:0", "bad.scn:4: crash: after=writes:0: expected after=writes:N with N ≥ 1 (the N-th data page written to the device)"},
	{false, "recover", "bad.scn:4: recover: the cluster has not crashed (crash first)"},
	{false, "restart now", "bad.scn:4: restart: takes no arguments"},
	{true, "cluster version=16\\ntable t rows=10\\nevict t", "bad.scn:3: evict t: PostgreSQL 16's pg_buffercache cannot evict a relation (pg_buffercache_evict is 17+, pg_buffercache_evict_relation 18+); use version=17 or later, or restart"},
	{true, "cluster version=15\\ntable t rows=10\\ninsert t\\nevict t", "bad.scn:4: evict t: PostgreSQL 15's pg_buffercache cannot evict a relation (pg_buffercache_evict is 17+, pg_buffercache_evict_relation 18+); use version=17 or later, or restart"},
	{true, "cluster version=18 shared_buffers=1.5MB\\nbegin", "bad.scn:2: begin: the transaction block it opens is never committed (add commit after its last command)"},
	{true, "cluster version=18 version=17", "bad.scn:1: version=17: given twice on one line (first as version=18); give each setting once"},
	{true, "cluster version=18 effective_io_concurrency=abc", "bad.scn:1: effective_io_concurrency=abc: must be an integer from 0 to 1000"},
	{true, "cluster version=18 max_connections=1.5e6", "bad.scn:1: max_connections=1.5e6: outside the allowed range 1..262143"},
	{true, "cluster version=18 checkpoint_timeout=10s", "bad.scn:1: checkpoint_timeout=10s: outside the allowed range 30s..24h"},
	{true, "cluster version=18 checkpoint_timeout=2d", "bad.scn:1: checkpoint_timeout=2d: outside the allowed range 30s..24h"},
	{true, "cluster version=18 max_wal_size=1MB", "bad.scn:1: max_wal_size=1MB: outside the allowed range 2..2147483648 (2MB..2097152GB)"},
	{true, "cluster version=18 min_wal_size=16MB", "bad.scn:1: min_wal_size=16MB: at least twice wal_segment_size (32MB): the server refuses to start below it"},
	{true, "cluster version=18 min_wal_size=1MB", "bad.scn:1: min_wal_size=1MB: outside the allowed range 2..2147483648 (2MB..2097152GB)"},
	{true, "cluster version=18 wal_keep_size=-1", "bad.scn:1: wal_keep_size=-1: outside the allowed range 0..2147483648 (0kB..2097152GB)"},
	{true, "cluster version=18 wal_recycle=maybe", "bad.scn:1: wal_recycle=maybe: must be a boolean (on/off/true/false)"},
	{true, "cluster version=18 wal_init_zero=2", "bad.scn:1: wal_init_zero=2: must be a boolean (on/off/true/false)"},
	{true, "cluster version=18 io_max_combine_limit=0", "bad.scn:1: io_max_combine_limit=0: outside the allowed range 1..128 (8kB..1MB)"},
	{true, "cluster version=18 min_parallel_table_scan_size=-1", "bad.scn:1: min_parallel_table_scan_size=-1: outside the allowed range 0..715827882 (0kB..5726623056kB)"},
	{true, "cluster version=18 effective_cache_size=0", "bad.scn:1: effective_cache_size=0: outside the allowed range 1..2147483647 (8kB..17179869176kB)"},
	{true, "cluster version=18 wal_compression=maybe", "bad.scn:1: wal_compression=maybe: must be one of off, on, pglz, lz4, zstd"},
	{true, "cluster version=18 full_page_writes=2", "bad.scn:1: full_page_writes=2: must be a boolean (on/off/true/false)"},
	{true, "cluster version=18 wal_level=archive", "bad.scn:1: wal_level=archive: must be one of minimal, replica, logical"},
	{true, "cluster version=18 default_statistics_target=0", "bad.scn:1: default_statistics_target=0: outside the allowed range 1..10000"},
	{true, "cluster version=18 max_parallel_workers_per_gather=2000", "bad.scn:1: max_parallel_workers_per_gather=2000: outside the allowed range 0..1024"},
	{true, "cluster version=18 bgwriter_delay=1ms", "bad.scn:1: bgwriter_delay=1ms: outside the allowed range 10ms..10s"},
	{true, "cluster version=18 wal_writer_flush_after=-1", "bad.scn:1: wal_writer_flush_after=-1: outside the allowed range 0..2147483648 (0kB..16384GB)"},
	{true, "cluster version=15 vacuum_buffer_usage_limit=1MB", "bad.scn:1: vacuum_buffer_usage_limit=1MB: unrecognized configuration parameter in PostgreSQL 15 (added in 16)"},
	{true, "cluster version=15 io_method=sync", "bad.scn:1: io_method=sync: unrecognized configuration parameter in PostgreSQL 15 (added in 18)"},
	{true, "cluster version=18 os_cache=-1", "bad.scn:1: os_cache=-1: must be from 0 (no page cache: every read goes to the device) to 24TB (the largest machines sold)"},
	{true, "cluster version=18 read_ahead_kb=99999999", "bad.scn:1: read_ahead_kb=99999999: outside the allowed range 0..65536"},
	{true, "cluster version=18 usage_max=99", "bad.scn:1: usage_max=99: outside the allowed range 1..5"},
	{true, "cluster version=18 ring=-1", "bad.scn:1: ring=-1: must be auto or a number of buffers from 1 to 1073741823"},
	{true, "cluster version=18 freelist=maybe", "bad.scn:1: freelist=maybe: must be a boolean (on/off/true/false)"},
	{true, "cluster version=18 catalog_pins=maybe", "bad.scn:1: catalog_pins=maybe: must be a boolean (on/off/true/false)"},
	{true, "cluster version=18 shared_buffers=(1MB, 2MB)", "bad.scn:1: shared_buffers: expected one value (shared_buffers=...)"},
	{true, "cluster version=18 shared_buffers=0.001kB", "bad.scn:1: shared_buffers=0.001kB: below the minimum of 16 buffers (128kB)"},
	{true, "cluster version=18 wal_writer_delay=0.5us", "bad.scn:1: wal_writer_delay=0.5us: outside the allowed range 1ms..10s"},
	{true, "set effective_io_concurrency=2", "bad.scn:1: set: no cluster yet (start with: cluster version=18 ...)"},
	{true, "mark a", "bad.scn:1: mark: no cluster yet (start with: cluster version=18 ...)"},
	{true, "restart", "bad.scn:1: restart: no cluster yet (start with: cluster version=18 ...)"},
	{true, "cluster version=18 effective_io_concurrency=@NUL@", "bad.scn:1: cluster: invalid byte sequence for encoding \"UTF8\": 0x00 (a NUL byte in \"a\\x00b\"; PostgreSQL refuses one anywhere in a statement)"},
	{false, "insert t rows=99999999999999999999", "bad.scn:4: insert t: rows=99999999999999999999: out of range: at most 9223372036854775807 (a 64-bit integer); must be a whole number of rows, at least 1"},
	{false, "insert t rows=10 rows=20", "bad.scn:4: rows=20: given twice on one line (first as rows=10); give each option once"},
	{false, "copy t rows=1e3", "bad.scn:4: copy t: rows=1e3: must be a whole number of rows in digits, at least 1"},
	{false, "scan t repeat=99999", "bad.scn:4: scan t: repeat=99999: must be between 1 and 1000"},
	{false, "scan t repeat=1e3", "bad.scn:4: scan t: repeat=1e3: must be between 1 and 1000"},
	{false, "sleep 1e400s", "bad.scn:4: sleep 1e400s: not a duration (want a number with an optional unit us, ms, s, min, h, d)"},
	{false, "sleep 1.5.5s", "bad.scn:4: sleep 1.5.5s: unknown unit \".5s\" (valid units are us, ms, s, min, h and d)"},
	{false, "sleep 0x10s", "bad.scn:4: sleep 0x10s: unknown unit \"x10s\" (valid units are us, ms, s, min, h and d)"},
	{false, "index i on=t correlation=2", "bad.scn:4: index i: correlation=2: expected a number from -1 to 1 (pg_stats.correlation)"},
	{false, "index i on=t distinct=abc", "bad.scn:4: index i: distinct=abc: expected the number of distinct key values, at least 1"},
	{false, "index i on=t on=t", "bad.scn:4: on=t: given twice on one line (first as on=t); give each option once"},
	{false, "index i on=t\\nindex_scan i key=1 order=random", "bad.scn:5: index_scan i: order=random: expected index or sorted"},
	{false, "index i on=t\\nindex_scan i rows=5 key=1", "bad.scn:5: index_scan i: rows=: the rows of an id index follow from the table's layout; rows= and pages= declare another key's"},
	{false, "index i on=t\\nindex_scan i key=1 key=2", "bad.scn:5: key=2: given twice on one line (first as key=1); give each option once"},
	{false, "index i on=t\\nindex_scan i colour=red", "bad.scn:5: index_scan i: unknown option \"colour\" (key, from, to, rows, pages, order)"},
	{false, "show io context=bulkread since=nomark", "bad.scn:4: show io: since=nomark: no such mark (set one with: mark nomark)"},
	{false, "show wal since=a since=b", "bad.scn:4: since=b: given twice on one line (first as since=a); give each option once"},
	{false, "trace on events=(victim) events=(usage)", "bad.scn:4: events=usage: given twice on one line (first as events=victim); give each option once"},
	{false, "vacuum t freeze freeze", "bad.scn:4: vacuum: \"freeze\" given twice on one line; give it once"},
	{false, "mark @NUL@", "bad.scn:4: mark: invalid byte sequence for encoding \"UTF8\": 0x00 (a NUL byte in \"a\\x00b\"; PostgreSQL refuses one anywhere in a statement)"},
	{false, "scan @NUL@", "bad.scn:4: scan: invalid byte sequence for encoding \"UTF8\": 0x00 (a NUL byte in \"a\\x00b\"; PostgreSQL refuses one anywhere in a statement)"},
	{false, "set effective_io_concurrency=@NUL@", "bad.scn:4: set: invalid byte sequence for encoding \"UTF8\": 0x00 (a NUL byte in \"a\\x00b\"; PostgreSQL refuses one anywhere in a statement)"},
	{false, "table t3 rows=10 columns=(int4) tuple_bytes=100", "bad.scn:4: table t3: give columns=(...) or tuple_bytes=B, not both (the columns give the row's length)"},
	{false, "table t3 rows=10 columns=(int4) tuples_per_page=10", "bad.scn:4: table t3: give tuples_per_page or a row shape (tuple_bytes, columns), not both"},
	{false, "table t3 rows=10 fillfactor=abc", "bad.scn:4: fillfactor=abc: not a whole number in digits; must be between 10 and 100"},
	{false, "table t3 rows=10 tuples_per_page=abc", "bad.scn:4: tuples_per_page=abc: not a whole number in digits; must be between 1 and 291 (MaxHeapTuplesPerPage)"},
	{false, "begin\\nreplay x.csv format=csv", "bad.scn:5: replay x.csv: not inside a transaction block (commit first)"},
	{false, "begin\\ncopy t freeze", "bad.scn:5: copy t freeze: cannot perform COPY FREEZE because the table was not created or truncated in the current subtransaction"},
	{false, "index i on=t\\nindex j on=t key=id distinct=5", "bad.scn:5: index j: key=id is unique and in load order (distinct and correlation follow); they apply to another key"},
	{false, "scan t repeat=1 repeat=2", "bad.scn:4: repeat=2: given twice on one line (first as repeat=1); give each option once"},
	{false, "show buffercache since=a", "bad.scn:4: show buffercache: unexpected since=... (list table names)"},
	{false, "show pool since=a", "bad.scn:4: show pool: takes no options"},
	{false, "show io context=(normal, vacuum)", "bad.scn:4: show io: context: expected one value (context=...)"},
	{false, "sleep 1.5min 1s", "bad.scn:4: sleep: expected one duration, e.g. sleep 200ms (units us, ms, s, min, h, d)"},
	{false, "crash after=writes:99999999999999999999", "bad.scn:4: crash: after=writes:99999999999999999999: expected after=writes:N with N ≥ 1 (the N-th data page written to the device)"},
	{false, "crash after=writes", "bad.scn:4: crash: after=writes: expected after=writes:N with N ≥ 1 (the N-th data page written to the device)"},
	{false, "drop caches caches", "bad.scn:4: drop: \"caches\" given twice on one line; give it once"},
	{false, "evict all\\nevict t\\nevict nosuch", "bad.scn:6: evict nosuch: relation \"nosuch\" does not exist"},
	{false, "vacuum t freeze freeze", "bad.scn:4: vacuum: \"freeze\" given twice on one line; give it once"},
	{false, "copy t freeze freeze", "bad.scn:4: copy: \"freeze\" given twice on one line; give it once"},
	{false, "index i on=t\\nindex_scan i key=1.5", "bad.scn:5: index_scan i: key=1.5: expected a whole number in digits"},
	{false, "analyze t extra", "bad.scn:4: analyze t: takes no options"},
	{false, "truncate t extra", "bad.scn:4: truncate t: takes no options"},
	{false, "drop caches\\ndrop caches now", "bad.scn:5: drop: expected: drop caches"},
	{false, "checkpoint\\ncheckpoint checkpoint", "bad.scn:5: checkpoint: takes no arguments"},
	{false, "trace off extra", "bad.scn:4: trace off: takes no options"},
	{false, "plot composition title=", "bad.scn:4: plot: title needs a value, e.g. title=ring-flood"},
	{false, "plot composition composition", "bad.scn:4: plot: \"composition\" given twice on one line; give it once"},
	{false, "recover extra", "bad.scn:4: recover: the cluster has not crashed (crash first)"},
	{false, "crash extra", "bad.scn:4: crash: unknown argument \"extra\" (expected: crash [after=writes:N])"},
	{false, "restart extra", "bad.scn:4: restart: takes no arguments"},
}

// What PostgreSQL accepts is accepted as PostgreSQL reads it: a fractional
// size rounded to the next smaller unit, then to the GUC's (parse_int,
// convert_to_base_unit); wal_buffers below 4 pages raised to 4
// (check_wal_buffers); an identifier of 64 bytes or more cut to 63 with
// PostgreSQL's NOTICE (truncate_identifier).
func TestAcceptedAsPostgreSQLReadsIt(t *testing.T) {
	long := strings.Repeat("a", 70)
	env, outs := run(t, "cluster version=18 shared_buffers=1.5MB wal_buffers=1kB wal_writer_delay=1500us\n"+
		"table "+long+" rows=10\nscan "+strings.Repeat("a", 80)+"\nsleep 1.5s\n")
	require.Equal(t, 192, env.C.S.NBuffers(), "1.5MB = 1536kB = 192 pages of 8kB")
	require.Equal(t, "1536kB", env.C.S.Format("shared_buffers"))
	require.Equal(t, "32kB", env.C.S.Format("wal_buffers"), "1kB rounds to 0 pages; check_wal_buffers raises it to 4")
	require.Equal(t, "2ms", env.C.S.Format("wal_writer_delay"), "1.5ms rounds (rint, halves to even) to 2ms")
	require.Equal(t, `NOTICE:  identifier "`+long+`" will be truncated to "`+long[:63]+`"`, strings.Split(outs[1].Text, "\n")[0])
	require.Contains(t, outs[2].Text, "Seq Scan on "+long[:63]+"  ")
	_, ok := env.C.Table(long[:63])
	require.True(t, ok)
	// show buffercache widens its name column to the longest name: the columns stay aligned.
	o, err := env.Exec("show", argsOf("buffercache"))
	require.NoError(t, err)
	lines := strings.Split(o.Text, "\n")
	end := strings.Index(lines[0], "buffers") + len("buffers")
	for _, l := range lines[1:] {
		// every buffers figure ends under "buffers"
		require.True(t, l[end-1] >= '0' && l[end-1] <= '9' && (len(l) == end || l[end] == ' '), "%s", o.Text)
	}
	// A name of 2,000,000 bytes: the notice shows its start and its length.
	_, outs = run(t, "cluster version=18 shared_buffers=1MB\ntable "+strings.Repeat("b", 2000000)+" rows=10\n")
	require.Equal(t, `NOTICE:  identifier "`+strings.Repeat("b", 63)+`…(2000000 bytes)" will be truncated to "`+strings.Repeat("b", 63)+`"`, strings.Split(outs[1].Text, "\n")[0])
	// A multi-byte character is not cut in the middle (pg_mbcliplen): 31 é are 62 bytes.
	_, outs = run(t, "cluster version=18 shared_buffers=1MB\ntable "+strings.Repeat("é", 40)+" rows=10\n")
	require.Contains(t, outs[1].Text, `will be truncated to "`+strings.Repeat("é", 31)+`"`)
}
