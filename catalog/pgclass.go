package catalog

import "github.com/pgbufsim/pgbufsim/pg"

// PgClassPage is one heap page of pg_class as verify's setup (initdb, then
// CREATE EXTENSION pg_buffercache and pg_visibility) leaves it, read from
// the stopped cluster's pg_class file and its free space map: Free is
// pd_upper − pd_lower, Unused the LP_UNUSED line pointers a new tuple can
// take (PageAddItem reuses them), FSMCat the page's leaf value in the FSM
// (free space / 32, as initdb's VACUUM recorded it: the CREATE EXTENSIONs'
// rows since have not updated it). Profile is the page's index among the
// profile's catalog pages (pg_class/0/k in the profile's page list).
type PgClassPage struct {
	Free, Unused, FSMCat, Profile int
}

// PgClassPages is pg_class's pages on the version after verify's setup
// (15's for 16 and 17, not measured). A workload input like the pins: where a
// new table's pg_class row lands (RelationGetBufferForTuple asks the FSM)
// and the hole an image of its page leaves out follow from it.
func PgClassPages(v pg.Version) []PgClassPage {
	switch {
	case v >= 19:
		return pgClass19
	case v >= 18:
		return pgClass18
	}
	return pgClass15
}

// PgClassFSMLeaf is the index in the version's pin profile of pg_class's
// FSM leaf page (pg_class/1/2), whose fp_next_slot lives only in shared
// buffers: evicted, it is read back with the value on disk.
func PgClassFSMLeaf(v pg.Version) int {
	switch {
	case v >= 19:
		return 165
	case v >= 18:
		return 214
	}
	return 184
}

// Measured on PostgreSQL 15.18 (Debian), 18beta1 and 19beta1 with the
// database "postgres" of verify's setup: base/5/1259 and base/5/1259_fsm
// (leaf page 2, fp_nodes[4095+k]); the FSM's fp_next_slot was 0 on all three.
var (
	pgClass15 = []PgClassPage{
		{6764, 39, 235, 12}, {3184, 18, 99, 74}, {68, 0, 2, 75}, {68, 0, 2, 25}, {68, 0, 2, 26},
		{1508, 15, 47, 76}, {6256, 35, 195, 81}, {4592, 45, 143, 43}, {412, 1, 12, 15}, {44, 0, 1, 82},
		{188, 0, 5, 53}, {316, 1, 9, 183}, {376, 0, 11, 157}, {5316, 8, 166, 80},
	}
	pgClass18 = []PgClassPage{
		{5932, 35, 235, 12}, {3176, 18, 99, 78}, {68, 0, 2, 72}, {68, 0, 2, 28}, {68, 0, 2, 18},
		{1484, 15, 46, 73}, {5952, 35, 185, 44}, {208, 28, 6, 47}, {376, 1, 11, 14}, {0, 0, 0, 85},
		{144, 0, 4, 182}, {328, 1, 10, 55}, {340, 1, 10, 183}, {7496, 2, 234, 184},
	}
	pgClass19 = []PgClassPage{
		{4332, 27, 235, 9}, {4056, 23, 126, 73}, {68, 0, 2, 74}, {68, 0, 2, 35}, {68, 0, 2, 14},
		{68, 0, 2, 75}, {4500, 47, 140, 69}, {7176, 8, 224, 76}, {2440, 13, 76, 15}, {376, 1, 11, 16},
		{0, 0, 0, 84}, {144, 0, 4, 193}, {320, 1, 9, 124}, {356, 1, 11, 194}, {288, 1, 8, 164},
	}
)
