package cluster

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/heap"
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

// A line of COPY's text format for (id int4, pad text) with a 1,832-byte
// tuple: the id's digits, a tab, the 1,800 characters of pad.
func TestCopyLineLen(t *testing.T) {
	r := heap.NewRelation(1, "t", heap.Shape{TupleLen: 1832, Fillfactor: 100})
	require.Equal(t, 3+1+1800, copyLineLen(r, 123))
	require.Equal(t, 6+1+1800, copyLineLen(r, 100000))
}
