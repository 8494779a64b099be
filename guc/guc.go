// Package guc holds the settings a simulated cluster runs with, by their
// PostgreSQL names and units, version by version: each GUC's type, unit,
// range, default in each of 15 to 19, whether it needs a restart (or is
// fixed at initdb), and whether the simulator models it (guc_tables.c,
// guc.c's parsing of sizes and durations). Beside them are the machine's
// settings (the OS page cache, the device, readahead) and the what-if
// switches of the buffer manager (replacement, usage_max, reject, ring,
// freelist), which a real server does not have.
//
// Derived values the server computes at start-up are here too:
// InitializeMaxBackends (MaxBackends), GetPinLimit / MaxProportionalPins
// (bufmgr.c), XLOGChooseNumBuffers (wal_buffers = -1).
package guc

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/storage"
	"github.com/pgbufsim/pgbufsim/strategy"
)

type gucKind uint8

const (
	kindInt gucKind = iota
	kindSize
	kindBool
	kindDuration
	kindEnum
	kindReal
)

// gucDef describes one setting by its PostgreSQL name: type, unit, range, the
// version's default, whether it needs a restart, and whether the model uses it.
type gucDef struct {
	name     string
	kind     gucKind
	unit     pg.Unit // size GUCs: the unit of a bare number
	unitNs   int64   // duration GUCs: the unit of a bare number
	frac     bool    // a duration kept to the microsecond (real GUCs with a unit: vacuum_cost_delay)
	min, max int64
	enum     []string
	// enumFn lists an enum's values when they can grow after start-up
	// (replacement: strategy.Register adds policies).
	enumFn   func() []string
	since    pg.Version
	until    pg.Version // the last version that has it (0: still there)
	restart  bool       // PGC_POSTMASTER (or fixed at initdb)
	initdb   bool       // data_checksums: chosen at initdb
	modelled bool
	// machine: not a PostgreSQL setting but the machine's (the OS page cache,
	// readahead, the device), given on cluster; verify leaves it out.
	machine bool
	// whatif: a simulator variant of the buffer manager (replacement, ring,
	// …), a machine setting that show settings lists only when changed.
	whatif bool
	def    func(v pg.Version) string
	doc    string
}

// values are an enum setting's allowed values.
func (g *gucDef) values() []string {
	if g.enumFn != nil {
		return g.enumFn()
	}
	return g.enum
}

func fixed(s string) func(pg.Version) string { return func(pg.Version) string { return s } }

// in reports whether version v has the setting.
func (g *gucDef) in(v pg.Version) bool { return g.since <= v && (g.until == 0 || v <= g.until) }

// unknownIn is the error for a setting version v does not have.
func (g *gucDef) unknownIn(v pg.Version, value string) error {
	if v < g.since {
		return &pg.SettingError{Name: g.name, Value: value, Allowed: fmt.Sprintf("unrecognized configuration parameter in PostgreSQL %d (added in %d)", v, g.since)}
	}
	return &pg.SettingError{Name: g.name, Value: value, Allowed: fmt.Sprintf("unrecognized configuration parameter in PostgreSQL %d (removed after %d)", v, g.until)}
}

// gucs is the table of settings the scenario language knows, in name order when printed.
var gucs = []gucDef{
	{name: "shared_buffers", kind: kindSize, unit: pg.UnitBlocks, min: 16, max: 1<<30 - 1, restart: true, modelled: true, def: fixed("128MB"), doc: "buffer pool size (NBuffers)"},
	{name: "data_checksums", kind: kindBool, initdb: true, restart: true, modelled: true,
		def: func(v pg.Version) string {
			if v >= 18 {
				return "on"
			}
			return "off"
		}, doc: "initdb -k / --no-data-checksums (on by default from 18)"},
	{name: "wal_log_hints", kind: kindBool, restart: true, modelled: true, def: fixed("off"), doc: "WAL-log hint bits like checksums do"},
	{name: "full_page_writes", kind: kindBool, modelled: true, def: fixed("on"), doc: "off: normal WAL records carry no page image (hint-bit images stay); a page torn by a crash cannot be repaired"},
	{name: "effective_io_concurrency", kind: kindInt, min: 0, max: 1000, modelled: true,
		def: func(v pg.Version) string {
			if v >= 18 {
				return "16"
			}
			return "1"
		}, doc: "read-stream I/O depth; BULKREAD ring term in 18"},
	{name: "maintenance_io_concurrency", kind: kindInt, min: 0, max: 1000, modelled: true,
		def: func(v pg.Version) string {
			if v >= 18 {
				return "16"
			}
			return "10"
		}, doc: "read-stream I/O depth for VACUUM and ANALYZE"},
	{name: "io_combine_limit", kind: kindSize, unit: pg.UnitBlocks, min: 1, max: 128, since: 17, modelled: true, def: fixed("128kB"), doc: "largest combined read (17: up to 32 blocks)"},
	{name: "io_max_combine_limit", kind: kindSize, unit: pg.UnitBlocks, min: 1, max: 128, since: 18, restart: true, modelled: true, def: fixed("128kB"), doc: "caps io_combine_limit"},
	{name: "io_method", kind: kindEnum, enum: []string{"worker", "sync", "io_uring"}, since: 18, restart: true, modelled: true, def: fixed("worker"), doc: "asynchronous reads by I/O workers, or synchronous"},
	{name: "io_workers", kind: kindInt, min: 1, max: 32, since: 18, until: 18, modelled: true, def: fixed("3"), doc: "I/O worker processes (18; 19 has io_min_workers and io_max_workers)"},
	{name: "io_min_workers", kind: kindInt, min: 1, max: 32, since: 19, modelled: true, def: fixed("2"), doc: "19: the I/O worker pool's starting and smallest size"},
	{name: "io_max_workers", kind: kindInt, min: 1, max: 32, since: 19, modelled: true, def: fixed("8"), doc: "19: the pool grows to this when reads queue up"},
	{name: "io_worker_launch_interval", kind: kindDuration, unitNs: 1e6, min: 0, max: 2147483647e6, since: 19, modelled: true, def: fixed("100ms"), doc: "19: at most one new I/O worker this often"},
	{name: "io_worker_idle_timeout", kind: kindDuration, unitNs: 1e6, min: 0, max: 2147483647e6, since: 19, modelled: true, def: fixed("1min"), doc: "19: an idle worker above io_min_workers exits after this"},
	{name: "max_connections", kind: kindInt, min: 1, max: 262143, restart: true, modelled: true, def: fixed("100"), doc: "enters MaxBackends, hence the pin limit"},
	{name: "autovacuum_worker_slots", kind: kindInt, min: 1, max: 262143, since: 18, restart: true, modelled: true, def: fixed("16"), doc: "enters MaxBackends (18)"},
	{name: "autovacuum_max_workers", kind: kindInt, min: 1, max: 262143, modelled: true,
		def: fixed("3"), doc: "enters MaxBackends (before 18)"},
	{name: "max_worker_processes", kind: kindInt, min: 0, max: 262143, restart: true, modelled: true, def: fixed("8"), doc: "enters MaxBackends; caps parallel workers"},
	{name: "max_wal_senders", kind: kindInt, min: 0, max: 262143, restart: true, modelled: true, def: fixed("10"), doc: "enters MaxBackends"},
	{name: "max_parallel_workers_per_gather", kind: kindInt, min: 0, max: 1024, modelled: true, def: fixed("2"), doc: "workers per Gather"},
	{name: "max_parallel_maintenance_workers", kind: kindInt, min: 0, max: 1024, modelled: true, def: fixed("2"), doc: "workers of a parallel CREATE INDEX (at most 1 at maintenance_work_mem's 64MB)"},
	{name: "maintenance_work_mem", kind: kindSize, unit: pg.UnitKB, min: 1024, max: 2147483647, modelled: true, def: fixed("64MB"), doc: "a parallel CREATE INDEX's workers: 32MB a participant (plan_create_index_workers); the sort itself is not modelled"},
	{name: "max_parallel_workers", kind: kindInt, min: 0, max: 1024, modelled: true, def: fixed("8"), doc: "workers in all"},
	{name: "parallel_leader_participation", kind: kindBool, modelled: true, def: fixed("on"), doc: "the leader scans too"},
	{name: "min_parallel_table_scan_size", kind: kindSize, unit: pg.UnitBlocks, min: 0, max: 715827882, modelled: true, def: fixed("8MB"), doc: "smallest table scanned in parallel"},
	{name: "parallel_setup_cost", kind: kindReal, min: 0, max: 1 << 40, modelled: true, def: fixed("1000"), doc: "planner"},
	{name: "parallel_tuple_cost", kind: kindReal, min: 0, max: 1 << 40, modelled: true, def: fixed("0.1"), doc: "planner"},
	{name: "seq_page_cost", kind: kindReal, min: 0, max: 1 << 40, modelled: true, def: fixed("1"), doc: "planner"},
	{name: "cpu_tuple_cost", kind: kindReal, min: 0, max: 1 << 40, modelled: true, def: fixed("0.01"), doc: "planner"},
	{name: "cpu_operator_cost", kind: kindReal, min: 0, max: 1 << 40, modelled: true, def: fixed("0.0025"), doc: "planner"},
	{name: "random_page_cost", kind: kindReal, min: 0, max: 1 << 40, modelled: true, def: fixed("4"), doc: "planner: an index scan's pages"},
	{name: "cpu_index_tuple_cost", kind: kindReal, min: 0, max: 1 << 40, modelled: true, def: fixed("0.005"), doc: "planner"},
	{name: "effective_cache_size", kind: kindSize, unit: pg.UnitBlocks, min: 1, max: 2147483647, modelled: true, def: fixed("4GB"), doc: "planner: index_pages_fetched's cache"},
	{name: "min_parallel_index_scan_size", kind: kindSize, unit: pg.UnitBlocks, min: 0, max: 715827882, modelled: true, def: fixed("512kB"), doc: "smallest index scanned in parallel"},
	{name: "synchronize_seqscans", kind: kindBool, modelled: true, def: fixed("on"), doc: "sync scan start positions"},
	{name: "wal_buffers", kind: kindSize, unit: pg.UnitBlocks, min: -1, max: 262143, restart: true, modelled: true, def: fixed("-1"), doc: "-1: 1/32 of shared_buffers, 64kB..16MB"},
	{name: "wal_writer_delay", kind: kindDuration, unitNs: 1e6, min: 1e6, max: 10000e6, modelled: true, def: fixed("200ms"), doc: "WAL writer cycle"},
	{name: "wal_writer_flush_after", kind: kindSize, unit: pg.UnitBlocks, min: 0, max: 1 << 31, modelled: true, def: fixed("1MB"), doc: "WAL writer flushes after this much"},
	{name: "vacuum_buffer_usage_limit", kind: kindSize, unit: pg.UnitKB, min: 0, max: 16 << 20, since: 16, modelled: true,
		def: func(v pg.Version) string {
			if v >= 17 {
				return "2MB"
			}
			return "256kB"
		}, doc: "BAS_VACUUM ring (0 or 128kB..16GB)"},
	{name: "default_statistics_target", kind: kindInt, min: 1, max: 10000, modelled: true, def: fixed("100"), doc: "ANALYZE sample (300 × target rows)"},
	{name: "bgwriter_lru_maxpages", kind: kindInt, min: 0, max: 1073741823, modelled: true, def: fixed("100"), doc: "the background writer writes at most this many buffers a round (0: no cleaning)"},
	{name: "bgwriter_delay", kind: kindDuration, unitNs: 1e6, min: 10e6, max: 10000e6, modelled: true, def: fixed("200ms"), doc: "the background writer's round interval"},
	{name: "bgwriter_lru_multiplier", kind: kindReal, min: 0, max: 10, modelled: true, def: fixed("2"), doc: "the background writer cleans for this many times the smoothed recent allocations"},
	{name: "bgwriter_flush_after", kind: kindSize, unit: pg.UnitBlocks, min: 0, max: 256, modelled: true, def: fixed("512kB"), doc: "the background writer asks the kernel to write back its written pages every this many (sync_file_range; 0: never)"},
	{name: "checkpoint_flush_after", kind: kindSize, unit: pg.UnitBlocks, min: 0, max: 256, modelled: true, def: fixed("256kB"), doc: "a checkpoint asks the kernel to write back its written pages every this many, and at its end (sync_file_range; 0: never)"},
	{name: "backend_flush_after", kind: kindSize, unit: pg.UnitBlocks, min: 0, max: 256, modelled: true, def: fixed("0"), doc: "a backend asks the kernel to write back the pages it evicted every this many (sync_file_range; 0: never)"},
	{name: "checkpoint_timeout", kind: kindDuration, unitNs: 1e9, min: 30e9, max: 86400e9, modelled: true, def: fixed("5min"), doc: "the checkpointer starts a timed checkpoint this long after the last checkpoint's start"},
	{name: "max_wal_size", kind: kindSize, unit: pg.UnitMB, min: 2, max: 1 << 31, modelled: true, def: fixed("1GB"), doc: "WAL-triggered checkpoints: every max_wal_size / (1 + checkpoint_completion_target) of WAL (CheckPointSegments)"},
	{name: "min_wal_size", kind: kindSize, unit: pg.UnitMB, min: 2, max: 1 << 31, modelled: true, def: fixed("80MB"), doc: "a checkpoint keeps at least this much WAL past its redo pointer as recycled segments (XLOGfileslop)"},
	{name: "wal_keep_size", kind: kindSize, unit: pg.UnitMB, min: 0, max: 1 << 31, modelled: true, def: fixed("0"), doc: "a checkpoint keeps this much WAL before the current position from removal (KeepLogSeg)"},
	{name: "wal_init_zero", kind: kindBool, modelled: true, def: fixed("on"), doc: "a new WAL segment is filled with 16MB of zeros and fsynced (off: one byte written at its end)"},
	{name: "wal_recycle", kind: kindBool, modelled: true, def: fixed("on"), doc: "a checkpoint renames old WAL segments for reuse (off: removes them, so new ones are created)"},
	{name: "checkpoint_completion_target", kind: kindReal, min: 0, max: 1, modelled: true, def: fixed("0.9"), doc: "a spread checkpoint's writes are paced to end by this fraction of the interval (IsCheckpointOnSchedule)"},
	{name: "log_checkpoints", kind: kindBool, modelled: true, def: fixed("on"), doc: "print the background checkpoints' 'checkpoint starting' and 'checkpoint complete' lines"},
	{name: "autovacuum", kind: kindBool, modelled: true, def: fixed("on"), doc: "the autovacuum launcher starts a worker every autovacuum_naptime; it vacuums and analyzes the tables past their thresholds"},
	{name: "autovacuum_naptime", kind: kindDuration, unitNs: 1e9, min: 1e9, max: 2147483e9, modelled: true, def: fixed("1min"), doc: "the launcher starts a worker in the database this often"},
	{name: "autovacuum_vacuum_threshold", kind: kindInt, min: 0, max: 2147483647, modelled: true, def: fixed("50"), doc: "dead tuples before a vacuum, plus the scale factor's share"},
	{name: "autovacuum_vacuum_scale_factor", kind: kindReal, min: 0, max: 100, modelled: true, def: fixed("0.2"), doc: "fraction of reltuples added to the vacuum threshold"},
	{name: "autovacuum_vacuum_max_threshold", kind: kindInt, min: -1, max: 2147483647, since: 18, modelled: true, def: fixed("100000000"), doc: "18: caps the vacuum threshold (-1: no cap)"},
	{name: "autovacuum_vacuum_insert_threshold", kind: kindInt, min: -1, max: 2147483647, modelled: true, def: fixed("1000"), doc: "rows inserted since the last vacuum before one (-1: inserts never trigger a vacuum)"},
	{name: "autovacuum_vacuum_insert_scale_factor", kind: kindReal, min: 0, max: 100, modelled: true, def: fixed("0.2"), doc: "fraction of reltuples (18+: of its unfrozen pages' share) added to the insert threshold"},
	{name: "autovacuum_analyze_threshold", kind: kindInt, min: 0, max: 2147483647, modelled: true, def: fixed("50"), doc: "rows changed since the last analyze before one, plus the scale factor's share"},
	{name: "autovacuum_analyze_scale_factor", kind: kindReal, min: 0, max: 100, modelled: true, def: fixed("0.1"), doc: "fraction of reltuples added to the analyze threshold"},
	{name: "autovacuum_vacuum_score_weight", kind: kindReal, min: 0, max: 10, since: 19, modelled: true, def: fixed("1"), doc: "19: weight of the dead-tuple score in the worker's table order"},
	{name: "autovacuum_vacuum_insert_score_weight", kind: kindReal, min: 0, max: 10, since: 19, modelled: true, def: fixed("1"), doc: "19: weight of the insert score in the worker's table order"},
	{name: "autovacuum_analyze_score_weight", kind: kindReal, min: 0, max: 10, since: 19, modelled: true, def: fixed("1"), doc: "19: weight of the analyze score in the worker's table order"},
	{name: "autovacuum_vacuum_cost_delay", kind: kindDuration, unitNs: 1e6, frac: true, min: -1e6, max: 100e6, modelled: true, def: fixed("2ms"), doc: "a worker sleeps this long (× balance/limit, at most 4×) each time its cost balance reaches the limit (-1: vacuum_cost_delay)"},
	{name: "autovacuum_vacuum_cost_limit", kind: kindInt, min: -1, max: 10000, modelled: true, def: fixed("-1"), doc: "a worker's cost limit (-1: vacuum_cost_limit)"},
	{name: "vacuum_cost_delay", kind: kindDuration, unitNs: 1e6, frac: true, min: 0, max: 100e6, modelled: true, def: fixed("0"), doc: "the cost-based delay of a manual VACUUM (0: off, the model's manual VACUUM runs unthrottled)"},
	{name: "vacuum_cost_limit", kind: kindInt, min: 1, max: 10000, modelled: true, def: fixed("200"), doc: "cost balance at which a vacuum sleeps"},
	{name: "vacuum_cost_page_hit", kind: kindInt, min: 0, max: 10000, modelled: true, def: fixed("1"), doc: "cost of a page found in shared buffers"},
	{name: "vacuum_cost_page_miss", kind: kindInt, min: 0, max: 10000, modelled: true, def: fixed("2"), doc: "cost of a page read in"},
	{name: "vacuum_cost_page_dirty", kind: kindInt, min: 0, max: 10000, modelled: true, def: fixed("20"), doc: "cost of a page dirtied"},
	{name: "log_autovacuum_min_duration", kind: kindDuration, unitNs: 1e6, min: -1e6, max: 2147483647e6, modelled: true, def: fixed("10min"), doc: "print an autovacuum's 'automatic vacuum of table' lines when it took at least this long (-1: never; before 19 its analyzes too)"},
	{name: "log_autoanalyze_min_duration", kind: kindDuration, unitNs: 1e6, min: -1e6, max: 2147483647e6, since: 19, modelled: true, def: fixed("10min"), doc: "19: the same for 'automatic analyze of table' lines"},
	{name: "wal_compression", kind: kindEnum, enum: []string{"off", "on", "pglz", "lz4", "zstd"}, modelled: true, def: fixed("off"), doc: "full-page images compressed for real (pglz, lz4, zstd; on = pglz)"},
	{name: "track_io_timing", kind: kindBool, modelled: true, def: fixed("off"), doc: "print I/O Timings: in statement output (io_read_ms is always computed)"},
	{name: "os_cache", kind: kindSize, unit: pg.UnitKB, min: 0, max: 24 << 30, restart: true, machine: true, modelled: true, def: fixed("16GB"),
		doc: "machine: the OS page cache available to data files (0: none, every read goes to the device; at most 24TB, the largest machines sold)"},
	{name: "device", kind: kindEnum, enum: storage.DeviceNames(), restart: true, machine: true, modelled: true, def: fixed("nvme"),
		doc: "machine: the storage device profile (see 'pgbufsim help devices')"},
	{name: "read_ahead_kb", kind: kindInt, min: 0, max: storage.MaxReadAheadKB, restart: true, machine: true, modelled: true, def: fixed("128"),
		doc: "machine: the device's kernel readahead maximum (/sys/block/DEV/queue/read_ahead_kb), a multiple of 4"},
	{name: "host_time_scale", kind: kindReal, min: 0, max: 100, restart: true, machine: true, modelled: true, def: fixed("1"),
		doc: "machine: how long the host takes for the cost model's CPU and memory work, against the host it was measured on (2: twice as long; fdatasync and the device are not scaled); greater than 0, at most 100"},
	{name: "host_cpus", kind: kindInt, min: 0, max: 1024, restart: true, machine: true, modelled: true, def: fixed("0"),
		doc: "machine: the host's CPU cores that the simulated processes' CPU work shares (backends, parallel workers, I/O workers; 0: unlimited, each process has a core of its own; pgbufsim host-scale prints the host's)"},
	{name: "host_sched_slice", kind: kindDuration, unitNs: 1e6, frac: true, min: -1e6, max: 1000e6, restart: true, machine: true, modelled: true, def: fixed("-1"),
		doc: "machine: with host_cpus, the CPU the kernel's scheduler lets a process run before another runnable one takes its core, unless it blocks first (-1: Linux's base slice for host_cpus CPUs, 0.7 ms × (1 + log2 of the CPUs, at most 8); 0: no slices, processes alternate page by page; at most 1s; pgbufsim host-scale prints the host's)"},
	{name: "host_wakeup", kind: kindDuration, unitNs: 1e6, frac: true, min: 0, max: 10e6, restart: true, machine: true, modelled: true, def: fixed("0"),
		doc: "machine: with host_cpus, how long a process asleep on a latch or a pipe takes to run once woken onto an idle CPU (the waker's interrupt to it, its exit from the idle state; 0: at once; at most 10ms; pgbufsim host-scale measures the host's)"},
	{name: "device_flush", kind: kindDuration, unitNs: 1e6, frac: true, min: -1e6, max: 1000e6, restart: true, machine: true, modelled: true, def: fixed("-1"),
		doc: "machine: the device's cache flush that ends an fdatasync, after its written pages (-1: the device profile's; pgbufsim host-scale measures the host's)"},
	{name: "device_write_mbps", kind: kindInt, min: -1, max: 100000, restart: true, machine: true, modelled: true, def: fixed("-1"),
		doc: "machine: the device's write rate in MB/s for pages leaving the page cache (fdatasync, write-back; -1: the device profile's; pgbufsim host-scale measures the host's)"},
	{name: "catalog_pins", kind: kindBool, restart: true, machine: true, modelled: true, def: fixed("on"),
		doc: "simulator: the catalog pages each session pins, as measured (off: none, so a teaching pool of 16 buffers holds only the tables)"},
	{name: "replacement", kind: kindEnum, enumFn: strategy.PolicyNames, restart: true, machine: true, whatif: true, modelled: true, def: fixed("clock"),
		doc: "what-if: the victim search after the ring and free list (clock: PostgreSQL's clock sweep; lru; 2q as in PostgreSQL 8.0.2; arc as in 8.0.0/8.0.1; clock-pro)"},
	{name: "usage_max", kind: kindInt, min: 1, max: strategy.MaxUsageLimit, restart: true, machine: true, whatif: true, modelled: true, def: fixed("5"),
		doc: "what-if: the usage count a pin bumps to at most (PostgreSQL: 5; 1 makes the clock a second-chance policy)"},
	{name: "reject", kind: kindEnum, enum: []string{"pg", "flush"}, restart: true, machine: true, whatif: true, modelled: true, def: fixed("pg"),
		doc: "what-if: a BULKREAD ring's dirty buffer that needs a WAL flush (pg: StrategyRejectBuffer gives it up; flush: flush WAL and write it, like VACUUM's ring)"},
	{name: "freelist", kind: kindBool, restart: true, machine: true, whatif: true, modelled: true,
		def: func(v pg.Version) string {
			if v >= 19 {
				return "off" // 19 has no free list; freelist=on is refused there
			}
			return "on"
		},
		doc: "what-if: off removes the free list as PostgreSQL 19 did: buffers freed by DROP and TRUNCATE wait for the clock hand (always off in 19)"},
	{name: "ring", kind: kindInt, min: 1, max: 1<<30 - 1, restart: true, machine: true, whatif: true, modelled: true, def: fixed("auto"),
		doc: "what-if: every ring's size in buffers (auto: PostgreSQL's sizes), capped at shared_buffers/8"},
	{name: "wal_level", kind: kindEnum, enum: []string{"minimal", "replica", "logical"}, restart: true, modelled: false, def: fixed("replica"), doc: "replica assumed"},
}

// Def is one setting's definition.
type Def = gucDef

// Lookup returns the definition of the named setting (nil: unknown).
func Lookup(name string) *Def { return lookupGUC(name) }

// In reports whether version v has the setting.
func (g *gucDef) In(v pg.Version) bool { return g.in(v) }

// Restart reports a setting that needs a server restart (PGC_POSTMASTER) or is fixed at initdb.
func (g *gucDef) Restart() bool { return g.restart }

// InitDB reports a setting chosen at initdb (data_checksums).
func (g *gucDef) InitDB() bool { return g.initdb }

// IsMachine reports a setting of the machine or the simulator, not of PostgreSQL.
func (g *gucDef) IsMachine() bool { return g.machine }

func lookupGUC(name string) *gucDef {
	for i := range gucs {
		if gucs[i].name == name {
			return &gucs[i]
		}
	}
	return nil
}

// Settings are the GUCs in force, by PostgreSQL name, with the version.
type Settings struct {
	Version pg.Version
	vals    map[string]int64 // ints, sizes (in the GUC's unit), bools (0/1), durations (ns), reals (×1e6)
	enums   map[string]string
}

// DefaultSettings are version v's defaults.
func DefaultSettings(v pg.Version) (*Settings, error) {
	if v < pg.MinVersion || v > pg.MaxVersion {
		return nil, &pg.SettingError{Name: "version", Value: fmt.Sprint(v), Allowed: fmt.Sprintf("supported versions are %d to %d", pg.MinVersion, pg.MaxVersion)}
	}
	s := &Settings{Version: v, vals: map[string]int64{}, enums: map[string]string{}}
	for i := range gucs {
		g := &gucs[i]
		if !g.in(v) {
			continue
		}
		if err := s.set(g, g.def(v)); err != nil {
			return nil, fmt.Errorf("default of %s: %w", g.name, err)
		}
	}
	return s, nil
}

// Known reports whether the version has the setting.
func (s *Settings) Known(name string) bool {
	g := lookupGUC(name)
	return g != nil && g.in(s.Version)
}

// Set parses and sets one setting. notice is non-empty for settings the model does not simulate.
func (s *Settings) Set(name, value string) (notice string, err error) {
	g := lookupGUC(name)
	if g == nil {
		if otherGUCs[name] {
			return "", &pg.SettingError{Name: name, Value: value, Allowed: "a PostgreSQL setting the simulator does not model (nothing it changes is simulated); leave it out (the settings it models: 'pgbufsim help settings')"}
		}
		return "", &pg.SettingError{Name: name, Value: value, Allowed: "unrecognized configuration parameter (see 'pgbufsim help settings')"}
	}
	if !g.in(s.Version) {
		return "", g.unknownIn(s.Version, value)
	}
	if err := s.set(g, value); err != nil {
		return "", err
	}
	if !g.modelled {
		return fmt.Sprintf("notice: %s is accepted but not simulated (%s)", name, g.doc), nil
	}
	return "", nil
}

func (s *Settings) set(g *gucDef, value string) error {
	bad := func(allowed string) error { return &pg.SettingError{Name: g.name, Value: value, Allowed: allowed} }
	switch g.kind {
	case kindBool:
		switch strings.ToLower(value) {
		case "on", "true", "yes", "1":
			if g.name == "freelist" && s.Version >= 19 {
				return bad("PostgreSQL 19 has no free list (2c78940527); freelist=on is a what-if for 15 to 18 only")
			}
			s.vals[g.name] = 1
		case "off", "false", "no", "0":
			s.vals[g.name] = 0
		default:
			return bad("must be a boolean (on/off/true/false)")
		}
	case kindEnum:
		for _, e := range g.values() {
			if e == value {
				s.enums[g.name] = value
				return nil
			}
		}
		return bad("must be one of " + strings.Join(g.values(), ", "))
	case kindReal:
		f, err := strconv.ParseFloat(value, 64)
		if err != nil || f < float64(g.min) || f > float64(g.max) || g.name == "host_time_scale" && f == 0 {
			return bad("must be " + g.Allowed())
		}
		s.vals[g.name] = int64(f * 1e6)
	case kindInt:
		if g.name == "ring" {
			return s.setRing(g, value)
		}
		// models parse_int (guc.c): a fractional value is rounded (rint).
		f, suffix, okNum := pg.ParseNumber(value)
		if !okNum || suffix != "" {
			return bad(fmt.Sprintf("must be an integer from %d to %d", g.min, g.max))
		}
		if f = math.RoundToEven(f); f < float64(g.min) || f > float64(g.max) {
			return bad(fmt.Sprintf("outside the allowed range %d..%d", g.min, g.max))
		}
		n := int64(f)
		if n < g.min || n > g.max {
			return bad(fmt.Sprintf("outside the allowed range %d..%d", g.min, g.max))
		}
		if g.name == "device_write_mbps" && n == 0 {
			return bad("must be " + g.Allowed())
		}
		if g.name == "read_ahead_kb" && n%4 != 0 {
			return bad(fmt.Sprintf("must be a multiple of 4 (the kernel reads ahead in 4kB pages) from 0 to %d", g.max))
		}
		s.vals[g.name] = n
	case kindSize:
		n, err := pg.ParseSize(value, g.unit)
		if err != nil {
			return bad(err.Error())
		}
		if n < g.min || n > g.max {
			return bad(s.sizeRange(g, n))
		}
		if g.name == "shared_buffers" && n > simMaxBuffers {
			return bad(fmt.Sprintf("beyond the simulator's limit of %d buffers (256GB; ~20 bytes of memory a buffer); PostgreSQL allows up to 8TB", simMaxBuffers))
		}
		if g.name == "io_combine_limit" && s.Version == 17 && n > 32 {
			return bad("outside the allowed range 1..32 (8kB..256kB) in PostgreSQL 17")
		}
		if g.name == "vacuum_buffer_usage_limit" && n != 0 && n < 128 {
			return bad("must be 0 or between 128kB and 16GB")
		}
		if g.name == "wal_buffers" && n != -1 && n < 4 {
			n = 4 // models check_wal_buffers (xlog.c): a manual value below 4 blocks is raised to 4
		}
		s.vals[g.name] = n
	case kindDuration:
		ns, err := pg.ParseDuration(value, g.unitNs)
		if err != nil {
			return bad(err.Error())
		}
		// models parse_int (guc.c): the value is rounded to the GUC's own unit.
		if !g.frac {
			ns = int64(math.RoundToEven(float64(ns)/float64(g.unitNs))) * g.unitNs
		}
		if ns < g.min || ns > g.max || g.name == "device_flush" && ns < 0 && ns != -1e6 {
			return bad(fmt.Sprintf("outside the allowed range %s..%s", fmtDur(g.min), fmtDur(g.max)) + g.rangeNote())
		}
		s.vals[g.name] = ns
	}
	return nil
}

// setRing parses ring=auto|N; auto is stored as 0.
func (s *Settings) setRing(g *gucDef, value string) error {
	if value == "auto" {
		s.vals[g.name] = 0
		return nil
	}
	n, err := strconv.ParseInt(value, 10, 64)
	if err != nil || n < g.min || n > g.max {
		return &pg.SettingError{Name: g.name, Value: value, Allowed: fmt.Sprintf("must be auto or a number of buffers from %d to %d", g.min, g.max)}
	}
	s.vals[g.name] = n
	return nil
}

func (s *Settings) sizeRange(g *gucDef, n int64) string {
	switch {
	case g.name == "shared_buffers" && n < g.min:
		return "below the minimum of 16 buffers (128kB)"
	case g.name == "shared_buffers":
		return fmt.Sprintf("above PostgreSQL's maximum of %d buffers (8TB)", g.max)
	case g.name == "os_cache":
		return "must be from 0 (no page cache: every read goes to the device) to 24TB (the largest machines sold)"
	}
	lo, hi := g.min*int64(g.unit), g.max*int64(g.unit)
	if g.min < 0 {
		return fmt.Sprintf("outside the allowed range %d..%d (-1 or %s..%s)", g.min, g.max, pg.FormatSize(int64(g.unit)), pg.FormatSize(hi))
	}
	return fmt.Sprintf("outside the allowed range %d..%d (%s..%s)", g.min, g.max, pg.FormatSize(lo), pg.FormatSize(hi))
}

func fmtDur(ns int64) string {
	switch {
	case ns%3600e9 == 0:
		return fmt.Sprintf("%dh", ns/3600e9)
	case ns%60e9 == 0:
		return fmt.Sprintf("%dmin", ns/60e9)
	case ns%1e9 == 0:
		return fmt.Sprintf("%ds", ns/1e9)
	case ns%1e6 == 0:
		return fmt.Sprintf("%dms", ns/1e6)
	}
	return fmt.Sprintf("%dus", ns/1e3)
}

// Int returns an int, size (in its unit), bool (0/1) or duration (ns) setting.
func (s *Settings) Int(name string) int64 { return s.vals[name] }

// Bool returns a boolean setting.
func (s *Settings) Bool(name string) bool { return s.vals[name] != 0 }

// Real returns a floating-point setting.
func (s *Settings) Real(name string) float64 { return float64(s.vals[name]) / 1e6 }

// Enum returns an enum setting.
func (s *Settings) Enum(name string) string { return s.enums[name] }

// Format prints a setting as SHOW would.
func (s *Settings) Format(name string) string {
	g := lookupGUC(name)
	switch g.kind {
	case kindBool:
		if s.Bool(name) {
			return "on"
		}
		return "off"
	case kindEnum:
		return s.enums[name]
	case kindReal:
		return strconv.FormatFloat(s.Real(name), 'g', -1, 64)
	case kindSize:
		n := s.vals[name]
		if n < 0 {
			return fmt.Sprint(n)
		}
		return pg.FormatSize(n * int64(g.unit))
	case kindDuration:
		return fmtDur(s.vals[name])
	}
	if name == "ring" && s.vals[name] == 0 {
		return "auto"
	}
	return fmt.Sprint(s.vals[name])
}

// Names lists the version's settings in name order.
func (s *Settings) Names() []string {
	var ns []string
	for i := range gucs {
		if gucs[i].in(s.Version) {
			ns = append(ns, gucs[i].name)
		}
	}
	sort.Strings(ns)
	return ns
}

// Clone copies the settings.
func (s *Settings) Clone() *Settings {
	c := &Settings{Version: s.Version, vals: map[string]int64{}, enums: map[string]string{}}
	for k, v := range s.vals {
		c.vals[k] = v
	}
	for k, v := range s.enums {
		c.enums[k] = v
	}
	return c
}

// simMaxBuffers is the largest pool the simulator builds: 33,554,432
// buffers (256GB of shared buffers) take ~670MB of descriptors and tags.
const simMaxBuffers = 1 << 25

// Machine reports whether name is a machine setting rather than a PostgreSQL one.
func Machine(name string) bool {
	g := lookupGUC(name)
	return g != nil && g.machine
}

// HiddenDefault reports a what-if setting at its default, which show
// settings leaves out (the output of every existing scenario stays the same).
func (s *Settings) HiddenDefault(name string) bool {
	g := lookupGUC(name)
	return g != nil && g.whatif && s.Format(name) == g.def(s.Version)
}

// WhatIfVariant reports whether name=value asks for a what-if variant of
// the buffer manager (replacement, usage_max, reject, ring, freelist) other
// than version v's own behaviour, which a real server cannot run
// (freelist=off is 19's own).
func WhatIfVariant(v pg.Version, name, value string) bool {
	g := lookupGUC(name)
	if g == nil || !g.whatif {
		return false
	}
	s := &Settings{Version: v, vals: map[string]int64{}, enums: map[string]string{}}
	if s.set(g, value) != nil {
		return true
	}
	return s.Format(name) != g.def(v)
}

// CheckModelled refuses a version=19 configuration the simulator cannot
// run faithfully: io_uring, which 18 approximates by a worker pool of
// io_workers but 19 (whose worker pool grows, see bufmgr.IOModel) has no
// such stand-in for.
func (s *Settings) CheckModelled() error {
	if s.Version >= 19 && s.Enum("io_method") == "io_uring" {
		return &pg.SettingError{Name: "io_method", Value: s.Enum("io_method"),
			Allowed: "version=19: io_uring is not modelled; give io_method=worker or sync"}
	}
	// ReadControlFile (xlog.c) refuses to start with less than two segments.
	if mb := s.Int("max_wal_size"); mb/(pg.WalSegSize>>20) < 2 {
		return &pg.SettingError{Name: "max_wal_size", Value: s.Format("max_wal_size"),
			Allowed: "at least twice wal_segment_size (32MB): the server refuses to start below it"}
	}
	if mb := s.Int("min_wal_size"); mb/(pg.WalSegSize>>20) < 2 {
		return &pg.SettingError{Name: "min_wal_size", Value: s.Format("min_wal_size"),
			Allowed: "at least twice wal_segment_size (32MB): the server refuses to start below it"}
	}
	return nil
}

// StorageConfig is the machine the settings describe.
func (s *Settings) StorageConfig() storage.Config {
	d := storage.Devices[s.Enum("device")]
	if ns := s.Int("device_flush"); ns >= 0 {
		d.FlushNs = ns
	}
	if mbps := s.Int("device_write_mbps"); mbps > 0 {
		d.WriteBytesPerSec = mbps * 1_000_000
	}
	return storage.Config{
		CacheBlocks: s.Int("os_cache") * int64(pg.UnitKB) / pg.BLCKSZ,
		Device:      d,
		ReadAheadKB: int(s.Int("read_ahead_kb")),
	}
}

// NBuffers is shared_buffers in buffers.
func (s *Settings) NBuffers() int { return int(s.vals["shared_buffers"]) }

// MaxBackends is InitializeMaxBackends' sum for the version.
func (s *Settings) MaxBackends() int {
	n := s.Int("max_connections") + s.Int("max_worker_processes") + s.Int("max_wal_senders")
	if s.Version >= 18 {
		return int(n + s.Int("autovacuum_worker_slots") + 2) // NUM_SPECIAL_WORKER_PROCS
	}
	return int(n + s.Int("autovacuum_max_workers") + 1) // + the autovacuum launcher
}

// numAuxiliaryProcs is NUM_AUXILIARY_PROCS (proc.h): 5 in 16, 6 in 17, 6 + MAX_IO_WORKERS(32) in 18.
func (s *Settings) numAuxiliaryProcs() int {
	switch {
	case s.Version >= 18:
		return 6 + 32
	case s.Version == 17:
		return 6
	default:
		return 5
	}
}

// PinLimit is GetPinLimit() (18: MaxProportionalPins) — NBuffers / (MaxBackends + NUM_AUXILIARY_PROCS).
func (s *Settings) PinLimit() int { return s.NBuffers() / (s.MaxBackends() + s.numAuxiliaryProcs()) }

// IOCombineLimit is the effective io_combine_limit in blocks (0 before 17).
func (s *Settings) IOCombineLimit() int {
	if s.Version < 17 {
		return 0
	}
	n := int(s.Int("io_combine_limit"))
	if s.Version >= 18 {
		n = min(n, int(s.Int("io_max_combine_limit")))
	}
	return n
}

// WalBuffers is XLOGChooseNumBuffers for wal_buffers=-1: NBuffers/32 within 8..2048 pages.
func (s *Settings) WalBuffers() int {
	n := int(s.Int("wal_buffers"))
	if n == -1 {
		n = s.NBuffers() / 32
		n = max(8, min(n, pg.WalSegSize/pg.XLogBlcksz))
	}
	return max(n, 4)
}

// Reject is the what-if reject setting as the strategy's type.
func (s *Settings) Reject() strategy.Reject {
	r, err := strategy.ParseReject(s.Enum("reject"))
	if err != nil {
		panic(err) // the enum accepted only pg and flush
	}
	return r
}

// Allowed says what values the setting accepts, as 'pgbufsim help settings'
// prints it: on|off, the enum's values, or the range with its unit.
func (g *gucDef) Allowed() string {
	switch g.kind {
	case kindBool:
		return "on | off"
	case kindEnum:
		return strings.Join(g.values(), " | ")
	case kindReal:
		if g.name == "host_time_scale" {
			return fmt.Sprintf("a number greater than 0, at most %d", g.max)
		}
		return fmt.Sprintf("a number from %d to %d", g.min, g.max)
	case kindDuration:
		unit := "ms"
		if g.unitNs == 1e9 {
			unit = "s"
		}
		return fmt.Sprintf("%s to %s (a bare number is in %s; units us, ms, s, min, h, d)", fmtDur(g.min), fmtDur(g.max), unit) + g.rangeNote()
	case kindSize:
		unit := map[pg.Unit]string{pg.UnitBytes: "bytes", pg.UnitKB: "kB", pg.UnitMB: "MB", pg.UnitBlocks: "8kB pages"}[g.unit]
		lo, hi := pg.FormatSize(g.min*int64(g.unit)), pg.FormatSize(g.max*int64(g.unit))
		switch g.name {
		case "shared_buffers":
			hi = pg.FormatSize(simMaxBuffers*pg.BLCKSZ) + " (the simulator's limit; PostgreSQL's is 8TB)"
		case "wal_buffers":
			return fmt.Sprintf("-1 (1/32 of shared_buffers, 64kB to 16MB) or %s to %s; below 32kB is raised to 32kB (a bare number is in %s)", pg.FormatSize(int64(g.unit)), hi, unit)
		case "vacuum_buffer_usage_limit":
			return fmt.Sprintf("0 (no ring) or 128kB to %s (a bare number is in %s)", hi, unit)
		case "io_combine_limit":
			hi += " (256kB in 17)"
		}
		return fmt.Sprintf("%s to %s (a bare number is in %s; units B, kB, MB, GB, TB)", lo, hi, unit)
	}
	switch g.name {
	case "ring":
		return fmt.Sprintf("auto or %d to %d buffers", g.min, g.max)
	case "read_ahead_kb":
		return fmt.Sprintf("a multiple of 4 from %d to %d", g.min, g.max)
	case "device_write_mbps":
		return fmt.Sprintf("-1 (the device profile's) or 1 to %d MB/s", g.max)
	}
	return fmt.Sprintf("an integer from %d to %d", g.min, g.max)
}

// rangeNote completes a duration's range where one value in it is special.
func (g *gucDef) rangeNote() string {
	if g.name == "device_flush" {
		return " (-1: the device profile's, else 0 or more)"
	}
	return ""
}

// Doc is the setting's one-line description.
func (g *gucDef) Doc() string { return g.doc }

// Modelled reports whether the simulator models the setting (false: accepted, with a notice, and ignored).
func (g *gucDef) Modelled() bool { return g.modelled }

// Versions says which versions have the setting ("" for all of 15 to 19).
func (g *gucDef) Versions() string {
	switch {
	case g.since > pg.MinVersion && g.until != 0:
		return fmt.Sprintf("%d–%d only", g.since, g.until)
	case g.since > pg.MinVersion:
		return fmt.Sprintf("%d+", g.since)
	case g.until != 0:
		return fmt.Sprintf("up to %d", g.until)
	}
	return ""
}

// Names lists every setting the simulator knows, of any version, in name order.
func Names() []string {
	var ns []string
	for i := range gucs {
		ns = append(ns, gucs[i].name)
	}
	sort.Strings(ns)
	return ns
}

// Default is the setting's default in version v (as SHOW prints it).
func (g *gucDef) Default(v pg.Version) string { return g.def(v) }

// FirstVersion is the oldest version that has the setting.
func (g *gucDef) FirstVersion() pg.Version { return max(g.since, pg.MinVersion) }

// IsWhatIf reports a what-if variant of the buffer manager (replacement, usage_max, reject, ring, freelist).
func (g *gucDef) IsWhatIf() bool { return g.whatif }

// StreamConfig is read_stream_begin_relation's sizing for a scan under
// these settings (maintenance: VACUUM's and ANALYZE's, at
// maintenance_io_concurrency).
func (s *Settings) StreamConfig(maintenance bool) bufmgr.StreamConfig {
	ios := int(s.Int("effective_io_concurrency"))
	if maintenance {
		ios = int(s.Int("maintenance_io_concurrency"))
	}
	// read_stream_begin_impl: advice where it can help (no direct I/O, max_ios > 0),
	// from 18 only when reads are synchronous (io_method=sync).
	advice := ios > 0 && (s.Version == 17 || (s.Version >= 18 && s.Enum("io_method") == "sync"))
	return bufmgr.StreamConfig{Version: s.Version, MaxIOs: ios, IOCombineLimit: s.IOCombineLimit(),
		PinLimit: s.PinLimit(), NBuffers: s.NBuffers(), Advice: advice}
}
