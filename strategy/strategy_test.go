package strategy

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

func pool(n int) []pg.BufState { return make([]pg.BufState, n+1) }

// After start-up the free list hands out buffers 1, 2, 3, … and the hand does not move.
func TestFreeListOrder(t *testing.T) {
	st := pool(16)
	c := NewControl(st)
	for want := pg.Buffer(1); want <= 16; want++ {
		b, fromRing, err := c.GetBuffer(nil)
		require.NoError(t, err)
		require.False(t, fromRing)
		require.Equal(t, want, b)
		st[b] = st[b].WithUsage(1) | pg.FlagValid
	}
	require.Equal(t, pg.Buffer(1), c.Hand())
	require.EqualValues(t, 0, c.CompletePasses)
}

// Clock sweep on 16 buffers: buffers 1..16 at usage 1 except buffer 3 at 5
// and buffer 2 pinned. The first sweep decrements every unpinned buffer once
// (usage 1 → 0, buffer 3 → 4) and skips the pin; the victim is the first
// buffer it finds at 0 on the second pass: buffer 1. The next victim is 4
// (2 pinned, 3 still at 4).
func TestClockSweep(t *testing.T) {
	st := pool(16)
	c := NewControl(st)
	for i := 0; i < 16; i++ {
		b, _, _ := c.GetBuffer(nil)
		st[b] = pg.FlagValid.WithUsage(1)
	}
	st[3] = st[3].WithUsage(5)
	st[2] += pg.RefcountOne
	b, _, err := c.GetBuffer(nil)
	require.NoError(t, err)
	require.Equal(t, pg.Buffer(1), b)
	require.Equal(t, 4, st[3].Usage())
	require.EqualValues(t, 1, c.CompletePasses)
	st[1] = pg.FlagValid.WithUsage(1)
	b, _, _ = c.GetBuffer(nil)
	require.Equal(t, pg.Buffer(4), b)
	require.Equal(t, 3, st[3].Usage(), "the hand passed buffer 3 again")
}

// All buffers pinned: "no unpinned buffers available" after NBuffers pinned buffers in a row.
func TestNoUnpinnedBuffers(t *testing.T) {
	st := pool(16)
	c := NewControl(st)
	for i := 0; i < 16; i++ {
		b, _, _ := c.GetBuffer(nil)
		st[b] = pg.FlagValid | pg.RefcountOne
	}
	_, _, err := c.GetBuffer(nil)
	require.ErrorIs(t, err, ErrNoUnpinnedBuffers)
}

// A ring reuses its slot's buffer when it is unpinned at usage ≤ 1; a pinned or
// usage-2 buffer escapes (the slot is refilled from the clock); a BULKREAD
// ring rejects a buffer that came from the ring, other kinds never do.
func TestRing(t *testing.T) {
	st := pool(64)
	c := NewControl(st)
	r := NewRing(BulkRead, 4)
	var first [4]pg.Buffer
	for i := range first {
		b, fromRing, _ := c.GetBuffer(r)
		require.False(t, fromRing)
		st[b] = pg.FlagValid.WithUsage(1)
		first[i] = b
	}
	b, fromRing, _ := c.GetBuffer(r)
	require.True(t, fromRing)
	require.Equal(t, first[0], b)
	st[first[1]] = st[first[1]].WithUsage(2) // someone else used it
	b, fromRing, _ = c.GetBuffer(r)
	require.False(t, fromRing, "usage 2 escapes the ring")
	require.NotEqual(t, first[1], b)
	require.Equal(t, b, r.Slots()[r.current], "the new victim takes the slot")
	b, fromRing, _ = c.GetBuffer(r)
	require.True(t, fromRing)
	require.True(t, r.RejectBuffer(b, fromRing))
	require.Equal(t, pg.InvalidBuffer, r.Slots()[r.current])
	require.False(t, r.RejectBuffer(b, false), "only buffers that came from the ring")
	v := NewRing(Vacuum, 4)
	require.False(t, v.RejectBuffer(b, true), "VACUUM's ring flushes WAL instead")
}

// Ring sizes per version (GetAccessStrategy and GetAccessStrategyWithSize in
// freelist.c; VACUUM's ring from ExecVacuum in vacuum.c). BULKREAD in 18 is
// 256 kB plus io_combine_limit × effective_io_concurrency blocks (8 kB × 16
// × 16 = 2,048 kB: 2,304 kB), no more than the pin limit allows but never
// less than 256 kB: GetPinLimit 94 caps it at 752 kB = 94 buffers, 753 lets
// all 2,304 kB = 288 through, and effective_io_concurrency=0 leaves 256 kB
// = 32. BULKWRITE is 16 MB = 2,048 buffers. VACUUM from 16 is
// vacuum_buffer_usage_limit (2,048 kB = 256 buffers; 0: no ring); 15 has a
// fixed 256 kB = 32. Every ring is capped at NBuffers/8: 128 buffers cap
// BULKWRITE at 16.
func TestRingBuffers(t *testing.T) {
	s := Settings{Version: 18, NBuffers: 16384, EffectiveIOConcurrency: 16, IOCombineLimit: 16, PinLimit: 94, VacuumBufferUsageKB: 2048}
	require.Equal(t, 94, RingBuffers(BulkRead, s))
	s.PinLimit = 753
	require.Equal(t, 288, RingBuffers(BulkRead, s))
	s.EffectiveIOConcurrency = 0
	require.Equal(t, 32, RingBuffers(BulkRead, s), "no I/O concurrency: just 256kB")
	require.Equal(t, 2048, RingBuffers(BulkWrite, s))
	require.Equal(t, 256, RingBuffers(Vacuum, s))
	s.VacuumBufferUsageKB = 0
	require.Equal(t, 0, RingBuffers(Vacuum, s), "vacuum_buffer_usage_limit=0: no ring")
	s = Settings{Version: 15, NBuffers: 16384, VacuumBufferUsageKB: 2048}
	require.Equal(t, 32, RingBuffers(Vacuum, s), "15 ignores the GUC it does not have")
	s.NBuffers = 128
	require.Equal(t, 16, RingBuffers(BulkWrite, s), "capped at NBuffers/8")
}
