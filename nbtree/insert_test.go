package nbtree_test

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/nbtree"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

// insertN inserts the next n ids into ix.
func insertN(t *testing.T, ix *nbtree.Index, e *fakeEngine, n int) {
	t.Helper()
	for range n {
		require.NoError(t, ix.Insert(e))
	}
}

// 408 ascending inserts into an empty index: the first makes a root leaf
// (NEWROOT, 90 bytes) and every key goes in as INSERT_LEAF (64) until the
// leaf holds 407 = MaxItems; key 408 splits it (SPLIT_R moving 407 − 366 + 1
// = 42 items: 752 bytes) and the split root gets a root above it (NEWROOT
// with two downlinks: 122). Pages: the metapage, the first leaf (block 1),
// its right sibling (2), the new root (3).
func TestAscendingInserts(t *testing.T) {
	ix := nbtree.New("pk_id", table(0), 2)
	require.True(t, ix.Empty())
	require.Equal(t, -1, ix.LeafOfPos(0))
	e := newFakeEngine(1)
	insertN(t, ix, e, 408)
	want := []int{90}
	for range 407 {
		want = append(want, 64)
	}
	want = append(want, 752, 122)
	require.Equal(t, want, e.records)
	require.Equal(t, 0, e.fpi)
	require.Equal(t, []int{2, 1}, ix.Levels())
	require.Equal(t, 4, ix.Pages())
	require.Equal(t, int64(408), ix.Keys())
	require.Equal(t, []pg.BlockNumber{1, 2, 3}, []pg.BlockNumber{ix.Block(0, 0), ix.Block(0, 1), ix.Block(1, 0)})
	require.Equal(t, 0, ix.LeafOf(366))
	require.Equal(t, 1, ix.LeafOf(367))
	lo, hi := ix.LeafEntries(1)
	require.Equal(t, [2]int64{366, 408}, [2]int64{lo, hi})
	require.Equal(t, []pg.BlockNumber{3}, ix.Path(1))
	require.Equal(t, 0, e.held())
	require.Equal(t, 1, e.opened) // the session's first insertion only

	// A new session opens the index again.
	ix.StartSession()
	insertN(t, ix, e, 1)
	require.Equal(t, 2, e.opened)
}

// After a checkpoint every first change of a page carries its image: the
// first INSERT_LEAF on a root leaf holding one item is 64 + 5 (image header)
// + (8,192 − (8,152 − 20)) − 16 (the tuple the image replaces) = 113 bytes.
func TestInsertImage(t *testing.T) {
	ix := nbtree.New("pk_id", table(0), 2)
	e := newFakeEngine(1)
	e.images = true
	insertN(t, ix, e, 1)
	require.Equal(t, []int{90, 113}, e.records)
	require.Equal(t, 1, e.fpi)
}

// The fastpath (BTREE_FASTPATH_MIN_LEVEL = 2): once the root is on level 2,
// an insert that finds the cached rightmost leaf with room pins only it;
// below that height every insert descends from the root.
func TestFastpath(t *testing.T) {
	ix := nbtree.New("pk_id", table(0), 2)
	e := newFakeEngine(1)
	for ix.Height() < 2 {
		insertN(t, ix, e, 1)
	}
	reads := e.reads
	insertN(t, ix, e, 1)
	require.Equal(t, 1, e.reads-reads)
	// A tree of height 1 reads the root and the leaf (the metapage is cached).
	small := nbtree.New("pk_id", table(1000), 2)
	e = newFakeEngine(small.Pages())
	insertN(t, small, e, 1) // the session's first: the metapage too
	reads = e.reads
	insertN(t, small, e, 1)
	require.Equal(t, 2, e.reads-reads)
}

// An index on a key other than id is not maintained by inserts.
func TestKeyInsertRefused(t *testing.T) {
	ix := nbtree.NewOnKey("t_k", table(1000), 2, nbtree.Key{Column: "k", Distinct: 10})
	require.Error(t, ix.Insert(newFakeEngine(ix.Pages())))
}
