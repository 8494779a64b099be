package bgproc

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/guc"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/storage"
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
