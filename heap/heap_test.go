package heap

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Page layout, derived by hand from bufpage.h: a page holds n tuples while
// 24 + n × (MAXALIGN(len) + 4) ≤ 8192 (plus the fillfactor reserve).
func TestLayout(t *testing.T) {
	// (id int, pad text 1800): 1,832 bytes; 24 + 4 × 1836 = 7,368 ≤ 8,192, 5 would need 9,204.
	s := Shape{TupleLen: 1832, Fillfactor: 100}
	require.Equal(t, 4, s.TuplesPerPage())
	// pd_lower = 24 + 16 = 40, pd_upper = 8192 − 4 × 1832 = 864: hole 824.
	require.Equal(t, 824, s.Hole(4))
	// 80-byte tuples: 24 + 97 × 84 = 8,172 ≤ 8,192, so 97 a page (the 97th still
	// finds 512 − 408 − 4 = 100 ≥ 80 bytes free); hole 8192 − 7760 − 412 = 20.
	s = Shape{TupleLen: 80, Fillfactor: 100}
	require.Equal(t, 97, s.TuplesPerPage())
	require.Equal(t, 20, s.Hole(97))
	require.Equal(t, 104, s.Hole(96))
	// A one-int4 table: 28-byte tuples (MAXALIGN 32), 226 a page (8168 / 36).
	require.Equal(t, 226, Shape{TupleLen: 28, Fillfactor: 100}.TuplesPerPage())
	// fillfactor 50 keeps 4,096 bytes free: 1,832-byte tuples → 2 a page
	// (after 2: free 8192 − 3664 − 32 − 4 = 4492 < 1832 + 4096).
	require.Equal(t, 2, Shape{TupleLen: 1832, Fillfactor: 50}.TuplesPerPage())
}

func TestValidate(t *testing.T) {
	require.Error(t, Shape{TupleLen: 9000, Fillfactor: 100}.Validate())
	require.Error(t, Shape{TupleLen: 100, Fillfactor: 5}.Validate())
	require.NoError(t, Shape{TupleLen: 100, Fillfactor: 100}.Validate())
}
