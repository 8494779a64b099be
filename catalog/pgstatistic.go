package catalog

import "github.com/pgbufsim/pgbufsim/pg"

// PgStatisticPages is pg_statistic's heap pages on the version after
// verify's setup, as PgClassPages is pg_class's: where ANALYZE's new rows
// land (update_attstats' CatalogTupleInsert through RelationGetBufferForTuple)
// and the hole an image of their page leaves out follow from it. Profile is
// the page's index among the profile's catalog pages (pg_statistic/0/k), -1
// for a page no measured session pinned.
func PgStatisticPages(v pg.Version) []PgClassPage {
	switch {
	case v >= 19:
		return pgStatistic19
	case v >= 18:
		return pgStatistic18
	}
	return pgStatistic15
}

// StatIndexLeaf is the rightmost leaf page of pg_statistic_relid_att_inh_index
// (starelid, staattnum, stainherit) after verify's setup: a new table's OID is
// the highest, so its entries go there. Free is pd_upper − pd_lower, Profile
// the page's index among the profile's catalog pages, Pages every block's
// profile index (to tell the index's pages from others). Items is the
// leaf's entries; FirstRight, when not 0, the offset _bt_findsplitloc
// splits the leaf at when it is the root and full (measured).
type StatIndexLeaf struct {
	Block, Free, Profile int
	Pages                []int
	Items, FirstRight    int
}

// PgStatisticIndex is version v's StatIndexLeaf.
func PgStatisticIndex(v pg.Version) StatIndexLeaf {
	switch {
	case v >= 19:
		return StatIndexLeaf{Block: 2, Free: 7172, Profile: 86, Pages: []int{154, 135, 86, 50}}
	case v >= 18:
		return StatIndexLeaf{Block: 2, Free: 7172, Profile: 86, Pages: []int{149, 134, 86, 51}}
	}
	return StatIndexLeaf{Block: 1, Free: 72, Profile: 48, Pages: []int{144, 48, 269, 268}, Items: 404, FirstRight: 370}
}

// Measured on PostgreSQL 15.18 (Debian), 18beta1 and 19beta1 after
// verify's setup: base/5/2619 (pd_upper − pd_lower, LP_UNUSED line
// pointers) and base/5/2619_fsm (leaf page 2, fp_nodes[4095+k]; fp_next_slot
// 0 on all three); base/5/2696 for the index: on 15 one leaf (block 1, the
// root) of 404 entries with 72 bytes free, on 18 and 19 a root (block 3)
// over two leaves, the right one (block 2) with 49 entries and 7,172 bytes
// free. The profile's pg_statistic_relid_att_inh_index/0/2 and /0/3 on 15
// are pages the measuring session's split made, absent from the setup: the
// fourth new entry splits the root leaf at offset 370 (pg_waldump's
// SPLIT_R "firstrightoff 370, newitemoff 408" on 15.18, then NEWROOT with
// the new root at block 3), whatever the tables: the new entries all sort
// after the setup's.
var (
	pgStatistic15 = []PgClassPage{
		{212, 0, 6, 277}, {272, 0, 8, 228}, {76, 0, 2, -1}, {104, 0, 3, -1}, {88, 0, 2, -1},
		{40, 0, 1, 172}, {80, 0, 2, -1}, {144, 0, 4, 249}, {68, 0, 2, -1}, {12, 0, 0, -1},
		{112, 0, 3, -1}, {228, 0, 7, 282}, {228, 0, 7, -1}, {144, 0, 4, 248}, {8, 0, 0, 196},
		{224, 0, 6, 283}, {72, 0, 2, -1}, {284, 0, 8, -1}, {3940, 0, 123, 271},
	}
	pgStatistic18 = []PgClassPage{
		{164, 0, 5, 294}, {156, 0, 4, 300}, {28, 0, 0, -1}, {24, 0, 0, 234}, {84, 0, 2, -1},
		{48, 0, 1, 172}, {120, 0, 3, -1}, {124, 0, 3, -1}, {64, 0, 1, 258}, {44, 0, 1, -1},
		{48, 0, 1, -1}, {160, 0, 4, -1}, {64, 0, 1, -1}, {140, 0, 4, -1}, {136, 0, 4, 257},
		{68, 0, 2, 197}, {292, 0, 9, 301}, {560, 0, 17, 302}, {6788, 0, 212, 288},
	}
	pgStatistic19 = []PgClassPage{
		{92, 0, 2, -1}, {8, 0, 0, -1}, {76, 0, 2, 244}, {0, 0, 0, -1}, {56, 0, 1, -1},
		{128, 0, 3, 182}, {124, 0, 3, -1}, {24, 0, 0, 266}, {84, 0, 2, -1}, {40, 0, 1, -1},
		{40, 0, 1, -1}, {24, 0, 0, -1}, {76, 0, 2, -1}, {64, 0, 1, 265}, {92, 0, 2, 208},
		{44, 0, 1, -1}, {152, 0, 4, 300}, {192, 0, 5, 307}, {5960, 0, 186, 291},
	}
)
