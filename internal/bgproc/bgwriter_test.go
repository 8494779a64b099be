package bgproc

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/guc"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/storage"
	"github.com/pgbufsim/pgbufsim/strategy"
	"github.com/pgbufsim/pgbufsim/wal"
	"github.com/stretchr/testify/require"
)

// testEnv is an 18 server of nbuf buffers with settings kv on top of the defaults.
func testEnv(t *testing.T, nbuf int, kv ...string) Env {
	s, err := guc.DefaultSettings(18)
	require.NoError(t, err)
	for i := 0; i < len(kv); i += 2 {
		_, err := s.Set(kv[i], kv[i+1])
		require.NoError(t, err)
	}
	w, err := wal.New(wal.Config{Version: 18, WalBuffers: 64})
	require.NoError(t, err)
	st := storage.NewFlat()
	p, err := bufmgr.NewPool(bufmgr.Config{NBuffers: nbuf, Version: 18, Costs: bufmgr.Costs{WritePageNs: 10_000}, Storage: st}, w)
	require.NoError(t, err)
	return Env{Pool: p, WAL: w, Storage: st, Settings: func() *guc.Settings { return s },
		CheckpointDone: func(pg.LSN, []int) {}, FoldWAL: func(*bufmgr.Backend) {}}
}

// An idle pool of 16,384 empty buffers: nothing is allocated, so the
// smoothed allocation rate is 0 and each round's target is BgBufferSync's
// floor, min_scan_buffers = 16,384 / (120,000 ms / 200 ms) = 27 (a whole
// pool per two minutes), plus the reusable buffers it estimates are already
// ahead. Every scanned buffer is reusable (unpinned, usage 0), so each round
// scans exactly 27 past its estimate: the scan laps the clock hand (still at
// buffer 0) in ceil(16,384 / 27) = 607 rounds, the 607th scanning the last
// 22. Round r runs at (r − 1) × 200 ms (no writes: no time taken). Round 608
// finds nothing to lap and no allocation: it may hibernate, and round 609
// (121.6 s), the second such in a row, sleeps 200 ms + 50 × 200 ms, to 131.8 s.
func TestBgwriterIdleLapsThenHibernates(t *testing.T) {
	w := NewBgWriter(testEnv(t, 16384))
	for r := 1; r <= 606; r++ {
		require.Equal(t, int64(r-1)*200e6, w.Next, "round %d", r)
		w.Run()
		require.Equal(t, 27*r, w.nextToClean, "round %d", r)
	}
	w.Run() // 607: the last 22
	require.Equal(t, 0, w.nextToClean)
	require.Equal(t, uint64(1), w.nextPasses, "a pass ahead of the hand's")
	require.False(t, w.prevHibernate)
	w.Run() // 608
	require.True(t, w.prevHibernate)
	require.False(t, w.Hibernating())
	require.Equal(t, int64(608)*200e6, w.Next)
	w.Run() // 609
	require.True(t, w.Hibernating())
	require.Equal(t, int64(608)*200e6+200e6+50*200e6, w.Next)
	require.Equal(t, int64(0), w.Stats.Clean)
	// An allocation during the short sleep (121.6 to 121.8 s) wakes nothing:
	// the latch is advertised (StrategyNotifyBgWriter) only for the long one.
	_, _, err := w.Env.Pool.Control().GetBuffer(nil)
	require.NoError(t, err)
	w.WakeOnAlloc(int64(608)*200e6 + 1e6)
	require.Equal(t, int64(608)*200e6+200e6+50*200e6, w.Next)
	// One during the long sleep ends it at once.
	_, _, err = w.Env.Pool.Control().GetBuffer(nil)
	require.NoError(t, err)
	w.WakeOnAlloc(125e9)
	require.Equal(t, int64(125e9), w.Next)
	require.False(t, w.Hibernating())
}

// bgwriter_lru_maxpages=0: no cleaning and no scan (saved_info_valid
// false), only the allocations counted; it may hibernate from the first round.
func TestBgwriterOff(t *testing.T) {
	w := NewBgWriter(testEnv(t, 16384, "bgwriter_lru_maxpages", "0"))
	w.Run()
	w.Run()
	require.True(t, w.Hibernating())
	require.Equal(t, 0, w.nextToClean)
	require.False(t, w.savedValid)
}

// Cleaning ahead of the hand. A pool of 600 buffers, every one holding a
// dirty page at usage count 1 (600 extensions); one allocation then sweeps
// the clock a full pass (every usage count to 0) and takes buffer 1: the
// hand is at buffer 2, one pass done, 601 allocations counted.
//
// Round 1 (no saved state): bufs_to_lap = 600, nothing ahead (reusable_est
// 0), smoothed_alloc = 601, upcoming = 601 × bgwriter_lru_multiplier 2 =
// 1,202 (above the floor of 600 / 600 = 1). From the hand every buffer is
// dirty at usage 0: it writes buffers 2 to 101 and stops at
// bgwriter_lru_maxpages = 100 (maxwritten_clean 1). The density of reusable
// buffers it found is 100 a 100 scanned: 10 + (1 − 10) / 16 = 9.4375.
//
// Round 2 (no allocations since): the hand has not moved, the cleaner is 100
// ahead: bufs_to_lap 500, reusable_est = 100 / 9.4375 = 10, smoothed_alloc
// decays to 601 − 601 / 16 = 563.4375, upcoming 1,126: again 100 written
// (102 to 201), maxwritten_clean 2.
func TestBgwriterCleansAheadOfTheHand(t *testing.T) {
	env := testEnv(t, 600)
	w := NewBgWriter(env)
	p := env.Pool
	be := bufmgr.NewBackend(bufmgr.ClientBackend, 0)
	p.CreateRel(1, 0, true)
	for i := 0; i < 600; i++ {
		b, _, err := p.Extend(be, 1, nil)
		require.NoError(t, err)
		p.MarkBufferDirty(be, b)
		p.Unpin(be, b)
	}
	b, _, err := p.Control().GetBuffer(nil)
	require.NoError(t, err)
	require.Equal(t, pg.Buffer(1), b)
	hand, passes, allocs := p.Control().SyncStart()
	require.Equal(t, []any{1, uint64(1), uint64(601)}, []any{hand, passes, allocs})

	w.Run()
	require.Equal(t, BgWriterStats{Clean: 100, MaxWritten: 1}, w.Stats)
	require.Equal(t, 101, w.nextToClean)
	require.InDelta(t, 9.4375, w.smoothedDensity, 1e-6)
	w.Run()
	require.Equal(t, BgWriterStats{Clean: 200, MaxWritten: 2}, w.Stats)
	require.Equal(t, 201, w.nextToClean)
	require.InDelta(t, 563.4375, w.smoothedAlloc, 1e-4)
	dirty := 0
	for _, r := range p.Contents() {
		if r.Dirty {
			dirty++
		}
	}
	require.Equal(t, 400, dirty, "buffers 2 to 201 written; 1 and 202 to 600 still dirty")
	require.Equal(t, int64(200), p.Stats.Rel[bufmgr.BackgroundWriter][strategy.Normal][bufmgr.OpWrites], "pg_stat_io: background writer, normal context")
}
