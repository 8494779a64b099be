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
