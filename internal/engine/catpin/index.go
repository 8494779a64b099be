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

// smgrCreateLen is XLOG_SMGR_CREATE (log_smgrcreate, storage.c):
// xl_smgr_create (RelFileLocator 12, ForkNumber 4) as main data — 42 bytes.
const smgrCreateLen = wal.SizeOfXLogRecord + wal.SizeOfShortMainDataHdr + 12 + 4

// pgDependRowLen is t_len of a pg_depend row: classid, objid, objsubid,
// refclassid, refobjid, refobjsubid (4 bytes each) and deptype (char) after
// a 24-byte header (no nullable columns) — 49 bytes.
const pgDependRowLen = 24 + 6*4 + 1

// IndexCommitInvals is the invalidation messages CREATE INDEX's commit
// record carries (AtEOXact_Inval; pg_waldump's "inval msgs" on 15, 18 and
// 19): two catcache messages (RELOID, RELNAMENSP) for each of the three
// pg_class tuples written (the index's row, then index_update_stats's
// in-place updates of the table's and the index's rows), two for the
// pg_attribute row (ATTNAME, ATTNUM), one for the pg_index row
// (INDEXRELID), a snapshot message for pg_depend (a catalog without a
// syscache), and a relcache message for the table and the index twice each
// (index_create's CacheInvalidateRelcache, and the in-place updates) — 14.
const IndexCommitInvals = 3*2 + 2 + 1 + 1 + 2*2

// pgAttributeRowLen is t_len of the pg_attribute row of an index column,
// its nullable columns (attacl, attoptions, attfdwoptions, attmissingval;
// attstattarget from 17) null, so a 4-byte bitmap for its 25 columns puts
// t_hoff at 32. 15: attrelid, attname (name, 64), atttypid, attstattarget,
// attlen, attnum, attndims, attcacheoff, atttypmod (76 + 2·2 + 3·4 = 92),
// eleven chars and bools, attinhcount (int4) and attcollation: 112 bytes of
// data, 144 in all (the 180-byte MULTI_INSERT on 15; 16 and 17 are taken
// as 15, not measured). 18 dropped attcacheoff, made attndims and
// attinhcount int2 and attstattarget nullable: 100 bytes of data, 132 in all
// (the 168-byte MULTI_INSERT on 18beta1 and 19beta1).
func pgAttributeRowLen(v pg.Version) int {
	if v >= 18 {
		return 32 + 100
	}
	return 32 + 112
}

// btreeLeafLen is XLOG_BTREE_INSERT_LEAF without an image for an index
// tuple of keyBytes of key (the 8-byte IndexTupleData header, MAXALIGNed).
func btreeLeafLen(keyBytes int) int {
	return wal.SizeOfXLogRecord + wal.SizeOfBlockHeader + wal.SizeOfRelFileLocator + wal.SizeOfBlockNumber +
		wal.SizeOfShortMainDataHdr + 2 + pg.MaxAlign(8+keyBytes)
}

// nameKey is a name column's bytes in a catalog index: name_ops stores
// the key as a cstring (opckeytype), int-aligned before the oid after it.
func nameKey(s string) int { return (len(s) + 1 + 3) &^ 3 }

// fsmPage names a catalog's FSM block.
type fsmPage struct {
	catalog string
	blk     int
}

// fsmHints logs the hint images of the FSM pages the placement of a row in
// catalog c dirtied (pgclass.Class.FSMDirtied): MarkBufferDirtyHint with
// hints WAL-logged (checksums or wal_log_hints) writes an XLOG_FPI_FOR_HINT
// of a page last logged before the redo pointer — the whole page, an FSM
// page having no standard hole (XLogSaveBufferForHint): 8,241 bytes, as
// pg_waldump shows for pg_index's FSM blocks 2, 1 and 0 on 19beta1 when a
// second CREATE INDEX finds no page with room for its row. Without log (DDL
// whose catalog WAL is not modelled: catalog_pins off, a primary key's
// index_create, SET STORAGE's updates) the pages only count as logged now,
// as the DDL's heap pages do (DirtyPgClass).
func (p *Pins) fsmHints(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, catalog string, c *pgclass.Class, log bool) {
	dirtied := c.TakeFSMDirtied()
	if !p.On || !pool.XLogHintBitIsNeeded() {
		return
	}
	if p.fsmLSN == nil {
		p.fsmLSN = map[fsmPage]pg.LSN{}
	}
	for _, blk := range dirtied {
		k := fsmPage{catalog, blk}
		if p.fsmLSN[k] > w.RedoRecPtr() {
			continue // logged since the checkpoint: the hint needs no image
		}
		if !log {
			p.fsmLSN[k] = w.InsertLSN()
			continue
		}
		var lsn pg.LSN
		lsn, be.Now = w.Insert(be.Now, &be.WAL, wal.FPIForHintBytes(pg.BLCKSZ), 1)
		p.fsmLSN[k] = lsn
	}
}

// PgIndex is pg_index's pages, built on first use.
func (p *Pins) PgIndex() *pgclass.Class {
	if p.Index == nil {
		p.Index = pgclass.NewIndex(p.Version)
	}
	return p.Index
}

// Restart is a server restart for the modelled catalogs' FSM pages
// (pgclass.Class.Restart).
func (p *Pins) Restart() {
	p.OidCount = 0
	if p.Class != nil {
		p.Class.Restart()
	}
	p.PgIndex().Restart()
	p.PgStatistic().Restart()
}

// pgIndexBlock is the catalog block of pg_index's page k (its page in the
// profile, else the page past the profile's, as PgClassBlock).
func (p *Pins) pgIndexBlock(k int) pg.BlockNumber {
	if x := p.PgIndex(); k < len(x.Profile) && x.Profile[k] >= 0 {
		return pg.BlockNumber(x.Profile[k])
	}
	return pg.BlockNumber(catalog.For(p.Version).Pages)
}

// isPgIndex: catalog page blk is one of pg_index's (placed by the model).
func (p *Pins) isPgIndex(blk int) bool {
	for _, b := range p.PgIndex().Profile {
		if b == blk {
			return true
		}
	}
	return false
}

// logRow is a heap insert's record on catalog block blk: the page pinned
// and dirtied, its image (without hole) when needsImage says it was last
// logged before the redo pointer (XLogRecordAssemble), unless the insert
// initialises a new page (fresh: XLOG_HEAP_INIT_PAGE).
func (p *Pins) logRow(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, blk pg.BlockNumber, tlen, hole int, fresh bool, needsImage func(pg.LSN) bool) error {
	return p.logOn(pool, w, be, blk, fresh, needsImage, func(image bool) int { return wal.HeapInsert(tlen, image, hole) })
}

// logOn logs a record of size(image) on catalog block blk as logRow does.
func (p *Pins) logOn(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, blk pg.BlockNumber, fresh bool, needsImage func(pg.LSN) bool, size func(image bool) int) error {
	b, err := p.buffer(pool, be, blk)
	if err != nil {
		return err
	}
	pool.MarkBufferDirty(be, b)
	image, nfpi := !fresh && needsImage(pool.BufferLSN(b)), 0
	if image {
		nfpi = 1
	}
	lsn, now := w.Insert(be.Now, &be.WAL, size(image), nfpi)
	be.Now = now
	pool.SetPageLSN(b, lsn)
	p.release(pool, be, b)
	return nil
}

// buffer pins catalog block blk — once for the statement while held is
// set (TableCreate: the DDL's pins are the Table profile's, pinAll's, so
// its records' pages are pinned once as before, not once a record).
func (p *Pins) buffer(pool *bufmgr.Pool, be *bufmgr.Backend, blk pg.BlockNumber) (pg.Buffer, error) {
	if p.held != nil {
		for _, h := range p.held {
			if h.blk == blk {
				return h.buf, nil
			}
		}
	}
	b, _, err := pool.ReadBuffer(be, pg.BufferTag{Rel: pg.CatalogRel, Block: blk}, nil)
	if err == nil && p.held != nil {
		p.held = append(p.held, heldBuf{blk, b})
	}
	return b, err
}

// release unpins b unless it is held.
func (p *Pins) release(pool *bufmgr.Pool, be *bufmgr.Backend, b pg.Buffer) {
	if p.held == nil {
		pool.Unpin(be, b)
	}
}

// heldBuf is a catalog page pinned for the statement (buffer).
type heldBuf struct {
	blk pg.BlockNumber
	buf pg.Buffer
}

// IndexCreate is index_create's catalog writes (index.c) for index idx
// named name on one column: RelationCreateStorage's XLOG_SMGR_CREATE, the
// AccessExclusiveLock on the new relation logged for standbys
// (LogAccessExclusiveLock), heap_create_with_catalog's pg_class row
// (heap_insert through RelationGetBufferForTuple: the page pgclass places
// it on, with its image when that page was last logged before the redo
// pointer) and its three index entries (pg_class_oid_index,
// pg_class_relname_nsp_index, pg_class_tblspc_relfilenode_index), the
// column's pg_attribute row (AppendAttributeTuples: a one-tuple
// MULTI_INSERT) and its two entries, UpdateIndexRelation's pg_index row
// (placed in pg_index as pg_class's rows are) and its two entries, and the
// dependency on the table's column (recordDependencyOn: a one-tuple
// MULTI_INSERT into pg_depend) with its two entries. The pages of
// pg_attribute, pg_depend and the catalog indexes are not modelled page
// by page: their records are logged without images, as when the table's
// CREATE TABLE wrote them since the last checkpoint. With catalog_pins off
// (the DDL's catalog writes left out), and for ALTER TABLE … ADD PRIMARY
// KEY (pkey: index_create's constraint rows, pg_constraint and its
// dependencies, are not modelled), only the rows are placed.
func (p *Pins) IndexCreate(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, idx pg.RelID, name, column string, pkey bool, needsImage func(pg.LSN) bool) error {
	if p.Class == nil {
		return nil
	}
	v := p.Version
	classRow := pgclass.RowLen(vacwal.PgClassRow(v))
	k := p.Class.Insert(pgclass.Key{Rel: idx}, classRow)
	d := p.ddlLeaves()
	if !p.On || pkey {
		p.PgIndex().Insert(pgclass.Key{Rel: idx}, pgclass.IndexRowLen(1))
		p.IndexAttribute(idx)
		if p.On {
			for _, e := range []struct {
				l    *ddlLeaf
				size int
			}{{d.oid, leafEntry(4)}, {d.nameLeaf(name), leafEntry(nameKey(name) + 4)}, {d.filenode, leafEntry(8)},
				{d.attName, leafEntry(4 + nameKey(column))}, {d.indrelid, leafEntry(4)}, {d.indexrelid, leafEntry(4)},
				{d.depend, dependRow}, {d.depender, leafEntry(12)}, {d.reference, leafEntry(12)}} {
				p.placeLogged(w, e.l, e.size)
			}
		}
		return nil
	}
	log := func(n int) { _, be.Now = w.Insert(be.Now, &be.WAL, n, 0) }
	p.NextOids(w, be, 1)
	log(smgrCreateLen)
	log(vacwal.StandbyLockLen)
	fresh := p.Class.Extended
	p.fsmHints(pool, w, be, "pg_class", p.Class, true)
	if err := p.logRow(pool, w, be, p.PgClassBlock(k), classRow, p.Class.Hole(k), fresh, needsImage); err != nil {
		return err
	}
	p.logLeafEntry(w, be, d.oid, 4, needsImage)                          // pg_class_oid_index (oid)
	p.logLeafEntry(w, be, d.nameLeaf(name), nameKey(name)+4, needsImage) // pg_class_relname_nsp_index (relname, relnamespace)
	p.logLeafEntry(w, be, d.filenode, 8, needsImage)                     // pg_class_tblspc_relfilenode_index (reltablespace, relfilenode)
	if err := p.logIndexAttribute(pool, w, be, idx, column, needsImage); err != nil {
		return err
	}
	x := p.PgIndex().Insert(pgclass.Key{Rel: idx}, pgclass.IndexRowLen(1))
	p.fsmHints(pool, w, be, "pg_index", p.PgIndex(), true)
	if err := p.logRow(pool, w, be, p.pgIndexBlock(x), pgclass.IndexRowLen(1), p.PgIndex().Hole(x), p.PgIndex().Extended, needsImage); err != nil {
		return err
	}
	p.logLeafEntry(w, be, d.indrelid, 4, needsImage)   // pg_index_indrelid_index
	p.logLeafEntry(w, be, d.indexrelid, 4, needsImage) // pg_index_indexrelid_index
	p.logDependRow(w, be, needsImage)
	p.logLeafEntry(w, be, d.depender, 12, needsImage)  // pg_depend_depender_index (classid, objid, objsubid)
	p.logLeafEntry(w, be, d.reference, 12, needsImage) // pg_depend_reference_index
	return nil
}

// logIndexAttribute is the index's pg_attribute row (IndexAttribute) and
// its two entries: a one-tuple MULTI_INSERT on the page the model places
// it on, with the page's image when it was last logged before the redo
// pointer (none for a page the insert initialises); the entry in
// pg_attribute_relid_attnam_index (attrelid, attname), whose pages are not
// modelled (no image); the entry on pg_attribute_relid_attnum_index's
// rightmost leaf, with its image when needed, its hole the leaf's free
// space after the entry.
func (p *Pins) logIndexAttribute(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, idx pg.RelID, column string, needsImage func(pg.LSN) bool) error {
	tlen := pgAttributeRowLen(p.Version)
	blk, fresh := p.IndexAttribute(idx)
	a := p.PgAttribute()
	p.fsmHints(pool, w, be, "pg_attribute", a.Class, true)
	if err := p.logOn(pool, w, be, p.pgAttributeBlock(blk), fresh, needsImage, func(image bool) int {
		return wal.MultiInsertLen(1, tlen, fresh, image, a.Class.Hole(blk))
	}); err != nil {
		return err
	}
	p.logLeafEntry(w, be, p.ddlLeaves().attName, 4+nameKey(column), needsImage)
	return p.logOn(pool, w, be, pg.BlockNumber(catalog.PgAttributeIndex(p.Version).Profile), false, needsImage, func(image bool) int {
		if image {
			return btreeLeafLen(4+2) - pg.MaxAlign(8+4+2) + wal.SizeOfBlockImageHeader + pg.BLCKSZ - a.LeafFree
		}
		return btreeLeafLen(4 + 2)
	})
}

// IndexUpdateStats is index_update_stats (index.c) after the build of
// index idx on rel (nblocks pages): the heap tuples the build counted, the
// table's pages and its visibility map's all-visible (and, 18+,
// all-frozen: *relAllFrozen) pages go into the table's pg_class row (an
// empty never-vacuumed table keeps reltuples −1);
// from 18 not when autovacuum is off, globally or for the table (so that a
// restored dump's statistics stay: "CREATE INDEX: don't update table stats
// if autovacuum=off", d611f8b158). The row is updated in place when it
// changes (relhasindex set on the table's first index, or new figures),
// then the index's row (its relpages and reltuples), each an
// XLOG_HEAP_INPLACE (Inplace). It returns the invalidation messages the
// commit record carries for the whole CREATE INDEX (IndexCommitInvals; none
// with catalog_pins off, which leaves the DDL's catalog writes out, nor
// for a primary key, whose constraint's messages are not modelled).
func (p *Pins) IndexUpdateStats(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, rel *heap.Relation, idx pg.RelID, nblocks int, hadIndex, autovacOff, pkey bool, relAllFrozen *int, needsImage func(pg.LSN) bool) (int, error) {
	update := rel.Rows > 0 || rel.RelTuples >= 0
	if p.Version >= 18 && autovacOff {
		update = false
	}
	changed := !hadIndex
	if update {
		allVisible, allFrozen := rel.CountVisibility() // 18+ also relallfrozen
		changed = changed || rel.RelTuples != float64(rel.Rows) || rel.RelPages != nblocks || rel.RelAllVisible != allVisible ||
			p.Version >= 18 && *relAllFrozen != allFrozen
		rel.RelTuples, rel.RelPages, rel.RelAllVisible, *relAllFrozen = float64(rel.Rows), nblocks, allVisible, allFrozen
	}
	if !p.On || p.Class == nil {
		return 0, nil
	}
	invals := IndexCommitInvals - 2 // without the table row's catcache messages (a second index: 12 on 15)
	if changed {
		invals = IndexCommitInvals
		if err := p.Inplace(pool, w, be, pgclass.Key{Rel: rel.ID}, vacwal.PgClassRow(p.Version, rel.Reloptions...), needsImage); err != nil {
			return 0, err
		}
	}
	if pkey {
		invals = 0
	}
	return invals, p.Inplace(pool, w, be, pgclass.Key{Rel: idx}, vacwal.PgClassRow(p.Version), needsImage)
}
