package diagnose

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/pgbufsim/pgbufsim/cluster"
	"github.com/pgbufsim/pgbufsim/pg"
)

// simulator rebuilds the plan's situation and runs each finding's fixes.
type simulator struct {
	f       *facts
	cache   map[string]*outcome
	rebuilt []string
	// rebuiltWithOthers: the comparison is of a baseline with other data in the pool.
	rebuiltWithOthers bool
	baseRecipe        *recipe
}

// carried are the settings taken from the user's server into the rebuilt
// cluster when known: those that change what the buffer manager, the WAL or
// the planner's parallelism do.
var carried = []string{
	"data_checksums", "wal_log_hints", "full_page_writes", "wal_buffers", "wal_compression",
	"wal_writer_delay", "wal_writer_flush_after", "effective_io_concurrency", "maintenance_io_concurrency",
	"io_combine_limit", "io_max_combine_limit", "io_method", "io_workers", "io_min_workers", "io_max_workers", "max_connections",
	"max_worker_processes", "max_parallel_workers", "max_parallel_workers_per_gather",
	"parallel_leader_participation", "min_parallel_table_scan_size", "synchronize_seqscans",
	"vacuum_buffer_usage_limit", "track_io_timing", "bgwriter_delay", "bgwriter_lru_maxpages",
}

var identRE = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

func sizeKB(blocks int64) string {
	kb := blocks * pg.BLCKSZ / 1024
	switch {
	case kb%(1024*1024) == 0:
		return fmt.Sprintf("%dGB", kb/(1024*1024))
	case kb%1024 == 0:
		return fmt.Sprintf("%dMB", kb/1024)
	}
	return fmt.Sprintf("%dkB", kb)
}

// base is the plan's situation: the table loaded by INSERT, a checkpoint
// when the read's images show one, the table out of shared buffers when the
// plan read it, then the read.
func (s *simulator) base() recipe {
	if s.baseRecipe == nil {
		r := s.buildBase()
		s.baseRecipe = &r
	}
	return *s.baseRecipe
}

func (s *simulator) buildBase() recipe {
	f := s.f
	m := f.main
	r := recipe{version: f.version, load: "insert", checkpoint: true}
	r.comment = []string{
		fmt.Sprintf("Rebuilt by pgbufsim diagnose from %s: %s.", f.in.PlanFile, m.Label()),
		"The table's size and row shape come from the plan; the checkpoint and the",
		"cold start from its figures; max_wal_size and checkpoint_timeout are set so",
		"that no other checkpoint runs. Edit and rerun: pgbufsim run FILE.scn",
	}
	r = r.set("shared_buffers", sizeKB(int64(f.nbuffers)))
	defaults, _ := cluster.DefaultSettings(pg.Version(f.version))
	for _, name := range carried {
		v, ok := f.settings[name]
		if !ok || defaults == nil {
			continue
		}
		probe, _ := cluster.DefaultSettings(pg.Version(f.version))
		if _, err := probe.Set(name, v); err != nil {
			f.note("%s=%s is left at the simulator's default in the rebuilt scenario: %v", name, v, err)
			continue
		}
		if probe.Format(name) == defaults.Format(name) {
			continue
		}
		r = r.set(name, v)
	}
	if f.checksums == "" && f.walLogHints == "" {
		switch {
		case hintFPIs(f):
			r = r.set("data_checksums", "on")
			f.note("data_checksums: assumed on (hint-bit images need data checksums or wal_log_hints; %s)", f.giveSettings("data_checksums"))
		case f.tot.SharedDirtied > 0 && f.in.Plan.ReadOnly():
			r = r.set("data_checksums", "off")
			f.note("data_checksums: assumed off (the read dirtied pages without images; %s)", f.giveSettings("data_checksums"))
		}
	}
	if f.version >= 19 && r.get("io_method") == "io_uring" {
		// The simulator has no io_uring for 19: its worker pool stands in.
		r = r.set("io_method", "worker")
		f.note("io_method: io_uring is rebuilt as worker, which the simulator models for PostgreSQL 19")
	}
	r = r.set("max_wal_size", "64GB").set("checkpoint_timeout", "1d").set("autovacuum", "off")
	r.rel = "t"
	if identRE.MatchString(m.Relation) && m.Relation != "other1" {
		r.rel = m.Relation
	}
	r.pages = f.pages
	// The row shape: rows per page from the scan's rows, the page hole from
	// the images' size when they are all hint-bit images (8,241 − hole bytes
	// each, uncompressed).
	tpp := -1
	if m.Type == "Index Only Scan" {
		tpp = 40
	}
	if m.Type == "Seq Scan" && m.RowsRead() > 0 {
		tpp = int(math.Round(float64(m.RowsRead()) / float64(f.pages)))
	}
	hole := -1
	uncompressed := !f.walCompressed
	switch c := f.tot; {
	case c.WALFPI > 0 && c.WALFPIBytes > 0 && uncompressed:
		hole = int(pg.BLCKSZ - c.WALFPIBytes/c.WALFPI) // 19: the images' own bytes
	case hintFPIs(f) && c.WALFPI == c.WALRecords && uncompressed:
		if h := 8241 - c.WALBytes/c.WALFPI; h >= 0 && h < pg.BLCKSZ {
			hole = int(h)
		}
	}
	if tpp < 1 {
		tpp = 40
		f.note("rows per page: not in the plan (a seq scan's rows give them); assumed 40")
	}
	r.shape = fitShape(tpp, hole)
	if got := r.shape.TuplesPerPage(); got != tpp {
		f.note("rows per page: the plan gives %d; the nearest page layout holds %d", tpp, got)
	}
	if hole >= 0 && r.shape.Hole(r.shape.TuplesPerPage()) != hole {
		f.note("page hole: the images say %d bytes; the rebuilt pages leave %d", hole, r.shape.Hole(r.shape.TuplesPerPage()))
	}
	switch {
	case hintFPIs(f):
		r.checkpoint = true
	case f.in.Plan.ReadOnly() && f.tot.SharedDirtied > 0 && f.tot.WALFPI == 0 && (f.checksums == "on" || f.walLogHints == "on"):
		r.checkpoint = false // logged since the redo pointer: no images
	}
	r.cold = 2*m.SharedRead > m.Touched()
	switch m.Type {
	case "Index Only Scan":
		// count(*) by the planner's choice: the simulator takes the same
		// path when the table has a btree and its pages are all-visible.
		r.ios, r.iosVacuum = true, m.HeapFetches == 0
	case "Index Scan", "Bitmap Heap Scan":
		r.index = true
		r.idxPages = max(1, m.Touched()-3) // root, internal, leaf
		r.idxRows = max(r.idxPages, m.RowsRead())
		r.idxDistinct = max(1, r.pages*int64(r.shape.TuplesPerPage())/r.idxRows)
		f.note("%s is rebuilt as an index scan of %s rows on %s heap pages drawn at random (its heap pages: the pages it touched less three index pages)", m.Label(), n(r.idxRows), n(r.idxPages))
	}
	return r
}

// withOthers adds other data sharing the pool, read twice before the
// statement: tables of at most NBuffers/4 pages (so read without a ring)
// filling `total` buffers.
func (s *simulator) withOthers(r recipe, total int64) recipe {
	q := int64(s.f.nbuffers/4) - 1
	if total < 1 || q < 1 {
		return r
	}
	k := (total + q - 1) / q
	r.otherTables, r.otherPages = int(k), total/k
	r.cold = true
	r.comment = append(r.comment, fmt.Sprintf("other1..%d: other data sharing the pool (%d pages each, read twice: usage count 2) — an assumption, not from the plan", k, r.otherPages))
	return r
}

// maxSimPages bounds the pages a rebuilt scenario may load here (32 GB):
// the simulator loads ~60,000 pages a second, so bigger tables are written
// out for the user to run, not run inside diagnose.
const maxSimPages = 1 << 22

// simError is a rebuilt scenario the simulator refused or could not run.
type simError struct{ err error }

func (e *simError) Error() string { return e.err.Error() }

// run writes the recipe (when a directory is set) and, unless writeOnly,
// simulates it. A write failure is returned as is; a simulation failure as
// a *simError, which check reports on the finding instead of failing.
func (s *simulator) run(name string, r recipe, writeOnly bool) (*outcome, string, error) {
	key := r.text()
	path := ""
	if s.f.in.Dir != "" {
		var err error
		if path, err = writeScenario(s.f.in.Dir, name, r); err != nil {
			return nil, "", err
		}
	}
	if writeOnly {
		return nil, path, nil
	}
	if o, ok := s.cache[key]; ok {
		return o, path, nil
	}
	o, err := simulate(r, s.f.in.Seed)
	if err != nil {
		return nil, path, &simError{fmt.Errorf("simulating %s: %w", name, err)}
	}
	s.cache[key] = o
	return o, path, nil
}

// compare prints the rebuilt read's figures beside the plan's: the first
// baseline's, or one with other data in the pool (a cold read in production
// rarely starts from an empty pool), which replaces a plain one.
func (s *simulator) compare(o *outcome, withOthers bool) {
	if s.rebuilt != nil && (s.rebuiltWithOthers || !withOthers) {
		return
	}
	s.rebuilt, s.rebuiltWithOthers = nil, withOthers
	m := s.f.tot
	if s.f.main != nil && len(s.f.in.Plan.scans()) == 1 {
		m = s.f.main.Counters
	}
	row := func(name string, plan, sim int64) {
		s.rebuilt = append(s.rebuilt, fmt.Sprintf("%-18s plan %15s   rebuilt %15s", name, n(plan), n(sim)))
	}
	row("shared hit", m.SharedHit, o.read.Buf.Hit)
	row("shared read", m.SharedRead, o.read.Buf.Read)
	row("shared dirtied", m.SharedDirtied, o.read.Buf.Dirtied)
	row("shared written", m.SharedWritten, o.read.Buf.Written)
	row("WAL records", m.WALRecords, o.read.WAL.Records)
	row("WAL fpi", m.WALFPI, o.read.WAL.FPI)
	row("WAL bytes", m.WALBytes, o.read.WAL.Bytes)
	if s.f.in.Plan.VersionLow >= 18 {
		row("WAL buffers full", m.WALBuffersFull, o.read.WAL.BuffersFull)
	}
}

type variant struct {
	name, desc string
	whatIf     bool
	apply      func(recipe) (recipe, bool) // false: not applicable
	note       func(base, fixed *outcome) string
}

// check simulates a finding's baseline and fixes.
func (s *simulator) check(fd *Finding) error {
	f := s.f
	base := s.base()
	var figure func(*outcome) float64
	var vs []variant
	vacuum := variant{"vacuum_after_load", "VACUUM the table right after the load, before the next checkpoint", false,
		func(r recipe) (recipe, bool) { r.vacuumAfterLoad = true; return r, true },
		func(_, o *outcome) string { return "VACUUM itself wrote " + mb(walBytes(o.fix)) + " of WAL" }}
	freeze := variant{"copy_freeze", "load with COPY … (FREEZE) into a table created or truncated in the same transaction", false,
		func(r recipe) (recipe, bool) { r.load = "copy freeze"; return r, true },
		func(b, o *outcome) string {
			return fmt.Sprintf("the load wrote %s of WAL (INSERT: %s)", mb(walBytes(o.load)), mb(walBytes(b.load)))
		}}
	early := variant{"read_before_checkpoint", "read the table once in the load job, before the next checkpoint (the hint bits then need no images)", false,
		func(r recipe) (recipe, bool) { r.readBeforeCkpt = true; return r, true },
		func(_, o *outcome) string {
			return "that first read wrote " + mb(walBytes(o.fix)) + " of WAL"
		}}
	upgrade := variant{"upgrade_18", "upgrade to PostgreSQL 18", false,
		func(r recipe) (recipe, bool) {
			if r.version >= 18 {
				return r, false
			}
			r.version = 18
			return r, true
		}, nil}
	switch fd.Kind {
	case KindHintBitFPI:
		figure = func(o *outcome) float64 { return float64(o.read.WAL.Bytes) }
		vs = []variant{vacuum, freeze, early}
	case KindHintBitDirty:
		figure = func(o *outcome) float64 { return float64(o.read.Buf.Dirtied) }
		vs = []variant{vacuum, freeze}
	case KindWALBuffersFull:
		figure = func(o *outcome) float64 { return float64(o.read.WAL.BuffersFull) }
		probe, _ := cluster.DefaultSettings(pg.Version(base.version))
		cur := int64(0)
		if probe != nil {
			for _, g := range base.gucs {
				probe.Set(g[0], g[1])
			}
			cur = int64(probe.WalBuffers())
		}
		bigger := max(4*cur, 8192) // at least 64MB
		vs = []variant{{"wal_buffers", fmt.Sprintf("wal_buffers = %s (now %s)", sizeKB(bigger), sizeKB(cur)), false,
			func(r recipe) (recipe, bool) { return r.set("wal_buffers", sizeKB(bigger)), true }, nil}}
		if hintFPIs(f) {
			vs = append(vs, vacuum)
		}
		if base.version < 18 {
			fd.Figure = ""
			return nil // no "WAL Buffers Full" before 18 to compare
		}
	case KindRingAbandoned, KindParallelRings:
		base = s.withOthers(base, int64(f.nbuffers)*3/4)
		rel := base.rel
		figure = func(o *outcome) float64 { return float64(o.buffers[rel]) }
		if fd.Kind == KindRingAbandoned {
			vs = []variant{vacuum, freeze, upgrade,
				{"reject_flush", "a BULKREAD ring that flushes WAL and writes its dirty buffer instead of rejecting it (reject=flush: not in PostgreSQL)", true,
					func(r recipe) (recipe, bool) { return r.set("reject", "flush"), true }, nil},
				// A bigger ring does not help: every buffer it comes back to is still
				// dirty with an unflushed LSN, and still rejected.
				{"bigger_ring", "a ring of 1,024 buffers (8MB) for every strategy (ring=1024: not a PostgreSQL setting for bulk reads)", true,
					func(r recipe) (recipe, bool) { return r.set("ring", "1024"), true }, nil}}
		} else {
			vs = []variant{{"no_parallel", "max_parallel_workers_per_gather = 0 (one ring, one process)", false,
				func(r recipe) (recipe, bool) { return r.set("max_parallel_workers_per_gather", "0"), true }, nil}}
		}
	case KindQuarterThreshold:
		// The pool full of other data (less 1/32 for the catalogs): every
		// page the scan reads beyond the free buffers evicts something.
		base = s.withOthers(base, int64(f.nbuffers)-int64(f.nbuffers)/32)
		warmed := int64(base.otherTables) * base.otherPages
		figure = func(o *outcome) float64 { return float64(warmed - int64(o.others())) }
		vs = []variant{{"shared_buffers", fmt.Sprintf("shared_buffers = %s (twice)", sizeKB(2*int64(f.nbuffers))), false,
			func(r recipe) (recipe, bool) { return r.set("shared_buffers", sizeKB(2*int64(f.nbuffers))), true }, nil}}
	case KindIOBound:
		t := f.tot
		src := deviceFor(t.ReadMs * 1000 / float64(t.SharedRead))
		base.cold = true
		base = base.set("track_io_timing", "on")
		if src.device != "" {
			base.dropCaches = true
			base = base.set("device", src.device)
		}
		base.comment = append(base.comment, fmt.Sprintf("Reads come from %s (the plan's %.1f µs a page).", src.what, t.ReadMs*1000/float64(t.SharedRead)))
		figure = func(o *outcome) float64 { return math.Round(o.ms()*1000) / 1000 }
		need := base.pages + base.pages/4 + 1024
		vs = []variant{{"cached", fmt.Sprintf("keep the table in shared buffers (shared_buffers = %s, the read run a second time)", sizeKB(max(need, int64(f.nbuffers)))), false,
			func(r recipe) (recipe, bool) {
				r.repeat = 1
				return r.set("shared_buffers", sizeKB(max(need, int64(f.nbuffers)))), true
			}, nil}, upgrade}
	default:
		return nil
	}
	writeOnly := false
	if total := base.pages + int64(base.otherTables)*base.otherPages; total > maxSimPages {
		writeOnly = true
		fd.NotSimulated = fmt.Sprintf("the rebuilt scenarios load %s pages, more than diagnose simulates (%s); run them with pgbufsim run", n(total), n(maxSimPages))
	}
	bo, path, err := s.run(fd.Kind, base, writeOnly)
	var se *simError
	if errors.As(err, &se) {
		fd.NotSimulated, writeOnly = se.Error(), true
	} else if err != nil {
		return err
	}
	fd.Scenario = path
	if !writeOnly {
		if fd.Kind != KindIOBound {
			s.compare(bo, base.otherTables > 0)
		}
		fd.Baseline = f64(figure(bo))
	}
	for _, v := range vs {
		r, ok := v.apply(base)
		if !ok {
			continue
		}
		r.comment = append(append([]string(nil), r.comment...), "Fix: "+v.desc+".")
		o, path, err := s.run(fd.Kind+"-"+v.name, r, writeOnly)
		if errors.As(err, &se) {
			fd.Fixes = append(fd.Fixes, Fix{Name: v.name, Description: v.desc, WhatIf: v.whatIf, Note: "not simulated: " + se.Error(), Scenario: path})
			continue
		} else if err != nil {
			return err
		}
		if writeOnly {
			fd.Fixes = append(fd.Fixes, Fix{Name: v.name, Description: v.desc, WhatIf: v.whatIf, Scenario: path})
			continue
		}
		fx := Fix{Name: v.name, Description: v.desc, WhatIf: v.whatIf, After: f64(figure(o)), Scenario: path}
		if v.note != nil {
			fx.Note = v.note(bo, o)
		}
		if fd.Kind == KindRingAbandoned && base.otherTables > 0 {
			fx.Note = strings.TrimPrefix(fx.Note+fmt.Sprintf("; other data keeps %s of %s buffers (without the fix: %s)", n(int64(o.others())), n(int64(base.otherTables)*base.otherPages), n(int64(bo.others()))), "; ")
		}
		fd.Fixes = append(fd.Fixes, fx)
	}
	return nil
}
