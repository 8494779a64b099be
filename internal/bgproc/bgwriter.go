package bgproc

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
)

// BgWriter is the background writer (bgwriter.c's BackgroundWriterMain,
// bufmgr.c's BgBufferSync).
//
// # A round
//
// Every bgwriter_delay BgBufferSync reads where the clock hand is and how
// many buffers were allocated since the last round (StrategySyncStart),
// smooths the allocation rate (up at once, down over 16 rounds) and the
// density of reusable buffers the hand finds, and estimates the allocations
// before the next round as the smoothed rate × bgwriter_lru_multiplier (at
// least a scan of the whole pool per two minutes). It then scans ahead of the
// hand from where it stopped (or from the hand if the hand overtook it),
// writing each unpinned, usage-0 dirty buffer (SyncOneBuffer with
// skip_recently_used), until it has found enough reusable buffers, has
// lapped the hand, or has written bgwriter_lru_maxpages (maxwritten_clean).
// bgwriter_lru_maxpages = 0 turns the cleaning off; the counting of
// allocations (buffers_alloc) goes on.
//
// # Hibernation
//
// A round that found nothing to do (the hand has not moved and the scan has
// lapped it) twice in a row makes the next sleep 50 × bgwriter_delay, which
// the first buffer allocation cuts short (StrategyNotifyBgWriter).
//
// # Standby snapshots
//
// After each round, if LOG_SNAPSHOT_INTERVAL_MS (15 s) have passed since the
// last one and an important record (anything but a snapshot) was logged
// since, it logs XLOG_RUNNING_XACTS (LogStandbySnapshot, wal_level replica
// as the simulator assumes): the process is the only one that returns to
// its main loop often enough. A hibernating writer logs at its next wake-up.
type BgWriter struct {
	Env Env
	// Next is the next wake-up.
	Next int64
	be   *bufmgr.Backend
	// hibernating: in the long sleep, woken by an allocation; sleepFrom is
	// when the long sleep began and allocsAtSleep the allocation count then.
	hibernating   bool
	prevHibernate bool
	sleepFrom     int64
	allocsAtSleep uint64
	// lastAllocs is numBufferAllocs at the last StrategySyncStart.
	lastAllocs uint64
	// BgBufferSync's static state.
	savedValid      bool
	prevHand        int
	prevPasses      uint64
	nextToClean     int
	nextPasses      uint64
	smoothedAlloc   float32
	smoothedDensity float32
	// lastSnapshotNs and lastSnapshotLSN are last_snapshot_ts and
	// last_snapshot_lsn (the end of the last standby snapshot logged).
	lastSnapshotNs  int64
	lastSnapshotLSN pg.LSN
	// Stats: buffers_clean and maxwritten_clean so far (they survive a restart).
	Stats BgWriterStats
}

// logSnapshotIntervalNs is LOG_SNAPSHOT_INTERVAL_MS (bgwriter.c).
const logSnapshotIntervalNs = 15000 * 1e6

// BgWriterStats are pg_stat_bgwriter's buffers_clean and maxwritten_clean.
type BgWriterStats struct{ Clean, MaxWritten int64 }

// hibernateFactor is HIBERNATE_FACTOR (bgwriter.c).
const hibernateFactor = 50

// NewBgWriter returns the background writer of env's server, started at time 0.
func NewBgWriter(env Env) *BgWriter {
	w := &BgWriter{Env: env}
	w.Start(0)
	return w
}

// Start (re)starts the process at time now (the server's start, or after
// the pool was emptied): its first round at once, BgBufferSync's statics fresh.
func (w *BgWriter) Start(now int64) {
	_, _, allocs := w.Env.Pool.Control().SyncStart()
	*w = BgWriter{Env: w.Env, be: bufmgr.NewBackend(bufmgr.BackgroundWriter, now), Next: now, smoothedDensity: 10,
		lastAllocs: allocs, lastSnapshotNs: now, Stats: w.Stats}
}

// Hibernating reports whether the process is in its long sleep.
func (w *BgWriter) Hibernating() bool { return w.hibernating }

// WakeOnAlloc is StrategyNotifyBgWriter's latch: a hibernating background
// writer wakes at time t if a buffer was allocated since it went to sleep.
func (w *BgWriter) WakeOnAlloc(t int64) {
	if !w.hibernating || w.Next <= t {
		return
	}
	_, _, allocs := w.Env.Pool.Control().SyncStart()
	switch {
	case allocs == w.allocsAtSleep:
	case t < w.sleepFrom:
		// Still in the short sleep: the latch is not advertised yet
		// (bgwprocno is set just before the long one), so this allocation
		// wakes nothing.
		w.allocsAtSleep = allocs
	default:
		w.Next, w.hibernating = t, false
	}
}

// Run is one round of BackgroundWriterMain's loop at its wake-up time.
func (w *BgWriter) Run() {
	be := w.be
	be.Now = max(be.Now, w.Next)
	w.hibernating = false
	canHibernate := w.bgBufferSync()
	if t := be.Now; t >= w.lastSnapshotNs+logSnapshotIntervalNs && w.lastSnapshotLSN <= w.Env.WAL.LastImportantRecPtr() {
		// LogStandbySnapshot: <= because the important pointer is a
		// record's start and the snapshot's LSN its end.
		w.lastSnapshotLSN, be.Now = w.Env.WAL.InsertUnimportant(be.Now, &be.WAL, wal.RunningXactsWith(w.Env.runningXids()))
		w.lastSnapshotNs = t
	}
	w.Env.FoldWAL(be)
	delay := w.Env.Settings().Int("bgwriter_delay")
	w.Next = be.Now + delay
	if canHibernate && w.prevHibernate {
		w.hibernating = true
		w.sleepFrom = w.Next
		_, _, w.allocsAtSleep = w.Env.Pool.Control().SyncStart()
		w.Next += hibernateFactor * delay
	}
	w.prevHibernate = canHibernate
}

// bgBufferSync is BgBufferSync: one round of cleaning ahead of the clock
// hand. It reports whether the background writer may hibernate (the scan
// has lapped the hand and nothing was allocated).
func (w *BgWriter) bgBufferSync() bool {
	pool, s := w.Env.Pool, w.Env.Settings()
	n := pool.NBuffers()
	hand, passes, allocs := pool.Control().SyncStart()
	recentAlloc := allocs - w.lastAllocs
	w.lastAllocs = allocs
	maxPages := s.Int("bgwriter_lru_maxpages")
	if maxPages <= 0 {
		w.savedValid = false
		return true
	}
	var strategyDelta int64
	var bufsToLap int
	if w.savedValid {
		strategyDelta = int64(hand-w.prevHand) + int64(passes-w.prevPasses)*int64(n)
		switch {
		case int32(w.nextPasses-passes) > 0: // ahead of the hand, a pass on
			bufsToLap = hand - w.nextToClean
		case w.nextPasses == passes && w.nextToClean >= hand: // ahead, same pass
			bufsToLap = n - (w.nextToClean - hand)
		default: // the hand overtook the cleaner: start from the hand
			w.nextToClean, w.nextPasses, bufsToLap = hand, passes, n
		}
	} else {
		w.nextToClean, w.nextPasses, bufsToLap = hand, passes, n
	}
	w.prevHand, w.prevPasses, w.savedValid = hand, passes, true

	const smoothingSamples = 16
	const scanWholePoolMs = 120000.0
	if strategyDelta > 0 && recentAlloc > 0 {
		scansPerAlloc := float32(strategyDelta) / float32(recentAlloc)
		w.smoothedDensity += (scansPerAlloc - w.smoothedDensity) / smoothingSamples
	}
	bufsAhead := n - bufsToLap
	reusableEst := int(float32(bufsAhead) / w.smoothedDensity)
	if w.smoothedAlloc <= float32(recentAlloc) {
		w.smoothedAlloc = float32(recentAlloc)
	} else {
		w.smoothedAlloc += (float32(recentAlloc) - w.smoothedAlloc) / smoothingSamples
	}
	upcoming := int(w.smoothedAlloc * float32(s.Real("bgwriter_lru_multiplier")))
	if upcoming == 0 {
		w.smoothedAlloc = 0
	}
	minScan := int(float32(n) / float32(scanWholePoolMs/float64(s.Int("bgwriter_delay")/1e6)))
	if upcoming < minScan+reusableEst {
		upcoming = minScan + reusableEst
	}

	toScan, written, reusable := bufsToLap, 0, reusableEst
	for toScan > 0 && reusable < upcoming {
		// SyncOneBuffer on each buffer up to the pool's end (a pass) at most.
		k, wr, re, full := pool.CleanRun(w.be, w.nextToClean, min(toScan, n-w.nextToClean), upcoming-reusable, maxPages-int64(written))
		if w.nextToClean += k; w.nextToClean >= n {
			w.nextToClean = 0
			w.nextPasses++
		}
		toScan -= k
		written += wr
		reusable += re
		if full {
			w.Stats.MaxWritten++
			break
		}
	}
	w.Stats.Clean += int64(written)

	newDelta, newAlloc := bufsToLap-toScan, reusable-reusableEst
	if newDelta > 0 && newAlloc > 0 {
		scansPerAlloc := float32(newDelta) / float32(newAlloc)
		w.smoothedDensity += (scansPerAlloc - w.smoothedDensity) / smoothingSamples
	}
	return bufsToLap == 0 && recentAlloc == 0
}
