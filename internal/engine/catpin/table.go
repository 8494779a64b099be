package catpin

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/catalog"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/internal/engine/pgclass"
	"github.com/pgbufsim/pgbufsim/internal/engine/vacwal"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
)

// pgTypeRowLen is t_len of a table's row type's (and its array type's)
// pg_type row: 32 columns, typdefaultbin, typdefault and typacl null, so a
// 4-byte bitmap puts t_hoff at 32; oid, typname (name, 64), typnamespace,
// typowner (76), typlen (int2), six chars and bools (84), typrelid,
// typsubscript, typelem, typarray and the seven I/O functions (128),
// typalign, typstorage, typnotnull (131), then typbasetype, typtypmod,
// typndims and typcollation int-aligned (148 bytes of data): 180 bytes,
// the 211-byte XLOG_HEAP_INSERT pg_waldump shows on 15, 18 and 19.
const pgTypeRowLen = 32 + 148

// typeRow is a pg_type row's space on its page: MAXALIGNed, and its line pointer.
const typeRow = (pgTypeRowLen+7)&^7 + 4

// pgClassHoff is t_hoff of a pg_class row: 33 columns (34 from 18), the
// nullable ones (relacl, reloptions, relpartbound) making a 5-byte bitmap
// after the 23-byte header, MAXALIGNed to 32.
const pgClassHoff = 32

// toastRelidOffset is reltoastrelid's offset in a pg_class row's data:
// oid, relname (name, 64), then ten oids and counters (relnamespace …
// relallvisible) on 15, eleven from 18 (relallfrozen).
func toastRelidOffset(v pg.Version) int {
	if v >= 18 {
		return 4 + 64 + 11*4
	}
	return 4 + 64 + 10*4
}

// oidChangedBytes is what log_heap_update logs of reltoastrelid going from
// 0 to a user OID (16,384 to 65,535, its low byte not 0): the two low
// bytes differ, the rest is the old tuple's prefix and suffix.
const oidChangedBytes = 2

// btreeMetaFPILen is the XLOG_FPI of an empty btree's metapage
// (_bt_uppershutdown through log_newpage: btbuild of the TOAST table's
// empty index): the page's image with its hole, pd_lower after the page
// header (24) and BTMetaPageData (48), the 16-byte special space — 137
// bytes on 15, 18 and 19.
const btreeMetaFPILen = wal.SizeOfXLogRecord + wal.SizeOfBlockHeader + wal.SizeOfRelFileLocator + wal.SizeOfBlockNumber +
	wal.SizeOfBlockImageHeader + 24 + 48 + 16

// TableCommitInvals is the invalidation messages CREATE TABLE's commit
// record carries (AtEOXact_Inval; pg_waldump's "inval msgs" on 15, 18 and
// 19): two catcache messages for each pg_type row (TYPEOID, TYPENAMENSP)
// and each pg_class row (RELOID, RELNAMENSP), two for each pg_attribute
// row (ATTNAME, ATTNUM), a snapshot message for pg_depend and a relcache
// message for the table — for (id, pad) without a TOAST table 24 (the
// 437-byte commit on 18). With one: the TOAST table's and its index's
// pg_class rows and pg_attribute rows, the index's pg_index row
// (INDEXRELID), the two in-place updates and the reltoastrelid update
// (two each), two pg_depend snapshot messages more (index_create's and
// the TOAST table's dependency), and six relcache messages (TOAST table,
// index, TOAST table, TOAST table, index, table) — 65 for (id, pad), the
// 1,093-byte commit.
func TableCommitInvals(ncols int, toast bool) int {
	n := 2*2 + 2 + 2*(ncols+systemColumns) + 1 + 1
	if toast {
		n += 2 + 2*(toastColumns+systemColumns) + 2 + 2*toastIndexColumns + 1 + 3*2 + 2 + 6
	}
	return n
}

// TableCreate is CREATE TABLE's catalog WAL (heap_create_with_catalog,
// heap.c; create_toast_table, toasting.c) for the new table rel as
// verify creates it, record by record as pg_waldump shows it on 15, 18 and
// 19: the OIDs it assigns (NextOids), the AccessExclusiveLock logged for
// standbys and XLOG_SMGR_CREATE;
// the row type's and its array type's pg_type rows (TypeCreate), each
// with its two index entries and its dependency (a one-tuple
// MULTI_INSERT into pg_depend and two entries); the pg_class row and its
// three entries; the columns' and then the system columns' pg_attribute
// rows (two MULTI_INSERTs, each row's two entries after); the dependency
// on the namespace. With a TOAST table, the same for it (no row type) and
// its index, whose pg_index row and dependencies on the TOAST table's two
// columns follow, then the index's empty build (its metapage's image),
// index_update_stats' two in-place updates, the table row's reltoastrelid
// update (HOT on its page) and the TOAST table's dependency on the table.
// Each change of a page logs its image when the page was last logged
// before the redo pointer (XLogRecordAssemble), its hole the page's free
// space after the change. It returns the commit record's invalidation
// messages (TableCommitInvals).
func (p *Pins) TableCreate(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, rel *heap.Relation, rowData, plainData int, needsImage func(pg.LSN) bool) (int, error) {
	p.held = []heldBuf{}
	defer func() {
		for _, h := range p.held {
			pool.Unpin(be, h.buf)
		}
		p.held = nil
	}()
	ncols, _ := AttColumns(rel)
	d := p.ddlLeaves()
	log := func(n int) { _, be.Now = w.Insert(be.Now, &be.WAL, n, 0) }
	oids := 3 // the table, its row type and the array type
	if rel.HasToast {
		oids += 2
	}
	p.NextOids(w, be, oids)
	log(vacwal.StandbyLockLen)
	log(smgrCreateLen)
	for _, t := range []struct {
		name string
		ref  *ddlLeaf
	}{{rel.Name, d.reference}, {"_" + rel.Name, d.typeReference}} {
		p.logHeapLeaf(pool, w, be, d.typeRow, pgTypeRowLen, typeRow, needsImage)
		p.logLeafEntry(w, be, d.typeOid, 4, needsImage)                                                   // pg_type_oid_index
		p.logLeafEntry(w, be, d.leafFor(d.typeNames, d.typeHighs, t.name), nameKey(t.name)+4, needsImage) // pg_type_typname_nsp_index
		p.logDependRow(w, be, needsImage)
		p.logLeafEntry(w, be, d.typeDepender, 12, needsImage)
		p.logLeafEntry(w, be, t.ref, 12, needsImage)
	}
	names := attNames(rel)
	if err := p.createRel(pool, w, be, pgclass.Key{Rel: rel.ID}, rel.Name, rowData, names, true, needsImage); err != nil {
		return 0, err
	}
	p.logDependRow(w, be, needsImage) // on the namespace
	p.logLeafEntry(w, be, d.depender, 12, needsImage)
	p.logLeafEntry(w, be, d.reference, 12, needsImage)
	if !rel.HasToast {
		return TableCommitInvals(ncols, false), nil
	}
	log(vacwal.StandbyLockLen)
	log(smgrCreateLen)
	if err := p.createRel(pool, w, be, pgclass.Key{Rel: rel.ID, Kind: pgclass.Toast}, toastName, plainData, []string{"chunk_id", "chunk_seq", "chunk_data"}, true, needsImage); err != nil {
		return 0, err
	}
	log(smgrCreateLen)
	log(vacwal.StandbyLockLen)
	ixKey := pgclass.Key{Rel: rel.ID, Kind: pgclass.ToastIndex}
	if err := p.createRel(pool, w, be, ixKey, toastName+"_index", plainData, []string{"chunk_id", "chunk_seq"}, false, needsImage); err != nil {
		return 0, err
	}
	x := p.PgIndex().Insert(ixKey, pgclass.IndexRowLen(2))
	p.fsmHints(pool, w, be, "pg_index", p.PgIndex(), true)
	if err := p.logRow(pool, w, be, p.pgIndexBlock(x), pgclass.IndexRowLen(2), p.PgIndex().Hole(x), p.PgIndex().Extended, needsImage); err != nil {
		return 0, err
	}
	p.logLeafEntry(w, be, d.indrelid, 4, needsImage)
	p.logLeafEntry(w, be, d.indexrelid, 4, needsImage)
	p.logDependRows(w, be, 2, needsImage) // on the TOAST table's two columns
	for range 2 {
		p.logLeafEntry(w, be, d.depender, 12, needsImage)
		p.logLeafEntry(w, be, d.reference, 12, needsImage)
	}
	_, be.Now = w.Insert(be.Now, &be.WAL, btreeMetaFPILen, 1)
	if err := p.Inplace(pool, w, be, pgclass.Key{Rel: rel.ID, Kind: pgclass.Toast}, plainData, needsImage); err != nil {
		return 0, err
	}
	if err := p.Inplace(pool, w, be, ixKey, plainData, needsImage); err != nil {
		return 0, err
	}
	if err := p.toastRelidUpdate(pool, w, be, pgclass.Key{Rel: rel.ID}, rel.Name, rowData, needsImage); err != nil {
		return 0, err
	}
	p.logDependRow(w, be, needsImage) // the TOAST table's on the table
	p.logLeafEntry(w, be, d.depender, 12, needsImage)
	p.logLeafEntry(w, be, d.reference, 12, needsImage)
	return TableCommitInvals(ncols, true), nil
}

// nextOidLen is XLOG_NEXTOID: the next OID (4 bytes) as main data.
const nextOidLen = wal.SizeOfXLogRecord + wal.SizeOfShortMainDataHdr + 4

// NextOids assigns n OIDs (GetNewObjectId, varsup.c): when the prefetched
// ones are used up — and at the first after a server start — XLOG_NEXTOID
// reserves VAR_OID_PREFETCH (8,192) more, as pg_waldump shows before the
// first CREATE TABLE after verify's setup on 15, 18 and 19.
func (p *Pins) NextOids(w *wal.WAL, be *bufmgr.Backend, n int) {
	for range n {
		if p.OidCount == 0 {
			_, be.Now = w.Insert(be.Now, &be.WAL, nextOidLen, 0)
			p.OidCount = 8192
		}
		p.OidCount--
	}
}

// createRel is heap_create_with_catalog's rows for relation key named
// name: its pg_class row (rowData bytes) and three entries, then its
// columns' pg_attribute rows and, for a table (sys), the system columns'.
func (p *Pins) createRel(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, key pgclass.Key, name string, rowData int, cols []string, sys bool, needsImage func(pg.LSN) bool) error {
	d := p.ddlLeaves()
	classRow := pgclass.RowLen(rowData)
	k := p.Class.Insert(key, classRow)
	fresh := p.Class.Extended
	p.fsmHints(pool, w, be, "pg_class", p.Class, true)
	if err := p.logRow(pool, w, be, p.PgClassBlock(k), classRow, p.Class.Hole(k), fresh, needsImage); err != nil {
		return err
	}
	p.logLeafEntry(w, be, d.oid, 4, needsImage)
	p.logLeafEntry(w, be, d.nameLeaf(name), nameKey(name)+4, needsImage)
	p.logLeafEntry(w, be, d.filenode, 8, needsImage)
	a := p.PgAttribute()
	a.Cols[key] = len(cols)
	if err := p.logAttributes(pool, w, be, key, cols, 1, needsImage); err != nil {
		return err
	}
	if !sys {
		return nil
	}
	return p.logAttributes(pool, w, be, key, systemColumnNames, -1, needsImage)
}

// logAttributes is CatalogTuplesMultiInsertWithInfo of the pg_attribute
// rows of key's columns named cols (attnum from 1, or from −1 down for
// system columns: sign): heap_multi_insert logs a MULTI_INSERT for each
// page the rows fill (the FSM's hint images between, when it was asked
// for another page), then each row's two entries —
// pg_attribute_relid_attnam_index (attrelid, attname) and the rightmost
// leaf of pg_attribute_relid_attnum_index.
func (p *Pins) logAttributes(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, key pgclass.Key, cols []string, sign int, needsImage func(pg.LSN) bool) error {
	a := p.PgAttribute()
	tlen := pgAttributeRowLen(p.Version)
	cur, n, fresh := -1, 0, false
	flush := func() error {
		if n == 0 {
			return nil
		}
		blk, m, f := cur, n, fresh
		return p.logOn(pool, w, be, p.pgAttributeBlock(blk), f, needsImage, func(image bool) int {
			return wal.MultiInsertLen(m, tlen, f, image, a.Class.Hole(blk))
		})
	}
	for i := range cols {
		k := key
		k.Col = sign * (i + 1)
		blk := a.Class.Insert(k, tlen)
		if blk != cur {
			if err := flush(); err != nil {
				return err
			}
			cur, n, fresh = blk, 0, a.Class.Extended
			p.fsmHints(pool, w, be, "pg_attribute", a.Class, true)
		}
		n++
	}
	if err := flush(); err != nil {
		return err
	}
	for _, c := range cols {
		p.logLeafEntry(w, be, p.ddlLeaves().attName, 4+nameKey(c), needsImage)
		p.attrLeafInsert()
		if err := p.logAttnumEntry(pool, w, be, needsImage); err != nil {
			return err
		}
	}
	return nil
}

// logAttnumEntry is an entry on pg_attribute_relid_attnum_index's
// rightmost leaf (its free space after the entry a.LeafFree), with the
// leaf's image when needed.
func (p *Pins) logAttnumEntry(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, needsImage func(pg.LSN) bool) error {
	a := p.PgAttribute()
	return p.logOn(pool, w, be, pg.BlockNumber(catalog.PgAttributeIndex(p.Version).Profile), false, needsImage, func(image bool) int {
		if image {
			return btreeLeafLen(4+2) - pg.MaxAlign(8+4+2) + wal.SizeOfBlockImageHeader + pg.BLCKSZ - a.LeafFree
		}
		return btreeLeafLen(4 + 2)
	})
}

// toastRelidUpdate is create_toast_table's CatalogTupleUpdate of the
// table's pg_class row setting reltoastrelid: HOT on its page when it has
// room (XLOG_HEAP_HOT_UPDATE, the tuple's bitmap and the OID's changed
// bytes logged between the prefix and suffix it shares with the old
// version), else a new version on another page with its three entries.
func (p *Pins) toastRelidUpdate(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, key pgclass.Key, name string, rowData int, needsImage func(pg.LSN) bool) error {
	tlen := pgclass.RowLen(rowData)
	old, _ := p.Class.Row(key)
	k, ok := p.Class.Update(key, tlen)
	if !ok {
		return nil
	}
	if k == old.Block {
		prefix := toastRelidOffset(p.Version)
		suffix := tlen - pgClassHoff - prefix - oidChangedBytes
		return p.logOn(pool, w, be, p.PgClassBlock(k), false, needsImage, func(image bool) int {
			return wal.HeapUpdate(tlen, prefix, suffix, true, image, false, p.Class.Hole(k), 0)
		})
	}
	p.fsmHints(pool, w, be, "pg_class", p.Class, true)
	oldBlk, newBlk := p.PgClassBlock(old.Block), p.PgClassBlock(k)
	b, err := p.buffer(pool, be, oldBlk)
	if err != nil {
		return err
	}
	oldImage := needsImage(pool.BufferLSN(b))
	err = p.logOn(pool, w, be, newBlk, p.Class.Extended, needsImage, func(image bool) int {
		return wal.HeapUpdate(tlen, 0, 0, false, image, oldImage, p.Class.Hole(k), p.Class.Hole(old.Block))
	})
	pool.MarkBufferDirty(be, b)
	pool.SetPageLSN(b, w.InsertLSN())
	p.release(pool, be, b)
	if err != nil {
		return err
	}
	d := p.ddlLeaves()
	p.logLeafEntry(w, be, d.oid, 4, needsImage)
	p.logLeafEntry(w, be, d.nameLeaf(name), nameKey(name)+4, needsImage)
	p.logLeafEntry(w, be, d.filenode, 8, needsImage)
	return nil
}

// logHeapLeaf is a heap insert of a tlen-byte row taking size bytes of
// page l (a catalog heap page modelled as a ddlLeaf: pg_type's), with the
// page's image when needed.
func (p *Pins) logHeapLeaf(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, l *ddlLeaf, tlen, size int, needsImage func(pg.LSN) bool) {
	p.place(l, size)
	image, nfpi := needsImage(l.lsn), 0
	if image {
		nfpi = 1
	}
	l.lsn, be.Now = w.Insert(be.Now, &be.WAL, wal.HeapInsert(tlen, image, l.free), nfpi)
}

// logDependRows is recordMultipleDependencies' MULTI_INSERT of n rows into
// pg_depend's page, with its image when needed.
func (p *Pins) logDependRows(w *wal.WAL, be *bufmgr.Backend, n int, needsImage func(pg.LSN) bool) {
	l := p.ddlLeaves().depend
	for range n {
		p.place(l, dependRow)
	}
	image, nfpi := needsImage(l.lsn), 0
	if image {
		nfpi = 1
	}
	l.lsn, be.Now = w.Insert(be.Now, &be.WAL, wal.MultiInsertLen(n, pgDependRowLen, false, image, l.free), nfpi)
}
