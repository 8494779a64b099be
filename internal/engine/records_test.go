package engine

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/stretchr/testify/require"
)

// A line of COPY's text format for (id int4, pad text) with a 1,832-byte
// tuple: the id's digits, a tab, the 1,800 characters of pad.
func TestCopyLineLen(t *testing.T) {
	r := heap.NewRelation(1, "t", heap.Shape{TupleLen: 1832, Fillfactor: 100})
	require.Equal(t, 3+1+1800, copyLineLen(r, 123))
	require.Equal(t, 6+1+1800, copyLineLen(r, 100000))
}
