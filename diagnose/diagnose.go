// Package diagnose reads a real EXPLAIN (ANALYZE, BUFFERS, WAL, FORMAT JSON)
// plan — with, optionally, a pg_buffercache export and the server's settings —
// says what the buffer manager did and why, and checks each fix by rebuilding
// the situation as a scenario and simulating it with and without the fix.
//
// A finding names the mechanism (the PostgreSQL function or setting behind
// it), shows the plan's figures that prove it, and ranks fixes by what the
// simulation measured. The rebuilt scenarios are written out for the user to
// edit and rerun; the rebuilt baseline is compared with the plan's own
// figures, so the user sees how closely the scenario reproduces the statement.
package diagnose

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/pgbufsim/pgbufsim/pg"
)

// Input is what diagnose reads.
type Input struct {
	PlanFile    string
	Plan        *Plan
	Settings    map[string]string // --settings (nil: none)
	Buffercache *Buffercache      // --buffercache (nil: none)
	Seed        uint64
	// Dir receives the rebuilt scenarios ("" writes none).
	Dir string
	// NoSimulate skips the rebuilt scenarios: findings and evidence only.
	NoSimulate bool
}

// Finding kinds: stable names for tools.
const (
	KindHintBitFPI       = "hint_bit_fpi"
	KindHintBitDirty     = "hint_bit_dirty"
	KindWALBuffersFull   = "wal_buffers_full"
	KindRingAbandoned    = "ring_abandoned"
	KindQuarterThreshold = "quarter_threshold"
	KindIOBound          = "io_bound"
	KindParallelRings    = "parallel_rings"
)

// Finding is one thing the plan shows.
type Finding struct {
	Kind        string   `json:"kind"`
	Severity    string   `json:"severity"` // "warning" or "info"
	Summary     string   `json:"summary"`
	Explanation string   `json:"explanation"`
	Evidence    []string `json:"evidence"`
	// Figure is what the fixes are ranked by, e.g. "WAL bytes of the read".
	Figure string `json:"figure,omitempty"`
	// Baseline is the figure in the rebuilt scenario without a fix.
	Baseline *float64 `json:"baseline,omitempty"`
	Scenario string   `json:"scenario,omitempty"`
	// NotSimulated says why the rebuilt scenarios were written but not run.
	NotSimulated string `json:"not_simulated,omitempty"`
	Fixes        []Fix  `json:"fixes"`
}

// Fix is one remedy, checked on the rebuilt scenario.
type Fix struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// WhatIf: a design PostgreSQL does not have (a simulator variant), shown
	// for comparison and ranked after every real fix.
	WhatIf bool `json:"what_if,omitempty"`
	// After is the finding's figure with the fix; nil when not simulated.
	After    *float64 `json:"after,omitempty"`
	Note     string   `json:"note,omitempty"`
	Scenario string   `json:"scenario,omitempty"`
}

// Report is diagnose's answer.
type Report struct {
	Statement   string    `json:"statement"`
	Version     int       `json:"version"`
	NBuffers    int       `json:"shared_buffers_blocks"`
	Assumptions []string  `json:"assumptions"`
	Rebuilt     []string  `json:"rebuilt,omitempty"` // the baseline vs the plan, figure by figure
	Findings    []Finding `json:"findings"`
}

// facts are what the plan, the settings and the buffercache tell together.
type facts struct {
	in *Input
	// settings are the user's server's, by PostgreSQL name (the settings
	// file, then EXPLAIN (SETTINGS)): gather reads the ones the rules use
	// into the typed fields below; only the loop that carries settings into
	// the rebuilt cluster (carried) reads them by name.
	settings    map[string]string
	version     int // simulated version
	nbuffers    int
	checksums   string // "on", "off" or "" (unknown)
	walLogHints string
	// walCompressed: the server's wal_compression is set and not off (its
	// full-page images are compressed, so their size does not give the hole).
	walCompressed bool
	// walBuffers is the server's wal_buffers as its settings give it, if
	// they do (walBuffersGiven).
	walBuffers      string
	walBuffersGiven bool
	tot             Counters
	main            *Node // the largest table scan, or nil
	pages           int64 // the main scan's table size in pages
	participant     int   // processes of the main scan (leader + workers)
	notes           []string
}

func (f *facts) note(format string, a ...any) { f.notes = append(f.notes, fmt.Sprintf(format, a...)) }

// giveSettings says how the user could tell the setting: give --settings
// (or another flag), or, when a settings file was given, that it lacks it.
func (f *facts) giveSettings(name string, or ...string) string {
	if f.in.Settings == nil {
		return "give --settings" + strings.Join(append([]string{""}, or...), " or ")
	}
	s := "the --settings file has no " + name
	if len(or) > 0 {
		s += "; give " + strings.Join(or, " or ")
	}
	return s
}

func gather(in *Input) *facts {
	p := in.Plan
	f := &facts{in: in, settings: map[string]string{}, tot: p.Root.Counters, participant: 1}
	for k, v := range in.Settings {
		f.settings[k] = v
	}
	for k, v := range p.Settings { // EXPLAIN (SETTINGS): in force for this statement
		f.settings[k] = v
	}
	// Version.
	v := ServerVersion(f.settings)
	switch {
	case v > 0:
		if v < p.VersionLow || v > p.VersionHigh {
			f.note("server_version says %d but the plan's field names are PostgreSQL %d–%d's; the settings file may come from another server", v, p.VersionLow, p.VersionHigh)
		}
	case p.VersionLow == p.VersionHigh:
		v = p.VersionLow
	default:
		v = min(max(int(pg.DefaultVersion), p.VersionLow), p.VersionHigh)
		f.note("version: the plan's field names fit PostgreSQL %d–%d; assumed %d (%s to be exact)", p.VersionLow, p.VersionHigh, v, f.giveSettings("server_version"))
	}
	if p.TextNoWAL {
		f.note("the text plan has no \"WAL:\" line: read as a statement that wrote no WAL (EXPLAIN prints the line only when WAL was written, and only with the WAL option)")
	}
	f.version = v
	if v < int(pg.MinVersion) {
		f.note("PostgreSQL %d is simulated as %d, the oldest version pgbufsim models (rings, hint bits and WAL records are the same)", v, pg.MinVersion)
		f.version = int(pg.MinVersion)
	} else if v > int(pg.MaxVersion) {
		f.note("PostgreSQL %d is simulated as %d, the newest version pgbufsim models", v, pg.MaxVersion)
		f.version = int(pg.MaxVersion)
	}
	// shared_buffers.
	if sb, ok := f.settings["shared_buffers"]; ok {
		if n, err := pg.ParseSize(sb, pg.UnitBlocks); err == nil && n >= 16 {
			f.nbuffers = int(n)
		} else {
			f.note("shared_buffers=%q in the settings is not a size of at least 16 buffers; ignored", sb)
		}
	}
	if f.nbuffers == 0 && in.Buffercache != nil {
		f.nbuffers = in.Buffercache.NBuffers
	}
	if f.nbuffers == 0 {
		f.nbuffers = 16384
		f.note("shared_buffers: assumed 128MB (16384 buffers), the default; %s", f.giveSettings("shared_buffers", "--buffercache"))
	} else if in.Buffercache != nil && in.Buffercache.NBuffers != f.nbuffers {
		f.note("the buffercache export has %d buffers but shared_buffers is %d; the export may come from another server", in.Buffercache.NBuffers, f.nbuffers)
	}
	f.checksums, f.walLogHints = onOff(f.settings["data_checksums"]), onOff(f.settings["wal_log_hints"])
	wc := f.settings["wal_compression"]
	f.walCompressed = wc != "" && onOff(wc) != "off"
	f.walBuffers, f.walBuffersGiven = f.settings["wal_buffers"]
	// The main scan and its table.
	if s := p.scans(); len(s) > 0 {
		f.main = s[0]
		if g := p.gatherOf(f.main); g != nil && f.main.ParallelAware {
			f.participant = 1 + g.WorkersLaunched
			if onOff(f.settings["parallel_leader_participation"]) == "off" {
				f.participant--
			}
		}
		switch f.main.Type {
		case "Seq Scan":
			f.pages = max(1, f.main.Touched())
		case "Index Only Scan":
			// count(*)-like: every entry, so the rows are the table's; its pages
			// at the rebuilt row shape (40 a page without a seq scan to say).
			f.pages = max(1, (f.main.RowsRead()+39)/40)
			f.note("%s: the table's size is not in the plan; rebuilt as its %s rows at 40 a page", f.main.Label(), n(f.main.RowsRead()))
		default:
			f.pages = max(2*int64(f.nbuffers), 10*f.main.Touched())
			f.note("%s: the table's size is not in the plan; rebuilt with %s pages (twice shared_buffers or ten times the pages the scan touched)", f.main.Label(), n(f.pages))
		}
	}
	return f
}

func onOff(s string) string {
	switch strings.ToLower(s) {
	case "on", "true", "yes", "1":
		return "on"
	case "off", "false", "no", "0":
		return "off"
	}
	return ""
}

// Diagnose reads the plan and returns its findings, each fix simulated.
func Diagnose(in *Input) (*Report, error) {
	f := gather(in)
	p := in.Plan
	r := &Report{Statement: p.Root.Label(), Version: f.version, NBuffers: f.nbuffers}
	if f.main != nil && f.main != p.Root {
		r.Statement += " over " + f.main.Label()
	}
	var fs []*Finding
	for _, rule := range rules {
		if fd := rule(f); fd != nil {
			fs = append(fs, fd)
		}
	}
	if len(fs) > 0 && !in.NoSimulate && f.main != nil {
		s := &simulator{f: f, cache: map[string]*outcome{}}
		for _, fd := range fs {
			if err := s.check(fd); err != nil {
				return nil, err
			}
		}
		r.Rebuilt = s.rebuilt
	}
	for _, fd := range fs {
		rankFixes(fd)
		r.Findings = append(r.Findings, *fd)
	}
	r.Assumptions = f.notes
	if r.Assumptions == nil {
		r.Assumptions = []string{}
	}
	if r.Findings == nil {
		r.Findings = []Finding{}
	}
	return r, nil
}

// rankFixes orders fixes by their simulated figure (lower is better), real
// fixes before what-if designs, unsimulated ones last.
func rankFixes(fd *Finding) {
	sort.SliceStable(fd.Fixes, func(i, j int) bool {
		a, b := fd.Fixes[i], fd.Fixes[j]
		if a.WhatIf != b.WhatIf {
			return !a.WhatIf
		}
		if (a.After == nil) != (b.After == nil) {
			return a.After != nil
		}
		if a.After != nil && *a.After != *b.After {
			return *a.After < *b.After
		}
		return false
	})
}

// ---- rules

var rules = []func(*facts) *Finding{
	ruleHintBitFPI, ruleHintBitDirty, ruleWALBuffersFull, ruleRingAbandoned,
	ruleQuarterThreshold, ruleIOBound, ruleParallelRings,
}

func n(v int64) string { return commas(v) }

func commas(v int64) string {
	s := strconv.FormatInt(v, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

func mb(bytes int64) string {
	switch {
	case bytes >= 10<<20:
		return fmt.Sprintf("%.0f MB", float64(bytes)/(1<<20))
	case bytes >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(bytes)/(1<<20))
	case bytes >= 1<<10:
		return fmt.Sprintf("%.1f kB", float64(bytes)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", bytes)
}

func pct(a, b int64) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(a)/float64(b))
}

// hintFPIOnly: the read's WAL is (mostly) full-page images: the mark of
// XLogSaveBufferForHint.
func hintFPIs(f *facts) bool {
	t := f.tot
	return f.in.Plan.ReadOnly() && t.WALFPI > 0 && 2*t.WALFPI >= t.WALRecords && t.SharedDirtied > 0
}

func ruleHintBitFPI(f *facts) *Finding {
	if !hintFPIs(f) {
		return nil
	}
	t := f.tot
	why := "data checksums or wal_log_hints must be on for it (the settings were not given)"
	switch {
	case f.checksums == "on":
		why = "data_checksums is on"
	case f.walLogHints == "on":
		why = "wal_log_hints is on"
	case f.checksums == "off" && f.walLogHints == "off":
		why = "yet the settings say checksums and wal_log_hints are off: the images come from something else (check full_page_writes and the statement)"
	}
	ev := []string{
		fmt.Sprintf("the statement changes no table (no ModifyTable node), yet WAL Records=%s, WAL FPI=%s (%s of the records are full-page images), WAL Bytes=%s (%s)", n(t.WALRecords), n(t.WALFPI), pct(t.WALFPI, t.WALRecords), n(t.WALBytes), mb(t.WALBytes)),
		fmt.Sprintf("Shared Dirtied Blocks=%s of %s pages touched: the read changed the pages it read", n(t.SharedDirtied), n(t.Touched())),
		fmt.Sprintf("%s bytes per image on average: an 8 kB page without its hole (8,241 − hole bytes for an XLOG_FPI_FOR_HINT record)", n(t.WALBytes/max(1, t.WALFPI))),
		why,
	}
	if t.WALFPIBytes > 0 {
		ev = append(ev, fmt.Sprintf("WAL FPI Bytes=%s: %s bytes an image, a %s-byte hole left out", n(t.WALFPIBytes), n(t.WALFPIBytes/t.WALFPI), n(pg.BLCKSZ-t.WALFPIBytes/t.WALFPI)))
	}
	if f.main != nil && f.main.WALFPI > 0 {
		ev = append(ev, fmt.Sprintf("%s wrote %s of the images%s", f.main.Label(), n(f.main.WALFPI), perWorker(f.main, func(c Counters) int64 { return c.WALFPI })))
	}
	return &Finding{
		Kind: KindHintBitFPI, Severity: "warning",
		Summary: fmt.Sprintf("a read-only statement wrote %s of WAL, %s full-page images: hint bits set on pages not logged since the last checkpoint", mb(t.WALBytes), n(t.WALFPI)),
		Explanation: "The rows were loaded without hint bits (INSERT and COPY leave them unset), so this statement was the first to check each row's inserting transaction in pg_xact and record the answer on the page (SetHintBits → MarkBufferDirtyHint). " +
			"With data checksums on, or wal_log_hints, the first change to a page after a checkpoint — even a hint bit — must be logged as a full-page image (XLogSaveBufferForHint writes an XLOG_FPI_FOR_HINT record) so that a torn write can be repaired: one image per page read. " +
			"The WAL goes to every replica and the archive. Pay the cost at load time instead: VACUUM right after the load sets the hint bits (and the visibility map) before the next checkpoint, when the pages need no new image; COPY FREEZE writes the rows already frozen. wal_compression shrinks the images, not their number.",
		Evidence: ev,
		Figure:   "WAL bytes of the read",
	}
}

func ruleHintBitDirty(f *facts) *Finding {
	t := f.tot
	if !f.in.Plan.ReadOnly() || t.WALFPI > 0 || t.SharedDirtied < 8 || 10*t.SharedDirtied < t.Touched() {
		return nil
	}
	why := "no full-page images: data checksums and wal_log_hints are off, or every page was already logged since the last checkpoint (the load ran after it)"
	switch {
	case f.checksums == "off" && f.walLogHints != "on":
		why = "no full-page images because data_checksums is off (and wal_log_hints is not on)"
	case f.checksums == "on" || f.walLogHints == "on":
		why = "no full-page images although checksums or wal_log_hints are on: every page was logged after the last checkpoint's redo pointer (the load ran after it), so a hint bit needs no new image"
	}
	return &Finding{
		Kind: KindHintBitDirty, Severity: "info",
		Summary: fmt.Sprintf("a read-only statement dirtied %s of the %s pages it touched without writing WAL: hint bits", n(t.SharedDirtied), n(t.Touched())),
		Explanation: "The first reader of freshly loaded rows records in each row's header that its inserting transaction committed (SetHintBits → MarkBufferDirtyHint), which dirties the page. " +
			"Without checksums this costs no WAL, but every dirtied page must be written back to the data files — by the checkpointer, the background writer, or by a backend that needs the buffer. VACUUM after the load (or COPY FREEZE) does the same work once, at load time.",
		Evidence: []string{
			fmt.Sprintf("Shared Dirtied Blocks=%s of %s pages touched (hit %s, read %s), Shared Written Blocks=%s", n(t.SharedDirtied), n(t.Touched()), n(t.SharedHit), n(t.SharedRead), n(t.SharedWritten)),
			fmt.Sprintf("WAL Records=%s, WAL FPI=0: %s", n(t.WALRecords), why),
		},
		Figure: "pages the read dirtied",
	}
}

func ruleWALBuffersFull(f *facts) *Finding {
	t := f.tot
	walPages := (t.WALBytes + pg.XLogBlcksz - 1) / pg.XLogBlcksz
	if t.WALBuffersFull == 0 || 10*t.WALBuffersFull < walPages {
		return nil
	}
	wb := "wal_buffers=-1: shared_buffers/32, at most 16MB (XLOGChooseNumBuffers)"
	if f.walBuffersGiven {
		wb = "wal_buffers=" + f.walBuffers
	}
	sev := "info"
	if f.in.Plan.ReadOnly() {
		sev = "warning"
	}
	return &Finding{
		Kind: KindWALBuffersFull, Severity: sev,
		Summary: fmt.Sprintf("the statement found the WAL buffers full %s times: it wrote WAL itself for about %s of its %s WAL pages", n(t.WALBuffersFull), pct(t.WALBuffersFull, walPages), n(walPages)),
		Explanation: "Each WAL record is copied into the WAL buffers; when the next buffer page still holds WAL not yet written, the inserting backend must write it out itself and wait (AdvanceXLInsertBuffer → XLogWrite), instead of leaving it to the WAL writer. " +
			"A statement that generates WAL faster than the WAL writer drains it — full-page images at memory speed — stalls this way. Larger wal_buffers absorb bursts; less WAL (the other findings' fixes) removes the cause.",
		Evidence: []string{
			fmt.Sprintf("WAL Buffers Full=%s for WAL Bytes=%s (%s WAL pages of 8 kB)", n(t.WALBuffersFull), n(t.WALBytes), n(walPages)),
			wb,
		},
		Figure: "WAL buffers full during the read",
	}
}

// ringTaken: a seq scan of more than NBuffers/4 pages reads through a
// BAS_BULKREAD ring (initscan, heapam.c).
func (f *facts) ringTaken() bool {
	return f.main != nil && f.main.Type == "Seq Scan" && f.pages > int64(f.nbuffers/4) && f.main.SharedRead > 0
}

func ruleRingAbandoned(f *facts) *Finding {
	m := f.main
	if !f.ringTaken() || m.WALFPI == 0 || 2*m.SharedDirtied < m.Touched() {
		return nil
	}
	ev := []string{
		fmt.Sprintf("%s: %s pages > shared_buffers/4 = %s buffers, so it read through a BAS_BULKREAD ring (initscan)", m.Label(), n(f.pages), n(int64(f.nbuffers/4))),
		fmt.Sprintf("it read %s pages from outside shared buffers%s and dirtied %s, logging %s full-page images: each image makes the page's LSN newer than the WAL flushed so far", n(m.SharedRead), perWorker(m, func(c Counters) int64 { return c.SharedRead }), n(m.SharedDirtied), n(m.WALFPI)),
		fmt.Sprintf("Shared Written Blocks=%s: the scan wrote dirty buffers itself", n(m.SharedWritten)),
	}
	if bc := f.in.Buffercache; bc != nil {
		if b, ok := bc.ByRel[m.Relation]; ok {
			ev = append(ev, fmt.Sprintf("pg_buffercache: %s holds %s of %s buffers (%s of the pool), far more than a ring", m.Relation, n(int64(b)), n(int64(bc.NBuffers)), pct(int64(b), int64(bc.NBuffers))))
		} else if l := bc.Largest(); len(l) > 0 {
			ev = append(ev, fmt.Sprintf("pg_buffercache: the largest relation (%s) holds %s of %s buffers (%s of the pool; export relname to name it)", l[0], n(int64(bc.ByRel[l[0]])), n(int64(bc.NBuffers)), pct(int64(bc.ByRel[l[0]]), int64(bc.NBuffers))))
		}
	}
	return &Finding{
		Kind: KindRingAbandoned, Severity: "warning",
		Summary: fmt.Sprintf("the bulk-read ring was abandoned: %s spread over shared buffers instead of staying in its ring", m.Label()),
		Explanation: "A large sequential scan reuses a small ring of buffers so that it does not flush the cache. But when it comes back to a ring buffer that it dirtied and whose page LSN is beyond the flushed WAL, StrategyRejectBuffer gives the buffer up rather than flush WAL for a read (bufmgr.c's GetVictimBuffer asks XLogNeedsFlush), and the scan takes a new victim from the whole pool by the clock sweep. " +
			"Hint bits logged as full-page images do exactly that to every page: the scan walks through shared buffers and evicts the cached working set, which the next queries read back. Removing the images (VACUUM after the load, COPY FREEZE) keeps the ring.",
		Evidence: ev,
		Figure:   "buffers the table holds after the read",
	}
}

func ruleQuarterThreshold(f *facts) *Finding {
	m := f.main
	q := int64(f.nbuffers / 4)
	if m == nil || m.Type != "Seq Scan" || m.SharedRead == 0 || f.pages > q || 2*f.pages <= q {
		return nil
	}
	return &Finding{
		Kind: KindQuarterThreshold, Severity: "info",
		Summary: fmt.Sprintf("%s (%s pages) is just under shared_buffers/4 (%s): it takes no ring, and its %s reads each took a buffer from the cache", m.Label(), n(f.pages), n(q), n(m.SharedRead)),
		Explanation: "A sequential scan uses a small BAS_BULKREAD ring only when its table has more than NBuffers/4 pages (initscan, heapam.c). A table just under that line is read into shared buffers like any other data: each miss takes a victim from the clock sweep, and a few such scans of different tables can push out the hot data — while a slightly larger table would have stayed inside its ring. " +
			"This is the cache working as designed, but it explains a cold cache after a report; a larger shared_buffers moves the line and makes room.",
		Evidence: []string{
			fmt.Sprintf("%s: %s pages (hit %s + read %s), shared_buffers/4 = %s buffers: %.0f%% of the threshold", m.Label(), n(f.pages), n(m.SharedHit), n(m.SharedRead), n(q), 100*float64(f.pages)/float64(q)),
		},
		Figure: "buffers of other data evicted by the read",
	}
}

func ruleIOBound(f *facts) *Finding {
	p, t := f.in.Plan, f.tot
	if !p.HasIOTiming || t.SharedRead == 0 || t.ReadMs < 1 || p.ExecutionMs <= 0 {
		return nil
	}
	wall := p.ExecutionMs * float64(f.participant)
	if t.ReadMs < 0.5*wall {
		return nil
	}
	per := t.ReadMs * 1000 / float64(t.SharedRead)
	src := deviceFor(per)
	return &Finding{
		Kind: KindIOBound, Severity: "warning",
		Summary: fmt.Sprintf("I/O-bound: %.1f ms of the %.1f ms went into reading %s pages (%.1f µs a page: %s)", t.ReadMs, p.ExecutionMs, n(t.SharedRead), per, src.what),
		Explanation: "Every Shared Read Block was a miss in shared buffers and a read(2) from the operating system: a few microseconds when the page is in the OS page cache, tens to hundreds of microseconds from an SSD, milliseconds from a disk or a cloud volume. " +
			"track_io_timing measures the time spent in those calls. When it is most of the execution time, the statement waits on storage: keeping the data in shared buffers (or the OS cache), reading less (an index, a narrower table), or reading ahead (read streams from PostgreSQL 17, asynchronous I/O in 18) are the levers.",
		Evidence: []string{
			fmt.Sprintf("I/O read time %.3f ms for Shared Read Blocks=%s, execution %.3f ms%s", t.ReadMs, n(t.SharedRead), p.ExecutionMs, map[bool]string{true: fmt.Sprintf(" across %d processes", f.participant), false: ""}[f.participant > 1]),
			fmt.Sprintf("%.1f µs a page: %s", per, src.why),
		},
		Figure: "execution time of the read (ms)",
	}
}

type source struct{ device, what, why string }

// deviceFor classifies a read latency by the simulator's device profiles
// (storage.Devices): the OS page cache costs ~4 µs a page (seed 003), a
// random 8 kB read ~76 µs on NVMe, ~100 µs on SATA, 0.5 ms on a cloud
// volume and milliseconds on a disk.
func deviceFor(us float64) source {
	switch {
	case us < 20:
		return source{"", "the OS page cache", "pages found in the OS page cache (a read(2) of a cached page costs a few µs)"}
	case us < 90:
		return source{"nvme", "an NVMe SSD", "a device read (an NVMe SSD takes ~75 µs for a random 8 kB read)"}
	case us < 300:
		return source{"sata-ssd", "a SATA SSD", "a device read (a SATA SSD takes ~100 µs for a random 8 kB read)"}
	case us < 3000:
		return source{"cloud-ebs", "a cloud volume", "a device read at cloud-volume latency (~0.5 ms per I/O)"}
	}
	return source{"hdd", "a disk", "a device read at disk latency (milliseconds: seek and rotation)"}
}

func ruleParallelRings(f *facts) *Finding {
	m := f.main
	// With the rings abandoned (ring_abandoned), how many there were no
	// longer matters: the scan's buffers come from the whole pool.
	if !f.ringTaken() || !m.ParallelAware || f.participant < 2 || 10*m.SharedDirtied < m.Touched() || ruleRingAbandoned(f) != nil {
		return nil
	}
	return &Finding{
		Kind: KindParallelRings, Severity: "info",
		Summary: fmt.Sprintf("%s ran in %d processes, each with its own bulk-read ring", m.Label(), f.participant),
		Explanation: "Every participant of a parallel sequential scan — the leader and each worker — calls initscan and gets its own BAS_BULKREAD ring, so the scan holds that many rings' worth of buffers, and each participant writes (or, for a page whose WAL is not flushed, rejects) the dirty buffers of its own ring. " +
			"With pages dirtied by the scan, the rings multiply the writes and, when they are rejected, the buffers taken from the pool.",
		Evidence: []string{
			fmt.Sprintf("Workers Launched=%d (+ the leader) on %s pages > shared_buffers/4", f.participant-1, n(f.pages)),
			fmt.Sprintf("Shared Dirtied Blocks=%s, Shared Written Blocks=%s%s", n(m.SharedDirtied), n(m.SharedWritten), perWorker(m, func(c Counters) int64 { return c.SharedWritten })),
		},
		Figure: "buffers the table holds after the read",
	}
}

func f64(v float64) *float64 { return &v }

// perWorker splits a parallel node's figure between the leader and its
// workers when EXPLAIN VERBOSE listed them: " (leader 100, worker 0: 90, …)".
func perWorker(nd *Node, get func(Counters) int64) string {
	if len(nd.Workers) == 0 {
		return ""
	}
	leader := get(nd.Counters)
	var parts []string
	for i, w := range nd.Workers {
		leader -= get(w)
		parts = append(parts, fmt.Sprintf("worker %d: %s", i, n(get(w))))
	}
	return fmt.Sprintf(" (leader %s, %s)", n(leader), strings.Join(parts, ", "))
}

var _ = math.Abs
