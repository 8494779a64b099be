package bufmgr

import "github.com/pgbufsim/pgbufsim/pg"

// lsnTable is a relation's page LSNs (pd_lsn of each block, in cache or on
// disk) in about 2.6 bytes a page, every value exact.
//
// A WAL record's end, which is what a page LSN is, is MAXALIGNed
// (ReserveXLogInsertLocation: a record's size is MAXALIGNed, and the page
// headers between records are 24 or 40 bytes), so an LSN is kept in units
// of 8 bytes. Pages are grouped in blocks of lsnBlockPages: a block keeps two
// base LSNs and each page's LSN as a 16-bit count of 8-byte units from one of
// them (0 is LSN 0; a bit per page picks the base), which reaches 512 kB
// past the base: the 32 pages of a block are logged within that by the load
// that filled them (a page's rows are about 8 kB of WAL), again by the scan
// or VACUUM that relogs them, and the second base holds the next epoch while
// such a sweep passes through the block. A base no page refers to any more
// is replaced; a block whose LSNs neither base reaches (or one not
// MAXALIGNed) goes wide, 8 bytes a page, and narrows again when its last
// page is set and two bases reach all of its LSNs again (the end of the
// next sweep over it; a relation's last block, short of its last page, may
// stay wide). A parallel scan's participants interleave their pages'
// images, so a block's pages are then logged participants × 8 kB apart:
// the block goes wide while the scan passes through it and narrows at its
// end. Blocks are allocated a chunk (lsnChunkPages) at a time, at the
// chunk's first LSN other than 0: an extended, never logged chunk costs a
// pointer.
type lsnTable struct {
	n      int
	chunks []*lsnChunk // &lsnZero: every page's LSN is 0
	// wide holds the LSNs of the wide blocks (a block's base[0] is its
	// index, base[1] lsnWide), wideFree the slots given back.
	wide     [][lsnBlockPages]pg.LSN
	wideFree []uint32
}

const (
	lsnChunkBits  = 12
	lsnChunkPages = 1 << lsnChunkBits
	lsnBlockBits  = 5
	lsnBlockPages = 1 << lsnBlockBits
	lsnBlocks     = lsnChunkPages / lsnBlockPages // blocks per chunk
	lsnReach      = 1<<16 - 1                     // units a page's value holds past its base, +1
	// lsnWide in a block's base[1] marks it wide: no LSN is that large.
	lsnWide = ^pg.LSN(0)
)

// lsnZero stands for every chunk not allocated yet: its pages read LSN 0.
// It is never written (set allocates a chunk in its place first).
var lsnZero lsnChunk

type lsnChunk struct {
	val  [lsnChunkPages]uint16 // 0: LSN 0 (and every page of a wide block); else units from the base, +1
	base [lsnBlocks][2]pg.LSN  // each block's two bases
	sel  [lsnBlocks]uint32     // bit j of a block: page j refers to base 1
}

func (t *lsnTable) len() int { return t.n }

// get is block i's LSN.
func (t *lsnTable) get(i int) pg.LSN {
	c := t.chunks[i>>lsnChunkBits]
	base := &c.base[i>>lsnBlockBits&(lsnBlocks-1)]
	if v := c.val[i&(lsnChunkPages-1)]; v != 0 {
		return base[c.sel[i>>lsnBlockBits&(lsnBlocks-1)]>>(i&(lsnBlockPages-1))&1] + pg.LSN(v)<<3 - 8
	}
	if base[1] == lsnWide {
		return t.wide[base[0]][i&(lsnBlockPages-1)]
	}
	return 0
}

// set makes block i's LSN lsn.
func (t *lsnTable) set(i int, lsn pg.LSN) {
	// The common case first: a narrow block, lsn in reach of one of its bases.
	if c := t.chunks[i>>lsnChunkBits]; c != &lsnZero && lsn&7 == 0 && lsn != 0 {
		j := i & (lsnChunkPages - 1)
		b, p := j>>lsnBlockBits, uint(j&(lsnBlockPages-1))
		if b0, b1 := c.base[b&(lsnBlocks-1)][0], c.base[b&(lsnBlocks-1)][1]; b1 != lsnWide {
			if d := (lsn - b0) >> 3; lsn >= b0 && d < lsnReach {
				c.val[j] = uint16(d) + 1
				c.sel[b] &^= 1 << p
				return
			}
			if d := (lsn - b1) >> 3; lsn >= b1 && d < lsnReach {
				c.val[j] = uint16(d) + 1
				c.sel[b] |= 1 << p
				return
			}
		}
	}
	t.setSlow(i, lsn)
}

// setSlow is set for the rest: a chunk still all 0, a wide block, LSN 0,
// an LSN not MAXALIGNed or out of both bases' reach.
func (t *lsnTable) setSlow(i int, lsn pg.LSN) {
	c := t.chunks[i>>lsnChunkBits]
	if c == &lsnZero {
		if lsn == 0 {
			return
		}
		c = new(lsnChunk)
		t.chunks[i>>lsnChunkBits] = c
	}
	j := i & (lsnChunkPages - 1)
	b, p := j>>lsnBlockBits, uint(j&(lsnBlockPages-1))
	if c.base[b][1] == lsnWide {
		t.wide[c.base[b][0]][p] = lsn
		if p == lsnBlockPages-1 {
			t.narrow(c, b)
		}
		return
	}
	if lsn == 0 {
		c.val[j] = 0
		return
	}
	if lsn&7 == 0 {
		for k := range 2 {
			if base := c.base[b][k]; lsn >= base && (lsn-base)>>3 < lsnReach {
				c.val[j] = uint16((lsn-base)>>3) + 1
				c.sel[b] = c.sel[b]&^(1<<p) | uint32(k)<<p
				return
			}
		}
		// A base no other page of the block refers to becomes lsn.
		var used uint32 // the other pages with an LSN other than 0
		for q, v := range c.val[b<<lsnBlockBits:][:lsnBlockPages] {
			if v != 0 && q != int(p) {
				used |= 1 << q
			}
		}
		users := [2]uint32{used &^ c.sel[b], used & c.sel[b]}
		for k := range 2 {
			if users[k] == 0 {
				c.base[b][k] = lsn
				c.val[j] = 1
				c.sel[b] = c.sel[b]&^(1<<p) | uint32(k)<<p
				return
			}
		}
	}
	// Out of reach of both bases in use: the block goes wide.
	c.val[j] = 0 // the widened block reads page j as lsn, set below
	t.widen(c, b)
	t.wide[c.base[b][0]][p] = lsn
}

// widen turns block b of chunk c to 8 bytes a page.
func (t *lsnTable) widen(c *lsnChunk, b int) {
	var w uint32
	if n := len(t.wideFree); n > 0 {
		w, t.wideFree = t.wideFree[n-1], t.wideFree[:n-1]
	} else {
		w = uint32(len(t.wide))
		t.wide = append(t.wide, [lsnBlockPages]pg.LSN{})
	}
	vals := c.val[b<<lsnBlockBits:][:lsnBlockPages]
	for q, v := range vals {
		l := pg.LSN(0)
		if v != 0 {
			l = c.base[b][c.sel[b]>>q&1] + pg.LSN(v-1)<<3
		}
		t.wide[w][q] = l
		vals[q] = 0
	}
	c.base[b][0], c.base[b][1], c.sel[b] = pg.LSN(w), lsnWide, 0
}

// narrow turns wide block b of chunk c back to 2 bytes a page if two bases
// reach all of its LSNs: the smallest, and the smallest of those it does
// not reach.
func (t *lsnTable) narrow(c *lsnChunk, b int) {
	w := c.base[b][0]
	lsns := &t.wide[w]
	base := [2]pg.LSN{lsnWide, lsnWide}
	for k := range 2 {
		for _, l := range lsns {
			if l != 0 && (k == 0 || (l-base[0])>>3 >= lsnReach) && l < base[k] {
				base[k] = l
			}
		}
	}
	if base[0] == lsnWide {
		base[0] = 0 // every LSN 0
	}
	if base[1] == lsnWide {
		base[1] = base[0] // one base reaches them all
	}
	var sel uint32
	var vals [lsnBlockPages]uint16
	for q, l := range lsns {
		switch {
		case l == 0:
		case l&7 != 0:
			return
		case (l-base[0])>>3 < lsnReach:
			vals[q] = uint16((l-base[0])>>3) + 1
		case (l-base[1])>>3 < lsnReach:
			vals[q] = uint16((l-base[1])>>3) + 1
			sel |= 1 << q
		default:
			return
		}
	}
	copy(c.val[b<<lsnBlockBits:], vals[:])
	c.base[b][0], c.base[b][1], c.sel[b] = base[0], base[1], sel
	t.wideFree = append(t.wideFree, uint32(w))
}

// grow appends a block of LSN 0.
func (t *lsnTable) grow() {
	if t.n&(lsnChunkPages-1) == 0 {
		t.chunks = append(t.chunks, &lsnZero)
	}
	t.n++
}

// growN is grow k times, a chunk at a time.
func (t *lsnTable) growN(k int) {
	for k > 0 {
		if t.n&(lsnChunkPages-1) == 0 {
			t.chunks = append(t.chunks, &lsnZero)
		}
		step := min(k, lsnChunkPages-t.n&(lsnChunkPages-1))
		t.n += step
		k -= step
	}
}

// reserve makes room for n blocks' chunk pointers (a chunk's blocks are
// allocated when it gets its first LSN).
func (t *lsnTable) reserve(n int) {
	if want := (n + lsnChunkPages - 1) >> lsnChunkBits; want > cap(t.chunks) {
		t.chunks = append(make([]*lsnChunk, 0, want), t.chunks...)
	}
}

// shrink cuts the table to its first n blocks: the pages cut from a chunk
// kept are set to 0 first (a grown page reads 0), the chunks past it
// dropped, their wide blocks given back.
func (t *lsnTable) shrink(n int) {
	if n >= t.n {
		return
	}
	keep := (n + lsnChunkPages - 1) >> lsnChunkBits
	for i := n; i < min(t.n, keep<<lsnChunkBits); i++ {
		t.set(i, 0)
	}
	for k := keep; k < len(t.chunks); k++ {
		if c := t.chunks[k]; c != &lsnZero {
			for b := range lsnBlocks {
				if c.base[b][1] == lsnWide {
					t.wideFree = append(t.wideFree, uint32(c.base[b][0]))
				}
			}
		}
		t.chunks[k] = &lsnZero
	}
	t.chunks = t.chunks[:keep]
	t.n = n
}

// truncate empties the table.
func (t *lsnTable) truncate() {
	clear(t.chunks)
	t.n, t.chunks, t.wide, t.wideFree = 0, t.chunks[:0], t.wide[:0], t.wideFree[:0]
}

// newLSNTable is a table of n blocks of LSN 0.
func newLSNTable(n int) lsnTable {
	var t lsnTable
	t.reserve(n)
	t.growN(n)
	return t
}
