package catpin

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/internal/engine/pgclass"
	"github.com/pgbufsim/pgbufsim/internal/engine/vacwal"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
	"github.com/stretchr/testify/require"
)

// TestTableCreateRecords: the lengths of CREATE TABLE t2 (id int4, pad
// text) WITH (autovacuum_enabled=off)'s records without images against
// pg_waldump's "len (rec/tot)" on PostgreSQL 15.18, 18beta1 and 19beta1
// (the same on all three unless noted):
//
//	XLOG NEXTOID 30 (24 + 2 + the next OID)
//	Heap INSERT 211 (1247 pg_type: 49 + 5 + 180 − 23)
//	Btree INSERT_LEAF 64, 64 (2703 typoid; 2704 "t2" or "_t2", 4 → 8, + oid)
//	Heap2 MULTI_INSERT 85 (2608, one 49-byte row), 121 (two)
//	Btree INSERT_LEAF 72 (2673, 2674: oid, oid, int4 → 24)
//	Btree INSERT_LEAF 80 (2663 "pg_toast_16415": 15 → 16, + oid → 28 → 32), 88 (its _index: 21 → 24 → 40)
//	Heap2 MULTI_INSERT 310/286 (two pg_attribute rows, 15/18+), 440/404 (three), 830/758 (six)
//	Btree INSERT_LEAF 72 (2658 attrelid + "ctid": 5 → 8 → 12 → 24)
//	Heap INSERT 203/207 (a TOAST relation's pg_class row, 15/18+)
//	XLOG FPI 137 (the TOAST index's metapage)
//	Heap HOT_UPDATE 80 (reltoastrelid: 9 bytes of bitmap, 2 of the OID)
//	Transaction COMMIT 1,093 (65 messages), 437 for (c1 int4, c2 int8) without TOAST (24)
func TestTableCreateRecords(t *testing.T) {
	require.Equal(t, 30, nextOidLen)
	require.Equal(t, 211, wal.HeapInsert(pgTypeRowLen, false, 0))
	require.Equal(t, 64, btreeLeafLen(4))
	require.Equal(t, 64, btreeLeafLen(nameKey("_t2")+4))
	require.Equal(t, 85, wal.MultiInsertLen(1, pgDependRowLen, false, false, 0))
	require.Equal(t, 121, wal.MultiInsertLen(2, pgDependRowLen, false, false, 0))
	require.Equal(t, 72, btreeLeafLen(12))
	require.Equal(t, 80, btreeLeafLen(nameKey(toastName)+4))
	require.Equal(t, 88, btreeLeafLen(nameKey(toastName+"_index")+4))
	for _, c := range []struct {
		v                   pg.Version
		two, three, six, cl int
	}{{15, 310, 440, 830, 203}, {18, 286, 404, 758, 207}, {19, 286, 404, 758, 207}} {
		tlen := pgAttributeRowLen(c.v)
		require.Equal(t, c.two, wal.MultiInsertLen(2, tlen, false, false, 0), "version %d", c.v)
		require.Equal(t, c.three, wal.MultiInsertLen(3, tlen, false, false, 0), "version %d", c.v)
		require.Equal(t, c.six, wal.MultiInsertLen(6, tlen, false, false, 0), "version %d", c.v)
		require.Equal(t, c.cl, wal.HeapInsert(pgclass.RowLen(vacwal.PgClassRow(c.v)), false, 0), "version %d", c.v)
		// The HOT update logs the row less the prefix before reltoastrelid
		// and the suffix after its two changed bytes.
		tl := pgclass.RowLen(vacwal.PgClassRow(c.v, "autovacuum_enabled=off"))
		prefix := toastRelidOffset(c.v)
		require.Equal(t, 80, wal.HeapUpdate(tl, prefix, tl-pgClassHoff-prefix-oidChangedBytes, true, false, false, 0, 0), "version %d", c.v)
	}
	require.Equal(t, 72, btreeLeafLen(4+nameKey("ctid")))
	require.Equal(t, 72, btreeLeafLen(4+nameKey("tableoid")))
	require.Equal(t, 137, btreeMetaFPILen)
	require.Equal(t, 65, TableCommitInvals(2, true))
	require.Equal(t, 1093, vacwal.CommitInvalsLen(TableCommitInvals(2, true)))
	require.Equal(t, 24, TableCommitInvals(2, false))
	require.Equal(t, 437, vacwal.CommitInvalsLen(TableCommitInvals(2, false)))
}

// TestTypeLeaves: the pg_type pages of catalog.DDLPages as the first
// CREATE TABLE t1 (id int4, pad text) after a checkpoint logs them, against
// pg_waldump on 18beta1: the row type's insert on pg_type's page 14 with
// its image (4,590 = 54 + 8,192 − (3,844 − 188)), the typoid entry
// (5,293 = 53 + 8,192 − (2,972 − 20)), "t1" on typname's leaf 2 (6,557)
// and "_t1" on leaf 4 (7,181), the dependencies' entries on the depender
// leaf 10 (4,229) and the array type's on the reference leaf 5 (5,445).
func TestTypeLeaves(t *testing.T) {
	w, err := wal.New(wal.Config{Version: 18, WalBuffers: 512})
	require.NoError(t, err)
	p := &Pins{Version: 18, On: true}
	d := p.ddlLeaves()
	require.Equal(t, "pg_type_typname_nsp_index/2", d.leafFor(d.typeNames, d.typeHighs, "t1").name)
	require.Equal(t, "pg_type_typname_nsp_index/4", d.leafFor(d.typeNames, d.typeHighs, "_t1").name)
	require.Equal(t, "pg_type_typname_nsp_index/1", d.leafFor(d.typeNames, d.typeHighs, "_int4").name)
	be := bufmgr.NewBackend(bufmgr.ClientBackend, 0)
	always := func(pg.LSN) bool { return true }
	got := func(f func()) int {
		before := be.WAL.Bytes
		f()
		return int(be.WAL.Bytes - before)
	}
	require.Equal(t, 4590, got(func() { p.logHeapLeaf(nil, w, be, d.typeRow, pgTypeRowLen, typeRow, always) }))
	require.Equal(t, 5293, got(func() { p.logLeafEntry(w, be, d.typeOid, 4, always) }))
	require.Equal(t, 6557, got(func() { p.logLeafEntry(w, be, d.leafFor(d.typeNames, d.typeHighs, "t1"), nameKey("t1")+4, always) }))
	require.Equal(t, 4229, got(func() { p.logLeafEntry(w, be, d.typeDepender, 12, always) }))
	require.Equal(t, 7181, got(func() { p.logLeafEntry(w, be, d.leafFor(d.typeNames, d.typeHighs, "_t1"), nameKey("_t1")+4, always) }))
	require.Equal(t, 5445, got(func() { p.logLeafEntry(w, be, d.typeReference, 12, always) }))
	// The same page again after the checkpoint: no image.
	require.Equal(t, 211, got(func() {
		p.logHeapLeaf(nil, w, be, d.typeRow, pgTypeRowLen, typeRow, func(l pg.LSN) bool { return l == 0 })
	}))
}
