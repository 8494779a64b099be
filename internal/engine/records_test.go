package engine

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

// The btree CREATE INDEX builds on an int4 column of 1,000,000 rows, as
// pageinspect shows it on PostgreSQL 15: 367 items on a leaf (366 keys and the
// high key), 2,733 leaves, 10 internal pages of 285 items (284 downlinks), a
// root on level 2, and the metapage: 2,745 pages.
func TestBtreeGeometry(t *testing.T) {
	require.Equal(t, 367, btLeafItems)
	require.Equal(t, 285, btInnerItems)
	rel := heap.NewRelation(1, "ix", heap.Shape{TupleLen: 80, Fillfactor: 100})
	rel.Rows = 1000000
	ix := newBtree("ix_id", rel, 2)
	require.Equal(t, []int{2733, 10, 1}, []int{len(ix.levels[0]), len(ix.levels[1]), len(ix.levels[2])})
	require.Equal(t, 2745, ix.pages())
	// Key 1,000,000 is on the last leaf; its path is the root, then the tenth internal page.
	require.Equal(t, 2732, ix.leafOf(1000000))
	require.Equal(t, []pg.BlockNumber{ix.block(2, 0), ix.block(1, 9)}, ix.path(2732))
}

// A line of COPY's text format for (id int4, pad text) with a 1,832-byte
// tuple: the id's digits, a tab, the 1,800 characters of pad.
func TestCopyLineLen(t *testing.T) {
	r := heap.NewRelation(1, "t", heap.Shape{TupleLen: 1832, Fillfactor: 100})
	require.Equal(t, 3+1+1800, copyLineLen(r, 123))
	require.Equal(t, 6+1+1800, copyLineLen(r, 100000))
}
