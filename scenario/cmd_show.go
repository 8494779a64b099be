package scenario

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/cluster"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/strategy"
)

// Example: show buffercache big hot
func (e *Env) cmdShow(args []datadriven.CmdArg) (Output, error) {
	if len(args) == 0 || !positional(args[0]) {
		return Output{}, errorf("show: expected buffercache, io, wal, settings or visibility")
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
	case "stat":
		return e.showStat(rest)
	case "replication":
		return e.showReplication(rest)
	case "corruption":
		return e.showCorruption(rest)
	case "visibility":
		if len(rest) == 0 || !positional(rest[0]) {
			return Output{}, errorf("show visibility: expected a table name")
		}
		r, err := e.C.Visibility(rest[0].Key)
		if err != nil {
			return Output{}, err
		}
		return Output{Text: fmt.Sprintf("%s: all_visible=%d all_frozen=%d", rest[0].Key, r.AllVisible, r.AllFrozen),
			JSON: map[string]any{"all_visible": r.AllVisible, "all_frozen": r.AllFrozen}, Result: r}, nil
	}
	return Output{}, errorf("show %s: unknown (buffercache, pool, io, wal, settings, visibility, replication, corruption, stat)", args[0].Key)
}

// showBuffercache prints pg_buffercache grouped by relation.
func (e *Env) showBuffercache(args []datadriven.CmdArg) (Output, error) {
	var names []string
	for _, a := range args {
		if !positional(a) {
			return Output{}, errorf("show buffercache: unexpected %s=... (list table names)", a.Key)
		}
		names = append(names, a.Key)
	}
	bc, err := e.C.Buffercache(names...)
	if err != nil {
		return Output{}, err
	}
	var b strings.Builder
	// The name column is 10 wide, or as wide as the longest name (up to 63
	// bytes, NAMEDATALEN-1, plus "/fsm"), so the columns stay aligned.
	w := 10
	for _, r := range bc.Rows {
		w = max(w, utf8.RuneCountInString(r.Relation))
	}
	fmt.Fprintf(&b, "%-*s %8s %7s %6s %6s %6s %6s %6s %6s\n", w, "relation", "buffers", "dirty", "u0", "u1", "u2", "u3", "u4", "u5")
	var js []map[string]any
	for _, r := range bc.Rows {
		fmt.Fprintf(&b, "%s%s %8d %7d", r.Relation, strings.Repeat(" ", w-utf8.RuneCountInString(r.Relation)), r.Buffers, r.Dirty)
		for _, u := range r.Usage {
			fmt.Fprintf(&b, " %6d", u)
		}
		b.WriteString("\n")
		usage := r.Usage
		js = append(js, map[string]any{"name": r.Relation, "buffers": r.Buffers, "dirty": r.Dirty, "usage": usage[:]})
	}
	fmt.Fprintf(&b, "%-*s %8d", w, "(unused)", bc.Unused)
	return Output{Text: b.String(), JSON: map[string]any{"relations": js, "unused": bc.Unused}, Result: bc}, nil
}

// sinceArgs parses since=MARK and the options allowed beside it.
func sinceArgs(args []datadriven.CmdArg, allowed ...string) (string, map[string]string, error) {
	opts := map[string]string{}
	since := ""
	for _, a := range args {
		v, err := argVal(a)
		if err != nil {
			return "", nil, err
		}
		ok := a.Key == "since"
		for _, k := range allowed {
			ok = ok || a.Key == k
		}
		if !ok {
			return "", nil, errorf("unknown option %q (since%s)", a.Key, strings.Join(append([]string{""}, allowed...), ", "))
		}
		if a.Key == "since" {
			since = v
			continue
		}
		opts[a.Key] = v
	}
	return since, opts, nil
}

func (e *Env) showIO(args []datadriven.CmdArg) (Output, error) {
	since, opts, err := sinceArgs(args, "context")
	if err != nil {
		return Output{}, errorf("show io: %w", err)
	}
	ctxWant, hasCtx := opts["context"]
	if hasCtx {
		okCtx := ctxWant == "init"
		for k := strategy.Kind(0); k < strategy.NumKinds; k++ {
			okCtx = okCtx || k.String() == ctxWant
		}
		if !okCtx {
			return Output{}, errorf("show io: context=%s: must be normal, bulkread, bulkwrite, vacuum or init", ctxWant)
		}
	}
	rows, err := e.C.StatIO(since)
	if err != nil {
		return Output{}, err
	}
	var b strings.Builder
	if e.C.S.Version < 16 {
		b.WriteString("note: pg_stat_io is new in PostgreSQL 16; these are the counters it would show\n")
	}
	timing := e.C.S.Bool("track_io_timing")
	// fsyncs is counted for the WAL only (the relations' fsyncs are the
	// checkpointer's, which pg_stat_io shows there too; not simulated).
	fmt.Fprintf(&b, "%-18s %-8s %-9s %8s %8s %9s %8s %8s %10s %8s %7s", "backend_type", "object", "context", "reads", "hits", "evictions", "reuses", "writes", "writebacks", "extends", "fsyncs")
	if timing {
		fmt.Fprintf(&b, " %10s", "read_time")
	}
	b.WriteString("\n")
	js := []map[string]any{}
	var shown []cluster.IORow
	for _, r := range rows {
		if hasCtx && r.ContextName() != ctxWant {
			continue
		}
		shown = append(shown, r)
		if r.Object == "wal" {
			fmt.Fprintf(&b, "%-18s %-8s %-9s %8s %8s %9s %8s %8d %10s %8s %7d\n", r.BackendType, "wal", r.ContextName(), "", "", "", "", r.Writes, "", "", r.Fsyncs)
			js = append(js, map[string]any{"backend_type": r.BackendType.String(), "object": "wal", "context": r.ContextName(), "writes": r.Writes, "fsyncs": r.Fsyncs, "write_bytes": r.WriteBytes})
			continue
		}
		fmt.Fprintf(&b, "%-18s %-8s %-9s %8d %8d %9d %8d %8d %10d %8d %7s", r.BackendType, "relation", r.Context, r.Reads, r.Hits, r.Evictions, r.Reuses, r.Writes, r.Writebacks, r.Extends, "")
		row := map[string]any{"backend_type": r.BackendType.String(), "object": "relation", "context": r.Context.String(),
			"reads": r.Reads, "hits": r.Hits, "evictions": r.Evictions, "reuses": r.Reuses,
			"writes": r.Writes, "writebacks": r.Writebacks, "extends": r.Extends}
		if timing { // pg_stat_io.read_time, in milliseconds
			fmt.Fprintf(&b, " %10.3f", float64(r.ReadTimeNs)/1e6)
			row["read_time"] = float64(r.ReadTimeNs/1000) / 1000
		}
		b.WriteString("\n")
		js = append(js, row)
	}
	if len(js) == 0 {
		js = nil
	}
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	return Output{Text: strings.Join(lines, "\n"), JSON: map[string]any{"rows": js}, Result: shown}, nil
}

func (e *Env) showWAL(args []datadriven.CmdArg) (Output, error) {
	since, _, err := sinceArgs(args)
	if err != nil {
		return Output{}, errorf("show wal: %w", err)
	}
	r, err := e.C.WALSince(since)
	if err != nil {
		return Output{}, err
	}
	u, st := r.Usage, r.Stat
	text := fmt.Sprintf("records=%d fpi=%d bytes=%d buffers_full=%d", u.Records, u.FPI, r.Bytes, u.BuffersFull)
	if r.SinceMark {
		text += fmt.Sprintf(" (lsn %s → %s; record bytes %d)", r.StartLSN, r.EndLSN, u.Bytes)
	}
	if st != u {
		text += fmt.Sprintf("\npg_stat_wal: wal_records=%d wal_fpi=%d wal_bytes=%d (parallel workers' WAL is counted twice)", st.Records, st.FPI, st.Bytes)
	}
	return Output{Text: text, JSON: map[string]any{"records": u.Records, "fpi": u.FPI, "bytes": r.Bytes,
		"buffers_full": u.BuffersFull, "start_lsn": r.StartLSN.String(), "end_lsn": r.EndLSN.String(),
		// pg_stat_wal's figures by its column names (as pgbench run's JSON
		// names them); stat_* are the same figures under their first names.
		"wal_records": st.Records, "wal_fpi": st.FPI, "wal_bytes": st.Bytes,
		"stat_records": st.Records, "stat_fpi": st.FPI, "stat_bytes": st.Bytes}, Result: r}, nil
}

func (e *Env) showReplication(args []datadriven.CmdArg) (Output, error) {
	since, _, err := sinceArgs(args)
	if err != nil {
		return Output{}, errorf("show replication: %w", err)
	}
	r, err := e.C.Replication(since)
	if err != nil {
		return Output{}, err
	}
	text := fmt.Sprintf("physical replica: receives and replays %d bytes (%d records, %d full-page images)\n", r.PhysicalBytes, r.Records, r.FPI) +
		fmt.Sprintf("WAL archive: %d completed segments (%s)\n", r.ArchiveSegments, pg.FormatSize(r.ArchiveSegments*int64(pg.WalSegSize))) +
		fmt.Sprintf("logical decoding: %d row changes, 0 full-page images\n", r.LogicalChanges) +
		fmt.Sprintf("incremental backup: %d changed blocks (%s)", r.IncrementalBlocks, pg.FormatSize(int64(r.IncrementalBlocks)*pg.BLCKSZ))
	if e.C.S.Version < 17 {
		text += " (needs 17: pg_basebackup --incremental)"
	}
	return Output{Text: text, JSON: map[string]any{"physical_bytes": r.PhysicalBytes, "records": r.Records, "fpi": r.FPI,
		"archive_segments": r.ArchiveSegments, "logical_changes": r.LogicalChanges, "logical_fpi": 0, "incremental_blocks": r.IncrementalBlocks}, Result: r}, nil
}

func (e *Env) showSettings() (Output, error) {
	r := e.C.Settings()
	var b strings.Builder
	js := map[string]any{}
	fmt.Fprintf(&b, "version = %d\n", r.Version)
	machine := map[string]any{}
	for _, s := range r.Settings {
		if s.Machine {
			machine[s.Name] = s.Value
			continue
		}
		fmt.Fprintf(&b, "%s = %s\n", s.Name, s.Value)
		js[s.Name] = s.Value
	}
	// The machine below the server, and the simulator's own switches: not GUCs.
	b.WriteString("-- machine\n")
	for _, s := range r.Settings {
		if s.Machine {
			fmt.Fprintf(&b, "%s = %s\n", s.Name, s.Value)
		}
	}
	fmt.Fprintf(&b, "device profile: %s\n", r.Device)
	js["machine"] = machine
	derived := map[string]any{
		"nbuffers":            r.NBuffers,
		"max_backends":        r.MaxBackends,
		"wal_buffers_pages":   r.WALBuffersPages,
		"bulkread_ring":       r.BulkReadRing,
		"bulkwrite_ring":      r.BulkWriteRing,
		"vacuum_ring":         r.VacuumRing,
		"seqscan_ring_above":  r.SeqScanRingAbove,
		"checkpoint_segments": r.CheckpointSegments,
	}
	b.WriteString("-- derived\n")
	fmt.Fprintf(&b, "NBuffers = %d\nMaxBackends = %d\n", r.NBuffers, r.MaxBackends)
	if r.Version >= 17 {
		derived["pin_limit"] = r.PinLimit
		fmt.Fprintf(&b, "pin limit (MaxProportionalPins) = %d\n", r.PinLimit)
	}
	fmt.Fprintf(&b, "wal_buffers = %d pages (%s)\n", r.WALBuffersPages, pg.FormatSize(int64(r.WALBuffersPages)*pg.XLogBlcksz))
	for _, k := range []struct {
		kind strategy.Kind
		n    int
	}{{strategy.BulkRead, r.BulkReadRing}, {strategy.BulkWrite, r.BulkWriteRing}, {strategy.Vacuum, r.VacuumRing}} {
		fmt.Fprintf(&b, "%s ring = %d buffers (%s)\n", k.kind, k.n, pg.FormatSize(int64(k.n)*pg.BLCKSZ))
	}
	fmt.Fprintf(&b, "seq scans use a ring above %d pages (NBuffers/4)\n", r.SeqScanRingAbove)
	fmt.Fprintf(&b, "CheckPointSegments = %d (a checkpoint is requested when the WAL segment %d past the redo pointer's is finished)", r.CheckpointSegments, r.CheckpointSegments-1)
	js["derived"] = derived
	return Output{Text: b.String(), JSON: js, Result: r}, nil
}

// showCorruption is what pg_checksums --check reports after recovery: the
// pages that fail their checksum, or with data_checksums=off the corrupted
// pages nothing can detect.
func (e *Env) showCorruption(rest []datadriven.CmdArg) (Output, error) {
	if len(rest) > 0 {
		return Output{}, errorf("show corruption: takes no arguments")
	}
	r, err := e.C.Corruption()
	if err != nil {
		return Output{}, err
	}
	pages := r.Pages
	var text string
	switch {
	case len(pages) == 0:
		text = "corrupted: 0"
	case r.Detected:
		text = fmt.Sprintf("corrupted: %d, detected: %d pages fail their checksum: %s", len(pages), len(pages), strings.Join(pages, " "))
	default:
		text = fmt.Sprintf("corrupted: %d, undetected (data_checksums=off: no checksum to fail): %s", len(pages), strings.Join(pages, " "))
	}
	return Output{Text: text, JSON: map[string]any{"corrupted": len(pages), "pages": pages, "detected": r.Detected && len(pages) > 0}, Result: r}, nil
}
