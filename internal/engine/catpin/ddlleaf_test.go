package catpin

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/internal/engine/pgclass"
	"github.com/pgbufsim/pgbufsim/internal/engine/vacwal"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
	"github.com/stretchr/testify/require"
)

// TestIndexCreateLeafImages: CREATE TABLE t1 (id int4, pad text) (a TOAST
// table), a checkpoint, then CREATE INDEX t1_id ON t1 (id): the lengths of
// index_create's records on the pages of catalog.DDLPages, each with the
// page's image, against pg_waldump's "len (rec/tot)" on 15.18, 18beta1 and
// 19beta1 (2662 pg_class_oid_index, 2663 relname_nsp, 3455
// tblspc_relfilenode, 2658 attrelid_attnam, 2678 indrelid, 2679
// indexrelid, 2608 pg_depend's MULTI_INSERT, 2673 depender, 2674
// reference). Without the table's entries placed first every hole but
// pg_index's would be off by them (2662's by 60 bytes, 2658's by 516).
func TestIndexCreateLeafImages(t *testing.T) {
	for _, c := range []struct {
		v    pg.Version
		want [9]int
	}{
		{15, [9]int{2473, 4581, 6517, 6689, 3089, 3373, 6021, 6729, 6613}},
		{18, [9]int{2573, 4653, 6781, 2997, 3065, 3393, 921, 6353, 6781}},
		{19, [9]int{2853, 6269, 6697, 4761, 3301, 3653, 5721, 5073, 7465}},
	} {
		w, err := wal.New(wal.Config{Version: c.v, WalBuffers: 512})
		require.NoError(t, err)
		pool, err := bufmgr.NewPool(bufmgr.Config{NBuffers: 1024, Version: c.v}, w)
		require.NoError(t, err)
		pool.CreateRel(pg.CatalogRel, 100000, true)
		p := &Pins{Version: c.v, On: true, Class: pgclass.New(c.v)}
		rel := heap.NewRelation(1, "t1", heap.Shape{TupleLen: 80})
		rel.HasToast = true
		be := bufmgr.NewBackend(bufmgr.ClientBackend, 0)
		_, err = p.TableCreate(pool, w, be, rel, vacwal.PgClassRow(c.v), vacwal.PgClassRow(c.v), func(pg.LSN) bool { return false })
		require.NoError(t, err)
		always := func(pg.LSN) bool { return true }
		d := p.ddlLeaves()
		var got [9]int
		i := 0
		logged := func(f func()) {
			before := be.WAL.Bytes
			f()
			got[i] = int(be.WAL.Bytes - before)
			i++
		}
		for _, e := range []struct {
			l   *ddlLeaf
			key int
		}{{d.oid, 4}, {d.nameLeaf("t1_id"), nameKey("t1_id") + 4}, {d.filenode, 8}, {d.attName, 4 + nameKey("id")}, {d.indrelid, 4}, {d.indexrelid, 4}} {
			logged(func() { p.logLeafEntry(w, be, e.l, e.key, always) })
		}
		logged(func() { p.logDependRow(w, be, always) })
		logged(func() { p.logLeafEntry(w, be, d.depender, 12, always) })
		logged(func() { p.logLeafEntry(w, be, d.reference, 12, always) })
		for k := range got {
			require.Equal(t, c.want[k], got[k], "version %d, record %d", c.v, k)
		}
	}
}

// TestRelnameLeaf: the leaf of pg_class_relname_nsp_index a name goes to,
// as pg_waldump showed the entries: t2 and t1_id to block 2 on every
// version, a TOAST table's name to block 4 on 15 and 5 on 18 (below the
// high key pg_toast_2328[_index]) but to block 2 on 19, whose leaf 4 ends
// at pg_statistic_relid_att_inh_index; a name below pg_l… (ix2) to block 1.
func TestRelnameLeaf(t *testing.T) {
	for _, c := range []struct {
		v                 pg.Version
		t2, toast, ix2, k string
	}{
		{15, "pg_class_relname_nsp_index/2", "pg_class_relname_nsp_index/4", "pg_class_relname_nsp_index/1", "pg_toast_2328_index"},
		{18, "pg_class_relname_nsp_index/2", "pg_class_relname_nsp_index/5", "pg_class_relname_nsp_index/1", "pg_toast_2328"},
		{19, "pg_class_relname_nsp_index/2", "pg_class_relname_nsp_index/2", "pg_class_relname_nsp_index/1", "pg_statistic_relid_att_inh_index"},
	} {
		p := &Pins{Version: c.v, On: true}
		d := p.ddlLeaves()
		require.Equal(t, c.t2, d.nameLeaf("t2").name, "version %d", c.v)
		require.Equal(t, c.t2, d.nameLeaf("t1_id").name, "version %d", c.v)
		require.Equal(t, c.toast, d.nameLeaf(toastName).name, "version %d", c.v)
		require.Equal(t, c.toast, d.nameLeaf(toastName+"_index").name, "version %d", c.v)
		require.Equal(t, c.ix2, d.nameLeaf("ix2").name, "version %d", c.v)
		// A name equal to a high key sorts to the right of it.
		require.NotEqual(t, d.nameLeaf(c.k).name, d.nameLeaf(c.k[:len(c.k)-1]).name, "version %d", c.v)
	}
}
