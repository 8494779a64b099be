package heap

import "github.com/pgbufsim/pgbufsim/pg"

// # On-access pruning (pruneheap.c, 19)
//
// Whether a read-only scan prunes a page it reaches; what the pruning does
// to the page and the WAL is the engine's.

// OnAccessPrunable reports whether heap_page_prune_opt (prunec, 19)
// prunes page blk of rel on access: pd_prune_xid set (the page has had an
// insert since it was last pruned; an all-visible page too, whose pruning
// then only clears the hint) and PageGetHeapFreeSpace below max(the
// fillfactor reserve, BLCKSZ/10).
func OnAccessPrunable(rel *Relation, blk pg.BlockNumber) bool {
	f := rel.Flags(blk)
	if f&PagePrunable == 0 {
		return false
	}
	return FreeSpace(rel.Shape, rel.Tuples(blk)) < PruneMinFree(rel.Shape.Fillfactor)
}

// FreeSpace is PageGetHeapFreeSpace of a page holding n tuples of the
// shape: pd_upper − pd_lower less a new line pointer, 0 when the
// page has no line pointer to spare (MaxHeapTuplesPerPage).
func FreeSpace(s Shape, n int) int {
	space := s.Hole(n)
	if space < SizeOfItemID || n >= MaxHeapTuplesPerPage {
		return 0
	}
	return space - SizeOfItemID
}

// PruneMinFree is heap_page_prune_opt's threshold: the fillfactor's
// reserve (RelationGetTargetPageFreeSpace), at least BLCKSZ/10.
func PruneMinFree(fillfactor int) int {
	return max(pg.BLCKSZ*(100-fillfactor)/100, pg.BLCKSZ/10)
}
