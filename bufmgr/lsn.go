package bufmgr

import "github.com/pgbufsim/pgbufsim/pg"

// lsnTable is a relation's page LSNs (pd_lsn of each block, in cache or on
// disk) in 4 bytes a page where it can be. Pages are grouped in chunks of
// lsnChunkPages; a chunk keeps two base LSNs and each page's LSN as a 31-bit
// offset from one of them (bit 31 picks the base; 0 is LSN 0), since a
// chunk's pages are mostly logged close together — by the load that wrote
// them, then again by the scan that hinted them or the next load. A base
// no page refers to any more is reused; an LSN neither base can reach
// widens the chunk to 8 bytes a page, so every value stays exact.
type lsnTable struct {
	n      int
	chunks []lsnChunk
}

const (
	lsnChunkBits  = 12
	lsnChunkPages = 1 << lsnChunkBits
	lsnSpan       = 1<<31 - 1 // offsets 0 … lsnSpan−1 from a base, stored +1
)

type lsnChunk struct {
	narrow []uint32 // per page: 0 (LSN 0), or bit 31 the base, the rest offset+1
	wide   []pg.LSN // non-nil once the chunk is wide (narrow is then nil)
	base   [2]pg.LSN
	refs   [2]int32 // pages referring to each base
}

func (t *lsnTable) len() int { return t.n }

// get is block i's LSN.
func (t *lsnTable) get(i int) pg.LSN {
	c := &t.chunks[i>>lsnChunkBits]
	j := i & (lsnChunkPages - 1)
	if c.wide != nil {
		return c.wide[j]
	}
	v := c.narrow[j]
	if v == 0 {
		return 0
	}
	return c.base[v>>31] + pg.LSN(v&lsnSpan) - 1
}

// set makes block i's LSN lsn.
func (t *lsnTable) set(i int, lsn pg.LSN) {
	c := &t.chunks[i>>lsnChunkBits]
	j := i & (lsnChunkPages - 1)
	if c.wide != nil {
		c.wide[j] = lsn
		return
	}
	old := c.narrow[j]
	if old != 0 {
		c.refs[old>>31]--
	}
	if lsn == 0 {
		c.narrow[j] = 0
		return
	}
	for k := range c.base {
		if c.refs[k] > 0 && lsn >= c.base[k] && lsn-c.base[k] < lsnSpan {
			c.refs[k]++
			c.narrow[j] = uint32(k)<<31 | uint32(lsn-c.base[k]+1)
			return
		}
	}
	for k := range c.base {
		if c.refs[k] == 0 { // a free base: lsn becomes it
			c.base[k], c.refs[k] = lsn, 1
			c.narrow[j] = uint32(k)<<31 | 1
			return
		}
	}
	// Out of reach of both bases in use: the chunk goes wide.
	if old != 0 {
		c.refs[old>>31]++ // widen reads the old value back
	}
	c.widen()
	c.wide[j] = lsn
}

// widen turns the chunk to 8 bytes a page.
func (c *lsnChunk) widen() {
	w := make([]pg.LSN, len(c.narrow), cap(c.narrow))
	for j, v := range c.narrow {
		if v != 0 {
			w[j] = c.base[v>>31] + pg.LSN(v&lsnSpan) - 1
		}
	}
	c.wide, c.narrow = w, nil
}

// grow appends a block of LSN 0.
func (t *lsnTable) grow() {
	j := t.n & (lsnChunkPages - 1)
	if j == 0 && t.n>>lsnChunkBits == len(t.chunks) {
		t.chunks = append(t.chunks, lsnChunk{narrow: make([]uint32, 0, lsnChunkPages)})
	}
	c := &t.chunks[t.n>>lsnChunkBits]
	if c.wide != nil {
		c.wide = append(c.wide, 0)
	} else {
		c.narrow = append(c.narrow, 0)
	}
	t.n++
}

// reserve makes room for n blocks' chunk headers (the pages' arrays are
// allocated a chunk at a time as the relation grows).
func (t *lsnTable) reserve(n int) {
	if want := (n + lsnChunkPages - 1) >> lsnChunkBits; want > cap(t.chunks) {
		t.chunks = append(make([]lsnChunk, 0, want), t.chunks...)
	}
}

// shrink cuts the table to its first n blocks (their bases' references
// released first, so a chunk cut short keeps exact counts).
func (t *lsnTable) shrink(n int) {
	if n >= t.n {
		return
	}
	for i := n; i < t.n; i++ {
		t.set(i, 0)
	}
	chunks := (n + lsnChunkPages - 1) >> lsnChunkBits
	t.chunks = t.chunks[:chunks]
	if j := n & (lsnChunkPages - 1); j != 0 {
		c := &t.chunks[chunks-1]
		if c.wide != nil {
			c.wide = c.wide[:j]
		} else {
			c.narrow = c.narrow[:j]
		}
	}
	t.n = n
}

// truncate empties the table.
func (t *lsnTable) truncate() { t.n, t.chunks = 0, t.chunks[:0] }

// newLSNTable is a table of n blocks of LSN 0.
func newLSNTable(n int) lsnTable {
	var t lsnTable
	t.reserve(n)
	for t.n < n {
		t.grow()
	}
	return t
}
