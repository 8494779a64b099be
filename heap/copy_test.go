package heap

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A line of COPY's text format for (id int4, pad text) with a 1,832-byte
// tuple: the id's digits, a tab, the 1,800 characters of pad.
func TestCopyLineLen(t *testing.T) {
	r := NewRelation(1, "t", Shape{TupleLen: 1832, Fillfactor: 100})
	require.Equal(t, 3+1+1800, r.CopyLineLen(123))
	require.Equal(t, 6+1+1800, r.CopyLineLen(100000))
}
