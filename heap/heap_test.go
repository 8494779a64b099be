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

// TestUpdateRelstatsRelfrozenxid follows vac_update_relstats' row writes
// through the life of the suite's 40-relfrozenxid scenario. FrozenAt counts
// the XIDs before relfrozenxid. CREATE TABLE after 3 counted transactions
// sets relfrozenxid to RecentXmin, its own XID, the 4th: FrozenAt 3. The
// COPY is the 5th.
func TestUpdateRelstatsRelfrozenxid(t *testing.T) {
	xids := uint64(3)
	r := NewRelation(1, "t", Shape{TupleLen: 1832, Fillfactor: 100})
	r.FrozenAt, r.Xids = xids, &xids
	xids++ // CREATE TABLE commits
	for range 2 {
		r.AddTuples(r.AddPage(), 4, false)
	}
	xids++ // the COPY commits
	require.EqualValues(t, 5, r.UnfrozenXid, "the COPY's XID is the oldest unfrozen one")
	var allFrozen int

	// Plain VACUUM: the pages become all-visible, nothing is frozen, so
	// NewRelfrozenXid is the COPY's XID, the 5th (FrozenAt 3 → 4); relpages
	// 0 → 2 and reltuples −1 → 8 change too: written.
	r.SetFlags(0, PageAllVisible)
	r.SetFlags(1, PageAllVisible)
	require.True(t, r.UpdateRelstats(2, 8, true, xids, true, &allFrozen))
	require.EqualValues(t, 4, r.FrozenAt)
	require.Equal(t, 0, allFrozen)

	// VACUUM FREEZE: every page all-frozen, so relfrozenxid moves to
	// OldestXmin, past all 5 transactions (FrozenAt 5); nothing else changed
	// on 15 (no relallfrozen: hasAllFrozen false), yet the row is written.
	r.SetFlags(0, PageAllFrozen)
	r.SetFlags(1, PageAllFrozen)
	require.True(t, r.UpdateRelstats(2, 8, true, xids, false, &allFrozen))
	require.EqualValues(t, 5, r.FrozenAt)
	require.EqualValues(t, 0, r.UnfrozenXid)
	require.Equal(t, 2, allFrozen)

	// A second VACUUM FREEZE: nothing to change, no row.
	require.False(t, r.UpdateRelstats(2, 8, true, xids, true, &allFrozen))

	// New rows on a third page (the 6th transaction), then a VACUUM that
	// skipped an all-visible page: relfrozenxid cannot advance; relpages
	// and reltuples changed, so the row is written, FrozenAt kept.
	r.AddTuples(r.AddPage(), 4, false)
	xids++
	require.True(t, r.UpdateRelstats(3, 12, false, xids, true, &allFrozen))
	require.EqualValues(t, 5, r.FrozenAt)
	require.EqualValues(t, 6, r.UnfrozenXid)
	// On 18 a VACUUM that did scan it (advance) but froze nothing keeps
	// relfrozenxid at the 6th XID's predecessor count (FrozenAt 5): unchanged.
	require.False(t, r.UpdateRelstats(3, 12, true, xids, true, &allFrozen))
	require.EqualValues(t, 5, r.FrozenAt)
}
