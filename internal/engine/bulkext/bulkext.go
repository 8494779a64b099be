// Package bulkext is how far a bulk insert extends a heap at once from
// PostgreSQL 16 (hio.c RelationAddBlocks, heapam.c heap_multi_insert_pages,
// bufmgr.c LimitAdditionalPins): COPY's BulkInsertState remembers the pages
// it extended by and not yet used (next_free … last_free) and how many it
// has extended by so far, and each extension asks for at least as many as
// all before it together, up to 64 pages and the backend's share of pins.
// Up to 15 every extension is one page (ReadBufferBI with P_NEW).
package bulkext

import "github.com/pgbufsim/pgbufsim/pg"

// maxBuffersToExtendBy is MAX_BUFFERS_TO_EXTEND_BY (RelationAddBlocks).
const maxBuffersToExtendBy = 64

// refcountArrayEntries is REFCOUNT_ARRAY_ENTRIES (bufmgr.c): the pins
// LimitAdditionalPins assumes the backend already holds.
const refcountArrayEntries = 8

// State is the part of a BulkInsertState that relation extension keeps.
// The zero value is a new state (no pages in hand, nothing extended yet).
type State struct {
	nextFree, lastFree int // bistate->next_free, last_free as block+1 (0: InvalidBlockNumber)
	extendedBy         int // bistate->already_extended_by
}

// Next is RelationGetBufferForTuple's "ongoing bulk extension" branch: the
// next page extended earlier and not used yet, if any.
func (s *State) Next() (pg.BlockNumber, bool) {
	if s.nextFree == 0 {
		return 0, false
	}
	blk := pg.BlockNumber(s.nextFree - 1)
	if s.nextFree >= s.lastFree {
		s.nextFree, s.lastFree = 0, 0
	} else {
		s.nextFree++
	}
	return blk, true
}

// ExtendBy is RelationAddBlocks' page count for a bulk insert (a
// BulkInsertState, no lock waiters) that needs numPages more pages: at least
// as many as already extended by, at most 64, then LimitAdditionalPins with
// pinLimit (GetPinLimit, MaxProportionalPins) less the 8 pins assumed held,
// but always one. Before 16 it is 1.
func (s *State) ExtendBy(v pg.Version, numPages, pinLimit int) int {
	if v < 16 {
		return 1
	}
	n := min(max(numPages, s.extendedBy, 1), maxBuffersToExtendBy)
	if n > 1 {
		n = min(n, max(pinLimit-refcountArrayEntries, 1))
	}
	return n
}

// Extended records an extension by n pages starting at first: the pages
// after the first are the state's to use next.
func (s *State) Extended(first pg.BlockNumber, n int) {
	if n > 1 {
		s.nextFree, s.lastFree = int(first)+2, int(first)+n
	} else {
		s.nextFree, s.lastFree = 0, 0
	}
	s.extendedBy += n
}

// MultiInsertPages is heap_multi_insert_pages (heapam.c, 16+): the pages
// ntuples tuples of tlen bytes need from empty pages, each page holding
// BLCKSZ − the page header − the fillfactor's reserve, a tuple taking a line
// pointer and its MAXALIGNed length.
func MultiInsertPages(ntuples, tlen, fillfactor int) int {
	avail := pg.BLCKSZ - sizeOfPageHeaderData - pg.BLCKSZ*(100-fillfactor)/100
	sz := uint64(sizeOfItemID + pg.MaxAlign(tlen))
	// size_t arithmetic, as in C: a tuple larger than a whole page's room
	// wraps page_avail around, and the rest then count on that page.
	npages, left := 1, uint64(avail)
	for i := 0; i < ntuples; i++ {
		if left < sz {
			npages++
			left = uint64(avail)
		}
		left -= sz
	}
	return npages
}

// sizeOfPageHeaderData and sizeOfItemID are bufpage.h's (the heap package's
// own constants; repeated to keep this package a leaf).
const (
	sizeOfPageHeaderData = 24
	sizeOfItemID         = 4
)
