package catpin

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/internal/engine/vacwal"
	"github.com/pgbufsim/pgbufsim/wal"
	"github.com/stretchr/testify/require"
)

// TestIndexCreateRecords: the lengths of index_create's catalog records
// against pg_waldump's "len (rec/tot)" for CREATE INDEX t2_id ON t2 (id)
// on PostgreSQL 15.18, 18beta1 and 19beta1 (the same on all three unless
// noted):
//
//	Storage CREATE 42, Standby LOCK 42
//	Btree INSERT_LEAF 64 (2662 pg_class_oid_index: an oid key, 8 + 4 → 16)
//	Btree INSERT_LEAF 72 (2663 relname_nsp: "t2_id" as a cstring, 6 → 8, + oid → 24)
//	Btree INSERT_LEAF 64 (3455 tblspc_relfilenode: two oids)
//	Heap2 MULTI_INSERT 180 on 15, 168 on 18 and 19 (1249 pg_attribute, one tuple)
//	Btree INSERT_LEAF 64, 64 (2658 attrelid + "id", 2659 attrelid + attnum)
//	Heap2 MULTI_INSERT 85 (2608 pg_depend, one tuple)
//	Btree INSERT_LEAF 72, 72 (2673, 2674: oid, oid, int4)
//	Heap INSERT 197 without an image (2610 pg_index, on 19: 49 + 5 + 166 − 23)
//	Transaction COMMIT 274 (14 messages), 242 for a table's second index (12)
func TestIndexCreateRecords(t *testing.T) {
	require.Equal(t, 42, smgrCreateLen)
	require.Equal(t, 42, vacwal.StandbyLockLen)
	require.Equal(t, 64, btreeLeafLen(4))
	require.Equal(t, 72, btreeLeafLen(nameKey("t2_id")+4))
	require.Equal(t, 64, btreeLeafLen(8))
	require.Equal(t, 180, wal.MultiInsertLen(1, pgAttributeRowLen(15), false, false, 0))
	require.Equal(t, 168, wal.MultiInsertLen(1, pgAttributeRowLen(18), false, false, 0))
	require.Equal(t, 168, wal.MultiInsertLen(1, pgAttributeRowLen(19), false, false, 0))
	require.Equal(t, 64, btreeLeafLen(4+nameKey("id")))
	require.Equal(t, 64, btreeLeafLen(4+2))
	require.Equal(t, 85, wal.MultiInsertLen(1, pgDependRowLen, false, false, 0))
	require.Equal(t, 72, btreeLeafLen(12))
	require.Equal(t, 197, wal.HeapInsert(166, false, 0))
	require.Equal(t, 274, vacwal.CommitInvalsLen(IndexCommitInvals))
	require.Equal(t, 242, vacwal.CommitInvalsLen(IndexCommitInvals-2))
	// The images: pg_class page 5 on 15 left 1,332 free by the index's row
	// (6,914 = 54 + 8,192 − 1,332); pg_index page 2 left 76 (8,170).
	require.Equal(t, 6914, wal.HeapInsert(172, true, 1332))
	require.Equal(t, 8170, wal.HeapInsert(166, true, 76))
}
