package bufmgr

import "github.com/pgbufsim/pgbufsim/pg"

// blockMap is a relation's part of the buffer mapping table (BufTableLookup
// for its blocks): block → buffer holding it, or InvalidBuffer. It is a
// two-level table whose leaves (mapLeafPages blocks each) exist only while
// one of their blocks is in a buffer, so its memory follows what is cached,
// not the relation's size: a terabyte table in a 128 GB pool keeps 8 bytes
// a leaf for the rest.
type blockMap struct {
	n      int
	leaves []*[mapLeafPages]pg.Buffer
	counts []int32 // mapped blocks per leaf
}

const (
	mapLeafBits  = 12
	mapLeafPages = 1 << mapLeafBits
)

func (m *blockMap) len() int { return m.n }

// get is the buffer holding block blk, or InvalidBuffer.
func (m *blockMap) get(blk pg.BlockNumber) pg.Buffer {
	if leaf := m.leaves[blk>>mapLeafBits]; leaf != nil {
		return leaf[blk&(mapLeafPages-1)]
	}
	return pg.InvalidBuffer
}

// set maps block blk to b (InvalidBuffer: unmaps it).
func (m *blockMap) set(blk pg.BlockNumber, b pg.Buffer) {
	l := blk >> mapLeafBits
	leaf := m.leaves[l]
	if leaf == nil {
		if b == pg.InvalidBuffer {
			return
		}
		leaf = new([mapLeafPages]pg.Buffer)
		m.leaves[l] = leaf
	}
	old := &leaf[blk&(mapLeafPages-1)]
	switch {
	case *old == pg.InvalidBuffer && b != pg.InvalidBuffer:
		m.counts[l]++
	case *old != pg.InvalidBuffer && b == pg.InvalidBuffer:
		if m.counts[l]--; m.counts[l] == 0 {
			m.leaves[l] = nil
			return
		}
	}
	*old = b
}

// grow appends an unmapped block.
func (m *blockMap) grow() {
	if m.n&(mapLeafPages-1) == 0 {
		m.leaves = append(m.leaves, nil)
		m.counts = append(m.counts, 0)
	}
	m.n++
}

// reserve makes room for n blocks' leaf pointers.
func (m *blockMap) reserve(n int) {
	if want := (n + mapLeafPages - 1) >> mapLeafBits; want > cap(m.leaves) {
		m.leaves = append(make([]*[mapLeafPages]pg.Buffer, 0, want), m.leaves...)
		m.counts = append(make([]int32, 0, want), m.counts...)
	}
}

// clear unmaps every block.
func (m *blockMap) clear() {
	clear(m.leaves)
	clear(m.counts)
}

// shrink cuts the map to its first n blocks (every block from n on unmapped already).
func (m *blockMap) shrink(n int) {
	if n >= m.n {
		return
	}
	leaves := (n + mapLeafPages - 1) >> mapLeafBits
	clear(m.leaves[leaves:])
	m.n, m.leaves, m.counts = n, m.leaves[:leaves], m.counts[:leaves]
}

// truncate empties the map.
func (m *blockMap) truncate() { m.n, m.leaves, m.counts = 0, m.leaves[:0], m.counts[:0] }

// newBlockMap is a map of n unmapped blocks.
func newBlockMap(n int) blockMap {
	var m blockMap
	m.reserve(n)
	for m.n < n {
		m.grow()
	}
	return m
}
