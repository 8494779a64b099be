package sim

import (
	"fmt"
	"strings"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/strategy"
)

func (e *Env) cmdShow(args []datadriven.CmdArg) (Output, error) {
	if len(args) == 0 || !positional(args[0]) {
		return Output{}, fmt.Errorf("show: expected buffercache, io, wal, settings or visibility")
	}
	rest := args[1:]
	switch args[0].Key {
	case "buffercache":
		return e.showBuffercache(rest)
	case "pool":
		return e.showPool(rest)
	case "io":
		return e.showIO(rest)
	case "wal":
		return e.showWAL(rest)
	case "settings":
		return e.showSettings()
	case "replication":
		return e.showReplication(rest)
	case "corruption":
		return e.showCorruption(rest)
	case "visibility":
		r, _, err := e.oneTable("show visibility", rest)
		if err != nil {
			return Output{}, err
		}
		av, af := r.CountVisibility()
		return Output{Text: fmt.Sprintf("%s: all_visible=%d all_frozen=%d", r.Name, av, af),
			JSON: map[string]any{"all_visible": av, "all_frozen": af}}, nil
	}
	return Output{}, fmt.Errorf("show %s: unknown (buffercache, pool, io, wal, settings, visibility, replication)", args[0].Key)
}

type bcRow struct {
	name    string
	buffers int
	dirty   int
	usage   [6]int
}

// showBuffercache prints pg_buffercache grouped by relation. Like the real
// query, it first runs as a statement: its catalog lookups pin the catalog
// pages (and may read back ones evicted since), which is why "(other)" is
// there to see.
func (e *Env) showBuffercache(args []datadriven.CmdArg) (Output, error) {
	c := e.C
	want := map[string]bool{}
	for _, a := range args {
		if !positional(a) {
			return Output{}, fmt.Errorf("show buffercache: unexpected %s=... (list table names)", a.Key)
		}
		if _, isIndex := c.indexes[a.Key]; !isIndex {
			if _, err := e.table(a.Key); err != nil {
				return Output{}, fmt.Errorf("show buffercache %s: %w", a.Key, err)
			}
		}
		want[a.Key] = true
	}
	be := bufmgr.NewBackend(bufmgr.ClientBackend, c.now)
	if err := c.touchCatalog(be, catalogBuffercache); err != nil {
		return Output{}, err
	}
	c.finish([]*participant{{be: be}})
	rows := map[pg.RelID]*bcRow{}
	unused := 0
	for _, r := range c.pool.Contents() {
		if !r.Valid {
			unused++
			continue
		}
		key := r.Tag.Rel // forks have their own storage: "big/fsm", "big/vm"
		row := rows[key]
		if row == nil {
			row = &bcRow{name: c.relName(key)}
			rows[key] = row
		}
		row.buffers++
		if r.Dirty {
			row.dirty++
		}
		row.usage[r.Usage]++
	}
	var list []*bcRow
	for _, r := range c.sortedRels() {
		// A table brings its forks and indexes; an index can be asked alone.
		showRel := len(want) == 0 || want[r.Name]
		if showRel {
			if row := rows[r.ID]; row != nil {
				list = append(list, row)
			} else {
				list = append(list, &bcRow{name: r.Name})
			}
			for _, f := range []pg.ForkNumber{pg.FSMFork, pg.VMFork} {
				if id, ok := c.forks[[2]int{int(r.ID), int(f)}]; ok && rows[id] != nil {
					list = append(list, rows[id])
				}
			}
		}
		for _, ix := range c.sortedIndexes(r) {
			if !showRel && !want[ix.name] {
				continue
			}
			if row := rows[ix.id]; row != nil {
				list = append(list, row)
			} else {
				list = append(list, &bcRow{name: ix.name})
			}
		}
	}
	if len(want) == 0 {
		if row := rows[pg.CatalogRel]; row != nil {
			list = append(list, row)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-10s %8s %7s %6s %6s %6s %6s %6s %6s\n", "relation", "buffers", "dirty", "u0", "u1", "u2", "u3", "u4", "u5")
	var js []map[string]any
	for _, r := range list {
		fmt.Fprintf(&b, "%-10s %8d %7d", r.name, r.buffers, r.dirty)
		for _, u := range r.usage {
			fmt.Fprintf(&b, " %6d", u)
		}
		b.WriteString("\n")
		js = append(js, map[string]any{"name": r.name, "buffers": r.buffers, "dirty": r.dirty, "usage": r.usage[:]})
	}
	fmt.Fprintf(&b, "%-10s %8d", "(unused)", unused)
	return Output{Text: b.String(), JSON: map[string]any{"relations": js, "unused": unused}}, nil
}

func (e *Env) sinceMark(args []datadriven.CmdArg, allowed ...string) (*mark, map[string]string, error) {
	opts := map[string]string{}
	var m *mark
	for _, a := range args {
		v, err := argVal(a)
		if err != nil {
			return nil, nil, err
		}
		ok := a.Key == "since"
		for _, k := range allowed {
			ok = ok || a.Key == k
		}
		if !ok {
			return nil, nil, fmt.Errorf("unknown option %q (since%s)", a.Key, strings.Join(append([]string{""}, allowed...), ", "))
		}
		if a.Key == "since" {
			mk, found := e.C.marks[v]
			if !found {
				return nil, nil, fmt.Errorf("since=%s: no such mark (set one with: mark %s)", v, v)
			}
			m = &mk
			continue
		}
		opts[a.Key] = v
	}
	return m, opts, nil
}

func (e *Env) showIO(args []datadriven.CmdArg) (Output, error) {
	m, opts, err := e.sinceMark(args, "context")
	if err != nil {
		return Output{}, fmt.Errorf("show io: %w", err)
	}
	st := e.C.pool.Stats
	if m != nil {
		st = st.Sub(m.io)
	}
	ctxWant, hasCtx := opts["context"]
	if hasCtx {
		okCtx := false
		for k := strategy.Kind(0); k < strategy.NumKinds; k++ {
			okCtx = okCtx || k.String() == ctxWant
		}
		if !okCtx {
			return Output{}, fmt.Errorf("show io: context=%s: must be normal, bulkread, bulkwrite or vacuum", ctxWant)
		}
	}
	var b strings.Builder
	if e.C.S.Version < 16 {
		b.WriteString("note: pg_stat_io is new in PostgreSQL 16; these are the counters it would show\n")
	}
	timing := e.C.S.Bool("track_io_timing")
	fmt.Fprintf(&b, "%-18s %-8s %-9s %8s %8s %9s %8s %8s %8s", "backend_type", "object", "context", "reads", "hits", "evictions", "reuses", "writes", "extends")
	if timing {
		fmt.Fprintf(&b, " %10s", "read_time")
	}
	b.WriteString("\n")
	var js []map[string]any
	for bt := bufmgr.BackendType(0); bt < bufmgr.NumBackendTypes; bt++ {
		for k := strategy.Kind(0); k < strategy.NumKinds; k++ {
			if hasCtx && k.String() != ctxWant {
				continue
			}
			r := st.Rel[bt][k]
			nz := false
			for _, v := range r {
				nz = nz || v != 0
			}
			if !nz {
				continue
			}
			fmt.Fprintf(&b, "%-18s %-8s %-9s %8d %8d %9d %8d %8d %8d", bt, "relation", k, r[bufmgr.OpReads], r[bufmgr.OpHits], r[bufmgr.OpEvictions], r[bufmgr.OpReuses], r[bufmgr.OpWrites], r[bufmgr.OpExtends])
			row := map[string]any{"backend_type": bt.String(), "object": "relation", "context": k.String(),
				"reads": r[bufmgr.OpReads], "hits": r[bufmgr.OpHits], "evictions": r[bufmgr.OpEvictions], "reuses": r[bufmgr.OpReuses],
				"writes": r[bufmgr.OpWrites], "extends": r[bufmgr.OpExtends]}
			if timing { // pg_stat_io.read_time, in milliseconds
				fmt.Fprintf(&b, " %10.3f", float64(r[bufmgr.OpReadTime])/1e6)
				row["read_time"] = float64(r[bufmgr.OpReadTime]/1000) / 1000
			}
			b.WriteString("\n")
			js = append(js, row)
		}
		if w := st.WAL[bt]; (w.Writes != 0 || w.Fsyncs != 0) && (!hasCtx || ctxWant == "normal") {
			fmt.Fprintf(&b, "%-18s %-8s %-9s %8s %8s %9s %8s %8d %8s  fsyncs=%d\n", bt, "wal", "normal", "", "", "", "", w.Writes, "", w.Fsyncs)
			js = append(js, map[string]any{"backend_type": bt.String(), "object": "wal", "context": "normal", "writes": w.Writes, "fsyncs": w.Fsyncs})
		}
	}
	return Output{Text: strings.TrimRight(b.String(), "\n"), JSON: map[string]any{"rows": js}}, nil
}

func (e *Env) showWAL(args []datadriven.CmdArg) (Output, error) {
	m, _, err := e.sinceMark(args)
	if err != nil {
		return Output{}, fmt.Errorf("show wal: %w", err)
	}
	c := e.C
	u, st := c.wal.Total, c.statWAL()
	start := pg.LSN(0)
	if m != nil {
		u, st = u.Sub(m.wal), st.Sub(m.statWAL)
		start = m.lsn
	}
	end := c.wal.InsertLSN()
	var bytes int64
	if m != nil {
		bytes = int64(end - start)
	} else {
		bytes = u.Bytes
	}
	text := fmt.Sprintf("records=%d fpi=%d bytes=%d buffers_full=%d", u.Records, u.FPI, bytes, u.BuffersFull)
	if m != nil {
		text += fmt.Sprintf(" (lsn %s → %s; record bytes %d)", start, end, u.Bytes)
	}
	if st != u {
		text += fmt.Sprintf("\npg_stat_wal: wal_records=%d wal_fpi=%d wal_bytes=%d (parallel workers' WAL is counted twice)", st.Records, st.FPI, st.Bytes)
	}
	return Output{Text: text, JSON: map[string]any{"records": u.Records, "fpi": u.FPI, "bytes": bytes,
		"buffers_full": u.BuffersFull, "start_lsn": start.String(), "end_lsn": end.String(),
		"stat_records": st.Records, "stat_fpi": st.FPI, "stat_bytes": st.Bytes}}, nil
}

// showReplication says where the WAL since a mark goes: a physical replica
// receives and replays every byte; the archive stores whole 16 MB segments
// as they fill; logical decoding turns heap changes into row changes and
// ships no page images at all; an incremental backup (17+, from WAL
// summaries) copies every block the WAL referenced, hint-bit images included.
func (e *Env) showReplication(args []datadriven.CmdArg) (Output, error) {
	m, _, err := e.sinceMark(args)
	if err != nil {
		return Output{}, fmt.Errorf("show replication: %w", err)
	}
	if m == nil {
		return Output{}, fmt.Errorf("show replication: give since=MARK")
	}
	c := e.C
	end := c.wal.InsertLSN()
	u := c.wal.Total.Sub(m.wal)
	bytes := int64(end - m.lsn)
	segments := int64(end/pg.WalSegSize) - int64(m.lsn/pg.WalSegSize)
	changes := c.rowChanges - m.changes
	pages := c.pool.PagesLoggedAfter(m.lsn)
	text := fmt.Sprintf("physical replica: receives and replays %d bytes (%d records, %d full-page images)\n", bytes, u.Records, u.FPI) +
		fmt.Sprintf("WAL archive: %d completed segments (%s)\n", segments, pg.FormatSize(segments*int64(pg.WalSegSize))) +
		fmt.Sprintf("logical decoding: %d row changes, 0 full-page images\n", changes) +
		fmt.Sprintf("incremental backup: %d changed blocks (%s)", pages, pg.FormatSize(int64(pages)*pg.BLCKSZ))
	if c.S.Version < 17 {
		text += " (needs 17: pg_basebackup --incremental)"
	}
	return Output{Text: text, JSON: map[string]any{"physical_bytes": bytes, "records": u.Records, "fpi": u.FPI,
		"archive_segments": segments, "logical_changes": changes, "logical_fpi": 0, "incremental_blocks": pages}}, nil
}

func (e *Env) showSettings() (Output, error) {
	c := e.C
	s := c.S
	var b strings.Builder
	js := map[string]any{}
	fmt.Fprintf(&b, "version = %d\n", s.Version)
	machine := map[string]any{}
	for _, n := range s.Names() {
		if Machine(n) {
			if !s.hiddenDefault(n) {
				machine[n] = s.Format(n)
			}
			continue
		}
		fmt.Fprintf(&b, "%s = %s\n", n, s.Format(n))
		js[n] = s.Format(n)
	}
	// The machine below the server, and the simulator's own switches: not GUCs.
	b.WriteString("-- machine\n")
	for _, n := range s.Names() {
		if Machine(n) && !s.hiddenDefault(n) {
			fmt.Fprintf(&b, "%s = %s\n", n, s.Format(n))
		}
	}
	fmt.Fprintf(&b, "device profile: %s\n", c.storage.Config().Device.Doc)
	js["machine"] = machine
	derived := map[string]any{
		"nbuffers":           s.NBuffers(),
		"max_backends":       s.MaxBackends(),
		"wal_buffers_pages":  s.WalBuffers(),
		"bulkread_ring":      c.RingBuffers(strategy.BulkRead),
		"bulkwrite_ring":     c.RingBuffers(strategy.BulkWrite),
		"vacuum_ring":        c.RingBuffers(strategy.Vacuum),
		"seqscan_ring_above": s.NBuffers() / 4,
	}
	b.WriteString("-- derived\n")
	fmt.Fprintf(&b, "NBuffers = %d\nMaxBackends = %d\n", s.NBuffers(), s.MaxBackends())
	if s.Version >= 17 {
		derived["pin_limit"] = s.PinLimit()
		fmt.Fprintf(&b, "pin limit (MaxProportionalPins) = %d\n", s.PinLimit())
	}
	fmt.Fprintf(&b, "wal_buffers = %d pages (%s)\n", s.WalBuffers(), pg.FormatSize(int64(s.WalBuffers())*pg.XLogBlcksz))
	for _, k := range []strategy.Kind{strategy.BulkRead, strategy.BulkWrite, strategy.Vacuum} {
		n := c.RingBuffers(k)
		fmt.Fprintf(&b, "%s ring = %d buffers (%s)\n", k, n, pg.FormatSize(int64(n)*pg.BLCKSZ))
	}
	fmt.Fprintf(&b, "seq scans use a ring above %d pages (NBuffers/4)", s.NBuffers()/4)
	js["derived"] = derived
	return Output{Text: b.String(), JSON: js}, nil
}
