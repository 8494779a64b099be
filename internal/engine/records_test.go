package engine

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

// XLOG_HEAP2_MULTI_INSERT for four 1,832-byte tuples on a new page: 24 (record)
// + 20 (block reference) + 2 (short main-data header) + 4 (xl_heap_multi_insert,
// no offsets: the record initialises the page) + 4 × (7 + 1,809) = 7,314 bytes,
// as pg_waldump shows for COPY on PostgreSQL 15. On a page that already had
// tuples the 2-byte offsets come too; after a checkpoint an image replaces the data.
func TestMultiInsertRecord(t *testing.T) {
	require.Equal(t, 7314, multiInsertLen(4, 1832, true, false, 0))
	require.Equal(t, 7314+2*4, multiInsertLen(4, 1832, false, false, 0))
	require.Equal(t, 24+20+2+4+2*1+5+8192-824, multiInsertLen(1, 1832, false, true, 824))
	// Odd data lengths pad every entry but the last to 2 bytes: 133-byte tuples
	// carry 110 bytes of data, entries of 117 → 118.
	require.Equal(t, 24+20+2+4+2*118+117, multiInsertLen(3, 133, true, false, 0))
}

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
