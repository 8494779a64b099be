package catalog

import "github.com/pgbufsim/pgbufsim/pg"

// DDLLeaf is a catalog page a DDL's rows or index entries go to after
// verify's setup: Block its block in its relation, Free its pd_upper −
// pd_lower then; High, for one of an index's leaves in key order, its
// high key ("" on the rightmost leaf).
type DDLLeaf struct {
	Block, Free int
	High        string
}

// DDLPages is where the scenario's relations' entries go in the catalog
// indexes index_create and heap_create_with_catalog insert into, and
// pg_depend's page: a new relation's OID and relfilenode are the highest,
// so their entries take the rightmost leaf of pg_class_oid_index
// (ClassOid), pg_class_tblspc_relfilenode_index (ClassFilenode) and
// pg_attribute_relid_attnam_index (AttName); pg_index's two indexes are
// one leaf each (Indrelid, Indexrelid); a dependency of a relation
// (classid pg_class) takes pg_depend_depender_index's leaf of the highest
// pg_class objids (Depender), one on a relation or a namespace
// pg_depend_reference_index's leaf from the highest pg_class refobjids
// to pg_namespace's (Reference); a relation's name takes the leaf of
// pg_class_relname_nsp_index whose range holds it (ClassName, in key
// order); pg_depend's rows go to its last page (Depend).
//
// A new table's row type and its array type (heap_create_with_catalog's
// TypeCreate calls) take pg_type's last page (TypeRow), the rightmost leaf
// of pg_type_oid_index (TypeOid), the leaf of pg_type_typname_nsp_index
// whose range holds the name (TypeName, in key order), and for their
// dependencies pg_depend_depender_index's leaf of the highest pg_type
// objids (TypeDepender) and, for the array type's on the row type,
// pg_depend_reference_index's leaf of the highest pg_type refobjids
// (TypeReference).
type DDLPages struct {
	ClassOid, ClassFilenode, AttName, Indrelid, Indexrelid, Depend, Depender, Reference DDLLeaf
	ClassName                                                                           []DDLLeaf
	TypeRow, TypeOid, TypeDepender, TypeReference                                       DDLLeaf
	TypeName                                                                            []DDLLeaf
}

// DDLPagesFor is version v's DDLPages (16 and 17 as 15, not measured).
func DDLPagesFor(v pg.Version) DDLPages {
	switch {
	case v >= 19:
		return ddlPages19
	case v >= 18:
		return ddlPages18
	}
	return ddlPages15
}

// Measured on PostgreSQL 15.18 (Debian), 18beta1 and 19beta1 after
// verify's setup and a CREATE TABLE t1 (id int4, pad text) (a TOAST
// table) and CREATE INDEX t1_id ON t1 (id) after a checkpoint: the holes
// of the index's entries' images in pg_waldump (8,192 − (tot − 53) for
// an INSERT_LEAF, − 57 for pg_depend's MULTI_INSERT) plus the entries the
// table and the index had put on the page since the setup (catpin's
// entry sizes), and the leaves of base/5/2663 (btpo_next, the high key as
// item 1) with pd_upper − pd_lower less the scenario's entries; a CREATE
// TABLE t2 after a checkpoint gave the same figures. The pg_type pages:
// the images of the first CREATE TABLE t1 (id int4, pad text) after the
// setup and a checkpoint (8,192 − (tot − 54) for the row type's
// XLOG_HEAP_INSERT, − 53 for an INSERT_LEAF) plus the entry itself (a
// 188-byte pg_type row with its line pointer, 20 bytes an oid or name
// entry, 28 a pg_depend key); TypeName's high keys those of 15's leaves
// (bt_page_items: 1 → 4 → 2), taken for 18 and 19 (no pageinspect built
// there), whose t1 and _t1 entries went to the same leaves.
var (
	ddlPages15 = DDLPages{
		ClassOid: DDLLeaf{Block: 2, Free: 5852}, ClassFilenode: DDLLeaf{Block: 1, Free: 1808},
		AttName: DDLLeaf{Block: 14, Free: 2092}, Indrelid: DDLLeaf{Block: 1, Free: 5196}, Indexrelid: DDLLeaf{Block: 1, Free: 4912},
		Depend: DDLLeaf{Block: 13, Free: 2648}, Depender: DDLLeaf{Block: 9, Free: 1656}, Reference: DDLLeaf{Block: 7, Free: 1800},
		ClassName: []DDLLeaf{{Block: 1, Free: 2536, High: "pg_locks"}, {Block: 4, Free: 1836, High: "pg_toast_2328_index"}, {Block: 2, Free: 3712}},
		TypeRow:   DDLLeaf{Block: 14, Free: 6100}, TypeOid: DDLLeaf{Block: 2, Free: 3212},
		TypeDepender: DDLLeaf{Block: 4, Free: 372}, TypeReference: DDLLeaf{Block: 5, Free: 2652},
		TypeName: []DDLLeaf{{Block: 1, Free: 0, High: "_pg_user_mapping"}, {Block: 4, Free: 1184, High: "pg_largeobject"}, {Block: 2, Free: 1860}},
	}
	ddlPages18 = DDLPages{
		ClassOid: DDLLeaf{Block: 2, Free: 5752}, ClassFilenode: DDLLeaf{Block: 1, Free: 1544},
		AttName: DDLLeaf{Block: 15, Free: 5784}, Indrelid: DDLLeaf{Block: 1, Free: 5220}, Indexrelid: DDLLeaf{Block: 1, Free: 4892},
		Depend: DDLLeaf{Block: 13, Free: 7748}, Depender: DDLLeaf{Block: 9, Free: 2032}, Reference: DDLLeaf{Block: 7, Free: 1632},
		ClassName: []DDLLeaf{{Block: 1, Free: 2464, High: "pg_largeobject_metadata"}, {Block: 4, Free: 4828, High: "pg_stat_io"},
			{Block: 5, Free: 5036, High: "pg_toast_2328"}, {Block: 2, Free: 3640}},
		TypeRow: DDLLeaf{Block: 14, Free: 3844}, TypeOid: DDLLeaf{Block: 2, Free: 2972},
		TypeDepender: DDLLeaf{Block: 10, Free: 4044}, TypeReference: DDLLeaf{Block: 5, Free: 2828},
		TypeName: []DDLLeaf{{Block: 1, Free: 0, High: "_pg_user_mapping"}, {Block: 4, Free: 1084, High: "pg_largeobject"}, {Block: 2, Free: 1708}},
	}
	ddlPages19 = DDLPages{
		ClassOid: DDLLeaf{Block: 2, Free: 5472}, ClassFilenode: DDLLeaf{Block: 1, Free: 1628},
		AttName: DDLLeaf{Block: 16, Free: 4020}, Indrelid: DDLLeaf{Block: 1, Free: 4984}, Indexrelid: DDLLeaf{Block: 1, Free: 4632},
		Depend: DDLLeaf{Block: 14, Free: 2948}, Depender: DDLLeaf{Block: 10, Free: 3312}, Reference: DDLLeaf{Block: 7, Free: 948},
		ClassName: []DDLLeaf{{Block: 1, Free: 2100, High: "pg_largeobject_loid_pn_index"}, {Block: 4, Free: 1828, High: "pg_statistic_relid_att_inh_index"},
			{Block: 2, Free: 2104}},
		TypeRow: DDLLeaf{Block: 15, Free: 2152}, TypeOid: DDLLeaf{Block: 2, Free: 1932},
		TypeDepender: DDLLeaf{Block: 11, Free: 2852}, TypeReference: DDLLeaf{Block: 5, Free: 1900},
		TypeName: []DDLLeaf{{Block: 1, Free: 0, High: "_pg_user_mapping"}, {Block: 4, Free: 720, High: "pg_largeobject"}, {Block: 2, Free: 508}},
	}
)
