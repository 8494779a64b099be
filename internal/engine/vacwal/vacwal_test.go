package vacwal

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestInplaceLen derives XLOG_HEAP_INPLACE from its layout and checks it
// against the records pg_waldump shows.
func TestInplaceLen(t *testing.T) {
	// 15: XLogRecord 24 + block header 4 + RelFileNode 12 + BlockNumber 4 +
	// short main-data header 2 + offnum 2 + row data 140 = 188 ("len 188").
	require.Equal(t, 188, InplaceLen(15, false))
	// 15 with the image: 24+4+12+4+2+2 + image header 5 + 8192−2384 = 5861.
	require.Equal(t, 5861, InplaceLen(15, true))
	// 18+: the main data is 20 + 3×16 = 68 bytes, so 24+4+12+4+2+68+140 = 254.
	require.Equal(t, 254, InplaceLen(19, false))
}

// TestEstimateReltuples: vac_estimate_reltuples' branches, by hand.
func TestEstimateReltuples(t *testing.T) {
	require.Equal(t, 500.0, EstimateReltuples(10, 1000, 10, 10, 500)) // every page scanned
	require.Equal(t, 1000.0, EstimateReltuples(10, 1000, 10, 1, 7))   // one page: old figure kept
	require.Equal(t, 300.0, EstimateReltuples(0, -1, 10, 2, 60))      // no old density: 60/2×10
	require.Equal(t, 868.0, EstimateReltuples(10, 1000, 12, 4, 68))   // 100/page × 8 + 68
	require.Equal(t, 1000.0, EstimateReltuples(100, 1000, 100, 1, 5)) // < 2% of an unchanged table
}
