package cluster

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/pgbufsim/pgbufsim/guc"
	"github.com/pgbufsim/pgbufsim/internal/engine"
	"github.com/pgbufsim/pgbufsim/pg"
)

// Options configure a new cluster: what initdb and postgresql.conf decide,
// the machine below the server, and the simulator's what-if switches. A zero
// field means the version's own default; every field names the GUC it sets.
// Sizes and durations are strings in PostgreSQL's syntax ("128MB", "8kB",
// "200ms"), a bare number counting the GUC's own unit, as in
// postgresql.conf.
//
// Any setting without a field of its own goes in Settings, by its
// PostgreSQL name; `pgbufsim help settings` lists them all with their
// ranges.
type Options struct {
	// Version is the PostgreSQL major version, 15 to 19 (0: 18).
	Version pg.Version
	// Seed feeds the cluster's PRNG (ANALYZE's block sample, a crash's torn
	// sectors). The same seed and calls give byte-identical results.
	Seed uint64

	// SharedBuffers is shared_buffers ("128MB"; a bare number counts 8kB
	// buffers; at least 16 buffers).
	SharedBuffers string
	// DataChecksums is initdb -k (nil: on from 18, off before).
	DataChecksums *bool
	// WALLogHints is wal_log_hints (nil: off).
	WALLogHints *bool
	// FullPageWrites is full_page_writes (nil: on).
	FullPageWrites *bool
	// EffectiveIOConcurrency is effective_io_concurrency, 0..1000 (nil: 16
	// from 18, 1 before).
	EffectiveIOConcurrency *int
	// IOCombineLimit is io_combine_limit (17+; "128kB").
	IOCombineLimit string
	// IOMethod is io_method (18+: worker, sync or io_uring; "" worker).
	IOMethod string
	// MaxParallelWorkersPerGather is max_parallel_workers_per_gather (nil: 2).
	MaxParallelWorkersPerGather *int
	// WALBuffers is wal_buffers ("-1": 1/32 of shared_buffers, 64kB..16MB).
	WALBuffers string
	// WALCompression is wal_compression (off, on, pglz, lz4, zstd; "" off).
	WALCompression string
	// VacuumBufferUsageLimit is vacuum_buffer_usage_limit (16+; "2MB" from
	// 17, "256kB" in 16).
	VacuumBufferUsageLimit string
	// TrackIOTiming is track_io_timing (nil: off).
	TrackIOTiming *bool

	// OSCache is the OS page cache available to data files ("16GB"; "0":
	// none, every read goes to the device).
	OSCache string
	// Device is the storage device profile (`pgbufsim help devices`; "" nvme).
	Device string
	// ReadAheadKB is the kernel's readahead maximum in kB, a multiple of 4
	// (nil: 128).
	ReadAheadKB *int
	// HostTimeScale is host_time_scale: how long the host takes for the cost
	// model's CPU and memory work against the host it was measured on
	// (0: 1; `pgbufsim host-scale` measures it on a real server's host).
	HostTimeScale float64
	// DeviceFlush is device_flush: the device's cache flush ending an
	// fdatasync ("0.9ms"; "" or "-1": the device profile's).
	DeviceFlush string
	// DeviceWriteMBps is device_write_mbps: the device's write rate in MB/s
	// (nil or -1: the profile's). `pgbufsim host-scale` measures both.
	DeviceWriteMBps *int
	// HostCPUs is host_cpus: the host's CPU cores that the simulated
	// processes' CPU work shares (nil or 0: unlimited, a core each;
	// `pgbufsim host-scale` prints the host's).
	HostCPUs *int
	// HostWakeup is host_wakeup: with HostCPUs, how long a sleeping process
	// takes to run once woken onto an idle CPU ("0.05ms"; "": 0;
	// `pgbufsim host-scale` measures it).
	HostWakeup string
	// CatalogPins leaves the catalog pages each session pins out when false
	// (nil: on, as measured on real servers).
	CatalogPins *bool

	// Replacement is the what-if victim search: clock (PostgreSQL's clock
	// sweep, the default), lru, 2q, arc or clock-pro.
	Replacement string
	// UsageMax is the what-if usage-count ceiling, 1..5 (0: 5).
	UsageMax int
	// Reject is the what-if for a BULKREAD ring's dirty buffer that needs a
	// WAL flush: pg (StrategyRejectBuffer, the default) or flush.
	Reject string
	// Ring is the what-if ring size in buffers for every strategy (0: auto,
	// PostgreSQL's sizes).
	Ring int
	// FreeList is the what-if free list (nil: on in 15 to 18, off in 19).
	FreeList *bool

	// Settings are further GUCs by PostgreSQL name, applied in order after
	// the fields above.
	Settings []Setting
}

// Setting is one GUC by its PostgreSQL name and a value as postgresql.conf
// or SET would take it ("32", "4MB", "on").
type Setting struct {
	Name, Value string
}

// Bool returns a pointer to b, for the optional boolean Options.
func Bool(b bool) *bool { return &b }

// Int returns a pointer to n, for the optional integer Options.
func Int(n int) *int { return &n }

// settingsList is the options as GUC assignments, in field order.
func (o *Options) settingsList() []Setting {
	var l []Setting
	str := func(name, v string) {
		if v != "" {
			l = append(l, Setting{name, v})
		}
	}
	boolean := func(name string, b *bool) {
		if b != nil {
			v := "off"
			if *b {
				v = "on"
			}
			l = append(l, Setting{name, v})
		}
	}
	integer := func(name string, n *int) {
		if n != nil {
			l = append(l, Setting{name, strconv.Itoa(*n)})
		}
	}
	str("shared_buffers", o.SharedBuffers)
	boolean("data_checksums", o.DataChecksums)
	boolean("wal_log_hints", o.WALLogHints)
	boolean("full_page_writes", o.FullPageWrites)
	integer("effective_io_concurrency", o.EffectiveIOConcurrency)
	str("io_combine_limit", o.IOCombineLimit)
	str("io_method", o.IOMethod)
	integer("max_parallel_workers_per_gather", o.MaxParallelWorkersPerGather)
	str("wal_buffers", o.WALBuffers)
	str("wal_compression", o.WALCompression)
	str("vacuum_buffer_usage_limit", o.VacuumBufferUsageLimit)
	boolean("track_io_timing", o.TrackIOTiming)
	str("os_cache", o.OSCache)
	str("device", o.Device)
	integer("read_ahead_kb", o.ReadAheadKB)
	if o.HostTimeScale != 0 {
		l = append(l, Setting{"host_time_scale", strconv.FormatFloat(o.HostTimeScale, 'g', -1, 64)})
	}
	str("device_flush", o.DeviceFlush)
	integer("device_write_mbps", o.DeviceWriteMBps)
	integer("host_cpus", o.HostCPUs)
	str("host_wakeup", o.HostWakeup)
	boolean("catalog_pins", o.CatalogPins)
	str("replacement", o.Replacement)
	if o.UsageMax != 0 {
		l = append(l, Setting{"usage_max", strconv.Itoa(o.UsageMax)})
	}
	str("reject", o.Reject)
	if o.Ring != 0 {
		l = append(l, Setting{"ring", strconv.Itoa(o.Ring)})
	}
	boolean("freelist", o.FreeList)
	return append(l, o.Settings...)
}

// Validate reports every problem with the options at once, one line each,
// as *pg.SettingError values joined with errors.Join (errors.As finds the
// first): the setting, the value given and what is allowed.
func (o Options) Validate() error {
	_, _, err := o.settings()
	return err
}

// settings turns the options into the version's settings plus the notices
// for settings accepted but not simulated.
func (o Options) settings() (*Settings, []string, error) {
	v := o.Version
	if v == 0 {
		v = pg.DefaultVersion
	}
	s, err := DefaultSettings(v)
	if err != nil {
		return nil, nil, err
	}
	var errs []error
	var notices []string
	seen := map[string]string{}
	for _, st := range o.settingsList() {
		if first, dup := seen[st.Name]; dup && guc.Lookup(st.Name) != nil {
			errs = append(errs, givenTwice(st, first))
			continue
		}
		seen[st.Name] = st.Value
		n, err := s.Set(st.Name, st.Value)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if n != "" {
			notices = append(notices, n)
		}
	}
	if len(errs) == 0 {
		if err := s.CheckModelled(); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return nil, nil, errors.Join(errs...)
	}
	return s, notices, nil
}

// Open initdb's and starts a cluster with the options: the only place a
// cluster's PRNG is made. Bad options give Validate's error.
func Open(o Options) (*Cluster, error) {
	s, notices, err := o.settings()
	if err != nil {
		return nil, err
	}
	e, err := engine.NewCluster(s, o.Seed)
	if err != nil {
		return nil, err
	}
	e.SetNotices(notices)
	e.AfterCommand()
	c := &Cluster{e: e, S: s}
	e.Autovacuum().Refuse = func(table string) string {
		if c.bench != nil && c.bench.Owns(table) {
			return "a pgbench table, whose dead tuples and HOT chains the model's VACUUM does not handle"
		}
		return ""
	}
	return c, nil
}

// Notices are what opening the cluster said about settings accepted but not
// simulated ("notice: bgwriter_flush_after is accepted but not simulated (…)").
func (c *Cluster) Notices() []string { return c.e.Notices() }

// VersionError is the error for a version outside the supported range.
func VersionError(v string) error {
	return &pg.SettingError{Name: "version", Value: v, Allowed: fmt.Sprintf("supported versions are %d to %d", pg.MinVersion, pg.MaxVersion)}
}

// givenTwice is the error for a setting given a second time on one line.
func givenTwice(st Setting, first string) error {
	return &pg.SettingError{Name: st.Name, Value: st.Value, Allowed: fmt.Sprintf("given twice on one line (first as %s=%s); give each setting once", st.Name, first)}
}
