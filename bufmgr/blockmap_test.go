package bufmgr

import (
	"fmt"
	"testing"

	"github.com/pgbufsim/pgbufsim/internal/rng"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

// TestBlockMap: the mapping returns what a plain slice does through random
// inserts and removes, growth across the dense limit (the flat array turned
// into leaves with its mappings kept), shrinking and clearing; a sparse
// leaf exists exactly while one of its blocks is mapped, and an emptied
// leaf is reused rather than allocated again.
func TestBlockMap(t *testing.T) {
	r := rng.New(5)
	// Dense up to 2.5 leaves' worth of blocks, then sparse.
	a := &leafAlloc{denseBlocks: 2*mapLeafPages + mapLeafPages/2}
	m := newBlockMap(mapLeafPages, a)
	ref := make([]pg.Buffer, mapLeafPages)
	next := pg.Buffer(1)
	step := func() {
		blk := pg.BlockNumber(r.Uint64n(uint64(len(ref))))
		if ref[blk] == pg.InvalidBuffer {
			m.insert(blk, next)
			ref[blk] = next
			next++
		} else {
			m.remove(blk)
			ref[blk] = pg.InvalidBuffer
		}
	}
	check := func(what string) {
		require.Equal(t, len(ref), m.len(), what)
		for blk, b := range ref {
			if got := m.get(pg.BlockNumber(blk)); got != b {
				require.Equal(t, b, got, "%s: block %d", what, blk)
			}
		}
		if !m.sparse {
			return
		}
		for l, leaf := range m.leaves {
			mapped := 0
			for i := l * mapLeafPages; i < min(len(ref), (l+1)*mapLeafPages); i++ {
				if ref[i] != pg.InvalidBuffer {
					mapped++
				}
			}
			require.Equal(t, int32(mapped), m.counts[l], "%s: leaf %d count", what, l)
			require.Equal(t, mapped > 0, leaf != nil, "%s: leaf %d exists iff a block of it is mapped", what, l)
		}
	}
	for i := 0; i < 3000; i++ {
		step()
	}
	check("dense")
	require.False(t, m.sparse)
	for len(ref) < 5*mapLeafPages+100 { // past the limit: 6 leaves
		m.grow()
		ref = append(ref, pg.InvalidBuffer)
	}
	require.True(t, m.sparse)
	check("turned sparse")
	for i := 0; i < 20000; i++ {
		step()
	}
	check("sparse")
	// Empty leaf 1 and map one block of it again: the leaf comes back
	// from the free list, not the heap.
	for blk := mapLeafPages; blk < 2*mapLeafPages; blk++ {
		if ref[blk] != pg.InvalidBuffer {
			m.remove(pg.BlockNumber(blk))
			ref[blk] = pg.InvalidBuffer
		}
	}
	check("leaf 1 emptied")
	freed, slab := len(a.free), len(a.slab)
	require.Positive(t, freed)
	m.insert(mapLeafPages+7, next)
	ref[mapLeafPages+7] = next
	require.Equal(t, freed-1, len(a.free))
	require.Equal(t, slab, len(a.slab))
	check("leaf 1 reused")
	// Shrink to 2 leaves and a bit (the blocks cut unmapped first).
	cut := 2*mapLeafPages + 10
	for blk := cut; blk < len(ref); blk++ {
		if ref[blk] != pg.InvalidBuffer {
			m.remove(pg.BlockNumber(blk))
		}
	}
	ref = ref[:cut]
	m.shrink(cut)
	check("shrunk")
	live := 0
	for _, leaf := range m.leaves {
		if leaf != nil {
			live++
		}
	}
	total := live + len(a.free)
	m.clear()
	clear(ref)
	check("cleared")
	require.Len(t, a.free, total, "every leaf is back")
	for _, leaf := range a.free {
		require.Equal(t, mapLeaf{}, *leaf, "a free leaf is all InvalidBuffer")
	}
}

// TestBlockMapHashed: in a small pool the sparse form is a hash table, and
// it returns what a plain slice does through the same growth across the
// dense limit, random inserts and removes (tens of thousands mapped at once:
// the table doubles several times, and at up to half full linear probing
// makes runs that removes delete from the middle of), shrinking, clearing
// and truncation; its count is the blocks mapped, and it is at most half full.
func TestBlockMapHashed(t *testing.T) {
	r := rng.New(7)
	a := &leafAlloc{denseBlocks: 3000, hashed: true}
	m := newBlockMap(1000, a)
	ref := make([]pg.Buffer, 1000)
	next := pg.Buffer(1)
	check := func(what string) {
		require.Equal(t, len(ref), m.len(), what)
		mapped := 0
		for blk, b := range ref {
			if b != pg.InvalidBuffer {
				mapped++
			}
			if got := m.get(pg.BlockNumber(blk)); got != b {
				require.Equal(t, b, got, "%s: block %d", what, blk)
			}
		}
		if m.sparse {
			require.Nil(t, m.leaves, what)
			require.Equal(t, mapped, m.hash.count, what)
			require.LessOrEqual(t, 2*m.hash.count, len(m.hash.slots), what)
		}
	}
	step := func(span int) {
		blk := pg.BlockNumber(r.Uint64n(uint64(span)))
		if ref[blk] == pg.InvalidBuffer {
			m.insert(blk, next)
			ref[blk] = next
			next++
		} else {
			m.remove(blk)
			ref[blk] = pg.InvalidBuffer
		}
	}
	for i := 0; i < 500; i++ {
		step(len(ref))
	}
	check("dense")
	for len(ref) < 200000 {
		m.grow()
		ref = append(ref, pg.InvalidBuffer)
	}
	require.True(t, m.sparse)
	check("turned sparse, mappings kept")
	for i := 0; i < 60000; i++ {
		step(len(ref))
	}
	check("random")
	cut := 150000
	for blk := cut; blk < len(ref); blk++ {
		if ref[blk] != pg.InvalidBuffer {
			m.remove(pg.BlockNumber(blk))
		}
	}
	ref = ref[:cut]
	m.shrink(cut)
	check("shrunk")
	m.clear()
	clear(ref)
	check("cleared")
	m.insert(5, 9)
	m.truncate()
	ref = ref[:0]
	check("truncated")
	require.True(t, m.sparse, "a truncated sparse map stays sparse")
}

// TestBlockMapFlatten: a sparse map of either form (leaves, hash table)
// turned flat keeps every mapping and gives its leaves back; the flat map
// then returns what a plain slice does through random inserts and removes,
// and turns sparse again, mappings kept, when it grows past the dense
// limit. growN of k blocks leaves what k grows do.
func TestBlockMapFlatten(t *testing.T) {
	for _, hashed := range []bool{false, true} {
		a := &leafAlloc{denseBlocks: 2 * mapLeafPages, hashed: hashed}
		m := newBlockMap(5*mapLeafPages+123, a) // past the limit: sparse from the start
		require.True(t, m.sparse)
		d := &mapModel{m: &m, ref: make([]pg.Buffer, m.len()), next: 1, r: rng.New(11)}
		d.steps(8000)
		d.check(t, fmt.Sprintf("sparse, hashed=%v", hashed))
		m.flatten()
		require.False(t, m.sparse)
		require.Nil(t, m.leaves)
		require.Nil(t, m.hash.slots)
		d.check(t, "flattened")
		if !hashed {
			for _, leaf := range a.free {
				require.Equal(t, mapLeaf{}, *leaf, "a leaf given back is all InvalidBuffer")
			}
		}
		d.steps(8000)
		d.check(t, "flat")
		m.growN(3)
		d.ref = append(d.ref, 0, 0, 0)
		require.True(t, m.sparse, "grown past the dense limit")
		d.check(t, "sparse again")
	}
	// growN against grow, across the dense limit and leaf boundaries.
	for _, hashed := range []bool{false, true} {
		for _, k := range []int{0, 1, mapLeafPages - 1, mapLeafPages, 3*mapLeafPages + 5} {
			a1 := &leafAlloc{denseBlocks: 2*mapLeafPages + 7, hashed: hashed}
			a2 := &leafAlloc{denseBlocks: 2*mapLeafPages + 7, hashed: hashed}
			m1, m2 := newBlockMap(mapLeafPages+3, a1), newBlockMap(mapLeafPages+3, a2)
			m1.insert(5, 2)
			m2.insert(5, 2)
			for range k {
				m1.grow()
			}
			m2.growN(k)
			require.Equal(t, m1.n, m2.n)
			require.Equal(t, m1.sparse, m2.sparse)
			require.Equal(t, len(m1.flat), len(m2.flat))
			require.Equal(t, len(m1.leaves), len(m2.leaves))
			require.Equal(t, len(m1.counts), len(m2.counts))
			require.Equal(t, m1.get(5), m2.get(5))
		}
	}
}

// mapModel drives a blockMap and a plain slice, its model, with the same
// random inserts and removes.
type mapModel struct {
	m    *blockMap
	ref  []pg.Buffer
	next pg.Buffer
	r    *rng.PCG
}

// steps maps k random blocks that are unmapped and unmaps those mapped.
func (d *mapModel) steps(k int) {
	for range k {
		blk := pg.BlockNumber(d.r.Uint64n(uint64(len(d.ref))))
		if d.ref[blk] != pg.InvalidBuffer {
			d.m.remove(blk)
			d.ref[blk] = pg.InvalidBuffer
			continue
		}
		d.m.insert(blk, d.next)
		d.ref[blk] = d.next
		d.next++
	}
}

// check fails unless the map answers every lookup as the slice does.
func (d *mapModel) check(t *testing.T, what string) {
	t.Helper()
	require.Equal(t, len(d.ref), d.m.len(), what)
	for blk, want := range d.ref {
		if got := d.m.get(pg.BlockNumber(blk)); got != want {
			t.Fatalf("%s: block %d maps to buffer %d, want %d", what, blk, got, want)
		}
	}
}
