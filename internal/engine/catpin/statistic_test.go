package catpin

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/catalog"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/internal/engine/pgclass"
	"github.com/pgbufsim/pgbufsim/internal/engine/vacwal"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
	"github.com/stretchr/testify/require"
)

// TestStatRowLen derives the pg_statistic rows of the scenario's column
// shapes (default_statistics_target 100) by hand, against pg_waldump:
//   - id int4, unique, 2,000 rows: fixed part 72 bytes of data; the
//     correlation's float4[1] (24 + 4 = 28 bytes, packed to 25) → 97; the
//     int4[101] histogram (24 + 404 = 428) at double alignment 104 → 532;
//     t_len 564. On 15 its insert's image left 3,368 bytes of hole on
//     pg_statistic's page 18 (3,940 − 568 − 4): the 4,878-byte record.
//   - pad text of 368 bytes (400-byte rows), constant: MCV frequencies
//     float4[1] → 97, correlation → 122, the text[1] values (24 + 372 =
//     396, unpacked) at 128 → 524; t_len 556: the 587-byte INSERT on 15
//     and 18 (54 + 556 − 23 + 0).
//   - pad text of 1,800 bytes (1,832-byte rows): wider than
//     WIDTH_THRESHOLD, no slot: t_len 104, the 135-byte INSERT on 15.
//   - pad text of 51 bytes (80-byte rows): 97, 122, then text[1] of
//     24 + 56 (55 bytes rounded to int alignment) = 80, packed to 77 → 199;
//     t_len 231.
//   - One row: no repeat and no pair to correlate: the fixed part, 104.
func TestStatRowLen(t *testing.T) {
	id := StatColumn{Len: 4, Align: 4, Dist: Unique}
	pad := func(n int) StatColumn { return StatColumn{Len: -1, Align: 4, Width: n, Dist: Constant} }
	require.Equal(t, 564, StatRowLen(id, 2000, 100))
	require.Equal(t, 556, StatRowLen(pad(368), 2000, 100))
	require.Equal(t, 104, StatRowLen(pad(1800), 964, 100))
	require.Equal(t, 231, StatRowLen(pad(51), 30000, 100))
	require.Equal(t, 104, StatRowLen(id, 1, 100))
	require.Equal(t, 104, StatRowLen(pad(51), 1, 100))
	// Ten rows: a histogram of ten bounds (24 + 40 = 64, packed to 61 at 97): 158 + 32 = 190.
	require.Equal(t, 190, StatRowLen(id, 10, 100))
	require.Equal(t, 587, wal.HeapInsert(556, false, 0))
	require.Equal(t, 135, wal.HeapInsert(104, false, 0))

	rel := heap.NewRelation(1, "t", heap.Shape{TupleLen: 400, Fillfactor: 100})
	cols, ok := StatColumns(rel)
	require.True(t, ok)
	require.Equal(t, []StatColumn{id, pad(368)}, cols)
	rel.Content = "md5" // distinct text: a histogram of long values, which TOAST would take
	_, ok = StatColumns(rel)
	require.False(t, ok)
}

// TestStatisticRecords: the records of ANALYZE t1 (2,000 rows of 400
// bytes) after a checkpoint on PostgreSQL 15.18 and 18beta1, from
// pg_waldump: the id row's INSERT with the image of pg_statistic's page 18
// (15: 4,878; 18: 2,030 = 54 + 8,192 − (6,788 − 572)), the index entry's
// INSERT_LEAF with the rightmost leaf's image (15: 8,193, the leaf's 72
// bytes less this 20-byte entry left as hole; 18: 1,093), then pad's row
// and entry without images (587, 64); the commit with 5 messages (130);
// the repeat ANALYZE's HOT_UPDATEs of unchanged rows (76 each: the header
// and the 9 bytes of null bitmap and padding after it) and its commit
// with 2 messages (82).
func TestStatisticRecords(t *testing.T) {
	for _, c := range []struct {
		v           int
		image, leaf int
	}{{15, 4878, 8193}, {18, 2030, 1093}} {
		st := pgclass.NewPages(catalog.PgStatisticPages(pg.Version(c.v)))
		blk := st.Insert(statKey(1, 1), 564)
		require.Equal(t, 18, blk, "the only page with room in the FSM")
		require.Equal(t, c.image, wal.HeapInsert(564, true, st.Hole(blk)), "version %d", c.v)
		free := catalog.PgStatisticIndex(pg.Version(c.v)).Free - 20
		require.Equal(t, c.leaf, btreeLeafLen(statKeyLen)-16+wal.SizeOfBlockImageHeader+8192-free, "version %d", c.v)
		require.Equal(t, 18, st.Insert(statKey(1, 2), 556), "the target block")
		nb, ok := st.Update(statKey(1, 2), 556)
		require.True(t, ok)
		require.Equal(t, 18, nb, "a HOT update on the page")
	}
	require.Equal(t, 64, btreeLeafLen(statKeyLen))
	require.Equal(t, 130, vacwal.CommitInvalsLen(2+3))
	require.Equal(t, 82, vacwal.CommitInvalsLen(2))
	require.Equal(t, 76, wal.HeapUpdate(564, 564-32, 0, true, false, false, 0, 0))
	require.Equal(t, 76, wal.HeapUpdate(556, 556-32, 0, true, false, false, 0, 0))
}

// TestRootSplit15: 15's pg_statistic_relid_att_inh_index leaf (404 setup
// entries, then three new ones) split for the fourth at offset 370, as
// pg_waldump shows on 15.18: SPLIT_R 704 bytes (24 + the left page's
// block reference 20 and its 16-byte high key + the right page's 8 and
// its 39 tuples of 16 bytes + 12 of main data), NEWROOT 122 (24 + 20 + the
// two downlinks 8 + 16 + two block references of the same relation 8 + 8
// + xl_btree_metadata 28 + 10). With the left page's image instead of its
// high key: 369 tuples and the high key leave a hole of 8,176 − 5,904 −
// 16 − 1,504 = 752. The right page: 8,152 − 39 × 20 = 7,372 free.
func TestRootSplit15(t *testing.T) {
	leaf := catalog.PgStatisticIndex(15)
	split, newroot, right, free := rootSplitLens(leaf.Items+3, leaf.FirstRight, false)
	require.Equal(t, []int{704, 122, 39, 7372}, []int{split, newroot, right, free})
	split, _, _, _ = rootSplitLens(leaf.Items+3, leaf.FirstRight, true)
	require.Equal(t, 704-16+wal.SizeOfBlockImageHeader+8192-752, split)
}
