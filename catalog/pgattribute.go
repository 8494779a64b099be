package catalog

import "github.com/pgbufsim/pgbufsim/pg"

// PgAttributePages is pg_attribute's heap pages on the version after
// verify's setup, as PgClassPages is pg_class's: where a new relation's
// column rows land (InsertPgAttributeTuples: heap_multi_insert through
// RelationGetBufferForTuple, which asks the FSM) and the hole an image of
// their page leaves out follow from it. Profile is the page's index among
// the profile's catalog pages (pg_attribute/0/k), -1 for a page no
// measured session pinned.
func PgAttributePages(v pg.Version) []PgClassPage {
	switch {
	case v >= 19:
		return pgAttribute19
	case v >= 18:
		return pgAttribute18
	}
	return pgAttribute15
}

// PgAttributeGrowth is the profile indices of the pages pg_attribute grows
// onto after the setup's (pg_attribute/0/N, N+1, … for the N pages of
// PgAttributePages): the measuring session's tables' rows filled them as
// the scenario's first tables' do.
func PgAttributeGrowth(v pg.Version) []int {
	switch {
	case v >= 19:
		return []int{116}
	case v >= 18:
		return []int{61}
	}
	return []int{60}
}

// PgAttributeIndex is the rightmost leaf of pg_attribute_relid_attnum_index
// (attrelid, attnum) after verify's setup: a new relation's OID is the
// highest, so its rows' entries go there (Block, Free as pd_upper −
// pd_lower, Profile its index among the profile's catalog pages).
func PgAttributeIndex(v pg.Version) StatIndexLeaf {
	switch {
	case v >= 19:
		return StatIndexLeaf{Block: 11, Free: 4072, Profile: 54}
	case v >= 18:
		return StatIndexLeaf{Block: 10, Free: 3052, Profile: 54}
	}
	return StatIndexLeaf{Block: 10, Free: 5732, Profile: 52}
}

// Measured on PostgreSQL 15.18 (Debian), 18beta1 and 19beta1 after
// verify's setup: base/5/1249 (pd_upper − pd_lower, LP_UNUSED line
// pointers) and base/5/1249_fsm (leaf page 2, fp_nodes[4095+k];
// fp_next_slot 0 on all three); base/5/2659's rightmost leaf (btpo_next 0,
// level 0) for the index. The FSM values are initdb's VACUUM's: the
// CREATE EXTENSIONs' rows since filled page 17 (15) or 16 (18, 19) and the
// last page without updating it.
var (
	pgAttribute15 = []PgClassPage{
		{28, 0, 0, 94}, {28, 0, 0, 95}, {28, 0, 0, 103}, {28, 0, 0, 85}, {28, 0, 0, 86}, {28, 0, 0, 110},
		{28, 0, 0, 87}, {28, 0, 0, 112}, {28, 0, 0, 113}, {28, 0, 0, 88}, {28, 0, 0, 35}, {28, 0, 0, 84},
		{28, 0, 0, 96}, {28, 0, 0, 97}, {28, 0, 0, 98}, {28, 0, 0, 99}, {28, 0, 0, 100}, {604, 4, 59, 42},
		{28, 0, 0, 101}, {28, 0, 0, 102}, {28, 0, 0, 104}, {28, 0, 0, 105}, {28, 0, 0, 106}, {28, 0, 0, 107},
		{28, 0, 0, 70}, {28, 0, 0, 31}, {28, 0, 0, 4}, {28, 0, 0, 108}, {28, 0, 0, 109}, {28, 0, 0, -1},
		{28, 0, 0, -1}, {28, 0, 0, -1}, {28, 0, 0, -1}, {28, 0, 0, 253}, {28, 0, 0, 242}, {28, 0, 0, 243},
		{28, 0, 0, -1}, {28, 0, 0, -1}, {28, 0, 0, 254}, {28, 0, 0, 155}, {28, 0, 0, 181}, {100, 0, 3, -1},
		{28, 0, 0, -1}, {28, 0, 0, -1}, {28, 0, 0, -1}, {28, 0, 0, -1}, {28, 0, 0, -1}, {28, 0, 0, -1},
		{28, 0, 0, -1}, {28, 0, 0, -1}, {28, 0, 0, -1}, {28, 0, 0, -1}, {28, 0, 0, -1}, {28, 0, 0, -1},
		{28, 0, 0, -1}, {1360, 0, 42, 182},
	}
	pgAttribute18 = []PgClassPage{
		{48, 0, 1, 101}, {48, 0, 1, 102}, {48, 0, 1, 110}, {48, 0, 1, 90}, {48, 0, 1, 81}, {48, 0, 1, 82},
		{48, 0, 1, 91}, {48, 0, 1, 118}, {48, 0, 1, 92}, {48, 0, 1, 83}, {48, 0, 1, 33}, {48, 0, 1, 89},
		{48, 0, 1, 103}, {48, 0, 1, 104}, {48, 0, 1, 105}, {48, 0, 1, 106}, {728, 5, 73, 43}, {48, 0, 1, 107},
		{48, 0, 1, 108}, {48, 0, 1, 109}, {48, 0, 1, 111}, {48, 0, 1, 112}, {48, 0, 1, 113}, {48, 0, 1, 36},
		{48, 0, 1, 25}, {48, 0, 1, 5}, {48, 0, 1, 114}, {48, 0, 1, 115}, {48, 0, 1, 207}, {48, 0, 1, 208},
		{48, 0, 1, -1}, {48, 0, 1, 262}, {48, 0, 1, 263}, {48, 0, 1, 248}, {48, 0, 1, 264}, {48, 0, 1, -1},
		{48, 0, 1, -1}, {48, 0, 1, 265}, {48, 0, 1, 209}, {48, 0, 1, 179}, {148, 0, 4, -1}, {108, 0, 3, -1},
		{48, 0, 1, -1}, {48, 0, 1, -1}, {48, 0, 1, -1}, {48, 0, 1, -1}, {48, 0, 1, -1}, {48, 0, 1, -1},
		{48, 0, 1, -1}, {48, 0, 1, -1}, {48, 0, 1, -1}, {48, 0, 1, -1}, {48, 0, 1, -1}, {48, 0, 1, -1},
		{888, 0, 27, 180},
	}
	pgAttribute19 = []PgClassPage{
		{48, 0, 1, 99}, {48, 0, 1, 100}, {48, 0, 1, 108}, {48, 0, 1, 90}, {48, 0, 1, 80}, {48, 0, 1, 81},
		{48, 0, 1, 91}, {48, 0, 1, 119}, {48, 0, 1, 92}, {48, 0, 1, 82}, {48, 0, 1, 34}, {48, 0, 1, 89},
		{48, 0, 1, 101}, {48, 0, 1, 102}, {48, 0, 1, 103}, {48, 0, 1, 104}, {1136, 5, 94, 43}, {48, 0, 1, 105},
		{48, 0, 1, 106}, {48, 0, 1, 107}, {48, 0, 1, 109}, {48, 0, 1, 110}, {48, 0, 1, 111}, {48, 0, 1, 112},
		{48, 0, 1, 113}, {48, 0, 1, 26}, {48, 0, 1, 37}, {48, 0, 1, 5}, {48, 0, 1, 114}, {48, 0, 1, 115},
		{48, 0, 1, 216}, {48, 0, 1, 217}, {48, 0, 1, 218}, {48, 0, 1, 219}, {48, 0, 1, 220}, {48, 0, 1, 269},
		{48, 0, 1, 258}, {48, 0, 1, -1}, {48, 0, 1, -1}, {48, 0, 1, -1}, {48, 0, 1, 270}, {48, 0, 1, 221},
		{48, 0, 1, 190}, {48, 0, 1, -1}, {8, 0, 0, -1}, {48, 0, 1, -1}, {48, 0, 1, -1}, {48, 0, 1, -1},
		{48, 0, 1, -1}, {48, 0, 1, -1}, {48, 0, 1, -1}, {48, 0, 1, -1}, {48, 0, 1, -1}, {48, 0, 1, -1},
		{48, 0, 1, -1}, {48, 0, 1, -1}, {48, 0, 1, -1}, {48, 0, 1, -1}, {48, 0, 1, -1}, {608, 0, 18, 191},
	}
)
