package bulkext

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestExtendBy walks RelationAddBlocks' page counts by hand.
func TestExtendBy(t *testing.T) {
	var st State
	require.Equal(t, 1, st.ExtendBy(15, 9, 23)) // before 16: one page at a time (P_NEW)
	// 19 at 32MB: MaxProportionalPins = 4,096 / (136 + 38) = 23, so at most
	// 23 − 8 = 15 pages. The first batch needs 9 pages: 9.
	require.Equal(t, 9, st.ExtendBy(19, 9, 23))
	st.Extended(0, 9)
	for want := 1; want <= 8; want++ { // next_free 1 … last_free 8, then none
		blk, ok := st.Next()
		require.True(t, ok)
		require.EqualValues(t, want, blk)
	}
	_, ok := st.Next()
	require.False(t, ok)
	// The next extension asks for 8 but takes at least the 9 already extended by.
	require.Equal(t, 9, st.ExtendBy(19, 8, 23))
	st.Extended(9, 9)
	// Then 18 already, capped by the pins at 15.
	require.Equal(t, 15, st.ExtendBy(19, 8, 23))
	// With pins to spare, MAX_BUFFERS_TO_EXTEND_BY (64) caps it.
	st.Extended(18, 60)
	require.Equal(t, 64, st.ExtendBy(19, 8, 1000))
	// 18 at 16MB: MaxProportionalPins 11 (show settings) → 3 pages; a share under 9 pins → 1.
	require.Equal(t, 3, st.ExtendBy(18, 8, 11))
	require.Equal(t, 1, st.ExtendBy(16, 8, 5))
	// One page needs no pins beyond the one always allowed.
	var fresh State
	require.Equal(t, 1, fresh.ExtendBy(19, 1, 5))
}

// TestMultiInsertPages: heap_multi_insert_pages by hand.
func TestMultiInsertPages(t *testing.T) {
	// 400-byte tuples at fillfactor 100: 8,192 − 24 = 8,168 bytes a page,
	// 404 a tuple → 20 a page; 163 tuples (one 64kB COPY batch) → 9 pages.
	require.Equal(t, 9, MultiInsertPages(163, 400, 100))
	require.Equal(t, 1, MultiInsertPages(20, 400, 100))
	require.Equal(t, 2, MultiInsertPages(21, 400, 100))
	// fillfactor 50 keeps 4,096 back: 4,072 bytes → 10 tuples a page.
	require.Equal(t, 3, MultiInsertPages(21, 400, 50))
	// A tuple larger than a page's room (8,000 bytes at fillfactor 10: 796
	// bytes) counts a second page and wraps page_avail around (size_t), so
	// the rest all count on it.
	require.Equal(t, 2, MultiInsertPages(5, 8000, 10))
}
