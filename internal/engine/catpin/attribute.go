package catpin

import (
	"strconv"
	"strings"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/catalog"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/internal/engine/pgclass"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
)

// Attributes is where the scenario's relations' pg_attribute rows lie
// (pg_attribute's pages, placed as pg_class's are), how many user columns
// each relation has, and the rightmost leaf of
// pg_attribute_relid_attnum_index, which their entries fill.
type Attributes struct {
	Class *pgclass.Class
	// Cols is each relation's user columns (attnum 1…n).
	Cols map[pgclass.Key]int
	// LeafFree is the rightmost leaf's pd_upper − pd_lower; LeafFull: an
	// entry found no room (the split is not modelled).
	LeafFree int
	LeafFull bool
}

// systemColumns is a table's six system attributes (heap.c's SysAtt:
// ctid, xmin, cmin, xmax, cmax, tableoid), which AddNewAttributeTuples
// inserts after the user columns.
const systemColumns = 6

// attnumEntry is a pg_attribute_relid_attnum_index entry and its line
// pointer: an 8-byte IndexTupleData header, attrelid (oid) and attnum
// (int2), MAXALIGNed.
const attnumEntry = (8+4+2+7)&^7 + 4

// toastColumns is a TOAST table's columns (chunk_id, chunk_seq,
// chunk_data) and its index's (chunk_id, chunk_seq).
const toastColumns, toastIndexColumns = 3, 2

// PgAttribute is pg_attribute's pages, built on first use.
func (p *Pins) PgAttribute() *Attributes {
	if p.Attr == nil {
		p.Attr = &Attributes{Class: pgclass.NewPages(catalog.PgAttributePages(p.Version)), Cols: map[pgclass.Key]int{},
			LeafFree: catalog.PgAttributeIndex(p.Version).Free}
	}
	return p.Attr
}

// pgAttributeBlock is the catalog block of pg_attribute's page k: its page
// in the profile, a page pg_attribute grew onto (PgAttributeGrowth), else
// the page past the profile's (as PgClassBlock).
func (p *Pins) pgAttributeBlock(k int) pg.BlockNumber {
	setup := len(catalog.PgAttributePages(p.Version))
	if x := p.PgAttribute().Class; k < setup && x.Profile[k] >= 0 {
		return pg.BlockNumber(x.Profile[k])
	}
	if g := catalog.PgAttributeGrowth(p.Version); k >= setup && k-setup < len(g) {
		return pg.BlockNumber(g[k-setup])
	}
	return pg.BlockNumber(catalog.For(p.Version).Pages)
}

// isPgAttribute: catalog block blk is one of the pg_attribute pages or the
// index leaf the model writes and hints itself (the profiles' dirtied ones
// there were the measuring session's rows and hints).
func (p *Pins) isPgAttribute(blk int) bool {
	if blk == catalog.PgAttributeIndex(p.Version).Profile {
		return true
	}
	for _, b := range catalog.PgAttributePages(p.Version) {
		if b.Profile == blk {
			return true
		}
	}
	for _, b := range catalog.PgAttributeGrowth(p.Version) {
		if b == blk {
			return true
		}
	}
	return false
}

// AttColumns is a scenario table's user columns as verify creates it, and
// those it sets to STORAGE PLAIN afterwards (ALTER TABLE … SET STORAGE:
// a varlena column of more than 126 bytes, verify's plainIfLong): (id
// int4, pad text), pad only when the tuple length has one, or the
// declared columns.
func AttColumns(rel *heap.Relation) (n int, plain []int) {
	if rel.NCols > 0 {
		return rel.NCols, nil
	}
	if rel.Columns == nil {
		n = 1
		if pad := rel.PadLen(); pad >= 0 {
			n = 2
			if pad > 126 {
				plain = append(plain, 2)
			}
		}
		return n, plain
	}
	for i, col := range rel.Columns {
		typ, w, _ := strings.Cut(strings.TrimSpace(col), ":")
		switch typ {
		case "text", "varchar", "bytea":
			if v, err := strconv.Atoi(w); err == nil && v > 126 {
				plain = append(plain, i+1)
			}
		}
	}
	return len(rel.Columns), plain
}

// insertAttributes is InsertPgAttributeTuples (heap.c) for key's relation:
// its ncols user columns, then, for a table, its system columns, each row
// placed as RelationGetBufferForTuple gives (heap_multi_insert fills the
// target page, then asks the FSM: the same pages for rows of one length)
// with an entry on the index's rightmost leaf.
func (p *Pins) insertAttributes(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, key pgclass.Key, ncols, nsys int) error {
	a := p.PgAttribute()
	a.Cols[key] = ncols
	tlen := pgAttributeRowLen(p.Version)
	cols := make([]int, 0, ncols+nsys)
	for c := 1; c <= ncols; c++ {
		cols = append(cols, c)
	}
	for c := 1; c <= nsys; c++ {
		cols = append(cols, -c)
	}
	for _, c := range cols {
		k := key
		k.Col = c
		blk := a.Class.Insert(k, tlen)
		p.attrLeafInsert()
		if err := p.dirtyAttr(pool, w, be, blk); err != nil {
			return err
		}
	}
	if p.On && len(cols) > 0 {
		if err := p.dirty(pool, w, be, pg.BlockNumber(catalog.PgAttributeIndex(p.Version).Profile)); err != nil {
			return err
		}
	}
	p.fsmHints(pool, w, be, "pg_attribute", a.Class, false)
	return nil
}

// attrLeafInsert is one entry more on the index's rightmost leaf.
func (p *Pins) attrLeafInsert() {
	a := p.PgAttribute()
	if a.LeafFree < attnumEntry && !a.LeafFull {
		a.LeafFull = true
		p.Notes = append(p.Notes, "note: pg_attribute_relid_attnum_index's rightmost leaf is full: its split is not modelled; the entries are taken as fitting")
	}
	a.LeafFree = max(0, a.LeafFree-attnumEntry)
}

// dirtyAttr is DDL writing pg_attribute's page k (its WAL is not modelled,
// but the page counts as logged now, as DirtyPgClass's).
func (p *Pins) dirtyAttr(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, k int) error {
	if !p.On {
		return nil
	}
	return p.dirty(pool, w, be, p.pgAttributeBlock(k))
}

// PlaceTable is a new table's catalog rows: with catalog_pins on,
// TableCreate's rows and WAL, then the columns SET STORAGE PLAIN
// (placePlain) and, when lookAfter, the lookup after; with it off (the
// DDL's catalog writes left out), PlaceRows (pg_class's) and
// PlaceAttributes with its columns (AttColumns), their WAL not modelled.
// It returns the invalidation messages CREATE TABLE's commit record
// carries.
func (p *Pins) PlaceTable(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, rel *heap.Relation, rowData, plainData int, lookAfter, committed bool, needsImage func(pg.LSN) bool) (int, error) {
	ncols, plain := AttColumns(rel)
	if p.On && p.Class != nil {
		invals, err := p.TableCreate(pool, w, be, rel, rowData, plainData, needsImage)
		if err == nil {
			err = p.placePlain(pool, w, be, rel.ID, plain, committed)
		}
		if err == nil {
			err = p.LookUpAfter(pool, w, be, rel.ID, lookAfter)
		}
		return invals, err
	}
	if err := p.PlaceRows(pool, w, be, rel.ID, rowData, plainData, rel.HasToast, lookAfter); err != nil {
		return 0, err
	}
	return 0, p.PlaceAttributes(pool, w, be, rel.ID, ncols, rel.HasToast, plain, committed)
}

// PlaceAttributes is the pg_attribute rows of a new table rel as verify
// creates it: CREATE TABLE's (the table's columns and system columns,
// then with a TOAST table its three columns and system columns and its
// index's two), then each ALTER TABLE … SET STORAGE PLAIN of a column in
// plain (ATExecSetStorage's CatalogTupleUpdate: heap_update, HOT when the
// row's page has room, else onto the page RelationGetBufferForTuple gives
// with new index entries, the old version's left to die). committed: the
// CREATE TABLE commits first (outside a transaction block), so each ALTER
// TABLE opens the relation again and its relcache build hints the rows
// (attrLookUp).
func (p *Pins) PlaceAttributes(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, rel pg.RelID, ncols int, toast bool, plain []int, committed bool) error {
	if p.Class == nil {
		return nil
	}
	if err := p.insertAttributes(pool, w, be, pgclass.Key{Rel: rel}, ncols, systemColumns); err != nil {
		return err
	}
	if toast {
		if err := p.insertAttributes(pool, w, be, pgclass.Key{Rel: rel, Kind: pgclass.Toast}, toastColumns, systemColumns); err != nil {
			return err
		}
		if err := p.insertAttributes(pool, w, be, pgclass.Key{Rel: rel, Kind: pgclass.ToastIndex}, toastIndexColumns, 0); err != nil {
			return err
		}
	}
	return p.placePlain(pool, w, be, rel, plain, committed)
}

// placePlain is PlaceAttributes' ALTER TABLE … SET STORAGE PLAIN of the
// columns in plain.
func (p *Pins) placePlain(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, rel pg.RelID, plain []int, committed bool) error {
	a := p.PgAttribute()
	tlen := pgAttributeRowLen(p.Version)
	for _, c := range plain {
		if committed {
			a.Class.Commit()
			if err := p.attrLookUp(pool, w, be, []pgclass.Key{{Rel: rel}}, nil); err != nil {
				return err
			}
		}
		k := pgclass.Key{Rel: rel, Col: c}
		old, _ := a.Class.Row(k)
		blk, ok := a.Class.Update(k, tlen)
		if !ok {
			continue
		}
		if committed {
			a.Class.Pages[old.Block].Horizon = true // the ALTER's transaction is not the CREATE's
		}
		if blk != old.Block {
			p.attrLeafInsert()
			if p.On && p.DDL != nil {
				p.placeLogged(w, p.DDL.attName, leafEntry(4+nameKey(plainName(c))))
			}
			if err := p.dirtyAttr(pool, w, be, old.Block); err != nil {
				return err
			}
		}
		if err := p.dirtyAttr(pool, w, be, blk); err != nil {
			return err
		}
		p.fsmHints(pool, w, be, "pg_attribute", a.Class, false)
	}
	return nil
}

// IndexAttribute is index_create's pg_attribute row for index idx's one
// column (AppendAttributeTuples), placed as a table's are; it returns the
// page and whether the insert initialised it.
func (p *Pins) IndexAttribute(idx pg.RelID) (blk int, fresh bool) {
	a := p.PgAttribute()
	a.Cols[pgclass.Key{Rel: idx}] = 1
	blk = a.Class.Insert(pgclass.Key{Rel: idx, Col: 1}, pgAttributeRowLen(p.Version))
	p.attrLeafInsert()
	return blk, a.Class.Extended
}

// attrLookUp is RelationBuildTupleDesc (relcache.c) for the relations of
// keys (pg_class keys: a table, its TOAST table, an index): an index scan
// of pg_attribute_relid_attnum_index for attnum > 0, which reaches each
// user column's versions in TID order. Entering a heap page,
// heap_page_prune_opt prunes it when Prunable — the visibility checks
// hint every tuple on it first (MarkBufferDirtyHint: an XLOG_FPI_FOR_HINT
// when hints are WAL-logged and the page was last logged before the redo
// pointer), then the prune record (with the page's image when hints are
// not WAL-logged, full_page_writes is on and the page needs one). The
// versions reached are hinted; an entry whose version a committed non-HOT
// update left dead is marked LP_DEAD when the scan leaves the leaf
// (_bt_killitems: MarkBufferDirtyHint of the leaf). needsImage nil: no
// prune record needs one (the DDL's own pages, logged since).
func (p *Pins) attrLookUp(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, keys []pgclass.Key, needsImage func(pg.LSN) bool) error {
	if !p.On || p.Attr == nil {
		return nil
	}
	a := p.Attr
	var cols []pgclass.Key
	for _, k := range keys {
		for c := 1; c <= a.Cols[k]; c++ {
			ck := k
			ck.Col = c
			cols = append(cols, ck)
		}
	}
	if len(cols) == 0 {
		return nil
	}
	entered := map[int]bool{}
	for _, k := range cols {
		for _, blk := range a.Class.Visits(k) {
			if entered[blk] {
				continue
			}
			entered[blk] = true
			if err := p.prunePage(pool, w, be, a.Class, blk, p.pgAttributeBlock(blk), needsImage); err != nil {
				return err
			}
		}
	}
	for _, blk := range a.Class.LookUp(cols...) {
		if err := p.pin(pool, be, p.pgAttributeBlock(blk), true, a.Class.Hole(blk)); err != nil {
			return err
		}
	}
	if a.Class.KillDead(cols...) > 0 {
		return p.pin(pool, be, pg.BlockNumber(catalog.PgAttributeIndex(p.Version).Profile), true, a.LeafFree)
	}
	return nil
}

// prunePage is heap_page_prune_opt on catalog c's page blk, catalog block
// block, when Prunable (attrLookUp, classAccess).
func (p *Pins) prunePage(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, c *pgclass.Class, blk int, block pg.BlockNumber, needsImage func(pg.LSN) bool) error {
	if !p.On || !c.Prunable(blk) {
		return nil
	}
	b, _, err := pool.ReadBuffer(be, pg.BufferTag{Rel: pg.CatalogRel, Block: block}, nil)
	if err != nil {
		return err
	}
	pool.MarkBufferDirtyHint(be, b, c.Hole(blk))
	image := needsImage != nil && needsImage(pool.BufferLSN(b))
	ndead, nredirected, horizon := c.Prune(blk)
	hole := c.Hole(blk) // the record's image is of the pruned page
	pool.MarkBufferDirty(be, b)
	nfpi := 0
	if image {
		nfpi = 1
	}
	lsn, now := w.Insert(be.Now, &be.WAL, wal.PruneLenHorizon(p.Version, nredirected, ndead, 0, image, hole, horizon), nfpi)
	be.Now = now
	pool.SetPageLSN(b, lsn)
	pool.Unpin(be, b)
	return nil
}

// prunePinned is a session reaching pg_attribute's pages through other
// relations' rows than the scenario's (the relcache init file's rebuild:
// the catalogs' own columns; the pg_buffercache view's columns, on the page
// the scenario's first rows share): heap_page_prune_opt on each of the
// model's pages its profile pins (prunePage).
func (p *Pins) prunePinned(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, pins []catalog.Pin, needsImage func(pg.LSN) bool) error {
	if p.Attr == nil {
		return nil
	}
	for k := range p.Attr.Class.Pages {
		blk := int(p.pgAttributeBlock(k))
		if blk < len(pins) && pins[blk].N > 0 && blk != catalog.For(p.Version).Pages {
			if err := p.prunePage(pool, w, be, p.Attr.Class, k, pg.BlockNumber(blk), needsImage); err != nil {
				return err
			}
		}
	}
	return nil
}
