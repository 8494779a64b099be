package heap

import "github.com/pgbufsim/pgbufsim/pg"

// TruncatePages cuts the relation to its first n pages (VACUUM's
// truncation of the empty pages at its end, RelationTruncate), which also
// forgets the insert target (smgr_targblock).
func (r *Relation) TruncatePages(n int) {
	if n >= r.page.len() {
		return
	}
	r.page.shrink(n)
	r.fsm.shrink(n)
	r.TargetBlock = pg.InvalidBlockNumber
}
