package engine

import (
	"fmt"
	"math/bits"

	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/internal/engine/report"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/recovery"
	"github.com/pgbufsim/pgbufsim/storage"
	"github.com/pgbufsim/pgbufsim/wal"
)

// crashState is the power-loss and recovery state: what a crash destroys and
// what recovery starts from (package recovery says what becomes of a torn page).
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
	// pending: a crash fired during the last command, not yet reported (PowerFailure).
	pending bool
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
func (c *Cluster) initialRedo() pg.LSN {
	return wal.InitialRedo(c.S.Version, c.S.Bool("data_checksums"))
}

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

// tornSectors is which of a torn page's 16 sectors reached the medium, one bit each.
func tornSectors(r *pcg) uint16 { return uint16(r.next()) }

// LastCrash reports the last crash, if there was one.
func (c *Cluster) LastCrash() (CrashReport, bool) {
	if c.crash.count == 0 {
		return CrashReport{}, false
	}
	return c.crashReport(), true
}

// Down reports whether the server is down after a crash (until Recover).
func (c *Cluster) Down() bool { return c.crash.down }

// The reports of a crash, a recovery and pg_checksums (package report).
type (
	CrashReport      = report.CrashReport
	RecoveryReport   = report.RecoveryReport
	CorruptionReport = report.CorruptionReport
)

func (c *Cluster) crashReport() CrashReport {
	cs := &c.crash
	r := CrashReport{AtNs: cs.at, WALEnd: cs.walEnd, WALLost: uint64(cs.walLost), DirtyBuffersLost: cs.buffsLost, DirtyOSPagesLost: cs.dirtyLost}
	for _, w := range cs.torn {
		r.Torn = append(r.Torn, fmt.Sprintf("%s/%d", c.RelName(w.File), w.Block))
	}
	return r
}

// Crash is a power loss now: unflushed WAL, shared buffers and the OS page
// cache lost, page writes in flight torn.
func (c *Cluster) Crash() (CrashReport, error) {
	var r CrashReport
	err := c.Command("crash", 0, false, func() error {
		if c.txn.active {
			return fmt.Errorf("crash: a transaction block is open (commit first)")
		}
		c.powerFails(c.now)
		c.crashNow()
		r = c.crashReport()
		return nil
	})
	return r, err
}

// CrashAfterWrites arms a power loss for the moment the n-th data page
// written to the device from now on starts its write. The call during
// which it fires runs to its end, but nothing it did after that moment
// survives: PowerFailure then reports it.
func (c *Cluster) CrashAfterWrites(n int64) error {
	return c.Command("crash", 0, false, func() error {
		if c.txn.active {
			return fmt.Errorf("crash: a transaction block is open (commit first)")
		}
		if n < 1 {
			return fmt.Errorf("crash: after=writes:%d: expected after=writes:N with N ≥ 1 (the N-th data page written to the device)", n)
		}
		c.storage.ArmCrash(n, c.powerFails)
		return nil
	})
}

// afterCommand is the bookkeeping after every command: full_page_writes
// seen off (recovery cannot count on images past that point), hint images
// remembered while it is off, and a crash armed by CrashAfterWrites that
// fired during the command.
func (c *Cluster) afterCommand() {
	c.cat.LookUps = c.cat.LookUps[:0]
	c.av.Publish(c.rels[1:], c.txn.active, c.now) // pgstat's flush as the session ends
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
	c.crash.pending = true
}

// PowerFailure reports, once, a crash armed by CrashAfterWrites that fired
// during the last call.
func (c *Cluster) PowerFailure() (CrashReport, bool) {
	if !c.crash.pending {
		return CrashReport{}, false
	}
	c.crash.pending = false
	return c.crashReport(), true
}

// Recover is crash recovery (StartupXLOG): redo from the last completed
// checkpoint's redo pointer, torn pages restored from full-page images
// where the WAL has one, then the end-of-recovery checkpoint.
func (c *Cluster) Recover() (*RecoveryReport, error) {
	cs := &c.crash
	if !cs.down {
		return nil, fmt.Errorf("recover: the cluster has not crashed (crash first)")
	}
	checksums := c.S.Bool("data_checksums")
	hintsLogged := c.pool.XLogHintBitIsNeeded()
	// full_page_writes was on over the whole replayed stretch.
	fpwOn := c.S.Bool("full_page_writes") && cs.fpwOffLSN <= cs.fromRedo
	rng := newPCG(c.seed*0x9E3779B97F4A7C15 + uint64(cs.count))
	rep := &RecoveryReport{RedoFrom: cs.fromRedo, RedoTo: cs.walEnd, Checksums: checksums}
	cs.corrupt = nil
	redo := recovery.Redo{From: cs.fromRedo, To: cs.walEnd, Sizes: cs.fromSizes, FullPageWrites: fpwOn, HintsLogged: hintsLogged}
	for _, w := range cs.torn {
		name := fmt.Sprintf("%s/%d", c.RelName(w.File), w.Block)
		rep.Torn = append(rep.Torn, name)
		f := redo.Fate(w, bits.OnesCount16(tornSectors(rng)), c.pool.LastHintImage(pg.BufferTag{Rel: w.File, Block: w.Block}))
		if rep.Count(f) {
			cs.corrupt = append(cs.corrupt, name)
		}
	}
	rep.Corrupted = append([]string(nil), cs.corrupt...)
	cs.detected = checksums
	if cs.walEnd > cs.fromRedo {
		rep.ReplayedBytes = uint64(cs.walEnd - cs.fromRedo)
	}
	// The server comes up: empty pool and page cache, the WAL ending where
	// the flushed WAL ended, then the end-of-recovery checkpoint.
	c.allocBase += int64(c.pool.Control().NumBufferAllocs)
	c.pool.CrashReset(cs.walEnd)
	c.bgw.Start(c.now)
	c.wal.Recovered(cs.walEnd)
	c.sync = heap.SyncScans{}
	c.cat.InitFileStale = true
	c.cat.Restart()
	c.txn = transaction{} // a transaction open at the crash never committed
	cs.down, cs.recovered = false, true
	c.ckpt.Start(c.now) // the checkpoint under way at the crash died with the server
	c.av.Crashed(c.now)
	if _, err := c.checkpoint(); err != nil {
		return nil, err
	}
	c.afterCommand()
	rep.RedoLSN = c.wal.RedoRecPtr()
	return rep, nil
}

// Corruption reports the pages recovery left corrupt.
func (c *Cluster) Corruption() (CorruptionReport, error) {
	cs := &c.crash
	if cs.down {
		return CorruptionReport{}, fmt.Errorf("show corruption: run recover first (which torn pages recovery repairs decides what stays corrupt)")
	}
	return CorruptionReport{Pages: append([]string{}, cs.corrupt...), Detected: cs.detected}, nil
}
