package cluster

import (
	"fmt"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/catalog"
	"github.com/pgbufsim/pgbufsim/internal/engine"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/strategy"
	"github.com/pgbufsim/pgbufsim/wal"
)

// # Snapshots
//
// The views a DBA queries, as typed values: pg_buffercache, pg_stat_io,
// the WAL positions and pg_stat_wal, pg_visibility_map_summary, SHOW ALL.
// Like the real queries, those that run as a session (Buffercache, StatIO,
// WALSince, Replication, Visibility) pin their catalog pages first.

// BuffercacheRow is pg_buffercache grouped by relation (a fork or an index
// is a relation of its own: "big/fsm", "big/vm", "big_pkey"; the catalogs
// are "(other)").
type BuffercacheRow struct {
	Relation string
	Buffers  int
	Dirty    int
	Usage    [6]int // buffers per usage count 0–5
}

// Buffercache is a pg_buffercache query's result.
type Buffercache struct {
	Rows   []BuffercacheRow
	Unused int // buffers holding no page
}

// Row returns the named relation's row (zero when it holds no buffer).
func (b *Buffercache) Row(relation string) BuffercacheRow {
	for _, r := range b.Rows {
		if r.Relation == relation {
			return r
		}
	}
	return BuffercacheRow{Relation: relation}
}

// Buffercache runs the pg_buffercache query grouped by relation, for the
// named tables and indexes (none: every relation, and "(other)"). Like the
// real query, it first runs as a statement: its catalog lookups pin the
// catalog pages (and may read back ones evicted since).
func (c *Cluster) Buffercache(relations ...string) (*Buffercache, error) {
	var res *Buffercache
	err := c.e.Command("show", 0, false, func() error {
		want := map[string]bool{}
		for _, name := range relations {
			if !c.e.IsIndex(name) {
				if _, err := c.e.TableNamed(name); err != nil {
					return fmt.Errorf("show buffercache %s: %w", name, err)
				}
			}
			want[name] = true
		}
		if err := c.e.QuerySession(engine.SessionBuffercache); err != nil {
			return err
		}
		res = c.buffercache(want)
		return nil
	})
	return res, err
}

// buffercache groups the pool's contents by relation, in the order
// relations were created (each table with its forks, then its indexes).
func (c *Cluster) buffercache(want map[string]bool) *Buffercache {
	rows := map[pg.RelID]*BuffercacheRow{}
	res := &Buffercache{}
	for _, r := range c.e.Pool().Contents() {
		if !r.Valid {
			res.Unused++
			continue
		}
		key := r.Tag.Rel // forks have their own storage: "big/fsm", "big/vm"
		row := rows[key]
		if row == nil {
			row = &BuffercacheRow{Relation: c.RelName(key)}
			rows[key] = row
		}
		row.Buffers++
		if r.Dirty {
			row.Dirty++
		}
		row.Usage[r.Usage]++
	}
	add := func(id pg.RelID, name string) {
		if row := rows[id]; row != nil {
			res.Rows = append(res.Rows, *row)
		} else {
			res.Rows = append(res.Rows, BuffercacheRow{Relation: name})
		}
	}
	for _, r := range c.e.Tables() {
		// A table brings its forks and indexes; an index can be asked alone.
		showRel := len(want) == 0 || want[r.Name]
		if showRel {
			add(r.ID, r.Name)
			for _, f := range []pg.ForkNumber{pg.FSMFork, pg.VMFork} {
				if id, ok := c.e.ForkID(r, f); ok && rows[id] != nil {
					res.Rows = append(res.Rows, *rows[id])
				}
			}
		}
		for _, ix := range c.e.TableIndexes(r) {
			if showRel || want[ix.Name] {
				add(ix.ID, ix.Name)
			}
		}
	}
	if len(want) == 0 {
		if row := rows[pg.CatalogRel]; row != nil {
			res.Rows = append(res.Rows, *row)
		}
	}
	return res
}

// IORow is one pg_stat_io row with activity: a backend type, an object
// (relation or wal) and an I/O context (normal, bulkread, bulkwrite,
// vacuum).
type IORow struct {
	BackendType bufmgr.BackendType
	Object      string // "relation" or "wal"
	Context     strategy.Kind
	Reads       int64
	Hits        int64
	Evictions   int64
	Reuses      int64
	Writes      int64
	Writebacks  int64 // blocks whose write-back was requested (*_flush_after)
	Extends     int64
	Fsyncs      int64 // object wal only
	ReadTimeNs  int64 // pg_stat_io.read_time (counted whatever track_io_timing says)
	// WriteBytes is write_bytes, object wal only (18+ counts bytes).
	WriteBytes int64
	// Init marks object wal's context init: the segments the backend type
	// created (XLogFileInit), a zero-fill write and an fsync each.
	Init bool
}

// ContextName is the row's pg_stat_io.context.
func (r IORow) ContextName() string {
	if r.Init {
		return "init"
	}
	return r.Context.String()
}

// StatIO is pg_stat_io: the rows with activity since the mark ("": since
// the cluster started), in backend-type and context order, each backend
// type's wal rows (normal, then init) after its relation rows.
func (c *Cluster) StatIO(since string) ([]IORow, error) {
	var rows []IORow
	err := c.e.Command("show", catalog.StatIO, true, func() error {
		m, err := c.mark(since)
		if err != nil {
			return fmt.Errorf("show io: %w", err)
		}
		st := c.e.Pool().Stats
		if m != nil {
			st = st.Sub(m.IO)
		}
		for bt := bufmgr.BackendType(0); bt < bufmgr.NumBackendTypes; bt++ {
			for k := strategy.Kind(0); k < strategy.NumKinds; k++ {
				r := st.Rel[bt][k]
				nz := false
				for _, v := range r {
					nz = nz || v != 0
				}
				if !nz {
					continue
				}
				rows = append(rows, IORow{BackendType: bt, Object: "relation", Context: k,
					Reads: r[bufmgr.OpReads], Hits: r[bufmgr.OpHits], Evictions: r[bufmgr.OpEvictions], Reuses: r[bufmgr.OpReuses],
					Writes: r[bufmgr.OpWrites], Writebacks: r[bufmgr.OpWritebacks], Extends: r[bufmgr.OpExtends], ReadTimeNs: r[bufmgr.OpReadTime]})
			}
			w := st.WAL[bt]
			if w.Writes != 0 || w.Fsyncs != 0 {
				rows = append(rows, IORow{BackendType: bt, Object: "wal", Context: strategy.Normal, Writes: w.Writes, Fsyncs: w.Fsyncs, WriteBytes: w.WriteBytes})
			}
			if w.InitWrites != 0 || w.InitFsyncs != 0 {
				rows = append(rows, IORow{BackendType: bt, Object: "wal", Init: true, Writes: w.InitWrites, Fsyncs: w.InitFsyncs, WriteBytes: w.InitBytes})
			}
		}
		return nil
	})
	return rows, err
}

// WALReport is the WAL since a mark, or since the cluster started.
type WALReport struct {
	Usage wal.Usage // records, images, Σ record lengths (EXPLAIN's WAL Bytes), buffers full
	// Bytes is the LSN distance since the mark (pg_wal_lsn_diff: page headers
	// and alignment included), or without a mark the record bytes.
	Bytes            int64
	StartLSN, EndLSN pg.LSN
	// Stat is pg_stat_wal's view, which counts parallel workers' WAL twice
	// (the leader adds its workers' usage to its own).
	Stat wal.Usage
	// SinceMark says whether a mark was given.
	SinceMark bool
}

// WALSince reports the WAL since the mark ("": since the cluster started).
func (c *Cluster) WALSince(since string) (WALReport, error) {
	var rep WALReport
	err := c.e.Command("show", engine.SessionPlain, true, func() error {
		m, err := c.mark(since)
		if err != nil {
			return fmt.Errorf("show wal: %w", err)
		}
		u, st := c.e.WAL().Total, c.e.StatWAL()
		if m != nil {
			u, st = u.Sub(m.WAL), st.Sub(m.StatWAL)
			rep.StartLSN, rep.SinceMark = m.LSN, true
		}
		rep.EndLSN = c.e.WAL().InsertLSN()
		rep.Usage, rep.Stat = u, st
		if m != nil {
			rep.Bytes = int64(rep.EndLSN - rep.StartLSN)
		} else {
			rep.Bytes = u.Bytes
		}
		return c.readIOAfterMark()
	})
	return rep, err
}

// ReplicationReport says where the WAL since a mark goes: a physical
// replica receives and replays every byte; the archive stores whole 16 MB
// segments as they fill; logical decoding turns heap changes into row
// changes and ships no page images at all; an incremental backup (17+,
// from WAL summaries) copies every block the WAL referenced, hint-bit
// images included.
type ReplicationReport struct {
	PhysicalBytes     int64
	Records, FPI      int64
	ArchiveSegments   int64
	LogicalChanges    int64
	IncrementalBlocks int
}

// Replication reports where the WAL since the mark goes.
func (c *Cluster) Replication(since string) (ReplicationReport, error) {
	var rep ReplicationReport
	err := c.e.Command("show", 0, false, func() error {
		m, err := c.mark(since)
		if err != nil {
			return fmt.Errorf("show replication: %w", err)
		}
		if m == nil {
			return fmt.Errorf("show replication: give since=MARK")
		}
		end := c.e.WAL().InsertLSN()
		u := c.e.WAL().Total.Sub(m.WAL)
		rep = ReplicationReport{PhysicalBytes: int64(end - m.LSN), Records: u.Records, FPI: u.FPI,
			ArchiveSegments: int64(end/pg.WalSegSize) - int64(m.LSN/pg.WalSegSize),
			LogicalChanges:  c.e.RowChanges() - m.Changes, IncrementalBlocks: c.e.Pool().PagesLoggedAfter(m.LSN)}
		return nil
	})
	return rep, err
}

// VisibilityReport is pg_visibility_map_summary.
type VisibilityReport struct {
	AllVisible, AllFrozen int
}

// Visibility is pg_visibility_map_summary(table).
func (c *Cluster) Visibility(table string) (VisibilityReport, error) {
	var rep VisibilityReport
	err := c.e.Command("show", engine.SessionPlain, true, func() error {
		r, err := c.e.TableNamed(table)
		if err != nil {
			return fmt.Errorf("show visibility %s: %w", table, err)
		}
		rep.AllVisible, rep.AllFrozen = r.CountVisibility()
		return nil
	})
	return rep, err
}

// SettingValue is one setting as SHOW prints it.
type SettingValue struct {
	Name, Value string
	// Machine: not a PostgreSQL setting but the machine's or the simulator's
	// (os_cache, device, replacement, …).
	Machine bool
}

// SettingsReport is SHOW ALL plus what the server derives from it.
type SettingsReport struct {
	Version pg.Version
	// Settings in name order; machine and what-if settings at their
	// defaults are left out where a what-if is meant (see Machine).
	Settings []SettingValue
	// Device describes the storage device profile.
	Device string
	// Derived values.
	NBuffers, MaxBackends, WALBuffersPages  int
	BulkReadRing, BulkWriteRing, VacuumRing int
	SeqScanRingAbove                        int // a seq scan uses a ring above this many pages (NBuffers/4)
	PinLimit                                int // 17+: MaxProportionalPins (0 before)
	// CheckpointSegments is CheckPointSegments: a checkpoint is requested
	// when a finished WAL segment is CheckpointSegments − 1 past the redo pointer's.
	CheckpointSegments int
}

// Settings reports the settings in force.
func (c *Cluster) Settings() SettingsReport {
	s := c.S
	rep := SettingsReport{Version: s.Version, Device: c.e.Storage().Config().Device.Doc,
		NBuffers: s.NBuffers(), MaxBackends: s.MaxBackends(), WALBuffersPages: s.WalBuffers(),
		BulkReadRing: c.RingBuffers(strategy.BulkRead), BulkWriteRing: c.RingBuffers(strategy.BulkWrite),
		VacuumRing: c.RingBuffers(strategy.Vacuum), SeqScanRingAbove: s.NBuffers() / 4,
		CheckpointSegments: wal.CheckpointSegments(s.Int("max_wal_size"), s.Real("checkpoint_completion_target"))}
	if s.Version >= 17 {
		rep.PinLimit = s.PinLimit()
	}
	for _, n := range s.Names() {
		if Machine(n) && s.HiddenDefault(n) {
			continue
		}
		rep.Settings = append(rep.Settings, SettingValue{Name: n, Value: s.Format(n), Machine: Machine(n)})
	}
	return rep
}

// RelKind is what a relation of the pool is.
type RelKind uint8

// Relation kinds.
const (
	TableRel RelKind = iota // a heap
	ForkRel                 // a heap's free space map or visibility map
	IndexRel                // a btree
)

// RelationRef names one relation of the pool.
type RelationRef struct {
	ID   pg.RelID
	Name string // "big", "big/fsm", "big_pkey"
	Kind RelKind
}

// Relations lists the pool's relations in the order pg_buffercache output
// lists them: each table in creation order, then its forks that exist, then
// its indexes by name.
func (c *Cluster) Relations() []RelationRef {
	var out []RelationRef
	for _, r := range c.e.Tables() {
		out = append(out, RelationRef{r.ID, r.Name, TableRel})
		for _, f := range []pg.ForkNumber{pg.FSMFork, pg.VMFork} {
			if id, ok := c.e.ForkID(r, f); ok {
				out = append(out, RelationRef{id, c.e.RelName(id), ForkRel})
			}
		}
		for _, ix := range c.e.TableIndexes(r) {
			out = append(out, RelationRef{ix.ID, ix.Name, IndexRel})
		}
	}
	return out
}

// mark looks a mark up ("" is no mark: since the cluster started).
func (c *Cluster) mark(name string) (*engine.Mark, error) {
	if name == "" {
		return nil, nil
	}
	m, ok := c.e.GetMark(name)
	if !ok {
		return nil, fmt.Errorf("since=%s: no such mark (set one with: mark %s)", name, name)
	}
	return &m, nil
}
