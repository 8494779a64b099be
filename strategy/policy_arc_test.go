package strategy

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

// arcSizes is ARC.Sizes as one comparable value: T1, T2, B1, B2, target.
func arcSizes(s *poolSim) [5]int {
	t1, t2, b1, b2, target := s.r.(*ARC).Sizes()
	return [5]int{t1, t2, b1, b2, target}
}

// ARC on 16 buffers, target 8 (NBuffers/2, StrategyInitialize). Blocks
// 0..15 fill buffers 1..16 in T1; blocks 0..5 read again move to T2, T1
// keeps 6..15 (10 pages). A scan of blocks 100..109, read once: T1 (10) is
// at least the target (8), so every victim is T1's LRU: blocks 6..15,
// buffers 7..16, and T2 is untouched (scan resistance; under LRU the scan
// would take blocks 0..5 too, the least recent after 6 victims). The
// first six evicted pages take unused directory entries into B1; from the
// seventh on |T1| + |B1| = 10 + 6 = 16 = NBuffers, so each miss first
// recycles B1's oldest entry: B1 keeps the last six, blocks 10..15.
func TestARCScanLeavesT2(t *testing.T) {
	s := newPoolSim(t, "arc", 16)
	require.Equal(t, bufs(1, 16), s.victims(0, 16))
	for n := 0; n < 6; n++ {
		b, miss := s.read(n)
		require.False(t, miss)
		require.Equal(t, pg.Buffer(n+1), b)
	}
	require.Equal(t, [5]int{10, 6, 0, 0, 8}, arcSizes(s))
	require.Equal(t, bufs(7, 16), s.victims(100, 110))
	require.Equal(t, [5]int{10, 6, 6, 0, 8}, arcSizes(s))
	for n := 0; n < 6; n++ {
		require.Equal(t, pg.Buffer(n+1), s.where[blk(n)], "block %d stays", n)
	}
	a := s.r.(*ARC)
	for n := 10; n < 16; n++ {
		slot, li := a.g.find(blk(n))
		require.True(t, slot >= 0 && li == arcB1, "block %d in B1", n)
	}
	slot, _ := a.g.find(blk(9))
	require.EqualValues(t, -1, slot, "block 9's entry was recycled")
	require.NoError(t, s.check())
}

// 8.0 starts the target at NBuffers/2 where the paper starts p at 0, so a
// scan squeezes T2 down to NBuffers − target. Blocks 0..15 fill T1, blocks
// 0..11 read again move to T2 (12 pages), T1 keeps 12..15 (4). A scan of
// blocks 100..115: while T1 holds fewer than 8 pages the victim is T2's
// LRU: blocks 0..3 (buffers 1..4), T1 growing 5, 6, 7, 8 with the scan's
// pages; then T1's LRU: blocks 12..15 (buffers 13..16), then the scan's own
// first pages 100..103 (now in buffers 1..4) and 104..107 (buffers
// 13..16). T2 ends with blocks 4..11: 8 pages. (The paper's ARC, |T1| > p
// = 0, would take every victim from T1 and keep all 12.)
func TestARCInitialTargetHalvesT2(t *testing.T) {
	s := newPoolSim(t, "arc", 16)
	s.victims(0, 16)
	for n := 0; n < 12; n++ {
		s.read(n)
	}
	require.Equal(t, [5]int{4, 12, 0, 0, 8}, arcSizes(s))
	want := append(append(append(bufs(1, 4), bufs(13, 16)...), bufs(1, 4)...), bufs(13, 16)...)
	require.Equal(t, want, s.victims(100, 116))
	t1, t2, _, b2, _ := s.r.(*ARC).Sizes()
	require.Equal(t, [3]int{8, 8, 4}, [3]int{t1, t2, b2})
	for n := 4; n < 12; n++ {
		require.Contains(t, s.where, blk(n))
	}
	require.NoError(t, s.check())
}

// The target adapts on ghost hits (StrategyBufferLookup). From
// TestARCScanLeavesT2's end (T1 = 100..109, T2 = 0..5, B1 = 10..15, B2
// empty, target 8):
//
//   - block 15, in B1: the victim is still chosen by T1 (10) ≥ 8: block
//     100, buffer 7. The B1 hit raises the target by max(|B2|/|B1|, 1) =
//     max(0/6, 1) = 1 to 9; block 15 goes to T2, block 100 to B1 (B1 stays
//     at 6, as 15 left it).
//   - block 14, in B1: T1 (9) ≥ 9: victim block 101, buffer 8; target 10.
//     T1 = 102..109 (8), T2 = 0..5, 15, 14 (8).
//   - block 200, new: T1 (8) < 10, so the victim is T2's LRU, block 0
//     (buffer 1), whose entry goes to B2: the adapted target protects T1.
//   - block 0, in B2: T1 (9, with block 200) < 10: victim T2's LRU, block 1
//     (buffer 2). The B2 hit lowers the target by max(|B1|/|B2|, 1) =
//     max(6/1, 1) = 6 to 4, the paper's ratio; block 0 goes to T2.
//   - block 201, new: T1 (9) ≥ 4: victim T1's LRU again, block 102 (buffer 9).
func TestARCTargetAdapts(t *testing.T) {
	s := newPoolSim(t, "arc", 16)
	s.victims(0, 16)
	for n := 0; n < 6; n++ {
		s.read(n)
	}
	s.victims(100, 110)
	step := func(n int, victim pg.Buffer, sizes [5]int) {
		t.Helper()
		b, miss := s.read(n)
		require.True(t, miss, "block %d", n)
		require.Equal(t, victim, b, "block %d's victim", n)
		require.Equal(t, sizes, arcSizes(s), "after block %d", n)
		require.NoError(t, s.check())
	}
	step(15, 7, [5]int{9, 7, 6, 0, 9})
	step(14, 8, [5]int{8, 8, 6, 0, 10})
	step(200, 1, [5]int{9, 7, 6, 1, 10})
	step(0, 2, [5]int{9, 7, 6, 1, 4})
	step(201, 9, [5]int{9, 7, 7, 1, 4})
}

// Hits: a page read again moves from T1 to T2, except for hits on the page
// just read before any other buffer is accessed (taken as the same
// transaction re-pinning it, which 8.0 left in T1); a page leaving the pool
// without its buffer refilled is forgotten (StrategyInvalidateBuffer); one
// replaced goes to B1 (TestARCScanLeavesT2).
func TestARCHitsAndInvalidation(t *testing.T) {
	s := newPoolSim(t, "arc", 16)
	s.victims(0, 4) // T1 = 0..3, block 3 just read
	s.read(3)       // the reading transaction's own hit: stays
	s.read(3)
	require.Equal(t, [5]int{4, 0, 0, 0, 8}, arcSizes(s))
	s.read(2) // another buffer accessed: moves to T2
	s.read(3) // no longer the page just read: moves too
	require.Equal(t, [5]int{2, 2, 0, 0, 8}, arcSizes(s))
	s.forget(s.where[blk(0)]) // DROP: no ghost
	require.Equal(t, [5]int{1, 2, 0, 0, 8}, arcSizes(s))
	slot, _ := s.r.(*ARC).g.find(blk(0))
	require.EqualValues(t, -1, slot)
	// The freed buffer (1) is handed out first, then the never-used 5..16.
	require.Equal(t, append([]pg.Buffer{1}, bufs(5, 16)...), s.victims(10, 23))
	require.NoError(t, s.check())
}
