package nbtree_test

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/nbtree"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

// 10 rows over 3 values: 10 / 3 = 3 rows each, the first 10 mod 3 = 1 value
// one more: value 1 at entries [0, 4), 2 at [4, 7), 3 at [7, 10).
func TestKeyEntries(t *testing.T) {
	k := &nbtree.Key{Column: "k", Distinct: 3}
	for v, want := range map[int64][2]int64{1: {0, 4}, 2: {4, 7}, 3: {7, 10}} {
		lo, hi := k.Entries(10, v)
		require.Equal(t, want, [2]int64{lo, hi}, "value %d", v)
	}
}

// One value's 2,000 TIDs deduplicated: 15 posting tuples of 132 TIDs
// (MAXALIGN(16 + 6 × 132) = 808 bytes, 812 with the line pointer) and one
// of the last 20 (MAXALIGN(16 + 120) = 136, 140). A leaf takes items while
// they use less than 8,144 − 819 = 7,325 bytes: after nine, 7,308, so a
// tenth goes in (8,120 ≤ 8,144) and the eleventh starts leaf 1. Leaf 0:
// 1,320 TIDs in 8,120 bytes (hole 8,152 − 8,120 = 32); leaf 1: 5 × 812 +
// 140 = 4,200 bytes (hole 3,952). One value of 1,000 TIDs fits one leaf: 7
// × 812 + MAXALIGN(16 + 6 × 76) + 4 = 6,160 bytes (hole 1,992).
func TestPostingListLeaves(t *testing.T) {
	ix := nbtree.NewOnKey("t_k", table(2000), 2, nbtree.Key{Column: "k", Distinct: 1})
	require.Equal(t, []int{2, 1}, ix.Levels())
	lo, hi := ix.LeafEntries(0)
	require.Equal(t, [2]int64{0, 1320}, [2]int64{lo, hi})
	lo, hi = ix.LeafEntries(1)
	require.Equal(t, [2]int64{1320, 2000}, [2]int64{lo, hi})
	require.Equal(t, 1, ix.LeafOfPos(1320))
	require.Equal(t, 0, ix.LeafOfPos(1319))
	holes := map[pg.BlockNumber]int{}
	for blk, hole := range ix.BuildPages() {
		holes[blk] = hole
	}
	require.Equal(t, 32, holes[ix.Block(0, 0)])
	require.Equal(t, 3952, holes[ix.Block(0, 1)])

	one := nbtree.NewOnKey("t_k", table(1000), 2, nbtree.Key{Column: "k", Distinct: 1})
	require.Equal(t, []int{1}, one.Levels())
	for blk, hole := range one.BuildPages() {
		if blk == one.Block(0, 0) {
			require.Equal(t, 1992, hole)
		}
	}
	require.Equal(t, 0.0, one.Correlation())
	require.Equal(t, 1.0, nbtree.New("t_id", table(1000), 2).Correlation())
}
