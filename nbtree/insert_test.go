package nbtree_test

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/nbtree"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

// records is the WAL records and bytes one more insert writes.
func records(t *testing.T, ix *nbtree.Index, w *nbtree.Writer) [2]int64 {
	t.Helper()
	before := w.Backend.WAL
	insertN(t, ix, w, 1)
	return [2]int64{w.Backend.WAL.Records - before.Records, w.Backend.WAL.Bytes - before.Bytes}
}

// 408 ascending inserts into an empty index: the first makes a root leaf
// (NEWROOT, 90 bytes) and goes in as INSERT_LEAF (64); every key after it
// too, until the leaf holds 407 = MaxItems; key 408 splits it (SPLIT_R
// moving 407 − 366 + 1 = 42 items, the new one included: 752 bytes) and
// the split root gets a root above it (NEWROOT with two downlinks: 122).
// Pages: the metapage, the first leaf (block 1), its right sibling (2),
// the new root (3).
func TestAscendingInserts(t *testing.T) {
	ix := nbtree.New("pk_id", table(0), 2)
	require.True(t, ix.Empty())
	require.Equal(t, -1, ix.LeafOfPos(0))
	w, e := newWriter(t, ix)
	require.Equal(t, [2]int64{2, 90 + 64}, records(t, ix, w))
	for k := 2; k <= 407; k++ {
		require.Equal(t, [2]int64{1, 64}, records(t, ix, w), "key %d", k)
	}
	require.Equal(t, [2]int64{2, 752 + 122}, records(t, ix, w))
	require.Equal(t, int64(0), w.Backend.WAL.FPI)
	require.Equal(t, []int{2, 1}, ix.Levels())
	require.Equal(t, 4, ix.Pages())
	require.Equal(t, 4, w.Pool.NBlocks(ix.ID))
	require.Equal(t, int64(408), ix.Keys())
	require.Equal(t, []pg.BlockNumber{1, 2, 3}, []pg.BlockNumber{ix.Block(0, 0), ix.Block(0, 1), ix.Block(1, 0)})
	require.Equal(t, 0, ix.LeafOf(366))
	require.Equal(t, 1, ix.LeafOf(367))
	lo, hi := ix.LeafEntries(1)
	require.Equal(t, [2]int64{366, 408}, [2]int64{lo, hi})
	require.Equal(t, []pg.BlockNumber{3}, ix.Path(1))
	noPins(t, w)
	require.Equal(t, 1, e.opened) // the session's first insertion only

	// A new session opens the index again.
	ix.StartSession()
	insertN(t, ix, w, 1)
	require.Equal(t, 2, e.opened)
}

// After a checkpoint a page's first change carries its image: an
// INSERT_LEAF that leaves two items on the root leaf is 64 + 5 (image
// header) + (8,192 − (8,152 − 2 × 20)) − 16 (the tuple the image replaces)
// = 133 bytes; the next change of the page is plain again.
func TestInsertImage(t *testing.T) {
	ix := nbtree.New("pk_id", table(0), 2)
	w, _ := newWriter(t, ix)
	insertN(t, ix, w, 1)
	var u = w.Backend.WAL
	w.WAL.Checkpoint(0, &u, 15) // 15: the redo pointer is the insert position
	require.Equal(t, [2]int64{1, 133}, records(t, ix, w))
	require.Equal(t, [2]int64{1, 64}, records(t, ix, w))
	require.Equal(t, int64(1), w.Backend.WAL.FPI)
	// full_page_writes off: no image.
	w.FullPageWrites = false
	w.WAL.Checkpoint(0, &u, 15)
	require.Equal(t, [2]int64{1, 64}, records(t, ix, w))
}

// The fastpath (BTREE_FASTPATH_MIN_LEVEL = 2): once the root is on level 2,
// an insert that finds the cached rightmost leaf with room pins only it;
// below that height every insert descends from the root.
func TestFastpath(t *testing.T) {
	ix := nbtree.New("pk_id", table(0), 2)
	w, _ := newWriter(t, ix)
	for ix.Height() < 2 {
		insertN(t, ix, w, 1)
	}
	n := reads(w)
	insertN(t, ix, w, 1)
	require.Equal(t, int64(1), reads(w)-n)
	// A tree of height 1 reads the root and the leaf (the metapage is cached).
	small := nbtree.New("pk_id", table(1000), 2)
	w, _ = newWriter(t, small)
	insertN(t, small, w, 1) // the session's first: the metapage too
	require.Equal(t, int64(3), reads(w))
	n = reads(w)
	insertN(t, small, w, 1)
	require.Equal(t, int64(2), reads(w)-n)
	noPins(t, w)
}

// An index on a key other than id is not maintained by inserts.
func TestKeyInsertRefused(t *testing.T) {
	ix := nbtree.NewOnKey("t_k", table(1000), 2, nbtree.Key{Column: "k", Distinct: 10})
	w, _ := newWriter(t, ix)
	require.Error(t, ix.Insert(w))
}

// BenchmarkInsert is 200,000 ascending inserts into an index created on an
// empty table, alone (no heap): the fastpath, a split every 41 keys, the
// descent while the root is below level 2. The writer is set up outside
// the timer.
func BenchmarkInsert(b *testing.B) {
	const keys = 200000
	for b.Loop() {
		b.StopTimer()
		ix := nbtree.New("pk_id", table(0), 2)
		w, _ := newWriter(b, ix)
		b.StartTimer()
		insertN(b, ix, w, keys)
		b.StopTimer()
		b.ReportMetric(float64(ix.Pages()), "index-pages")
		b.StartTimer()
	}
}
