package wal

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// XLOG_HEAP2_MULTI_INSERT for four 1,832-byte tuples on a new page: 24 (record)
// + 20 (block reference) + 2 (short main-data header) + 4 (xl_heap_multi_insert,
// no offsets: the record initialises the page) + 4 × (7 + 1,809) = 7,314 bytes,
// as pg_waldump shows for COPY on PostgreSQL 15. On a page that already had
// tuples the 2-byte offsets come too; after a checkpoint an image replaces the data.
func TestMultiInsertRecord(t *testing.T) {
	require.Equal(t, 7314, MultiInsertLen(4, 1832, true, false, 0))
	require.Equal(t, 7314+2*4, MultiInsertLen(4, 1832, false, false, 0))
	require.Equal(t, 24+20+2+4+2*1+5+8192-824, MultiInsertLen(1, 1832, false, true, 824))
	// Odd data lengths pad every entry but the last to 2 bytes: 133-byte tuples
	// carry 110 bytes of data, entries of 117 → 118.
	require.Equal(t, 24+20+2+4+2*118+117, MultiInsertLen(3, 133, true, false, 0))
}

// The freeze record of a page of four tuples: 15's xl_heap_freeze_page (6)
// and four 12-byte xl_heap_freeze_tuple; 17's xl_heap_prune (2 + 4), the
// xlhp_freeze_plans header up to its plans (4: nplans and padding) and one
// 12-byte plan with four 2-byte offsets. 24 + 20 + 2 + main + data: 76 on
// 17+, as pg_waldump shows it on 18beta1 ("len (rec/tot): 76/76,
// PRUNE_VACUUM_SCAN … ntuples: 4").
func TestFreezeRecord(t *testing.T) {
	require.Equal(t, 24+20+2+6+48, FreezeRecordLen(15, 4, false, 0))
	require.Equal(t, 24+20+2+7+12+8, FreezeRecordLen(16, 4, false, 0))
	require.Equal(t, 24+20+2+6+4+12+8, FreezeRecordLen(17, 4, false, 0))
	require.Equal(t, 76, FreezeRecordLen(18, 4, false, 0))
	// As an image: the 5-byte image header and the page less its 824-byte hole.
	require.Equal(t, 24+20+2+6+5+8192-824, FreezeRecordLen(17, 4, true, 824))
}
