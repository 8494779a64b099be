package catalog

import "github.com/pgbufsim/pgbufsim/pg"

// PgIndexPages is pg_index's heap pages on the version after verify's
// setup, as PgClassPages is pg_class's: where a new index's pg_index row
// lands (CREATE INDEX's, and each TOAST table's index's) and the hole an
// image of its page leaves out follow from it. Profile is the page's index
// among the profile's catalog pages (pg_index/0/k).
func PgIndexPages(v pg.Version) []PgClassPage {
	switch {
	case v >= 19:
		return pgIndex19
	case v >= 18:
		return pgIndex18
	}
	return pgIndex15
}

// Measured on PostgreSQL 15.18 (Debian), 18beta1 and 19beta1 after
// verify's setup: base/5/2610 (pd_upper − pd_lower, LP_UNUSED line
// pointers) and base/5/2610_fsm (leaf page 2, fp_nodes[4095+k]); the FSM's
// fp_next_slot was 0 on all three. The rows are 166 bytes (an index on one
// column) and 176 (a TOAST table's index on two).
var (
	pgIndex15 = []PgClassPage{{404, 2, 12, 39}, {368, 2, 11, 40}, {244, 1, 7, 27}, {2432, 0, 75, 62}}
	pgIndex18 = []PgClassPage{{404, 2, 12, 40}, {196, 1, 6, 41}, {224, 1, 6, 20}, {2428, 0, 75, 75}}
	pgIndex19 = []PgClassPage{{404, 2, 12, 47}, {192, 1, 5, 32}, {236, 1, 7, 21}, {108, 0, 3, 77}}
)
