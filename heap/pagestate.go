package heap

// uniform is a per-page array of small values (a page's packed state, its
// FSM category) in chunks of uniPages pages. A chunk whose pages all hold
// one value keeps only that value: a load fills a large table's pages alike
// (the same tuple count, flags and free space), and a scan or VACUUM then
// sets the same flags on all of them, so most chunks of a large table cost
// a few bytes, not one or two a page. A chunk gets its array when a page
// diverges, and is compacted again when its last page is set and every page
// holds the same value (a sweep ends a chunk there; checking then costs one
// pass over the chunk per sweep). Every value stays exact: the form is only
// how it is stored.
type uniform[T uint8 | uint16] struct {
	n      int
	chunks []uniChunk[T]
	spare  [][]T // arrays of chunks compacted, for the next to diverge
}

type uniChunk[T uint8 | uint16] struct {
	vals []T // the chunk's pages (cap uniPages), or nil: every page holds v
	v    T
	// direct is uniPages−1 while vals is set, else 0: the pages below it
	// are set straight in vals (the last is set through settle).
	direct uint16
}

const (
	uniBits  = 12
	uniPages = 1 << uniBits
	// spareArrays is how many compacted chunks' arrays are kept for reuse.
	spareArrays = 4
)

func (u *uniform[T]) len() int { return u.n }

// get is page i's value.
func (u *uniform[T]) get(i int) T {
	c := &u.chunks[i>>uniBits]
	if c.vals == nil {
		return c.v
	}
	return c.vals[i&(uniPages-1)]
}

// set makes page i's value v.
func (u *uniform[T]) set(i int, v T) {
	if c, j := &u.chunks[i>>uniBits], i&(uniPages-1); j < int(c.direct) {
		c.vals[j] = v
		return
	}
	u.setSlow(i, v)
}

// setSlow is set in a uniform chunk or of a chunk's last page.
func (u *uniform[T]) setSlow(i int, v T) {
	c := &u.chunks[i>>uniBits]
	if c.vals == nil {
		if v == c.v {
			return
		}
		u.split(c, i>>uniBits)
	}
	c.vals[i&(uniPages-1)] = v
	if i&(uniPages-1) == uniPages-1 {
		u.settle(c)
	}
}

// chunkLen is how many pages chunk k holds.
func (u *uniform[T]) chunkLen(k int) int { return min(uniPages, u.n-k<<uniBits) }

// split gives uniform chunk k its array.
func (u *uniform[T]) split(c *uniChunk[T], k int) {
	var a []T
	if n := len(u.spare); n > 0 {
		a, u.spare = u.spare[n-1], u.spare[:n-1]
	} else {
		a = make([]T, 0, uniPages)
	}
	a = a[:u.chunkLen(k)]
	for j := range a {
		a[j] = c.v
	}
	c.vals, c.direct = a, uniPages-1
}

// settle compacts a full chunk whose pages all hold one value.
func (u *uniform[T]) settle(c *uniChunk[T]) {
	v := c.vals[0]
	for _, x := range c.vals {
		if x != v {
			return
		}
	}
	u.keep(c.vals)
	c.vals, c.v, c.direct = nil, v, 0
}

// keep keeps array a for reuse, up to spareArrays of them (the rest are
// the collector's: a sweep that compacts every chunk frees their memory).
func (u *uniform[T]) keep(a []T) {
	if len(u.spare) < spareArrays {
		u.spare = append(u.spare, a[:0])
	}
}

// grow appends a page of value v.
func (u *uniform[T]) grow(v T) {
	if j := u.n & (uniPages - 1); j != 0 {
		c := &u.chunks[u.n>>uniBits]
		if c.vals != nil { // cap uniPages
			c.vals = c.vals[:j+1]
			c.vals[j] = v
			u.n++
			return
		}
		if c.v == v {
			u.n++
			return
		}
	}
	u.growSlow(v)
}

// growN is grow(v) k times: a new chunk's first page through grow, the
// rest of a chunk that stays uniform at v in one step (a table created
// with millions of empty pages).
func (u *uniform[T]) growN(v T, k int) {
	for ; k > 0; k-- {
		if j := u.n & (uniPages - 1); j != 0 {
			if c := &u.chunks[u.n>>uniBits]; c.vals == nil && c.v == v {
				step := min(k, uniPages-j)
				u.n += step
				k -= step - 1
				continue
			}
		}
		u.grow(v)
	}
}

// growSlow is grow onto a new chunk, or onto one the new page's value splits.
func (u *uniform[T]) growSlow(v T) {
	k := u.n >> uniBits
	if u.n&(uniPages-1) == 0 {
		if k < len(u.chunks) {
			panic("heap: uniform chunks out of step")
		}
		u.chunks = append(u.chunks, uniChunk[T]{v: v})
		u.n++
		return
	}
	c := &u.chunks[k]
	u.split(c, k)
	c.vals = append(c.vals, v)
	u.n++
}

// direct is where page i's value is, if it may be set there (its chunk
// has an array, and i is not the chunk's last page), else nil: the hot
// callers' one lookup, set and update's fast path inlined.
func (u *uniform[T]) direct(i int) *T {
	if c, j := &u.chunks[i>>uniBits], i&(uniPages-1); j < int(c.direct) {
		return &c.vals[j]
	}
	return nil
}

// update makes page i's value ((v + add) | or) &^ clear of its value v: a
// page's count and flags changed in one lookup.
func (u *uniform[T]) update(i int, add, or, clear T) {
	if c, j := &u.chunks[i>>uniBits], i&(uniPages-1); j < int(c.direct) {
		p := &c.vals[j]
		*p = (*p + add | or) &^ clear
		return
	}
	u.setSlow(i, (u.get(i)+add|or)&^clear)
}

// reserve makes room for n pages' chunk headers.
func (u *uniform[T]) reserve(n int) {
	if want := (n + uniPages - 1) >> uniBits; want > cap(u.chunks) {
		u.chunks = append(make([]uniChunk[T], 0, want), u.chunks...)
	}
}

// shrink cuts the array to its first n pages.
func (u *uniform[T]) shrink(n int) {
	if n >= u.n {
		return
	}
	keep := (n + uniPages - 1) >> uniBits
	for k := keep; k < len(u.chunks); k++ {
		if a := u.chunks[k].vals; a != nil {
			u.keep(a)
		}
		u.chunks[k] = uniChunk[T]{}
	}
	u.chunks = u.chunks[:keep]
	if j := n & (uniPages - 1); j != 0 && u.chunks[keep-1].vals != nil {
		u.chunks[keep-1].vals = u.chunks[keep-1].vals[:j]
	}
	u.n = n
}

// count is how many pages hold a value with every bit of mask set.
func (u *uniform[T]) count(mask T) int {
	n := 0
	for k := range u.chunks {
		c := &u.chunks[k]
		if c.vals == nil {
			if c.v&mask == mask {
				n += u.chunkLen(k)
			}
			continue
		}
		for _, x := range c.vals {
			if x&mask == mask {
				n++
			}
		}
	}
	return n
}
