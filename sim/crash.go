package sim

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/storage"
	"github.com/pgbufsim/pgbufsim/wal"
)

// # Crash and recovery
//
// `crash` is a power loss, now or (`crash after=writes:N`) as the N-th data
// page written to the device from then on starts its write. What survives:
//
//   - the WAL flushed by then (XLogFlush before every data page write keeps
//     every page on disk covered by it); records inserted later are lost;
//   - each data page as the last completed device write left it. Shared
//     buffers and the OS page cache, dirty pages included, are gone;
//   - a write in flight is torn: an 8 kB page is 16 sectors of 512 bytes and
//     a seeded subset of them reached the medium (the device may persist an
//     in-flight request's sectors in any order).
//
// `recover` is StartupXLOG's crash recovery: redo from the last completed
// checkpoint's redo pointer R to the end of the surviving WAL. A torn page
// (some but not all of its sectors new) comes out right when redo rewrites it
// whole:
//
//   - from a full-page image after R (XLogReadBufferForRedo →
//     RestoreBlockImage). With full_page_writes=on the first change of every
//     page after R carries one, so a torn version newer than R always has
//     one. Hint-bit images (XLogSaveBufferForHint, REGBUF_FORCE_IMAGE) are
//     taken whatever full_page_writes says, so the pool remembers them;
//   - or from the record that initialised it, for a page added after R
//     (XLOG_HEAP_INIT_PAGE → XLogInitBufferForRedo; a new btree page comes
//     whole in its split record or the index build's images).
//
// Otherwise redo applies records to a page whose sectors mix two versions:
// it is corrupt. With data_checksums the mix fails its checksum (what
// pg_checksums reports; PostgreSQL's redo would stop with "invalid page in
// block …" on the first record that touches it); without checksums nothing
// notices. A torn version not newer than R differs from the disk only in
// hint bits: with checksums or wal_log_hints the first of them after R
// logged an image (restored); without them nothing checks hint bits and the
// next reader sets them again (harmless). A checksum that happens to match
// a torn page (1 in 65,536) is not modelled. The simulator keeps the tables' logical contents
// as the commands left them: only pages, WAL positions and caches crash.
type crashState struct {
	// down: crashed and not yet recovered.
	down bool
	// The last completed checkpoint: its redo pointer and every fork's size
	// then (pages past it were added after R). ok: any checkpoint noted.
	redo  pg.LSN
	sizes []int
	ok    bool
	// fpwOffLSN is the latest insert position at which full_page_writes was seen off.
	fpwOffLSN pg.LSN
	// At the crash: when, the end of the WAL that survived, the checkpoint
	// recovery starts from, and the writes in flight.
	at                   int64
	walEnd, walLost      pg.LSN
	fromRedo             pg.LSN
	fromSizes            []int
	torn                 []storage.PageWrite
	dirtyLost, buffsLost int
	count                int // crashes so far: seeds each one's sector choice
	// After recover: the corrupted pages (relation/block) and whether checksums could see them.
	recovered bool
	corrupt   []string
	detected  bool
}

// needsImage is XLogRecordAssemble's choice for a page registered with a
// normal record: a full-page image when full_page_writes is on and the page
// was last logged at or before the redo pointer (doPageWrites). Hint-bit
// images (bufmgr.MarkBufferDirtyHint) do not ask it.
func (c *Cluster) needsImage(pageLSN pg.LSN) bool {
	return pageLSN <= c.wal.RedoRecPtr() && c.S.Bool("full_page_writes")
}

// checkpointDone notes a completed checkpoint with redo pointer redo and the
// forks' sizes at its start.
func (c *Cluster) checkpointDone(redo pg.LSN, sizes []int) {
	if c.crash.down {
		return
	}
	c.crash.redo, c.crash.sizes, c.crash.ok = redo, sizes, true
}

// lastCheckpoint is the redo pointer and sizes recovery would start from now.
func (c *Cluster) lastCheckpoint() (pg.LSN, []int) {
	if !c.crash.ok {
		return c.initialRedo(), nil // initdb's checkpoint: no fork had a page
	}
	return c.crash.redo, c.crash.sizes
}

// initialRedo is the redo pointer initdb leaves.
func (c *Cluster) initialRedo() pg.LSN { return wal.InitialRedo(c.S.Version) }

// powerFails records the moment of a power loss at time at.
func (c *Cluster) powerFails(at int64) {
	cs := &c.crash
	cs.at = at
	cs.walEnd = c.wal.FlushLSN()
	cs.fromRedo, cs.fromSizes = c.lastCheckpoint()
}

// crashNow completes a power loss noted by powerFails: the writes in flight
// at its moment become torn, the page cache and shared buffers are lost.
func (c *Cluster) crashNow() {
	cs := &c.crash
	cs.walLost = c.wal.InsertLSN() - cs.walEnd
	if c.wal.InsertLSN() < cs.walEnd {
		cs.walLost = 0
	}
	cs.dirtyLost = c.storage.DirtyPages()
	cs.buffsLost = 0
	for _, r := range c.pool.Contents() {
		if r.Valid && r.Dirty {
			cs.buffsLost++
		}
	}
	cs.torn = c.storage.Crash(cs.at)
	cs.down, cs.recovered, cs.corrupt = true, false, nil
	cs.count++
}

func (e *Env) cmdCrash(args []datadriven.CmdArg) (Output, error) {
	c := e.C
	if c.txn.active {
		return Output{}, fmt.Errorf("crash: a transaction block is open (commit first)")
	}
	var after int64
	for _, a := range args {
		switch {
		case a.Key == "after" && len(a.Vals) == 1:
			v, ok := strings.CutPrefix(a.Vals[0], "writes:")
			n, err := strconv.ParseInt(v, 10, 64)
			if !ok || err != nil || n < 1 {
				return Output{}, fmt.Errorf("crash: after=%s: expected after=writes:N with N ≥ 1 (the N-th data page written to the device)", a.Vals[0])
			}
			after = n
		default:
			return Output{}, fmt.Errorf("crash: unknown argument %q (expected: crash [after=writes:N])", a.String())
		}
	}
	if after > 0 {
		c.storage.ArmCrash(after, c.powerFails)
		return Output{Text: fmt.Sprintf("ok: the power fails as the %d%s data page written to the device from now on starts its write", after, ordinal(after)),
			JSON: map[string]any{"armed_writes": after}}, nil
	}
	c.powerFails(c.now)
	c.crashNow()
	return Output{Text: c.crashReport(), JSON: c.crashJSON()}, nil
}

func ordinal(n int64) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return "th"
	case n%10 == 1:
		return "st"
	case n%10 == 2:
		return "nd"
	case n%10 == 3:
		return "rd"
	}
	return "th"
}

// crashAfterCommand completes a crash that fired during the command just
// run: the command ran to its end in the simulator, but nothing it did after
// the moment of the crash survives.
func (e *Env) crashAfterCommand(out *Output) {
	c := e.C
	if c == nil {
		return
	}
	fpw := c.S.Bool("full_page_writes")
	if !fpw {
		c.crash.fpwOffLSN = c.wal.InsertLSN()
	}
	// With full_page_writes=off a hint-bit image is the only one a page can
	// have: the pool remembers them (8 bytes a page hinted).
	c.pool.TrackHintImages(!fpw)
	if _, fired := c.storage.Fired(); !fired || c.crash.down {
		return
	}
	c.crashNow()
	if m, ok := out.JSON.(map[string]any); ok {
		m["crash"] = c.crashJSON()
	}
	out.Text = strings.TrimRight(out.Text, "\n") + "\n" +
		"power failed during this command: what it did after that moment is void\n" + c.crashReport()
}

func (c *Cluster) crashReport() string {
	cs := &c.crash
	return fmt.Sprintf("power lost at %s ms: WAL durable up to %s (%d bytes not flushed lost); %d dirty buffers and %d dirty OS-cache pages lost; page writes in flight, torn: %d%s",
		fmtMs(cs.at), cs.walEnd, cs.walLost, cs.buffsLost, cs.dirtyLost, len(cs.torn), c.tornList())
}

func (c *Cluster) crashJSON() map[string]any {
	cs := &c.crash
	return map[string]any{"at_ms": float64(cs.at) / 1e6, "wal_end": cs.walEnd.String(), "wal_lost": uint64(cs.walLost),
		"dirty_buffers_lost": cs.buffsLost, "dirty_os_pages_lost": cs.dirtyLost, "torn": len(cs.torn)}
}

// tornList names the first torn pages (relation/block), for the reports.
func (c *Cluster) tornList() string {
	const show = 8
	var names []string
	for i, w := range c.crash.torn {
		if i == show {
			names = append(names, fmt.Sprintf("… (%d more)", len(c.crash.torn)-show))
			break
		}
		names = append(names, fmt.Sprintf("%s/%d", c.relName(w.File), w.Block))
	}
	if len(names) == 0 {
		return ""
	}
	return " (" + strings.Join(names, " ") + ")"
}

// crashGate refuses commands between a crash and recover, and recover
// without a crash.
func (e *Env) crashGate(cmd string, args []datadriven.CmdArg) error {
	if e.C == nil {
		return nil
	}
	down := e.C.crash.down
	switch {
	case cmd == "recover" && !down:
		return fmt.Errorf("recover: the cluster has not crashed (crash first)")
	case down && cmd != "recover" && cmd != "cluster" && !(cmd == "show" && len(args) > 0 && args[0].Key == "corruption"):
		return fmt.Errorf("%s: the server is down after the crash (run recover first)", cmd)
	}
	return nil
}

// tornSectors is which of a torn page's 16 sectors reached the medium, one bit each.
func tornSectors(r *pcg) uint16 { return uint16(r.next()) }

func (e *Env) cmdRecover(args []datadriven.CmdArg) (Output, error) {
	if len(args) > 0 {
		return Output{}, fmt.Errorf("recover: takes no arguments")
	}
	c := e.C
	cs := &c.crash
	checksums := c.S.Bool("data_checksums")
	hintsLogged := c.pool.XLogHintBitIsNeeded()
	// full_page_writes was on over the whole replayed stretch.
	fpwOn := c.S.Bool("full_page_writes") && cs.fpwOffLSN <= cs.fromRedo
	rng := newPCG(c.seed*0x9E3779B97F4A7C15 + uint64(cs.count))
	var none, whole, images, rebuilt, hints int
	cs.corrupt = nil
	for _, w := range cs.torn {
		tag := pg.BufferTag{Rel: w.File, Block: w.Block}
		written := bits.OnesCount16(tornSectors(rng))
		size := 0
		if int(w.File) < len(cs.fromSizes) {
			size = cs.fromSizes[w.File]
		}
		hint := c.pool.LastHintImage(tag)
		switch {
		case written == 0:
			none++ // the old version stays whole: redo brings it forward
		case written == 16:
			whole++ // the new version made it whole
		case int(w.Block) >= size:
			rebuilt++
		case w.LSN <= cs.fromRedo && !hintsLogged:
			hints++
		case w.LSN <= cs.fromRedo:
			// Logged before R, dirtied since only by hint bits: with
			// checksums or wal_log_hints the first of those logged an image.
			images++
		case fpwOn, hint > cs.fromRedo && hint <= cs.walEnd:
			images++
		default:
			cs.corrupt = append(cs.corrupt, fmt.Sprintf("%s/%d", c.relName(w.File), w.Block))
		}
	}
	cs.detected = checksums
	replayed := uint64(0)
	if cs.walEnd > cs.fromRedo {
		replayed = uint64(cs.walEnd - cs.fromRedo)
	}
	// The server comes up: empty pool and page cache, the WAL ending where
	// the flushed WAL ended, then the end-of-recovery checkpoint.
	c.pool.CrashReset(cs.walEnd)
	c.wal.Recovered(cs.walEnd)
	c.sync = syncScanTable{}
	c.initFileStale = true
	c.txn = transaction{} // a transaction open at the crash never committed
	cs.down, cs.recovered = false, true
	res, err := c.checkpoint()
	if err != nil {
		return Output{}, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "redo from %s (last completed checkpoint) to %s: %d bytes of WAL replayed\n", cs.fromRedo, cs.walEnd, replayed)
	fmt.Fprintf(&b, "torn pages: %d%s\n", len(cs.torn), c.tornList())
	fmt.Fprintf(&b, "  no sector new / all 16 new (a whole version, redo brings it forward): %d / %d\n", none, whole)
	fmt.Fprintf(&b, "  restored from a full-page image: %d\n", images)
	fmt.Fprintf(&b, "  rebuilt from the record that initialised them (added after the redo pointer): %d\n", rebuilt)
	fmt.Fprintf(&b, "  hint bits only (no WAL needed): %d\n", hints)
	fmt.Fprintf(&b, "  corrupted (sectors of two versions, no image to restore): %d\n", len(cs.corrupt))
	if len(cs.corrupt) > 0 {
		if checksums {
			b.WriteString("  PostgreSQL's redo would stop at the first record touching one: ERROR invalid page (checksum mismatch), FATAL in the startup process\n")
		} else {
			b.WriteString("  data_checksums=off: redo applies its records to the torn pages and nothing notices\n")
		}
	}
	fmt.Fprintf(&b, "end-of-recovery checkpoint: redo lsn=%s", c.wal.RedoRecPtr())
	_ = res
	return Output{Text: b.String(), JSON: map[string]any{
		"redo_from": cs.fromRedo.String(), "redo_to": cs.walEnd.String(), "replayed_bytes": replayed,
		"torn": len(cs.torn), "untouched": none, "whole": whole, "images": images, "rebuilt": rebuilt,
		"hint_only": hints, "corrupted": len(cs.corrupt)}}, nil
}

// showCorruption is what pg_checksums --check reports after recovery: the
// pages that fail their checksum, or with data_checksums=off the corrupted
// pages nothing can detect.
func (e *Env) showCorruption(rest []datadriven.CmdArg) (Output, error) {
	if len(rest) > 0 {
		return Output{}, fmt.Errorf("show corruption: takes no arguments")
	}
	cs := &e.C.crash
	if cs.down {
		return Output{}, fmt.Errorf("show corruption: run recover first (which torn pages recovery repairs decides what stays corrupt)")
	}
	pages := append([]string{}, cs.corrupt...)
	var text string
	switch {
	case len(pages) == 0:
		text = "corrupted: 0"
	case cs.detected:
		text = fmt.Sprintf("corrupted: %d, detected: %d pages fail their checksum: %s", len(pages), len(pages), strings.Join(pages, " "))
	default:
		text = fmt.Sprintf("corrupted: %d, undetected (data_checksums=off: no checksum to fail): %s", len(pages), strings.Join(pages, " "))
	}
	return Output{Text: text, JSON: map[string]any{"corrupted": len(pages), "pages": pages, "detected": cs.detected && len(pages) > 0}}, nil
}
