package nbtree_test

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/nbtree"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

// table is a heap relation of rows 80-byte tuples (the shape only matters
// to PageBytes and HeapBlockOf).
func table(rows int64) *heap.Relation {
	rel := heap.NewRelation(1, "t", heap.Shape{TupleLen: 80, Fillfactor: 100})
	rel.Rows = rows
	return rel
}

// The page counts: (8,144 − 819) / 20 + 1 = 367 items on a leaf (366 keys
// and the high key); (8,144 − 2,457) / 20 + 1 = 285 on an internal page
// (284 downlinks); 8,152 / 20 = 407 on a full rightmost page.
func TestPageCounts(t *testing.T) {
	require.Equal(t, 367, nbtree.LeafItems)
	require.Equal(t, 285, nbtree.InnerItems)
	require.Equal(t, 366, nbtree.LeafKeys)
	require.Equal(t, 284, nbtree.InnerDownlinks)
	require.Equal(t, 407, nbtree.MaxItems)
}

// The btree CREATE INDEX builds on an int4 column of 1,000,000 rows, as
// pageinspect shows it on PostgreSQL 15: 367 items on a leaf (366 keys and the
// high key), ⌈1,000,000 / 366⌉ = 2,733 leaves, ⌈2,733 / 284⌉ = 10 internal
// pages of 285 items (284 downlinks), a root on level 2, and the metapage:
// 2,745 pages.
func TestBtreeGeometry(t *testing.T) {
	ix := nbtree.New("ix_id", table(1000000), 2)
	require.Equal(t, []int{2733, 10, 1}, ix.Levels())
	require.Equal(t, 2745, ix.Pages())
	require.Equal(t, 2, ix.Height())
	// Key 1,000,000 is on the last leaf; its path is the root, then the
	// tenth internal page. Key 366 ends leaf 0, 367 starts leaf 1; leaf
	// 284 is the first child of the second internal page.
	require.Equal(t, 2732, ix.LeafOf(1000000))
	require.Equal(t, []pg.BlockNumber{ix.Block(2, 0), ix.Block(1, 9)}, ix.Path(2732))
	require.Equal(t, 0, ix.LeafOf(366))
	require.Equal(t, 1, ix.LeafOf(367))
	require.Equal(t, []pg.BlockNumber{ix.Block(2, 0), ix.Block(1, 1)}, ix.Path(284))
	// Blocks: the metapage 0, the leaves 1..2,733, the internal pages
	// 2,734..2,743, the root 2,744.
	require.Equal(t, pg.BlockNumber(1), ix.Block(0, 0))
	require.Equal(t, pg.BlockNumber(2734), ix.Block(1, 0))
	require.Equal(t, pg.BlockNumber(2744), ix.Block(2, 0))
	// The last leaf holds 1,000,000 − 2,732 × 366 = 88 keys.
	lo, hi := ix.LeafEntries(2732)
	require.Equal(t, [2]int64{2732 * 366, 1000000}, [2]int64{lo, hi})
}

// The record sizes pg_waldump shows on PostgreSQL 15:
//
//	INSERT_LEAF   24 (XLogRecord) + 20 (block ref) + 2 (short main data) + 2 (offnum) + 16 (tuple) = 64
//	INSERT_UPPER  64 + 8 (the child, same relation)                                                  = 72
//	NEWROOT leaf  24 + 20 + 8 (metapage) + 2 + 8 (xl_btree_newroot) + 28 (xl_btree_metadata)         = 90
//	NEWROOT       90 + 8 + 16 (two downlinks) + 8 (the left child)                                   = 122
//	SPLIT_R, 42   24 + 20 + 8 + 2 + 10 (xl_btree_split) + 16 (high key) + 42 × 16                    = 752
//	XLOG_FPI      24 + 4 + 5 (image header) + 12 + 4 + the image
func TestRecordSizes(t *testing.T) {
	require.Equal(t, 64, nbtree.InsertLeafLen)
	require.Equal(t, 72, nbtree.InsertUpperLen)
	require.Equal(t, 90, nbtree.NewRootLeafLen)
	require.Equal(t, 122, nbtree.NewRootLen)
	require.Equal(t, 752, nbtree.SplitLen(42))
	require.Equal(t, 49+8192-800, nbtree.NewPageRecordLen(8192-800))
	// A full leaf of CREATE INDEX: 8,152 − 367 × 20 = 812 bytes of hole; the
	// metapage: 8,176 − (24 + 40) = 8,112.
	require.Equal(t, 812, nbtree.ImageHole(nbtree.LeafItems))
	require.Equal(t, 8112, nbtree.MetaImageHole)
}

// BuildPages writes the levels bottom-up and the metapage last, each
// page's hole from its items: for 1,000 rows, leaves of 367, 367 and
// 1,000 − 2 × 366 = 268 items (no high key on the rightmost), then the
// root of 3 downlinks.
func TestBuildPages(t *testing.T) {
	ix := nbtree.New("ix_id", table(1000), 2)
	var blks []pg.BlockNumber
	var holes []int
	for blk, hole := range ix.BuildPages() {
		blks = append(blks, blk)
		holes = append(holes, hole)
	}
	require.Equal(t, []pg.BlockNumber{1, 2, 3, 4, 0}, blks)
	require.Equal(t, []int{8152 - 367*20, 8152 - 367*20, 8152 - 268*20, 8152 - 3*20, 8112}, holes)
}

// PageBytes lays a leaf out as pageinspect shows it: the high key first
// (the next leaf's first key), then the keys, with pd_lower after the line
// pointers and pd_upper below the tuples; the special space says BTP_LEAF
// and names the right sibling.
func TestPageBytes(t *testing.T) {
	ix := nbtree.New("ix_id", table(1000), 2)
	p := ix.PageBytes(ix.Block(0, 0))
	require.Len(t, p, pg.BLCKSZ)
	le := func(off int) int { return int(p[off]) | int(p[off+1])<<8 }
	require.Equal(t, 24+4*367, le(12))                // pd_lower: 367 line pointers
	require.Equal(t, 8176-16*367, le(14))             // pd_upper: 367 tuples of 16 bytes
	require.Equal(t, 8176, le(16))                    // pd_special
	require.Equal(t, int(ix.Block(0, 1)), le(8176+4)) // btpo_next: leaf 1
	require.Equal(t, 0, le(8176+8))                   // btpo_level: a leaf
	require.Equal(t, 1, le(8176+12))                  // BTP_LEAF, not the root
	// The high key, the first tuple below the special space: key 367.
	require.Equal(t, 367, le(8160+8))
	// The first key: heap TID (0, 1), key 1.
	require.Equal(t, [3]int{0, 1, 1}, [3]int{le(8144 + 2), le(8144 + 4), le(8144 + 8)})
}
