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
	require.Equal(t, 188, InplaceLen(15, false, PgClassRow(15)))
	// 15 with the image: 24+4+12+4+2+2 + image header 5 + 8192−2384 = 5861.
	require.Equal(t, 5861, InplaceLen(15, true, PgClassRow(15)))
	// 18+: the main data is 20 + 3×16 = 68 bytes and the row 144 (relallfrozen):
	// 24+4+12+4+2+68+144 = 258, a TOAST relation's row on 19beta1 (random
	// seed 1: "INPLACE off: 20 … relcache 16425", len 258).
	require.Equal(t, 258, InplaceLen(19, false, PgClassRow(19)))
	// The table itself, WITH (autovacuum_enabled=off): 258 + 49 = 307
	// ("INPLACE off: 22 … relcache 16422", len 307).
	require.Equal(t, 49, ReloptionsLen([]string{"autovacuum_enabled=off"})) // 1 + (24 + 4 + 22 + 2 pad − 4)
	require.Equal(t, 307, InplaceLen(19, false, PgClassRow(19, "autovacuum_enabled=off")))
}

// TestEstimateReltuples: vac_estimate_reltuples' branches, by hand.
func TestEstimateReltuples(t *testing.T) {
	require.Equal(t, 500.0, EstimateReltuples(10, 1000, 10, 10, 500)) // every page scanned
	require.Equal(t, 1000.0, EstimateReltuples(10, 1000, 10, 1, 7))   // one page: old figure kept
	require.Equal(t, 300.0, EstimateReltuples(0, -1, 10, 2, 60))      // no old density: 60/2×10
	require.Equal(t, 868.0, EstimateReltuples(10, 1000, 12, 4, 68))   // 100/page × 8 + 68
	require.Equal(t, 1000.0, EstimateReltuples(100, 1000, 100, 1, 5)) // < 2% of an unchanged table
}

// TestTruncationRecords: the records of VACUUM's truncation, from their
// layouts, against pg_waldump on 19beta1 (random seed 1: "LOCK xid 696"
// 42/42, "FPI … fork vm blk 0 FPW" 49/8241, "TRUNCATE … to 184 blocks"
// 46/46, and the VACUUM's "COMMIT … inval msgs: catcache 65 catcache 64
// relcache 16422" 98/98).
func TestTruncationRecords(t *testing.T) {
	require.Equal(t, 42, StandbyLockLen)           // 24 + 2 + 4 + 12
	require.Equal(t, 46, SmgrTruncateLen)          // 24 + 2 + 20
	require.Equal(t, 8241, NewPageLen(8192))       // 24 + 4 + 12 + 4 + 5 + 8192
	require.Equal(t, 98, CommitInvalsLen(3))       // 24 + 2 + 8 + 4 + 8 + 4 + 48
	require.True(t, ShouldTruncate(198, 184))      // 14 ≥ 198/16 = 12
	require.False(t, ShouldTruncate(1664, 1640))   // 24 < 1664/16 = 104
	require.True(t, ShouldTruncate(100000, 99000)) // 1,000 pages
	require.False(t, ShouldTruncate(100, 100))     // nothing past the last tuple
}
