package bgproc

import (
	"fmt"
	"math"
	"strings"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/guc"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/storage"
	"github.com/pgbufsim/pgbufsim/strategy"
	"github.com/pgbufsim/pgbufsim/wal"
)

// Checkpointer is the checkpointer process (checkpointer.c).
//
// # The main loop
//
// CheckpointerMain sleeps until checkpoint_timeout has passed since the last
// checkpoint's start (last_checkpoint_time, whole seconds) or until a
// checkpoint is requested: by XLogWrite when it finishes a WAL segment
// CheckPointSegments − 1 or more segments past the redo pointer's
// (XLogCheckpointNeeded, see wal.CheckpointNeeded), or by CHECKPOINT.
// Requests made while a checkpoint runs merge into one (their flags OR'd in
// ckpt_flags) and start the next checkpoint as soon as the running one
// ends; a FAST request makes the running one stop pausing. A checkpoint
// that is not forced finds nothing important logged since the last
// checkpoint record and is skipped (CreateCheckPoint), though counted as
// timed or requested: the counts are taken when it starts.
//
// # Spread writes
//
// CreateCheckPoint fixes the redo pointer first (so full-page images start
// at once), then BufferSync writes the marked buffers one by one; after
// each, CheckpointWriteDelay naps 100 ms while IsCheckpointOnSchedule finds
// the progress, scaled by checkpoint_completion_target, ahead of both the
// WAL inserted and the time elapsed since the start, as fractions of
// CheckPointSegments and checkpoint_timeout. Then the files written are
// fsynced (ProcessSyncRequests, through the storage model), RUNNING_XACTS
// and the checkpoint record are logged and flushed, and LogCheckpointEnd
// reports (log_checkpoints).
type Checkpointer struct {
	Env Env
	// Next is the next wake-up (math.MaxInt64: none).
	Next int64
	be   *bufmgr.Backend
	// lastStart is last_checkpoint_time in whole simulated seconds.
	lastStart int64
	// flags is CheckpointerShmem->ckpt_flags: requests not yet started.
	flags Flags
	run   *ckptRun
	// priorRedo, estimate and prevDistance are xlog.c's PriorRedoPtr,
	// CheckPointDistanceEstimate and PrevCheckPointDistance.
	priorRedo    pg.LSN
	estimate     float64
	prevDistance float64
	// Stats are the cumulative counters (they survive a restart).
	Stats CheckpointerStats
	log   []string
	// params are the pacing settings read from the settings in force
	// (cached per settings object: a SET installs a new one).
	params ckptParams
}

// ckptParams are the settings IsCheckpointOnSchedule reads, taken from one
// settings object.
type ckptParams struct {
	from     *guc.Settings
	target   float64 // checkpoint_completion_target
	segments float64 // CheckPointSegments
	timeout  float64 // checkpoint_timeout in seconds
}

// pacing returns the pacing settings in force, rereading them when the
// settings object changed (a SET clones and installs a new one, so an
// unchanged object has unchanged values).
func (k *Checkpointer) pacing() *ckptParams {
	if s := k.s(); k.params.from != s {
		k.params = ckptParams{from: s, target: s.Real("checkpoint_completion_target"),
			segments: float64(k.segments()), timeout: float64(k.timeoutSecs())}
	}
	return &k.params
}

// CheckpointerStats are pg_stat_bgwriter's checkpoint columns (15, 16) or
// pg_stat_checkpointer's (17+): checkpoints started by time and by request,
// those performed (not skipped), the buffers they wrote, and the time spent
// writing and syncing (ns).
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

// Flags are the CHECKPOINT_* request flags the model uses.
type Flags uint8

// The request flags.
const (
	Fast      Flags = 1 << iota // CHECKPOINT_FAST (CHECKPOINT_IMMEDIATE before 18)
	Force                       // CHECKPOINT_FORCE
	Wait                        // CHECKPOINT_WAIT
	CauseXLog                   // CHECKPOINT_CAUSE_XLOG
	CauseTime                   // CHECKPOINT_CAUSE_TIME
)

// Words are LogCheckpointStart's flag words in version v's spelling.
func (f Flags) Words(v pg.Version) string {
	var b strings.Builder
	if f&Fast != 0 {
		if v >= 18 {
			b.WriteString(" fast")
		} else {
			b.WriteString(" immediate")
		}
	}
	for _, w := range []struct {
		f Flags
		s string
	}{{Force, " force"}, {Wait, " wait"}, {CauseXLog, " wal"}, {CauseTime, " time"}} {
		if f&w.f != 0 {
			b.WriteString(w.s)
		}
	}
	return b.String()
}

// ckptRun is one checkpoint under way (CreateCheckPoint with BufferSync's loop state).
type ckptRun struct {
	flags    Flags
	startNs  int64
	startSec int64  // ckpt_start_time
	startRec pg.LSN // ckpt_start_recptr (GetInsertRecPtr)
	redo     pg.LSN
	sizes    []int
	todo     []pg.Buffer
	done     int // buffers processed
	written  int
	cachedEl float64 // ckpt_cached_elapsed
}

// napNs is CheckpointWriteDelay's nap while on schedule (100 ms).
const napNs = 100_000_000

// NewCheckpointer returns the checkpointer of env's server, started at time 0.
func NewCheckpointer(env Env) *Checkpointer {
	k := &Checkpointer{Env: env}
	k.Start(0)
	return k
}

// Start (re)starts the process at time now, as the server's start does:
// last_checkpoint_time is now, so the first timed checkpoint is
// checkpoint_timeout later; the distance estimate starts over; WAL-triggered
// requests are wired to the WAL. The counters and the unread log stay.
func (k *Checkpointer) Start(now int64) {
	*k = Checkpointer{Env: k.Env, be: bufmgr.NewBackend(bufmgr.Checkpointer, now), lastStart: now / 1e9,
		priorRedo: k.Env.WAL.RedoRecPtr(), Stats: k.Stats, log: k.log}
	k.Configure(now)
}

// Configure applies max_wal_size, checkpoint_completion_target and
// checkpoint_timeout at time now (at the start, and after SET: a reload
// signals the checkpointer, which wakes and rereads them).
func (k *Checkpointer) Configure(now int64) {
	k.Env.WAL.SetCheckpointSegments(k.segments(), k.RequestXLog)
	k.Env.WAL.SetInitZero(k.s().Bool("wal_init_zero"), k.s().Bool("wal_recycle"))
	if k.run == nil {
		k.Next = k.timeoutWake(max(k.be.Now, now))
	}
}

func (k *Checkpointer) s() *guc.Settings { return k.Env.Settings() }

// segments is CheckPointSegments under the settings in force.
func (k *Checkpointer) segments() int {
	return wal.CheckpointSegments(k.s().Int("max_wal_size"), k.s().Real("checkpoint_completion_target"))
}

func (k *Checkpointer) timeoutSecs() int64 { return k.s().Int("checkpoint_timeout") / 1e9 }

// timeoutWake is when the idle checkpointer's WaitLatch returns, seen from
// time now: at once with a request pending or checkpoint_timeout used up,
// else after the whole seconds left of it since last_checkpoint_time.
func (k *Checkpointer) timeoutWake(now int64) int64 {
	if k.flags != 0 {
		return now
	}
	elapsed := now/1e9 - k.lastStart
	if elapsed >= k.timeoutSecs() {
		return now
	}
	return now + (k.timeoutSecs()-elapsed)*1e9
}

// RequestXLog is RequestCheckpoint(CHECKPOINT_CAUSE_XLOG) at time at: the
// flag is set and, if the checkpointer is idle, its latch.
func (k *Checkpointer) RequestXLog(at int64) {
	k.flags |= CauseXLog
	if k.run == nil && k.Next > at {
		k.Next = at
	}
}

// Running reports whether a checkpoint is under way.
func (k *Checkpointer) Running() bool { return k.run != nil }

// Run is one step of the checkpointer at its wake-up time: in a checkpoint,
// the next buffer of BufferSync (or the checkpoint's end); otherwise one
// round of CheckpointerMain's loop.
func (k *Checkpointer) Run() {
	be := k.be
	be.Now = max(be.Now, k.Next)
	if k.run != nil {
		k.step((k.run.flags|k.flags)&Fast != 0)
		return
	}
	nowSec := be.Now / 1e9
	timedOut := nowSec-k.lastStart >= k.timeoutSecs()
	if k.flags == 0 && !timedOut {
		k.Next = k.timeoutWake(be.Now)
		return
	}
	flags := k.flags
	k.flags = 0
	if flags != 0 {
		k.Stats.Requested++
	} else {
		k.Stats.Timed++
	}
	if timedOut {
		flags |= CauseTime
	}
	k.lastStart = nowSec // the start, not the end: timed checkpoints keep their spacing
	w, s := k.Env.WAL, k.s()
	startRec := w.InsertLSN()
	// CreateCheckPoint: the system is idle if the last important record is
	// the last checkpoint's (ControlFile->checkPoint). Standby snapshots
	// are not important; a server just started has logged nothing
	// important yet, so its first timed checkpoint is not skipped.
	if flags&Force == 0 && w.LastImportantRecPtr() == w.LastCheckpointLSN() {
		k.Next = k.timeoutWake(be.Now)
		return
	}
	k.logf("checkpoint starting:%s", flags.Words(s.Version))
	r := &ckptRun{flags: flags, startNs: be.Now, startSec: nowSec, startRec: startRec}
	be.Now = w.Checkpoint(be.Now, &be.WAL, s.Version)
	r.redo, r.sizes = w.RedoRecPtr(), k.Env.Pool.RelSizes()
	r.todo = k.Env.Pool.StartBufferSync(false)
	k.run = r
	k.Next = be.Now
}

// step processes the next listed buffer and naps if on schedule (BufferSync
// + CheckpointWriteDelay), or ends the checkpoint once all are done.
func (k *Checkpointer) step(fast bool) {
	r, be := k.run, k.be
	if r.done == len(r.todo) {
		k.end()
		return
	}
	if k.Env.Pool.SyncOneBuffer(be, r.todo[r.done]) {
		r.written++
		k.Stats.BuffersWritten++ // counted as written (reported at each nap), not at the end
	}
	r.done++
	k.Next = be.Now
	if !fast && k.onSchedule(float64(r.done)/float64(len(r.todo))) {
		k.Next = be.Now + napNs
	}
	if !be.WAL.Zero() { // most writes find their WAL flushed: nothing to fold
		k.Env.FoldWAL(be)
	}
}

// onSchedule is IsCheckpointOnSchedule: progress scaled by
// checkpoint_completion_target is ahead of the WAL inserted since the start
// (in CheckPointSegments) and of the time elapsed (in checkpoint_timeout).
func (k *Checkpointer) onSchedule(progress float64) bool {
	r, par := k.run, k.pacing()
	progress *= par.target
	if progress < r.cachedEl {
		return false
	}
	elXLog := float64(k.Env.WAL.InsertLSN()-r.startRec) / pg.WalSegSize / par.segments
	if progress < elXLog {
		r.cachedEl = elXLog
		return false
	}
	now := k.be.Now
	elTime := (float64(now/1e9-r.startSec) + float64(now%1e9)/1e9) / par.timeout
	if progress < elTime {
		r.cachedEl = elTime
		return false
	}
	return true
}

// end is the rest of CreateCheckPoint after BufferSync: fsync the files
// written (ProcessSyncRequests), log RUNNING_XACTS and the checkpoint record
// and flush them, update the distance estimate, log the end.
func (k *Checkpointer) end() {
	r, be := k.run, k.be
	k.Env.Pool.IssuePendingWritebacks(be, strategy.Normal) // BufferSync's last
	writeEnd := be.Now
	var sync storage.SyncStats
	be.Now, sync = k.Env.Storage.SyncAll(be.Now)
	syncEnd := be.Now
	be.Now = k.Env.WAL.FinishCheckpoint(be.Now, &be.WAL, k.Env.runningXids())
	k.Env.CheckpointDone(r.redo, r.sizes)
	k.Finished(r.redo, 0, writeEnd-r.startNs, syncEnd-writeEnd)
	segs := k.RemoveOldSegments(be, false)
	k.logEnd(r.flags, r.written, segs, sync, writeEnd-r.startNs, syncEnd-writeEnd, be.Now-r.startNs, r.redo)
	k.Env.FoldWAL(be)
	k.run = nil
	k.Next = k.timeoutWake(be.Now)
}

// Finished is the bookkeeping every performed checkpoint shares (the
// checkpointer's own and CHECKPOINT's): the counters (written: the buffers
// not yet counted), UpdateCheckPointDistanceEstimate.
func (k *Checkpointer) Finished(redo pg.LSN, written, writeNs, syncNs int64) {
	k.Stats.Done++
	k.Stats.BuffersWritten += written
	k.Stats.WriteNs += writeNs
	k.Stats.SyncNs += syncNs
	k.prevDistance = float64(redo - k.priorRedo)
	k.estimate = k.estimateAfter(redo)
	k.priorRedo = redo
}

// estimateAfter is UpdateCheckPointDistanceEstimate's new
// CheckPointDistanceEstimate for a checkpoint whose redo pointer is redo:
// up at once to a longer distance, down slowly (a tenth) to a shorter one.
func (k *Checkpointer) estimateAfter(redo pg.LSN) float64 {
	n := float64(redo - k.priorRedo)
	if k.estimate < n {
		return n
	}
	return 0.90*k.estimate + 0.10*n
}

// RemoveOldSegments is the end of a checkpoint whose record the WAL has
// just flushed, by the checkpointer process be, after the distance
// estimate is updated: old segments recycled or removed, the next one
// created ahead unless this is the shutdown checkpoint (wal.RemoveOldSegments).
// A shutdown checkpoint, which the model does not pass through Finished,
// uses the estimate its distance gives.
func (k *Checkpointer) RemoveOldSegments(be *bufmgr.Backend, shutdown bool) wal.SegmentStats {
	s := k.s()
	est := k.estimate
	if shutdown {
		est = k.estimateAfter(k.Env.WAL.RedoRecPtr())
	}
	var st wal.SegmentStats
	be.Now, st = k.Env.WAL.RemoveOldSegments(be.Now, &be.WAL, wal.SegmentSettings{
		MinWALSizeMB: s.Int("min_wal_size"), MaxWALSizeMB: s.Int("max_wal_size"),
		CompletionTarget: s.Real("checkpoint_completion_target"), KeepSizeMB: s.Int("wal_keep_size"), Estimate: est}, shutdown)
	return st
}

// FinishRunning is a FAST request (CHECKPOINT, or shutdown) meeting a
// checkpoint under way: it runs to its end without pausing
// (FastCheckpointRequested), others running the other processes due before
// each of its steps. The pending requests are the caller's checkpoint's now.
// It returns the time the running checkpoint ended (0: none was running).
func (k *Checkpointer) FinishRunning(others func(t int64)) int64 {
	if k.run == nil {
		return 0
	}
	k.flags |= Fast
	for k.run != nil {
		others(k.Next)
		k.Run()
	}
	k.flags = 0
	return k.be.Now
}

// Suspend keeps the checkpointer from waking (while the caller's
// checkpoint takes over); Resume lets it wake at next again.
func (k *Checkpointer) Suspend() (next int64) {
	next, k.Next = k.Next, math.MaxInt64
	return next
}

// Resume undoes Suspend.
func (k *Checkpointer) Resume(next int64) { k.Next = next }

// logEnd is LogCheckpointEnd's line, version by version.
func (k *Checkpointer) logEnd(flags Flags, written int, segs wal.SegmentStats, sync storage.SyncStats, writeNs, syncNs, totalNs int64, redo pg.LSN) {
	s := k.s()
	v := s.Version
	var b strings.Builder
	b.WriteString("checkpoint complete:")
	if v >= 19 {
		b.WriteString(flags.Words(v) + ":")
	}
	fmt.Fprintf(&b, " wrote %d buffers (%.1f%%)", written, float64(written)*100/float64(s.NBuffers()))
	if v >= 18 {
		b.WriteString(", wrote 0 SLRU buffers")
	}
	fmt.Fprintf(&b, "; %d WAL file(s) added, %d removed, %d recycled", segs.Added, segs.Removed, segs.Recycled)
	var avg int64 // µs, as ProcessSyncRequests sums them
	if sync.Files > 0 {
		avg = sync.SumNs / 1000 / int64(sync.Files)
	}
	fmt.Fprintf(&b, "; write=%s s, sync=%s s, total=%s s; sync files=%d, longest=%s s, average=%s s; distance=%d kB, estimate=%d kB",
		secs(writeNs), secs(syncNs), secs(totalNs), sync.Files, secs(sync.LongestNs), secs(avg*1000),
		int(k.prevDistance/1024), int(k.estimate/1024))
	if v >= 17 {
		fmt.Fprintf(&b, "; lsn=%s, redo lsn=%s", k.Env.WAL.LastCheckpointLSN(), redo)
	}
	k.logf("%s", b.String())
}

// secs prints ns as LogCheckpointEnd's %ld.%03d seconds: the server's
// timestamps are in microseconds, and TimestampDifferenceMilliseconds (as
// the longest and average sync times) rounds up to the millisecond.
func secs(ns int64) string {
	ms := (ns/1000 + 999) / 1000
	return fmt.Sprintf("%d.%03d", ms/1000, ms%1000)
}

// logf appends a server log line when log_checkpoints is on.
func (k *Checkpointer) logf(format string, args ...any) {
	if k.s().Bool("log_checkpoints") {
		k.log = append(k.log, "LOG:  "+fmt.Sprintf(format, args...))
	}
}

// AppendLog adds a line of another process to the server log, in time order with the checkpointer's.
func (k *Checkpointer) AppendLog(line string) { k.log = append(k.log, line) }

// TakeLog returns the log lines written since the last call.
func (k *Checkpointer) TakeLog() []string {
	l := k.log
	k.log = nil
	return l
}

// Drain is a FAST request (CHECKPOINT, shutdown) meeting a checkpoint under
// way at time now: FinishRunning, then the caller's clock moves to its end
// (advance, which runs the processes due until then and returns the new
// time) without the checkpointer starting another. It returns the time.
func (k *Checkpointer) Drain(now int64, others func(t int64), advance func(t int64) int64) int64 {
	if end := k.FinishRunning(others); end > now {
		next := k.Suspend()
		now = advance(end)
		k.Resume(next)
	}
	return now
}

// Immediate is what CHECKPOINT did: the checkpointer backend that ran it
// (its buffer and WAL usage; Now is its end), the buffers it wrote, the
// insert position before its own records, and what the end of the
// checkpoint it waited for (if one was under way) wrote and logged.
type Immediate struct {
	Be          *bufmgr.Backend
	Written     int
	StartLSN    pg.LSN
	TailWritten int64
	TailWAL     wal.Usage
}

// RunImmediate is CHECKPOINT (FAST | FORCE | WAIT) requested at time now.
// A checkpoint under way first runs to its end without pausing, and the
// requests pending merge into this one, counted once as requested (Drain).
// Then CreateCheckPoint: the REDO record (17+) fixes the new redo pointer,
// BufferSync writes every dirty permanent buffer at once (usage counts
// untouched, buffers stay valid), ProcessSyncRequests fsyncs the files
// written, RUNNING_XACTS and CHECKPOINT_ONLINE are written and flushed.
func (k *Checkpointer) RunImmediate(now int64, others func(t int64), advance func(t int64) int64) Immediate {
	w, pool := k.Env.WAL, k.Env.Pool
	wal0, written0 := w.Total, k.Stats.BuffersWritten
	now = k.Drain(now, others, advance)
	r := Immediate{TailWAL: w.Total.Sub(wal0), TailWritten: k.Stats.BuffersWritten - written0}
	k.flags = 0
	k.Stats.Requested++
	k.lastStart = now / 1e9
	be := bufmgr.NewBackend(bufmgr.Checkpointer, now)
	r.StartLSN = w.InsertLSN()
	be.Now = w.Checkpoint(be.Now, &be.WAL, k.s().Version)
	redo, sizes := w.RedoRecPtr(), pool.RelSizes()
	r.Written = pool.BufferSync(be, false)
	writeEnd := be.Now
	be.Now, _ = k.Env.Storage.SyncAll(be.Now)
	syncEnd := be.Now
	be.Now = w.FinishCheckpoint(be.Now, &be.WAL, k.Env.runningXids())
	k.Env.CheckpointDone(redo, sizes)
	k.Finished(redo, int64(r.Written), writeEnd-now, syncEnd-writeEnd)
	k.RemoveOldSegments(be, false)
	k.be.Now = max(k.be.Now, be.Now)
	k.Next = k.timeoutWake(be.Now)
	r.Be = be
	return r
}
