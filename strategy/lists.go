package strategy

import "github.com/pgbufsim/pgbufsim/pg"

// bufLists keeps every buffer on at most one of a few doubly linked lists,
// threaded through arrays indexed by buffer number: O(1) moves and no
// allocation after construction. Each list runs from its LRU end (head) to
// its MRU end (tail).
type bufLists struct {
	prev, next []pg.Buffer // links; InvalidBuffer ends a list
	on         []int8      // the list a buffer is on, -1 for none
	head, tail []pg.Buffer
	size       []int
}

func newBufLists(nbuffers, nlists int) bufLists {
	l := bufLists{prev: make([]pg.Buffer, nbuffers+1), next: make([]pg.Buffer, nbuffers+1),
		on: make([]int8, nbuffers+1), head: make([]pg.Buffer, nlists), tail: make([]pg.Buffer, nlists), size: make([]int, nlists)}
	for i := range l.on {
		l.on[i] = -1
	}
	return l
}

// remove takes b off its list, if any.
func (l *bufLists) remove(b pg.Buffer) {
	li := l.on[b]
	if li < 0 {
		return
	}
	p, n := l.prev[b], l.next[b]
	if p != pg.InvalidBuffer {
		l.next[p] = n
	} else {
		l.head[li] = n
	}
	if n != pg.InvalidBuffer {
		l.prev[n] = p
	} else {
		l.tail[li] = p
	}
	l.prev[b], l.next[b], l.on[b] = pg.InvalidBuffer, pg.InvalidBuffer, -1
	l.size[li]--
}

// fill puts buffers 1..n on list li in buffer order, 1 at the LRU end: the
// never-used buffers a policy hands out first (with freelist=off nothing
// else would).
func (l *bufLists) fill(li int) {
	for b := pg.Buffer(1); int(b) < len(l.on); b++ {
		l.pushMRU(li, b)
	}
}

// pushMRU puts b at the MRU end of list li (taking it off its list first).
func (l *bufLists) pushMRU(li int, b pg.Buffer) {
	l.remove(b)
	t := l.tail[li]
	l.prev[b] = t
	if t != pg.InvalidBuffer {
		l.next[t] = b
	} else {
		l.head[li] = b
	}
	l.tail[li] = b
	l.on[b] = int8(li)
	l.size[li]++
}

// pushLRU puts b at the LRU end of list li: the next one a victim search meets.
func (l *bufLists) pushLRU(li int, b pg.Buffer) {
	l.remove(b)
	h := l.head[li]
	l.next[b] = h
	if h != pg.InvalidBuffer {
		l.prev[h] = b
	} else {
		l.tail[li] = b
	}
	l.head[li] = b
	l.on[b] = int8(li)
	l.size[li]++
}

// firstUnpinned walks list li from its LRU end to the first unpinned buffer.
func (l *bufLists) firstUnpinned(li int, states []pg.BufState) pg.Buffer {
	for b := l.head[li]; b != pg.InvalidBuffer; b = l.next[b] {
		if states[b]&pg.RefcountMask == 0 {
			return b
		}
	}
	return pg.InvalidBuffer
}

// tagTable maps page tags to small non-negative integers (a policy's ghost
// slots): open addressing with linear probing and backward-shift deletion,
// sized once for at most capacity entries, so lookups, inserts and deletes
// never allocate and leave no tombstones behind.
type tagTable struct {
	keys []pg.BufferTag
	vals []int32 // -1: empty
	mask uint64
	n    int
}

func newTagTable(capacity int) tagTable {
	size := 8
	for size < 2*capacity {
		size <<= 1
	}
	m := tagTable{keys: make([]pg.BufferTag, size), vals: make([]int32, size), mask: uint64(size - 1)}
	for i := range m.vals {
		m.vals[i] = -1
	}
	return m
}

// home is t's first probe position (a 64-bit finalizer over its fields).
func (m *tagTable) home(t pg.BufferTag) uint64 {
	h := uint64(uint32(t.Rel))*0x9e3779b97f4a7c15 ^ (uint64(t.Fork)<<32 | uint64(t.Block))
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h & m.mask
}

// get returns t's value, or -1.
func (m *tagTable) get(t pg.BufferTag) int32 {
	for i := m.home(t); ; i = (i + 1) & m.mask {
		v := m.vals[i]
		if v < 0 || m.keys[i] == t {
			return v
		}
	}
}

// put sets t's value; the table must hold fewer than half its size.
func (m *tagTable) put(t pg.BufferTag, v int32) {
	for i := m.home(t); ; i = (i + 1) & m.mask {
		if m.vals[i] < 0 {
			m.keys[i], m.vals[i] = t, v
			m.n++
			return
		}
		if m.keys[i] == t {
			m.vals[i] = v
			return
		}
	}
}

// del removes t, if present, shifting later entries of its probe run back.
func (m *tagTable) del(t pg.BufferTag) {
	i := m.home(t)
	for ; ; i = (i + 1) & m.mask {
		if m.vals[i] < 0 {
			return
		}
		if m.keys[i] == t {
			break
		}
	}
	for j := i; ; {
		j = (j + 1) & m.mask
		if m.vals[j] < 0 {
			break
		}
		k := m.home(m.keys[j])
		// The entry at j stays if its home lies cyclically in (i, j].
		if (i < j && i < k && k <= j) || (i > j && (i < k || k <= j)) {
			continue
		}
		m.keys[i], m.vals[i] = m.keys[j], m.vals[j]
		i = j
	}
	m.vals[i] = -1
	m.n--
}

// ghostLists are lists of remembered page tags (a policy's ghost lists,
// like ARC's B1 and B2) in a fixed pool of slots, each list from its LRU
// end (head) to its MRU end (tail), with a tagTable to find a tag's slot.
type ghostLists struct {
	tag        []pg.BufferTag
	prev, next []int32 // -1 ends a list
	on         []int8  // the slot's list, -1 for unused
	head, tail []int32
	size       []int
	unused     []int32 // stack of unused slots
	idx        tagTable
}

func newGhostLists(slots, nlists int) ghostLists {
	g := ghostLists{tag: make([]pg.BufferTag, slots), prev: make([]int32, slots), next: make([]int32, slots),
		on: make([]int8, slots), head: make([]int32, nlists), tail: make([]int32, nlists), size: make([]int, nlists),
		unused: make([]int32, slots), idx: newTagTable(slots)}
	for i := range g.on {
		g.on[i] = -1
		g.unused[i] = int32(slots - 1 - i) // slot 0 on top
	}
	for li := range g.head {
		g.head[li], g.tail[li] = -1, -1
	}
	return g
}

// find returns t's slot and list, or -1, -1.
func (g *ghostLists) find(t pg.BufferTag) (slot int32, list int) {
	s := g.idx.get(t)
	if s < 0 {
		return -1, -1
	}
	return s, int(g.on[s])
}

// full reports that every slot is in use.
func (g *ghostLists) full() bool { return len(g.unused) == 0 }

// pushMRU remembers t at the MRU end of list li; a slot must be free.
func (g *ghostLists) pushMRU(li int, t pg.BufferTag) {
	s := g.unused[len(g.unused)-1]
	g.unused = g.unused[:len(g.unused)-1]
	g.tag[s], g.on[s], g.next[s], g.prev[s] = t, int8(li), -1, g.tail[li]
	if g.tail[li] >= 0 {
		g.next[g.tail[li]] = s
	} else {
		g.head[li] = s
	}
	g.tail[li] = s
	g.size[li]++
	g.idx.put(t, s)
}

// remove forgets slot s's tag.
func (g *ghostLists) remove(s int32) {
	li := g.on[s]
	p, n := g.prev[s], g.next[s]
	if p >= 0 {
		g.next[p] = n
	} else {
		g.head[li] = n
	}
	if n >= 0 {
		g.prev[n] = p
	} else {
		g.tail[li] = p
	}
	g.size[li]--
	g.on[s] = -1
	g.idx.del(g.tag[s])
	g.unused = append(g.unused, s) // within the capacity made at construction
}

// dropLRU forgets the oldest tag of list li, if any.
func (g *ghostLists) dropLRU(li int) {
	if s := g.head[li]; s >= 0 {
		g.remove(s)
	}
}
