package bufmgr

import (
	"slices"

	"github.com/pgbufsim/pgbufsim/internal/prefetch"
	"github.com/pgbufsim/pgbufsim/pg"
)

// blockMap is a relation's part of the buffer mapping table (BufTableLookup
// for its blocks): block → buffer holding it, or InvalidBuffer.
//
// It has two forms. A relation of up to denseBlocks blocks (4 per buffer of
// the pool) has a flat array, 4 bytes a block: at most 16 bytes per buffer,
// and one load per lookup — the access path's hot load, a cache miss on a
// large pool, with nothing in front of it. A relation larger than that
// turns sparse for good: a two-level table whose leaves (mapLeafPages
// blocks each) exist only while one of their blocks is in a buffer, so its
// memory follows what is cached, not the relation's size (a terabyte table
// in a 128 GB pool keeps 8 bytes a leaf for the rest); a lookup then pays
// one more dependent load, the leaf pointer. Leaves come from the pool's
// leafAlloc and go back to it, so a leaf emptied and needed again (a scan's
// or an eviction's churn) costs no allocation.
//
// In a pool of up to hashMaxBuffers buffers the sparse form is a hash table
// instead (open addressing, linear probing, at most half full, growing by
// doubling): its size follows the blocks mapped, at most the pool's buffers,
// so it stays in the CPU's cache (4 MB at most), as PostgreSQL's buffer
// table is sized by NBuffers (BufTableShmemSize) — where a relation many
// times the pool spreads its lookups over leaves of 16 kB each (a trace
// replay over millions of blocks: a cache miss per lookup).
type blockMap struct {
	n      int
	sparse bool
	flat   []pg.Buffer // dense form: len n
	leaves []*mapLeaf  // sparse form
	counts []int32     // mapped blocks per leaf
	alloc  *leafAlloc
	hash   blockHash // the sparse form in a small pool (alloc.hashed)
}

// blockHash is the sparse form as a hash table: slots hold block+1 (0: empty).
type blockHash struct {
	slots []hashSlot // nil: not this form
	count int
	shift uint // 32 − log2(len(slots))
}

type hashSlot struct {
	key uint32 // block + 1; 0 marks an empty slot
	b   pg.Buffer
}

// hashMaxBuffers is the largest pool whose sparse mappings are hash tables.
const hashMaxBuffers = 1 << 18

const (
	mapLeafBits  = 12
	mapLeafPages = 1 << mapLeafBits
	// leafSlab is how many leaves leafAlloc takes from the Go heap at a
	// time (1 MB): one allocation for 64 leaves.
	leafSlab = 64
	// denseBlocksPerBuffer is the largest relation, in blocks per buffer
	// of the pool, whose mapping stays flat.
	denseBlocksPerBuffer = 4
)

type mapLeaf [mapLeafPages]pg.Buffer

// leafAlloc is a pool's source of sparse leaves and its dense limit. It
// hands out zeroed leaves: the ones given back first, then from a slab.
// Leaves given back are all InvalidBuffer already (a leaf is released when
// its count reaches 0, or cleared first).
type leafAlloc struct {
	denseBlocks int
	hashed      bool // sparse maps are hash tables (a pool of ≤ hashMaxBuffers)
	free        []*mapLeaf
	slab        []mapLeaf
}

func (a *leafAlloc) get() *mapLeaf {
	if n := len(a.free); n > 0 {
		l := a.free[n-1]
		a.free = a.free[:n-1]
		return l
	}
	if len(a.slab) == 0 {
		a.slab = make([]mapLeaf, leafSlab)
	}
	l := &a.slab[0]
	a.slab = a.slab[1:]
	return l
}

func (a *leafAlloc) put(l *mapLeaf) { a.free = append(a.free, l) }

func (m *blockMap) len() int { return m.n }

// get is the buffer holding block blk, or InvalidBuffer.
func (m *blockMap) get(blk pg.BlockNumber) pg.Buffer {
	if !m.sparse {
		return m.flat[blk]
	}
	return m.getSparse(blk)
}

// getSparse is get of a sparse map (kept apart so that get inlines).
func (m *blockMap) getSparse(blk pg.BlockNumber) pg.Buffer {
	if m.hash.slots != nil {
		return m.hash.get(blk)
	}
	if leaf := m.leaves[blk>>mapLeafBits]; leaf != nil {
		return leaf[blk&(mapLeafPages-1)]
	}
	return pg.InvalidBuffer
}

// entry is where get reads block blk's mapping (for a hashed map, its first
// probe), or nil when no memory holds it (a sparse leaf not allocated).
func (m *blockMap) entry(blk pg.BlockNumber) *pg.Buffer {
	if !m.sparse {
		return &m.flat[blk]
	}
	if m.hash.slots != nil {
		return &m.hash.slots[m.hash.home(uint32(blk)+1)].b
	}
	if leaf := m.leaves[blk>>mapLeafBits]; leaf != nil {
		return &leaf[blk&(mapLeafPages-1)]
	}
	return nil
}

// insert maps block blk, unmapped, to buffer b. Neither insert nor remove
// reads the entry it writes: on a large pool that entry is a cache miss,
// and a store that depends on no load does not wait for it.
func (m *blockMap) insert(blk pg.BlockNumber, b pg.Buffer) {
	if !m.sparse {
		m.flat[blk] = b
		return
	}
	if m.hash.slots != nil {
		m.hash.insert(blk, b)
		return
	}
	l := blk >> mapLeafBits
	leaf := m.leaves[l]
	if leaf == nil {
		leaf = m.alloc.get()
		m.leaves[l] = leaf
	}
	leaf[blk&(mapLeafPages-1)] = b
	m.counts[l]++
}

// remove unmaps block blk, mapped.
func (m *blockMap) remove(blk pg.BlockNumber) {
	if !m.sparse {
		m.flat[blk] = pg.InvalidBuffer
		return
	}
	if m.hash.slots != nil {
		m.hash.remove(blk)
		return
	}
	l := blk >> mapLeafBits
	leaf := m.leaves[l]
	leaf[blk&(mapLeafPages-1)] = pg.InvalidBuffer
	if m.counts[l]--; m.counts[l] == 0 {
		m.leaves[l] = nil
		m.alloc.put(leaf)
	}
}

// grow appends an unmapped block.
func (m *blockMap) grow() {
	if !m.sparse {
		if m.n < m.alloc.denseBlocks {
			m.flat = append(m.flat, pg.InvalidBuffer)
			m.n++
			return
		}
		m.toSparse()
	}
	if m.hash.slots != nil {
		m.n++
		return
	}
	if m.n&(mapLeafPages-1) == 0 {
		m.leaves = append(m.leaves, nil)
		m.counts = append(m.counts, 0)
	}
	m.n++
}

// growN is grow k times: a flat map's blocks appended at once, a sparse
// map's a leaf at a time.
func (m *blockMap) growN(k int) {
	if !m.sparse {
		d := min(k, max(m.alloc.denseBlocks-m.n, 0))
		m.flat = slices.Grow(m.flat, d)
		m.flat = m.flat[:len(m.flat)+d]
		clear(m.flat[m.n:]) // InvalidBuffer
		m.n += d
		if k -= d; k == 0 {
			return
		}
		m.toSparse()
	}
	if m.hash.slots != nil {
		m.n += k
		return
	}
	for k > 0 {
		if m.n&(mapLeafPages-1) == 0 {
			m.leaves = append(m.leaves, nil)
			m.counts = append(m.counts, 0)
		}
		step := min(k, mapLeafPages-m.n&(mapLeafPages-1))
		m.n += step
		k -= step
	}
}

// reserve makes room for n blocks (a relation to be grown to n blocks
// past the dense limit turns sparse now rather than fill a flat array it
// will leave).
func (m *blockMap) reserve(n int) {
	if !m.sparse {
		if n <= m.alloc.denseBlocks {
			if n > cap(m.flat) {
				m.flat = append(prefetch.Slice[pg.Buffer](n)[:0], m.flat...)
			}
			return
		}
		m.toSparse()
	}
	if m.hash.slots != nil {
		return
	}
	if want := (n + mapLeafPages - 1) >> mapLeafBits; want > cap(m.leaves) {
		m.leaves = append(make([]*mapLeaf, 0, want), m.leaves...)
		m.counts = append(make([]int32, 0, want), m.counts...)
	}
}

// toSparse turns a dense map into the sparse form, mappings kept.
func (m *blockMap) toSparse() {
	flat := m.flat
	m.sparse, m.flat = true, nil
	if m.alloc.hashed {
		m.hash.init(1 << 10)
	} else {
		nl := (m.n + mapLeafPages - 1) >> mapLeafBits
		m.leaves, m.counts = make([]*mapLeaf, nl), make([]int32, nl)
	}
	for blk, b := range flat {
		if b != pg.InvalidBuffer {
			m.insert(pg.BlockNumber(blk), b)
		}
	}
}

// flatten turns a sparse map into the flat form, mappings kept (see
// Pool.FlattenMapping); the form lasts until the relation grows past the
// pool's dense limit.
func (m *blockMap) flatten() {
	if !m.sparse {
		return
	}
	flat := prefetch.Slice[pg.Buffer](m.n)
	for _, e := range m.hash.slots {
		if e.key != 0 {
			flat[e.key-1] = e.b
		}
	}
	for l, leaf := range m.leaves {
		if leaf != nil {
			copy(flat[l<<mapLeafBits:], leaf[:min(mapLeafPages, m.n-l<<mapLeafBits)])
		}
	}
	m.release(0)
	m.sparse, m.flat, m.leaves, m.counts, m.hash = false, flat, nil, nil, blockHash{}
}

// release gives leaves [from, len) back to the allocator, cleared.
func (m *blockMap) release(from int) {
	if m.hash.slots != nil && from == 0 {
		clear(m.hash.slots)
		m.hash.count = 0
	}
	for l := from; l < len(m.leaves); l++ {
		if leaf := m.leaves[l]; leaf != nil {
			clear(leaf[:])
			m.alloc.put(leaf)
			m.leaves[l], m.counts[l] = nil, 0
		}
	}
}

// clear unmaps every block.
func (m *blockMap) clear() {
	clear(m.flat)
	m.release(0)
}

// shrink cuts the map to its first n blocks (every block from n on unmapped already).
func (m *blockMap) shrink(n int) {
	if n >= m.n {
		return
	}
	if !m.sparse {
		m.n, m.flat = n, m.flat[:n]
		return
	}
	if m.hash.slots != nil {
		m.n = n
		return
	}
	leaves := (n + mapLeafPages - 1) >> mapLeafBits
	m.release(leaves)
	m.n, m.leaves, m.counts = n, m.leaves[:leaves], m.counts[:leaves]
}

// truncate empties the map (a sparse one stays sparse: the relation that
// outgrew the dense limit may well do it again).
func (m *blockMap) truncate() {
	m.release(0)
	m.n, m.flat, m.leaves, m.counts = 0, m.flat[:0], m.leaves[:0], m.counts[:0]
}

// newBlockMap is a map of n unmapped blocks whose leaves come from a.
func newBlockMap(n int, a *leafAlloc) blockMap {
	m := blockMap{alloc: a}
	m.reserve(n)
	m.growN(n)
	return m
}

func (h *blockHash) init(size int) {
	h.slots, h.count, h.shift = make([]hashSlot, size), 0, 32
	for s := size; s > 1; s >>= 1 {
		h.shift--
	}
}

// home is key k's first slot (Fibonacci hashing: consecutive blocks spread).
func (h *blockHash) home(k uint32) int { return int(k * 0x9E3779B9 >> h.shift) }

// slot is where block blk's key is, or the empty slot that ends its probe.
func (h *blockHash) slot(blk pg.BlockNumber) int {
	k := uint32(blk) + 1
	mask := len(h.slots) - 1
	i := h.home(k)
	for h.slots[i].key != k && h.slots[i].key != 0 {
		i = (i + 1) & mask
	}
	return i
}

func (h *blockHash) get(blk pg.BlockNumber) pg.Buffer { return h.slots[h.slot(blk)].b }

func (h *blockHash) insert(blk pg.BlockNumber, b pg.Buffer) {
	if 2*(h.count+1) > len(h.slots) {
		old := h.slots
		h.init(2 * len(old))
		for _, e := range old {
			if e.key != 0 {
				h.insert(pg.BlockNumber(e.key-1), e.b)
			}
		}
	}
	h.slots[h.slot(blk)] = hashSlot{key: uint32(blk) + 1, b: b}
	h.count++
}

// remove deletes block blk's entry by backward shift: each later entry of
// the probe run whose home is not between the hole and it moves into the hole.
func (h *blockHash) remove(blk pg.BlockNumber) {
	mask := len(h.slots) - 1
	hole := h.slot(blk)
	for j := (hole + 1) & mask; h.slots[j].key != 0; j = (j + 1) & mask {
		if home := h.home(h.slots[j].key); (j-home)&mask >= (j-hole)&mask {
			h.slots[hole] = h.slots[j]
			hole = j
		}
	}
	h.slots[hole] = hashSlot{}
	h.count--
}
