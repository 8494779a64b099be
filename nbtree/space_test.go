package nbtree_test

import (
	"slices"
	"testing"

	"github.com/pgbufsim/pgbufsim/internal/rng"
	"github.com/pgbufsim/pgbufsim/nbtree"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

// The ordered search of the key space (space.go) against the arithmetic it
// replaced, which holds whenever ids arrive in ascending order: every leaf
// but the rightmost holds LeafKeys ids, so id k is on leaf
// min((k−1) / 366, leaves − 1), and every internal page but the rightmost
// holds InnerDownlinks downlinks, so leaf i's parent is min(i / 284, pages − 1).

// arithLeafOf is the leaf of id k by arithmetic.
func arithLeafOf(ix *nbtree.Index, k int64) int {
	return min(int((k-1)/nbtree.LeafKeys), ix.Leaves()-1)
}

// arithPath is root to leaf's parent by arithmetic.
func arithPath(ix *nbtree.Index, leaf int) []pg.BlockNumber {
	var out []pg.BlockNumber
	levels := ix.Levels()
	i := leaf
	for lv := 1; lv < len(levels); lv++ {
		i = min(i/nbtree.InnerDownlinks, levels[lv]-1)
		out = append([]pg.BlockNumber{ix.Block(lv, i)}, out...)
	}
	return out
}

// arithLeafEntries is leaf i's entries [lo, hi) by arithmetic.
func arithLeafEntries(ix *nbtree.Index, i int) (lo, hi int64) {
	lo = int64(i) * nbtree.LeafKeys
	hi = min(lo+nbtree.LeafKeys, ix.Keys())
	if i == ix.Leaves()-1 {
		hi = ix.Keys()
	}
	return lo, hi
}

// checkIDIndex compares every leaf and a sample of keys (each leaf's
// boundaries, and random ones) of an id index. Plain comparisons: it runs
// a few hundred thousand times.
func checkIDIndex(t *testing.T, ix *nbtree.Index, r *rng.PCG) {
	t.Helper()
	leafOf := func(k int64) {
		if k < 1 || k > ix.Keys() {
			return
		}
		if got, want := ix.LeafOf(k), arithLeafOf(ix, k); got != want {
			t.Fatalf("%d ids: id %d is on leaf %d, the arithmetic says %d", ix.Keys(), k, got, want)
		}
	}
	for leaf := range ix.Leaves() {
		lo, hi := ix.LeafEntries(leaf)
		if alo, ahi := arithLeafEntries(ix, leaf); lo != alo || hi != ahi {
			t.Fatalf("%d ids: leaf %d holds [%d, %d), the arithmetic says [%d, %d)", ix.Keys(), leaf, lo, hi, alo, ahi)
		}
		if got, want := ix.Path(leaf), arithPath(ix, leaf); !slices.Equal(got, want) {
			t.Fatalf("%d ids: leaf %d's path is %v, the arithmetic says %v", ix.Keys(), leaf, got, want)
		}
		for _, k := range []int64{lo + 1, hi, lo + 2, hi - 1} {
			leafOf(k)
		}
	}
	for range 2000 {
		leafOf(1 + int64(r.Uint64n(uint64(ix.Keys()))))
	}
}

// Randomized layouts of an id index: built over a random number of rows
// (some empty), then grown by random numbers of ascending inserts — the
// separators the splits add must give the arithmetic's answers. Seeds are
// fixed, so a failure names its layout.
func TestOrderedSearchMatchesArithmetic(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		r := rng.New(seed)
		rows := int64(r.Uint64n(400000))
		if seed%5 == 0 {
			rows = 0 // an index created on an empty table, grown by inserts alone
		}
		ix := nbtree.New("t_id", table(rows), 2)
		w, _ := newWriter(t, ix)
		for round := range 3 {
			n := int(r.Uint64n(60000))
			if round == 0 && rows == 0 {
				n++ // at least a root
			}
			insertN(t, ix, w, n)
			if ix.Empty() {
				continue
			}
			checkIDIndex(t, ix, r)
		}
		noPins(t, w)
	}
}

// The largest tree the randomized layouts reach cheaply: a root on level 3
// (more than 284² = 80,656 leaves): 30,000,000 ids.
func TestOrderedSearchThreeLevels(t *testing.T) {
	ix := nbtree.New("t_id", table(30000000), 2)
	require.Equal(t, 3, ix.Height())
	r := rng.New(7)
	w, _ := newWriter(t, ix)
	insertN(t, ix, w, 100000)
	checkIDIndex(t, ix, r)
}

// Randomized key indexes (posting lists, so leaves hold uneven numbers of
// entries): LeafOfPos against a binary search of the leaves' first
// entries, and Path against the arithmetic (internal pages still hold 284
// downlinks each).
func TestKeyLeafOfPosMatchesBinarySearch(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		r := rng.New(seed)
		rows := 1 + int64(r.Uint64n(2000000))
		distinct := 1 + int64(r.Uint64n(uint64(rows)))
		if seed%4 == 0 {
			distinct = 1 + int64(r.Uint64n(100)) // long posting lists
		}
		ix := nbtree.NewOnKey("t_k", table(rows), 2, nbtree.Key{Column: "k", Distinct: distinct})
		starts := make([]int64, ix.Leaves())
		for i := range starts {
			starts[i], _ = ix.LeafEntries(i)
		}
		require.True(t, slices.IsSorted(starts))
		binary := func(pos int64) int {
			i, found := slices.BinarySearch(starts, pos)
			if found {
				return i
			}
			return i - 1
		}
		for i, s := range starts {
			require.Equal(t, arithPath(ix, i), ix.Path(i), "rows %d distinct %d leaf %d", rows, distinct, i)
			for _, pos := range []int64{s, s + 1, s - 1} {
				if pos >= 0 && pos < rows {
					require.Equal(t, binary(pos), ix.LeafOfPos(pos), "rows %d distinct %d pos %d", rows, distinct, pos)
				}
			}
		}
		for range 2000 {
			pos := int64(r.Uint64n(uint64(rows)))
			require.Equal(t, binary(pos), ix.LeafOfPos(pos), "rows %d distinct %d pos %d", rows, distinct, pos)
		}
		// A value's entries: the first and last leaf holding them.
		k := ix.Key()
		v := 1 + int64(r.Uint64n(uint64(distinct)))
		lo, hi := k.Entries(rows, v)
		require.LessOrEqual(t, ix.LeafOfPos(lo), ix.LeafOfPos(hi-1))
	}
}
