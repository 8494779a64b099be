package heap

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/pg"
)

// tuplesPerPageLoop is TuplesPerPage as RelationGetBufferForTuple finds it,
// one tuple at a time (the form before the closed one).
func tuplesPerPageLoop(s Shape) int {
	a := pg.MaxAlign(s.TupleLen)
	save := pg.BLCKSZ * (100 - s.Fillfactor) / 100
	n := 0
	for n < MaxHeapTuplesPerPage {
		free := pg.BLCKSZ - n*a - (SizeOfPageHeaderData + SizeOfItemID*n) - SizeOfItemID
		need := a
		if n > 0 { // an empty page always takes one tuple
			need += save
		}
		if free < need {
			break
		}
		n++
	}
	return n
}

// The closed form gives the loop's count for every valid tuple length and fillfactor.
func TestTuplesPerPage(t *testing.T) {
	for ff := 10; ff <= 100; ff++ {
		for tl := SizeofHeapTupleHdr + 1; pg.MaxAlign(tl) <= pg.BLCKSZ-SizeOfPageHeaderData-SizeOfItemID; tl++ {
			s := Shape{TupleLen: tl, Fillfactor: ff}
			if got, want := s.TuplesPerPage(), tuplesPerPageLoop(s); got != want {
				t.Fatalf("tuple_bytes=%d fillfactor=%d: %d tuples a page, the loop says %d", tl, ff, got, want)
			}
		}
	}
}
