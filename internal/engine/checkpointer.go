package engine

import (
	"fmt"
	"math"
	"strings"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
)

// The checkpointer process (checkpointer.c), on the simulated clock beside
// the WAL writer.
//
// # The main loop
//
// CheckpointerMain sleeps until checkpoint_timeout has passed since the last
// checkpoint's start (last_checkpoint_time, whole seconds as time(NULL) has
// them) or until a backend requests a checkpoint. A request comes from
// XLogWrite when it finishes a WAL segment CheckPointSegments − 1 or more
// segments past the redo pointer's (XLogCheckpointNeeded; wal.CheckpointNeeded),
// or from CHECKPOINT. Requests made while a checkpoint runs merge into one
// (their flags OR'd in ckpt_flags) and start the next checkpoint as soon as
// the running one ends; a FAST request makes the running one stop pausing.
// A timed checkpoint with nothing important logged since the last checkpoint
// record is skipped (CreateCheckPoint), though counted as timed.
//
// # Spread writes
//
// CreateCheckPoint fixes the redo pointer first (so full-page images start at
// once), then BufferSync writes the marked buffers one by one; after each,
// CheckpointWriteDelay naps 100 ms while IsCheckpointOnSchedule finds the
// progress (scaled by checkpoint_completion_target) ahead of both the WAL
// used and the time elapsed since the start, as fractions of
// CheckPointSegments and checkpoint_timeout. Then the files written are
// fsynced (ProcessSyncRequests through the storage model), RUNNING_XACTS and
// the checkpoint record are logged and flushed, and LogCheckpointEnd reports.
type checkpointer struct {
	be   *bufmgr.Backend
	next int64 // the next wake-up (math.MaxInt64: none)
	// lastStart is last_checkpoint_time in whole simulated seconds.
	lastStart int64
	// flags is CheckpointerShmem->ckpt_flags: requests not yet started.
	flags ckptFlags
	// run is the checkpoint in progress (nil: none).
	run *ckptRun
	// lastRecEnd is the insert position just after the last checkpoint
	// record: nothing important logged since, while the insert position is there.
	lastRecEnd pg.LSN
	// priorRedo, estimate and prevDistance are xlog.c's PriorRedoPtr,
	// CheckPointDistanceEstimate and PrevCheckPointDistance.
	priorRedo    pg.LSN
	estimate     float64
	prevDistance float64
	// Stats are the checkpointer's cumulative counters.
	Stats CheckpointerStats
	// log holds the log_checkpoints lines not yet taken by TakeLog.
	log []string
	// allocBase is buffers_alloc before the pool's last reset (the counter
	// lives in StrategyControl, the statistic survives a restart).
	allocBase int64
}

// CheckpointerStats are pg_stat_bgwriter's checkpoint columns (15, 16) or
// pg_stat_checkpointer's (17+): the checkpoints started by time and by
// request, those performed (not skipped), the buffers they wrote, and the
// time spent writing and syncing (ns).
type CheckpointerStats struct {
	Timed, Requested, Done int64
	BuffersWritten         int64
	WriteNs, SyncNs        int64
}

// Sub returns s − o (since MARK).
func (s CheckpointerStats) Sub(o CheckpointerStats) CheckpointerStats {
	return CheckpointerStats{s.Timed - o.Timed, s.Requested - o.Requested, s.Done - o.Done,
		s.BuffersWritten - o.BuffersWritten, s.WriteNs - o.WriteNs, s.SyncNs - o.SyncNs}
}

// ckptFlags are the CHECKPOINT_* request flags the model uses.
type ckptFlags uint8

const (
	ckptFast      ckptFlags = 1 << iota // CHECKPOINT_FAST (CHECKPOINT_IMMEDIATE before 18)
	ckptForce                           // CHECKPOINT_FORCE
	ckptWait                            // CHECKPOINT_WAIT
	ckptCauseXLog                       // CHECKPOINT_CAUSE_XLOG
	ckptCauseTime                       // CHECKPOINT_CAUSE_TIME
)

// String is LogCheckpointStart's flag words, version v's spelling.
func (f ckptFlags) words(v pg.Version) string {
	var b strings.Builder
	if f&ckptFast != 0 {
		if v >= 18 {
			b.WriteString(" fast")
		} else {
			b.WriteString(" immediate")
		}
	}
	for _, w := range []struct {
		f ckptFlags
		s string
	}{{ckptForce, " force"}, {ckptWait, " wait"}, {ckptCauseXLog, " wal"}, {ckptCauseTime, " time"}} {
		if f&w.f != 0 {
			b.WriteString(w.s)
		}
	}
	return b.String()
}

// ckptRun is one checkpoint under way (CreateCheckPoint with BufferSync's loop state).
type ckptRun struct {
	flags     ckptFlags
	startNs   int64
	startSec  int64  // ckpt_start_time
	startRec  pg.LSN // ckpt_start_recptr (GetInsertRecPtr)
	redo      pg.LSN
	sizes     []int
	todo      []pg.Buffer
	done      int // buffers processed
	written   int
	cachedEl  float64 // ckpt_cached_elapsed
	writeEnds int64
}

// ckptNapNs is CheckpointWriteDelay's nap while on schedule (100 ms).
const ckptNapNs = 100_000_000

// startCheckpointer starts the process at time now (the server's start):
// last_checkpoint_time is now, the first timed checkpoint checkpoint_timeout
// later; WAL-triggered requests are wired to the WAL.
func (c *Cluster) startCheckpointer(now int64) {
	ck := &c.ckpt
	stats, log, allocs := ck.Stats, ck.log, ck.allocBase
	*ck = checkpointer{be: bufmgr.NewBackend(bufmgr.Checkpointer, now), lastStart: now / 1e9,
		lastRecEnd: c.wal.InsertLSN(), priorRedo: c.wal.RedoRecPtr(), Stats: stats, log: log, allocBase: allocs}
	c.configureCheckpointer()
}

// configureCheckpointer applies max_wal_size, checkpoint_completion_target
// and checkpoint_timeout (at start and after SET: the checkpointer rereads
// its configuration when signalled, which wakes it).
func (c *Cluster) configureCheckpointer() {
	c.wal.SetCheckpointSegments(c.checkpointSegments(), c.requestXLogCheckpoint)
	ck := &c.ckpt
	if ck.run == nil {
		ck.next = c.ckptTimeoutWake(max(ck.be.Now, c.now))
	}
}

// checkpointSegments is CheckPointSegments under the settings in force.
func (c *Cluster) checkpointSegments() int {
	return wal.CheckpointSegments(c.S.Int("max_wal_size"), c.S.Real("checkpoint_completion_target"))
}

// ckptTimeoutWake is when the idle checkpointer's WaitLatch times out, seen
// from time now: the whole seconds left of checkpoint_timeout since
// last_checkpoint_time (at once if they are used up or a request is pending).
func (c *Cluster) ckptTimeoutWake(now int64) int64 {
	ck := &c.ckpt
	if ck.flags != 0 {
		return now
	}
	timeout := c.S.Int("checkpoint_timeout") / 1e9
	elapsed := now/1e9 - ck.lastStart
	if elapsed >= timeout {
		return now
	}
	return now + (timeout-elapsed)*1e9
}

// requestXLogCheckpoint is RequestCheckpoint(CHECKPOINT_CAUSE_XLOG) at time
// at: the flag is set and the checkpointer's latch with it.
func (c *Cluster) requestXLogCheckpoint(at int64) {
	ck := &c.ckpt
	ck.flags |= ckptCauseXLog
	if ck.run == nil && ck.next > at {
		ck.next = at
	}
}

// runCheckpointer is one step of the checkpointer at its wake-up time: in a
// checkpoint, the next buffer of BufferSync (or the checkpoint's end);
// otherwise one round of CheckpointerMain's loop.
func (c *Cluster) runCheckpointer() {
	ck := &c.ckpt
	be := ck.be
	be.Now = max(be.Now, ck.next)
	if ck.run != nil {
		c.checkpointStep((ck.run.flags|ck.flags)&ckptFast != 0)
		return
	}
	nowSec := be.Now / 1e9
	timedOut := nowSec-ck.lastStart >= c.S.Int("checkpoint_timeout")/1e9
	if ck.flags == 0 && !timedOut {
		ck.next = c.ckptTimeoutWake(be.Now)
		return
	}
	flags := ck.flags
	ck.flags = 0
	if flags != 0 {
		ck.Stats.Requested++
	} else {
		ck.Stats.Timed++
	}
	if timedOut {
		flags |= ckptCauseTime
	}
	ck.lastStart = nowSec // the start, not the end: timed checkpoints keep their spacing
	startRec := c.wal.InsertLSN()
	// CreateCheckPoint: nothing important logged since the last checkpoint record.
	if flags&ckptForce == 0 && startRec == ck.lastRecEnd {
		ck.next = c.ckptTimeoutWake(be.Now)
		return
	}
	c.logf("checkpoint starting:%s", flags.words(c.S.Version))
	r := &ckptRun{flags: flags, startNs: be.Now, startSec: nowSec, startRec: startRec}
	be.Now = c.wal.Checkpoint(be.Now, &be.WAL, c.S.Version)
	r.redo, r.sizes = c.wal.RedoRecPtr(), c.pool.RelSizes()
	r.todo = c.pool.StartBufferSync(false)
	ck.run = r
	ck.next = be.Now
}

// checkpointStep processes the next listed buffer and naps if on schedule
// (BufferSync + CheckpointWriteDelay), or ends the checkpoint once all are done.
func (c *Cluster) checkpointStep(fast bool) {
	ck, r := &c.ckpt, c.ckpt.run
	be := ck.be
	if r.done == len(r.todo) {
		c.endCheckpoint()
		return
	}
	if c.pool.SyncOneBuffer(be, r.todo[r.done]) {
		r.written++
	}
	r.done++
	ck.next = be.Now
	if !fast && c.checkpointOnSchedule(float64(r.done)/float64(len(r.todo))) {
		ck.next = be.Now + ckptNapNs
	}
	c.foldWAL(be)
}

// checkpointOnSchedule is IsCheckpointOnSchedule: progress scaled by
// checkpoint_completion_target is ahead of the WAL used since the start (in
// CheckPointSegments) and of the time elapsed (in checkpoint_timeout).
func (c *Cluster) checkpointOnSchedule(progress float64) bool {
	r := c.ckpt.run
	progress *= c.S.Real("checkpoint_completion_target")
	if progress < r.cachedEl {
		return false
	}
	elXLog := float64(c.wal.InsertLSN()-r.startRec) / pg.WalSegSize / float64(c.checkpointSegments())
	if progress < elXLog {
		r.cachedEl = elXLog
		return false
	}
	now := c.ckpt.be.Now
	elTime := (float64(now/1e9-r.startSec) + float64(now%1e9)/1e9) / float64(c.S.Int("checkpoint_timeout")/1e9)
	if progress < elTime {
		r.cachedEl = elTime
		return false
	}
	return true
}

// endCheckpoint is the rest of CreateCheckPoint after BufferSync: fsync the
// files written (ProcessSyncRequests), log RUNNING_XACTS and the checkpoint
// record and flush them, update the distance estimate, log the end.
func (c *Cluster) endCheckpoint() {
	ck, r := &c.ckpt, c.ckpt.run
	be := ck.be
	writeEnd := be.Now
	be.Now = c.storage.SyncAll(be.Now)
	syncEnd := be.Now
	be.Now = c.wal.FinishCheckpoint(be.Now, &be.WAL)
	c.checkpointDone(r.redo, r.sizes)
	c.checkpointFinished(r.redo, int64(r.written), writeEnd-r.startNs, syncEnd-writeEnd)
	c.logCheckpointEnd(r.flags, r.written, writeEnd-r.startNs, syncEnd-writeEnd, be.Now-r.startNs, r.redo)
	c.foldWAL(be)
	ck.run = nil
	ck.next = c.ckptTimeoutWake(be.Now)
}

// checkpointFinished is the bookkeeping every performed checkpoint shares
// (the checkpointer's and CHECKPOINT's): counters, the record's end for the
// idle test, UpdateCheckPointDistanceEstimate.
func (c *Cluster) checkpointFinished(redo pg.LSN, written, writeNs, syncNs int64) {
	ck := &c.ckpt
	ck.Stats.Done++
	ck.Stats.BuffersWritten += written
	ck.Stats.WriteNs += writeNs
	ck.Stats.SyncNs += syncNs
	ck.lastRecEnd = c.wal.InsertLSN()
	n := float64(redo - ck.priorRedo)
	ck.prevDistance = n
	if ck.estimate < n {
		ck.estimate = n
	} else {
		ck.estimate = 0.90*ck.estimate + 0.10*n
	}
	ck.priorRedo = redo
}

// logCheckpointEnd is LogCheckpointEnd's line, version by version, without
// the WAL-file and sync-file counts the model does not keep.
func (c *Cluster) logCheckpointEnd(flags ckptFlags, written int, writeNs, syncNs, totalNs int64, redo pg.LSN) {
	v := c.S.Version
	var b strings.Builder
	b.WriteString("checkpoint complete:")
	if v >= 19 {
		b.WriteString(flags.words(v) + ":")
	}
	fmt.Fprintf(&b, " wrote %d buffers (%.1f%%)", written, float64(written)*100/float64(c.S.NBuffers()))
	if v >= 18 {
		b.WriteString(", wrote 0 SLRU buffers")
	}
	fmt.Fprintf(&b, "; write=%s s, sync=%s s, total=%s s; distance=%d kB, estimate=%d kB",
		secs(writeNs), secs(syncNs), secs(totalNs), int(c.ckpt.prevDistance/1024), int(c.ckpt.estimate/1024))
	if v >= 17 {
		fmt.Fprintf(&b, "; lsn=%s, redo lsn=%s", c.wal.LastCheckpointLSN(), redo)
	}
	c.logf("%s", b.String())
}

// secs prints ns as LogCheckpointEnd's %ld.%03d seconds.
func secs(ns int64) string {
	ms := ns / 1e6
	return fmt.Sprintf("%d.%03d", ms/1000, ms%1000)
}

// logf appends a server log line (log_checkpoints on).
func (c *Cluster) logf(format string, args ...any) {
	if c.S.Bool("log_checkpoints") {
		c.ckpt.log = append(c.ckpt.log, "LOG:  "+fmt.Sprintf(format, args...))
	}
}

// TakeLog returns the server log lines written since the last call.
func (c *Cluster) TakeLog() []string {
	l := c.ckpt.log
	c.ckpt.log = nil
	return l
}

// CheckpointerStats are the checkpointer's counters so far.
func (c *Cluster) CheckpointerStats() CheckpointerStats { return c.ckpt.Stats }

// finishRunningCheckpoint is a FAST request meeting a checkpoint under way:
// it runs to its end without pausing (FastCheckpointRequested), the other
// processes running alongside; the caller's time moves to its end.
func (c *Cluster) finishRunningCheckpoint() {
	ck := &c.ckpt
	if ck.run == nil {
		return
	}
	ck.flags |= ckptFast
	for ck.run != nil {
		if c.walwriter.next <= ck.next {
			c.runWalWriter()
			continue
		}
		c.runCheckpointer()
	}
	// The requests pending (and the FAST one) are the caller's checkpoint's
	// now: the clock moves to the end without the checkpointer starting another.
	ck.flags = 0
	next := ck.next
	ck.next = math.MaxInt64
	if ck.be.Now > c.now {
		c.advanceTo(ck.be.Now)
	}
	ck.next = next
}

// BgwriterStats are the counters pg_stat_bgwriter shows (15, 16), which 17
// split into pg_stat_bgwriter and pg_stat_checkpointer.
type BgwriterStats struct {
	Checkpointer CheckpointerStats
	// BuffersClean and MaxWrittenClean are the background writer's writes
	// and the rounds it stopped at bgwriter_lru_maxpages.
	BuffersClean, MaxWrittenClean int64
	// BuffersBackend is 15's and 16's buffers_backend: blocks written or
	// extended by the processes other than the checkpointer and the
	// background writer (each registers a sync request with the checkpointer).
	BuffersBackend int64
	// BuffersAlloc is buffers_alloc: StrategyGetBuffer calls not served by a ring.
	BuffersAlloc int64
}

// Sub returns s − o (since MARK).
func (s BgwriterStats) Sub(o BgwriterStats) BgwriterStats {
	return BgwriterStats{Checkpointer: s.Checkpointer.Sub(o.Checkpointer), BuffersClean: s.BuffersClean - o.BuffersClean,
		MaxWrittenClean: s.MaxWrittenClean - o.MaxWrittenClean, BuffersBackend: s.BuffersBackend - o.BuffersBackend,
		BuffersAlloc: s.BuffersAlloc - o.BuffersAlloc}
}

// BgwriterStats are the counters so far.
func (c *Cluster) BgwriterStats() BgwriterStats {
	s := BgwriterStats{Checkpointer: c.ckpt.Stats, BuffersAlloc: c.ckpt.allocBase + int64(c.pool.Control().NumBufferAllocs)}
	s.BuffersClean, s.MaxWrittenClean = c.bgw.stats.Clean, c.bgw.stats.MaxWritten
	st := &c.pool.Stats
	for bt := range st.Rel {
		if t := bufmgr.BackendType(bt); t == bufmgr.Checkpointer || t == bufmgr.BackgroundWriter {
			continue
		}
		for ctx := range st.Rel[bt] {
			s.BuffersBackend += st.Rel[bt][ctx][bufmgr.OpWrites] + st.Rel[bt][ctx][bufmgr.OpExtends]
		}
	}
	return s
}
