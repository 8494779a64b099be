package strategy

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

// cpCounts is ClockPro.Counts as one comparable value: hot, resident cold,
// non-resident cold, mc.
func cpCounts(s *poolSim) [4]int {
	h, c, n, mc := s.r.(*ClockPro).Counts()
	return [4]int{h, c, n, mc}
}

// CLOCK-Pro on 16 buffers (m = 16, mc starts at 8). Blocks 0..15 fill
// buffers 1..16: cold pages in their test period, in clock order 1..16,
// every hand on buffer 1 and the list head just behind it. Blocks 0 and 1
// are read again (reference bits set).
//
//   - block 100: hand-cold finds buffer 1 referenced in its test period:
//     hot, mc 9, moved to the head; the same for buffer 2 (mc 10); 2 hot
//     pages ≤ m − mc = 6, so hand-hot stays. Buffer 3 (block 2) is cold and
//     unreferenced: the victim. Still in its test period, block 2 stays on
//     the clock as a non-resident page.
//   - block 2 again: hand-cold takes buffer 4 (block 3, which becomes
//     non-resident too); block 2's tag is a non-resident page in its test
//     period, so it comes back hot (mc 11) into buffer 4: 3 hot pages, 13
//     resident cold (blocks 4..15, 100), 1 non-resident (block 3).
func TestClockProTestPeriodMakesHot(t *testing.T) {
	s := newPoolSim(t, "clock-pro", 16)
	require.Equal(t, bufs(1, 16), s.victims(0, 16))
	require.Equal(t, [4]int{0, 16, 0, 8}, cpCounts(s))
	s.read(0)
	s.read(1)
	require.Equal(t, []pg.Buffer{3}, s.victims(100, 101))
	require.Equal(t, [4]int{2, 14, 1, 10}, cpCounts(s))
	require.Equal(t, []pg.Buffer{4}, s.victims(2, 3))
	require.Equal(t, [4]int{3, 13, 1, 11}, cpCounts(s))
	c := s.r.(*ClockPro)
	for _, n := range []int{0, 1, 2} {
		require.NotZero(t, c.flag[s.where[blk(n)]]&cpHot, "block %d hot", n)
	}
	require.NoError(t, s.check())
}

// Hand-hot demotes. Blocks 0..15 fill the pool and are all read again. Block
// 100: hand-cold turns buffers 1..5 hot one by one (mc 9, 10, 11, 12, 13);
// the fifth makes 5 hot pages > m − mc = 3, so hand-hot runs from buffer 6
// (the hands moved along with each promotion): it ends the test periods of
// the 11 cold pages in buffers 6..16 (mc 13 → 2: each test period ended
// without an access shrinks mc) and stops at buffer 1, hot with its bit
// cleared at promotion: block 0 turns cold, out of its test period. Then
// 4 hot pages ≤ 16 − 2. Hand-cold meets buffers 6..16 referenced but out of
// their test periods: each starts a new one and moves to the head. The
// first unreferenced cold page it reaches is buffer 1: block 0, demoted,
// is the victim, and being out of its test period it leaves the clock (no
// non-resident page). Blocks 1..4 stay hot.
func TestClockProHandHotDemotes(t *testing.T) {
	s := newPoolSim(t, "clock-pro", 16)
	s.victims(0, 16)
	for n := 0; n < 16; n++ {
		s.read(n)
	}
	require.Equal(t, []pg.Buffer{1}, s.victims(100, 101))
	require.Equal(t, [4]int{4, 12, 0, 2}, cpCounts(s))
	c := s.r.(*ClockPro)
	for n := 1; n <= 4; n++ {
		require.NotZero(t, c.flag[s.where[blk(n)]]&cpHot, "block %d hot", n)
	}
	for n := 5; n < 16; n++ {
		f := c.flag[s.where[blk(n)]]
		require.Equal(t, cpLinked|cpTest, f, "block %d: cold, in a new test period, bit cleared", n)
	}
	// The next victims skip the hot pages: blocks 5..15 are cold and
	// unreferenced now, in buffers 6..16, in the order hand-cold moved them.
	require.Equal(t, bufs(6, 16), s.victims(101, 112))
	require.NoError(t, s.check())
}

// Non-resident pages expire. Blocks 0..15 fill the pool, never read again;
// a scan of blocks 100..116 evicts them in buffer order, each staying as a
// non-resident page in its test period, in the evicted page's place on
// the clock; hand-hot and hand-test stay on the first of them (block 0's).
// The 17th eviction (block 100, buffer 1) makes 17 non-resident pages > m:
// hand-test ends block 0's test period and removes it (mc 8 → 7).
//   - Block 0 again: the victim is block 101 (buffer 2), whose non-resident
//     page again makes 17: hand-test removes block 1's (mc 6); block 0 is
//     forgotten and comes in cold.
//   - Block 5: victim block 102 (buffer 3), hand-test removes block 2's
//     (mc 5); block 5 is still non-resident, so it comes in hot (mc 6).
func TestClockProHandTestExpires(t *testing.T) {
	s := newPoolSim(t, "clock-pro", 16)
	s.victims(0, 16)
	require.Equal(t, bufs(1, 16), s.victims(100, 116))
	require.Equal(t, [4]int{0, 16, 16, 8}, cpCounts(s))
	require.Equal(t, []pg.Buffer{1}, s.victims(116, 117))
	require.Equal(t, [4]int{0, 16, 16, 7}, cpCounts(s))
	c := s.r.(*ClockPro)
	require.EqualValues(t, -1, c.ghosts.get(blk(0)))
	require.Equal(t, []pg.Buffer{2}, s.victims(0, 1))
	require.Equal(t, [4]int{0, 16, 16, 6}, cpCounts(s))
	require.Zero(t, c.flag[s.where[blk(0)]]&cpHot)
	require.Equal(t, []pg.Buffer{3}, s.victims(5, 6))
	require.Equal(t, [4]int{1, 15, 15, 6}, cpCounts(s))
	require.NotZero(t, c.flag[s.where[blk(5)]]&cpHot)
	require.NoError(t, s.check())
}

// Pins. As in TestClockProTestPeriodMakesHot, blocks 0 and 1 turn hot
// (buffers 1 and 2) and block 100 takes buffer 3, hand-cold moving on to
// buffer 4, hand-hot on block 2's non-resident page; mc is 10. Then every
// buffer but 1 and 2 is pinned. Hand-cold goes a whole lap over pinned
// cold pages and the two hot ones without a candidate, so hand-hot runs:
// it removes block 2's non-resident page and ends the test periods of
// buffers 4..16 (14 test periods: mc 10 → 1, its floor) and turns block 0
// (buffer 1, bit cleared at promotion) cold; hand-cold reaches it on its
// next lap: the victim is buffer 1. With every buffer pinned there is none;
// with only buffer 9 unpinned, buffer 9.
func TestClockProPinned(t *testing.T) {
	s := newPoolSim(t, "clock-pro", 16)
	s.victims(0, 16)
	s.read(0)
	s.read(1)
	require.Equal(t, []pg.Buffer{3}, s.victims(100, 101))
	for b := 3; b <= 16; b++ {
		s.st[b] += pg.RefcountOne
	}
	b, err := s.r.Victim(s.st)
	require.NoError(t, err)
	require.Equal(t, pg.Buffer(1), b)
	require.Equal(t, [4]int{1, 15, 0, 1}, cpCounts(s))
	s.st[1] += pg.RefcountOne
	s.st[2] += pg.RefcountOne
	_, err = s.r.Victim(s.st)
	require.ErrorIs(t, err, ErrNoUnpinnedBuffers)
	s.st[9] -= pg.RefcountOne
	b, err = s.r.Victim(s.st)
	require.NoError(t, err)
	require.Equal(t, pg.Buffer(9), b)
	require.NoError(t, s.check())
}
