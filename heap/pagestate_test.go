package heap

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/internal/rng"
)

// TestUniformEqualsArray drives the chunked per-page array and a plain
// slice with the same random operations (sweeps that set every page of a
// range alike, as a load or a scan does, single pages set at random,
// extension by one page or by many (page by page, or in one growN),
// truncation inside a chunk and at a
// chunk boundary) and compares every value after each operation, and the
// counts CountVisibility takes, so the uniform form is exact.
func TestUniformEqualsArray(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		r := rng.New(seed)
		var u uniform[uint16]
		var ref []uint16
		check := func(op string) {
			t.Helper()
			if u.len() != len(ref) {
				t.Fatalf("seed %d after %s: len %d, want %d", seed, op, u.len(), len(ref))
			}
			for i, v := range ref {
				if g := u.get(i); g != v {
					t.Fatalf("seed %d after %s: page %d = %d, want %d", seed, op, i, g, v)
				}
			}
			for _, mask := range []uint16{1, 6, 1 << 10} {
				want := 0
				for _, v := range ref {
					if v&mask == mask {
						want++
					}
				}
				if g := u.count(mask); g != want {
					t.Fatalf("seed %d after %s: count(%#x) = %d, want %d", seed, op, mask, g, want)
				}
			}
		}
		for step := 0; step < 300; step++ {
			val := uint16(r.Uint64n(4)) // few values, so chunks fall uniform again
			switch op := r.Uint64n(10); {
			case op < 3: // extend: one page, or many (a whole chunk and more)
				k := 1
				if op == 0 {
					k = int(r.Uint64n(3*uniPages)) + 1
				}
				u.reserve(len(ref) + k)
				if k > 1 && r.Uint64n(2) == 0 { // in one step (growN)
					u.growN(val, k)
					for range k {
						ref = append(ref, val)
					}
					break
				}
				for range k {
					u.grow(val)
					ref = append(ref, val)
				}
			case op < 6 && len(ref) > 0: // a sweep over a range, ending at a chunk's end or not
				from := int(r.Uint64n(uint64(len(ref))))
				to := min(len(ref), (from>>uniBits+1)<<uniBits)
				if r.Uint64n(2) == 0 {
					to = from + int(r.Uint64n(uint64(len(ref)-from))) + 1
				}
				for i := from; i < to; i++ {
					u.set(i, val)
					ref[i] = val
				}
			case op < 9 && len(ref) > 0: // pages at random, set or updated (bits cleared, a count added)
				for range 50 {
					i := int(r.Uint64n(uint64(len(ref))))
					if r.Uint64n(2) == 0 {
						u.set(i, val)
						ref[i] = val
						continue
					}
					add, or, clr := uint16(r.Uint64n(3))-1, uint16(r.Uint64n(4)), uint16(r.Uint64n(4))
					u.update(i, add, or, clr)
					ref[i] = (ref[i] + add | or) &^ clr
				}
			case op == 9 && len(ref) > 0: // truncation, at a chunk boundary or inside one
				n := int(r.Uint64n(uint64(len(ref) + 1)))
				if r.Uint64n(2) == 0 {
					n &^= uniPages - 1
				}
				u.shrink(n)
				ref = ref[:n]
			}
			check("step")
		}
		// The last sweep over a full chunk compacts it: the form does save memory.
		if len(ref) >= uniPages {
			for i := 0; i < uniPages; i++ {
				u.set(i, 3)
				ref[i] = 3
			}
			if u.chunks[0].vals != nil {
				t.Fatalf("seed %d: a chunk set alike by a sweep kept its array", seed)
			}
			check("compaction")
		}
	}
}

// TestRelationHoleIsShapeHole: Relation.Hole, written out to inline, is
// Shape.Hole of the page's tuple count, for every count a page can hold
// and tuple lengths across the range (0 once the tuples fill the page).
func TestRelationHoleIsShapeHole(t *testing.T) {
	for tl := 24; tl <= 8164; tl += 37 {
		r := NewRelation(1, "t", Shape{TupleLen: tl, Fillfactor: 100})
		blk := r.AddPage()
		for n := 0; n <= MaxHeapTuplesPerPage; n++ {
			if got, want := r.Hole(blk), r.Shape.Hole(n); got != want {
				t.Fatalf("tuple length %d, %d tuples: Relation.Hole %d, Shape.Hole %d", tl, n, got, want)
			}
			r.AddTuples(blk, 1, true)
		}
	}
}
