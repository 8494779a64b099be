package strategy

import "github.com/pgbufsim/pgbufsim/pg"

// ARC is the Adaptive Replacement Cache as PostgreSQL 8.0.0 and 8.0.1
// shipped it (Jan Wieck's freelist.c, 2003–2005; 8.0.2 swapped it for 2Q
// over IBM's patent, 8.1 for the clock sweep). Its cache directory holds
// 2 × NBuffers entries on four lists: T1 (pages in a buffer, seen once), T2
// (in a buffer, seen again), and the ghost lists B1 and B2, the tags of pages
// recently evicted from T1 and T2. The target size of T1 adapts: a miss on
// a page remembered in B1 says T1 is too small, one in B2 that T2 is.
//
// # What is modelled
//
//   - A page read into a buffer joins T1 at its MRU end; a page whose tag
//     is in B1 or B2 joins T2 instead, and the target moves: up by
//     max(|B2|/|B1|, 1) for a B1 hit (at most NBuffers), down by
//     max(|B1|/|B2|, 1) for a B2 hit (at least 0), integer division
//     (StrategyBufferLookup).
//   - An access to a page in T2, or in T1 by another transaction than the
//     one that read it in (as approximated below), moves it to T2's MRU end
//     (StrategyBufferLookup).
//   - The victim is T1's least recently used unpinned buffer when T1 holds
//     at least max(1, target) pages, else T2's; the other list if all of
//     the first are pinned (StrategyGetBuffer).
//   - The evicted page's entry moves to B1 or B2. A complete miss takes a
//     directory entry first: B1's oldest when B1 is not empty and
//     |T1| + |B1| ≥ NBuffers, else an unused one, else B2's oldest (B1's if
//     B2 is empty) (StrategyReplaceBuffer).
//   - A page leaving the pool without its buffer being refilled at once
//     (DROP, TRUNCATE, pg_buffercache_evict) loses its entry altogether,
//     as StrategyInvalidateBuffer did. A ring reusing its buffer (8.3 and
//     later) refills it at once: that is a replacement, and the page it
//     held goes to B1 or B2.
//
// # Where 8.0 differs from Megiddo and Modha (FAST 2003)
//
//   - The target starts at NBuffers/2 (StrategyInitialize), not 0: until B2
//     hits pull it down, a scan of new pages can push T2 down to half the
//     pool, where the paper's ARC would evict only from T1.
//   - The victim comes from T1 when |T1| ≥ target, whatever the page asked
//     for; the paper takes T1's LRU when |T1| > p, and at |T1| = p only for
//     a page found in B2.
//   - A hit in T1 moves the page to T2 only when another transaction read it
//     into T1, and never for VACUUM; the paper promotes every T1 hit.
//   - The evicted page of a full T1 still gets a B1 entry (the paper drops
//     T1's LRU page without a ghost when |T1| = c), so |T1| + |B1| can reach
//     NBuffers + 1; the directory as a whole never exceeds 2 × NBuffers.
//
// # What is approximated
//
//   - Transactions: the policy sees every first pin of a buffer by a
//     backend (Access) and no transaction ids. Hits on the page last read
//     into T1, before any other buffer is accessed (an INSERT filling the
//     page it just extended, tuple by tuple), are taken as the reading
//     transaction's own and leave the page in T1; any other T1 hit counts
//     as another transaction's and promotes it.
//   - VACUUM's hint (StrategyHintVacuum): 8.0 put the pages VACUUM read at
//     T1's LRU end, gave them no B1 entry and let VACUUM's hits change
//     nothing. Here VACUUM's ring stays in front of the policy (as in
//     StrategyGetBuffer since 8.3) but its pins are ordinary accesses and
//     its misses move the target: a VACUUM right after a load promotes the
//     pages it finds in T1 to T2.
//   - Timing: 8.0 adapted the target when the lookup missed, before
//     choosing the victim for that very page; the policy learns the page's
//     tag only in Load, after the victim is chosen, so the new target first
//     steers the next victim.
//   - A page dropped right before its buffer is taken again by the next read
//     looks like a replacement and leaves a ghost of a page that is gone.
type ARC struct {
	l      bufLists   // T1, T2 and buffers with no page (handed out first)
	g      ghostLists // B1 and B2
	n      int        // NBuffers, ARC's c
	target int        // T1_TARGET

	// The page the last Forget took out of T1 or T2: a replacement if the
	// next call is Load of the same buffer (its entry then goes to B1 or
	// B2, after the new page's directory entry is found, as in
	// StrategyReplaceBuffer), an invalidation otherwise.
	pendBuf pg.Buffer
	pendTag pg.BufferTag
	pendT1  bool
	// fresh is the buffer last read into T1 while no other buffer has been
	// accessed since: hits on it are taken as the reading transaction's.
	fresh pg.Buffer
}

const (
	arcT1 = iota
	arcT2
	arcFree
	arcLists
)

// Ghost list numbers.
const (
	arcB1 = iota
	arcB2
)

func newARC(nbuffers int) *ARC {
	a := &ARC{l: newBufLists(nbuffers, arcLists), g: newGhostLists(2*nbuffers, 2), n: nbuffers, target: nbuffers / 2}
	a.l.fill(arcFree)
	return a
}

// settle makes a pending Forget an invalidation: the entry is dropped.
func (a *ARC) settle() { a.pendBuf = pg.InvalidBuffer }

// Access moves a page in T2, or in T1 unless it is the page just read, to
// T2's MRU end (StrategyBufferLookup).
func (a *ARC) Access(b pg.Buffer) {
	a.settle()
	if b == a.fresh {
		return // the reading transaction's own hit: T1's MRU end, where it is
	}
	a.fresh = pg.InvalidBuffer
	if li := a.l.on[b]; li == arcT1 || li == arcT2 {
		a.l.pushMRU(arcT2, b)
	}
}

// Load puts a new page in T1, or in T2 if B1 or B2 remembers it, adapting
// the target (StrategyBufferLookup, StrategyReplaceBuffer).
func (a *ARC) Load(b pg.Buffer, t pg.BufferTag) {
	replaced := a.pendBuf == b && b != pg.InvalidBuffer
	a.pendBuf = pg.InvalidBuffer
	// The lists' lengths as 8.0 saw them: the victim's page still in T1 or T2.
	t1, t2 := a.l.size[arcT1], a.l.size[arcT2]
	b1, b2 := a.g.size[arcB1], a.g.size[arcB2]
	if replaced {
		if a.pendT1 {
			t1++
		} else {
			t2++
		}
	}
	if s, li := a.g.find(t); s >= 0 {
		// models StrategyBufferLookup's B1/B2 hit (freelist.c, 8.0): the target moves
		if li == arcB1 {
			a.target = min(a.target+max(b2/b1, 1), a.n)
		} else {
			a.target = max(a.target-max(b1/b2, 1), 0)
		}
		a.g.remove(s)
		a.ghostReplaced(replaced)
		a.l.pushMRU(arcT2, b)
		a.fresh = pg.InvalidBuffer
		return
	}
	// models StrategyReplaceBuffer (freelist.c, 8.0): a complete miss needs a
	// directory entry.
	switch {
	case b1 > 0 && t1+b1 >= a.n:
		a.g.dropLRU(arcB1)
	case t1+t2+b1+b2 >= 2*a.n || a.g.full():
		if b2 > 0 {
			a.g.dropLRU(arcB2)
		} else {
			a.g.dropLRU(arcB1)
		}
	}
	a.ghostReplaced(replaced)
	a.l.pushMRU(arcT1, b)
	a.fresh = b
}

// ghostReplaced moves the replaced page's entry to B1 or B2.
func (a *ARC) ghostReplaced(replaced bool) {
	if !replaced {
		return
	}
	if s, _ := a.g.find(a.pendTag); s >= 0 {
		a.g.remove(s)
	}
	if a.g.full() { // cannot happen with 2 × NBuffers entries; keep B within its slots
		if a.g.size[arcB2] > 0 {
			a.g.dropLRU(arcB2)
		} else {
			a.g.dropLRU(arcB1)
		}
	}
	if a.pendT1 {
		a.g.pushMRU(arcB1, a.pendTag)
	} else {
		a.g.pushMRU(arcB2, a.pendTag)
	}
}

// Forget takes b's page out of T1 or T2; the buffer is the next one handed out.
func (a *ARC) Forget(b pg.Buffer, t pg.BufferTag) {
	a.settle()
	if b == a.fresh {
		a.fresh = pg.InvalidBuffer
	}
	if li := a.l.on[b]; li == arcT1 || li == arcT2 {
		a.pendBuf, a.pendTag, a.pendT1 = b, t, li == arcT1
	}
	a.l.pushLRU(arcFree, b)
}

// Victim is T1's LRU unpinned buffer when T1 holds at least max(1, target)
// pages, else T2's (StrategyGetBuffer).
func (a *ARC) Victim(states []pg.BufState) (pg.Buffer, error) {
	a.settle()
	order := [3]int{arcFree, arcT2, arcT1}
	if a.l.size[arcT1] >= max(1, a.target) {
		order = [3]int{arcFree, arcT1, arcT2}
	}
	for _, li := range order {
		if b := a.l.firstUnpinned(li, states); b != pg.InvalidBuffer {
			return b, nil
		}
	}
	return pg.InvalidBuffer, ErrNoUnpinnedBuffers
}

// Sizes are the lengths of T1, T2, B1 and B2 and the target size of T1 (for
// tests and display).
func (a *ARC) Sizes() (t1, t2, b1, b2, target int) {
	return a.l.size[arcT1], a.l.size[arcT2], a.g.size[arcB1], a.g.size[arcB2], a.target
}
