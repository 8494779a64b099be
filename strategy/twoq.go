package strategy

import "github.com/pgbufsim/pgbufsim/pg"

// TwoQ is the 2Q policy of Johnson and Shasha (VLDB 1994), the one
// PostgreSQL 8.0.2 shipped in place of ARC before 8.1 replaced both with the
// clock sweep (commit "Replace the BufMgrLock with separate locks…", 2005).
// The 8.0 branch's freelist.c kept ARC's list names: T1 for pages seen once,
// T2 for pages seen again, B1 for the tags of pages recently evicted from T1.
//
// # What is modelled
//
//   - A page read into a buffer joins T1 (A1in) at its MRU end, or T2 (Am)
//     if its tag is still remembered in B1 (A1out): it was evicted from T1
//     and came back.
//   - A second access while in T1 moves the page to T2's MRU end, as 8.0's
//     lists moved a T1 hit to T2 (8.0 did so only for a hit by another
//     transaction; every first pin by a backend counts here); an access in
//     T2 moves it to T2's MRU end.
//   - The victim is T1's least recently used unpinned buffer while T1 holds
//     more than its target, a quarter of the pool (the paper's Kin = 25%),
//     else T2's; B1 remembers the last half pool's worth of tags (Kout = 50%).
//
// So a scan of pages read once cycles through T1 and leaves a page used
// twice alone in T2: the scan resistance the clock gets from usage counts
// and rings.
type TwoQ struct {
	l          bufLists
	kin        int
	ghost      map[pg.BufferTag]uint64 // B1: tag → its entry's sequence number
	ghostFIFO  []ghostEntry            // B1 in eviction order, a ring of kout entries
	ghostNext  uint64                  // sequence number of the next entry
	ghostSlots int
}

type ghostEntry struct {
	tag pg.BufferTag
	seq uint64
}

const (
	twoQT1 = iota
	twoQT2
	twoQFree // buffers whose page was forgotten: reused first
	twoQLists
)

func newTwoQ(nbuffers int) *TwoQ {
	kout := max(1, nbuffers/2)
	q := &TwoQ{l: newBufLists(nbuffers, twoQLists), kin: max(1, nbuffers/4),
		ghost: make(map[pg.BufferTag]uint64, kout+1), ghostFIFO: make([]ghostEntry, kout), ghostSlots: kout}
	q.l.fill(twoQFree) // never-used buffers, handed out 1, 2, 3, …
	return q
}

// Access promotes a page seen again to T2's MRU end.
func (q *TwoQ) Access(b pg.Buffer) {
	if li := q.l.on[b]; li == twoQT1 || li == twoQT2 {
		q.l.pushMRU(twoQT2, b)
	}
}

// Load puts a new page in T1, or in T2 if B1 remembers it.
func (q *TwoQ) Load(b pg.Buffer, t pg.BufferTag) {
	if _, ok := q.ghost[t]; ok {
		delete(q.ghost, t)
		q.l.pushMRU(twoQT2, b)
		return
	}
	q.l.pushMRU(twoQT1, b)
}

// Forget remembers a page leaving T1 in B1 and makes its buffer the next victim.
func (q *TwoQ) Forget(b pg.Buffer, t pg.BufferTag) {
	if q.l.on[b] == twoQT1 {
		slot := &q.ghostFIFO[q.ghostNext%uint64(q.ghostSlots)]
		if q.ghostNext >= uint64(q.ghostSlots) && q.ghost[slot.tag] == slot.seq {
			delete(q.ghost, slot.tag) // the oldest tag falls out of B1
		}
		*slot = ghostEntry{tag: t, seq: q.ghostNext}
		q.ghost[t] = q.ghostNext
		q.ghostNext++
	}
	q.l.pushLRU(twoQFree, b)
}

// Victim takes from T1 while it is over its target, else from T2.
func (q *TwoQ) Victim(states []pg.BufState) (pg.Buffer, error) {
	order := [3]int{twoQFree, twoQT2, twoQT1}
	if q.l.size[twoQT1] > q.kin {
		order = [3]int{twoQFree, twoQT1, twoQT2}
	}
	for _, li := range order {
		if b := q.l.firstUnpinned(li, states); b != pg.InvalidBuffer {
			return b, nil
		}
	}
	return pg.InvalidBuffer, ErrNoUnpinnedBuffers
}

// Sizes are the lengths of T1, T2 and B1 (for tests and display).
func (q *TwoQ) Sizes() (t1, t2, b1 int) { return q.l.size[twoQT1], q.l.size[twoQT2], len(q.ghost) }
