package catpin

import (
	"strconv"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/catalog"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
)

// ddlLeaf is one catalog page the scenario's DDL inserts into
// (catalog.DDLLeaf): its free space and the LSN it was last logged at
// (0: before the setup's restart), which decides whether its next
// change logs its image (XLogRecordAssemble against the redo pointer).
type ddlLeaf struct {
	name string
	free int
	lsn  pg.LSN
	full bool
}

// DDLLeaves is the catalog pages of catalog.DDLPages as the scenario's
// DDL leaves them.
type DDLLeaves struct {
	oid, filenode, attName, indrelid, indexrelid, depend, depender, reference *ddlLeaf
	names                                                                     []*ddlLeaf
	highs                                                                     []string
	typeRow, typeOid, typeDepender, typeReference                             *ddlLeaf
	typeNames                                                                 []*ddlLeaf
	typeHighs                                                                 []string
}

// ddlLeaves is the pages, built on first use.
func (p *Pins) ddlLeaves() *DDLLeaves {
	if p.DDL != nil {
		return p.DDL
	}
	m := catalog.DDLPagesFor(p.Version)
	leaf := func(name string, l catalog.DDLLeaf) *ddlLeaf {
		return &ddlLeaf{name: name + "/" + strconv.Itoa(l.Block), free: l.Free}
	}
	d := &DDLLeaves{
		oid: leaf("pg_class_oid_index", m.ClassOid), filenode: leaf("pg_class_tblspc_relfilenode_index", m.ClassFilenode),
		attName: leaf("pg_attribute_relid_attnam_index", m.AttName), indrelid: leaf("pg_index_indrelid_index", m.Indrelid),
		indexrelid: leaf("pg_index_indexrelid_index", m.Indexrelid), depend: leaf("pg_depend", m.Depend),
		depender: leaf("pg_depend_depender_index", m.Depender), reference: leaf("pg_depend_reference_index", m.Reference),
	}
	for _, l := range m.ClassName {
		d.names = append(d.names, leaf("pg_class_relname_nsp_index", l))
		d.highs = append(d.highs, l.High)
	}
	d.typeRow, d.typeOid = leaf("pg_type", m.TypeRow), leaf("pg_type_oid_index", m.TypeOid)
	d.typeDepender, d.typeReference = leaf("pg_depend_depender_index", m.TypeDepender), leaf("pg_depend_reference_index", m.TypeReference)
	for _, l := range m.TypeName {
		d.typeNames = append(d.typeNames, leaf("pg_type_typname_nsp_index", l))
		d.typeHighs = append(d.typeHighs, l.High)
	}
	p.DDL = d
	return d
}

// nameLeaf is the leaf of pg_class_relname_nsp_index a relation named
// name goes to: the first whose high key is above it (names compare as
// bytes, the C collation of type name; a key equal to a high key goes
// right, the high key's relnamespace being truncated to minus infinity).
func (d *DDLLeaves) nameLeaf(name string) *ddlLeaf { return d.leafFor(d.names, d.highs, name) }

// leafFor is the leaf of leaves (in key order, their high keys highs) a
// name goes to, as nameLeaf.
func (d *DDLLeaves) leafFor(leaves []*ddlLeaf, highs []string, name string) *ddlLeaf {
	for i, h := range highs {
		if h == "" || name < h {
			return leaves[i]
		}
	}
	return leaves[len(leaves)-1]
}

// leafEntry is an index entry's space on a leaf: the MAXALIGNed tuple of
// keyBytes after its 8-byte IndexTupleData header, and its line pointer.
func leafEntry(keyBytes int) int { return pg.MaxAlign(8+keyBytes) + 4 }

// dependRow is a pg_depend row's space on its page: the 49-byte tuple
// MAXALIGNed and its line pointer.
const dependRow = (pgDependRowLen+7)&^7 + 4

// toastName is a TOAST table's name (pg_toast_<oid>, a user relation's
// OID from 16384: five digits) for where its entries sort and their size.
const toastName = "pg_toast_16384"

// systemColumnNames are heap.c's SysAtt names, in AddNewAttributeTuples' order.
var systemColumnNames = []string{"ctid", "xmin", "cmin", "xmax", "cmax", "tableoid"}

// attNames is a scenario table's user columns' names as verify creates
// them: (id, pad), or c1, c2, … for declared columns; pgbench's own
// (ColNames).
func attNames(rel *heap.Relation) []string {
	n, _ := AttColumns(rel)
	if len(rel.ColNames) == n {
		return rel.ColNames
	}
	if rel.NCols == 0 && rel.Columns == nil {
		return []string{"id", "pad"}[:n]
	}
	names := make([]string, n)
	for i := range names {
		names[i] = "c" + strconv.Itoa(i+1)
	}
	return names
}

// place takes size bytes of l's free space; a page that has no room would
// split (or, for pg_depend, the row would go to another page), which is
// not modelled: a note says so and the entry is taken as fitting.
func (p *Pins) place(l *ddlLeaf, size int) {
	if l.free < size && !l.full {
		l.full = true
		p.Notes = append(p.Notes, "note: "+l.name+" is full: its split (or the next page) is not modelled; the entries are taken as fitting")
	}
	l.free = max(0, l.free-size)
}

// placeLogged is an entry of size bytes on l written by DDL whose WAL is
// not modelled (a primary key's index_create, SET STORAGE's new versions): the page
// counts as logged now, as DirtyPgClass's.
func (p *Pins) placeLogged(w *wal.WAL, l *ddlLeaf, size int) {
	p.place(l, size)
	l.lsn = w.InsertLSN()
}

// logLeafEntry is _bt_insertonpg's XLOG_BTREE_INSERT_LEAF of an entry of
// keyBytes on l: with the leaf's image (its hole the free space after the
// entry, the entry itself then not logged as data) when the leaf was last
// logged before the redo pointer.
func (p *Pins) logLeafEntry(w *wal.WAL, be *bufmgr.Backend, l *ddlLeaf, keyBytes int, needsImage func(pg.LSN) bool) {
	p.place(l, leafEntry(keyBytes))
	n, nfpi := btreeLeafLen(keyBytes), 0
	if needsImage(l.lsn) {
		n, nfpi = n-pg.MaxAlign(8+keyBytes)+wal.SizeOfBlockImageHeader+pg.BLCKSZ-l.free, 1
	}
	l.lsn, be.Now = w.Insert(be.Now, &be.WAL, n, nfpi)
}

// logDependRow is recordMultipleDependencies' one-tuple MULTI_INSERT into
// pg_depend's page, with its image when needed (logDependRows).
func (p *Pins) logDependRow(w *wal.WAL, be *bufmgr.Backend, needsImage func(pg.LSN) bool) {
	p.logDependRows(w, be, 1, needsImage)
}

// plainName is the name of column attnum c that SET STORAGE PLAIN
// updated, for its entry's size: c1, c2, … (an (id, pad) table's pad, its
// column 2, is as long as c2).
func plainName(c int) string { return "c" + strconv.Itoa(c) }
