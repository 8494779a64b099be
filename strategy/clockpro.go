package strategy

import "github.com/pgbufsim/pgbufsim/pg"

// ClockPro is CLOCK-Pro (Song Jiang, Feng Chen and Xiaodong Zhang,
// "CLOCK-Pro: An Effective Improvement of the CLOCK Replacement", USENIX
// ATC 2005): LIRS's reuse-distance test on a clock. Pages are hot (short
// reuse distance) or cold; a cold page is on trial for a while after it is
// read in (its test period), and an access during the trial makes it hot.
// One circular list holds the hot pages, the resident cold pages and the
// non-resident cold pages still in their test period (tags only, as ARC's
// ghosts), and three hands walk it the same way, oldest to newest:
//
//   - hand-cold looks for a victim among resident cold pages: one not
//     referenced since the hand last passed is evicted (kept as a
//     non-resident page if still in its test period); a referenced one in
//     its test period turns hot and moves to the list head, the target mc
//     grows by one and hand-hot runs while there are more than m − mc hot
//     pages; a referenced one out of its test period moves to the head
//     and starts a new test period;
//   - hand-hot turns the first unreferenced hot page it meets cold (sparing
//     referenced ones, clearing their bit), and ends the test period of
//     every cold page it passes, removing non-resident ones: a page older
//     than the oldest hot page cannot beat a hot page's reuse distance;
//   - hand-test ends the test period of the cold page it points to (and
//     removes it if non-resident) whenever more than m non-resident pages
//     are remembered; every test period that ends without an access shrinks
//     mc by one.
//
// A hit only sets the page's reference bit (Access), as the clock does. A
// page read in whose tag is a non-resident page in its test period comes
// back hot (mc + 1, then hand-hot as above); any other page comes in cold,
// in its test period, at the list head, which is just behind hand-hot.
//
// # Variant and choices
//
// This is the paper's algorithm with explicit test bits, not the simplified
// form several caching libraries use (in which every resident cold page
// counts as being in its test period) nor the Linux kernel patches based on
// it: the paper's version keeps the one clock and the three hands' division
// of labour that the what-if is meant to show. Where the paper leaves a
// detail open, or says nothing of what a buffer pool adds, we chose:
//
//   - m is NBuffers; mc starts at NBuffers/2 and stays within 1..NBuffers−1,
//     so that there is always room for one cold page and one hot page;
//   - a hot page hand-hot turns cold is out of its test period (it was not
//     faulted in);
//   - a referenced cold page out of its test period, which the paper moves
//     to the list head with no change of status, also starts a new test
//     period there, so that it can turn hot if it is used again soon;
//   - a pinned page is passed over by hand-cold (its state untouched) and
//     may still be demoted by hand-hot (the paper has no pins); when
//     hand-cold goes a whole lap without a candidate, hand-hot runs once to
//     make a cold page, and if none can be had the victim is the first
//     unpinned resident page after hand-cold;
//   - a page leaving the pool for any reason (eviction, a ring reusing its
//     buffer, DROP, pg_buffercache_evict) goes as an eviction does: a cold
//     page in its test period stays as a non-resident page, others leave
//     the clock.
type ClockPro struct {
	// Clock nodes: 1..m are the buffers (resident pages), m+1.. the
	// non-resident cold pages; 0 is no node.
	prev, next []int32
	flag       []uint8
	tag        []pg.BufferTag // of non-resident nodes
	// The hands (0 while the clock is empty).
	handHot, handCold, handTest int32

	m, mc                    int
	nodes, nHot, nCold, nNon int // linked nodes; hot, resident cold, non-resident cold pages
	ghostFree                []int32
	ghosts                   tagTable // non-resident tag → node
	free                     bufLists // buffers with no page, handed out first
}

const (
	cpLinked uint8 = 1 << iota
	cpHot
	cpTest
	cpRef
)

func newClockPro(nbuffers int) *ClockPro {
	ghosts := nbuffers + 2 // m non-resident pages, one more until hand-test runs
	total := nbuffers + 1 + ghosts
	c := &ClockPro{prev: make([]int32, total), next: make([]int32, total), flag: make([]uint8, total),
		tag: make([]pg.BufferTag, total), m: nbuffers, mc: max(1, nbuffers/2),
		ghostFree: make([]int32, 0, ghosts), ghosts: newTagTable(ghosts), free: newBufLists(nbuffers, 1)}
	for x := total - 1; x > nbuffers; x-- {
		c.ghostFree = append(c.ghostFree, int32(x))
	}
	c.free.fill(0)
	return c
}

func (c *ClockPro) mcMax() int { return max(1, c.m-1) }

// link puts node x at the list head, just behind hand-hot.
func (c *ClockPro) link(x int32) {
	c.flag[x] |= cpLinked
	c.nodes++
	h := c.handHot
	if h == 0 {
		c.prev[x], c.next[x] = x, x
		c.handHot, c.handCold, c.handTest = x, x, x
		return
	}
	p := c.prev[h]
	c.prev[x], c.next[x] = p, h
	c.next[p], c.prev[h] = x, x
}

// unlink takes node x off the clock; a hand on it moves to the next node.
func (c *ClockPro) unlink(x int32) {
	n := c.next[x]
	if n == x {
		n = 0
	}
	for _, h := range [3]*int32{&c.handHot, &c.handCold, &c.handTest} {
		if *h == x {
			*h = n
		}
	}
	if n != 0 {
		p := c.prev[x]
		c.next[p], c.prev[n] = n, p
	}
	c.prev[x], c.next[x] = 0, 0
	c.flag[x] = 0
	c.nodes--
}

// toHead moves linked node x to the list head.
func (c *ClockPro) toHead(x int32) {
	f := c.flag[x]
	c.unlink(x)
	c.link(x)
	c.flag[x] = f
}

// Access sets the page's reference bit.
func (c *ClockPro) Access(b pg.Buffer) {
	if c.flag[b]&cpLinked != 0 {
		c.flag[b] |= cpRef
	}
}

// Load puts a new page at the list head: hot if its tag is a non-resident
// cold page in its test period, cold in a new test period otherwise.
func (c *ClockPro) Load(b pg.Buffer, t pg.BufferTag) {
	x := int32(b)
	if c.flag[x]&cpLinked != 0 { // Forget was not called: the old page goes
		c.drop(x)
	}
	c.free.remove(b)
	if g := c.ghosts.get(t); g >= 0 {
		// Accessed in its test period: hot, and more room for cold pages.
		c.mc = min(c.mc+1, c.mcMax())
		c.removeGhost(g)
		c.link(x)
		c.flag[x] |= cpHot
		c.nHot++
		c.balanceHot()
		return
	}
	c.link(x)
	c.flag[x] |= cpTest
	c.nCold++
}

// Forget takes b's page out of memory: a cold page in its test period stays
// on the clock as a non-resident page, any other leaves it.
func (c *ClockPro) Forget(b pg.Buffer, t pg.BufferTag) {
	x := int32(b)
	if f := c.flag[x]; f&cpLinked != 0 {
		if f&(cpHot|cpTest) == cpTest && len(c.ghostFree) > 0 {
			c.toGhost(x, t)
			for guard := 0; c.nNon > c.m && guard <= 2*c.nodes; guard++ {
				c.runHandTest()
			}
		} else {
			c.drop(x)
		}
	}
	c.free.pushLRU(0, b)
}

// drop takes resident node x off the clock.
func (c *ClockPro) drop(x int32) {
	if c.flag[x]&cpHot != 0 {
		c.nHot--
	} else {
		c.nCold--
	}
	c.unlink(x)
}

// toGhost puts a non-resident node for page t in resident node x's place;
// hand-cold, which stopped at x, moves on.
func (c *ClockPro) toGhost(x int32, t pg.BufferTag) {
	g := c.ghostFree[len(c.ghostFree)-1]
	c.ghostFree = c.ghostFree[:len(c.ghostFree)-1]
	c.tag[g], c.flag[g] = t, cpLinked|cpTest
	p, n := c.prev[x], c.next[x]
	if n == x {
		p, n = g, g
	}
	c.prev[g], c.next[g] = p, n
	c.next[p], c.prev[n] = g, g
	if c.handHot == x {
		c.handHot = g
	}
	if c.handTest == x {
		c.handTest = g
	}
	if c.handCold == x {
		c.handCold = n
	}
	c.prev[x], c.next[x], c.flag[x] = 0, 0, 0
	c.ghosts.put(t, g)
	c.nCold--
	c.nNon++
}

// removeGhost takes non-resident node g off the clock.
func (c *ClockPro) removeGhost(g int32) {
	c.ghosts.del(c.tag[g])
	c.unlink(g)
	c.ghostFree = append(c.ghostFree, g) // within the capacity made at construction
	c.nNon--
}

// endTest ends cold node x's test period without an access: mc shrinks,
// and a non-resident page leaves the clock (its hand moving on).
func (c *ClockPro) endTest(x int32) {
	c.mc = max(c.mc-1, 1)
	if int(x) > c.m {
		c.removeGhost(x)
		return
	}
	c.flag[x] &^= cpTest
}

// balanceHot runs hand-hot while there are more than m − mc hot pages.
func (c *ClockPro) balanceHot() {
	for guard := 0; c.nHot > c.m-c.mc && guard <= c.m; guard++ {
		c.runHandHot()
	}
}

// runHandHot moves hand-hot to the first unreferenced hot page and makes it
// cold, clearing the reference bits of the hot pages it spares and ending
// the test periods of the cold pages it passes.
func (c *ClockPro) runHandHot() {
	for guard := 0; c.handHot != 0 && guard <= 2*c.nodes+1; guard++ {
		x := c.handHot
		f := c.flag[x]
		switch {
		case f&cpHot != 0 && f&cpRef != 0:
			c.flag[x] = f &^ cpRef
		case f&cpHot != 0:
			c.flag[x] = f &^ cpHot
			c.nHot--
			c.nCold++
			c.handHot = c.next[x]
			return
		case f&cpTest != 0:
			c.endTest(x)
			if int(x) > c.m {
				continue // removing it moved the hand on
			}
		}
		c.handHot = c.next[x]
	}
}

// runHandTest ends the test period of the next cold page in one, from
// hand-test on, and moves the hand past it.
func (c *ClockPro) runHandTest() {
	for guard := 0; c.handTest != 0 && guard <= c.nodes; guard++ {
		x := c.handTest
		if f := c.flag[x]; f&(cpHot|cpTest) == cpTest {
			c.endTest(x)
			if int(x) <= c.m {
				c.handTest = c.next[x]
			}
			return
		}
		c.handTest = c.next[x]
	}
}

// Victim runs hand-cold to the first unreferenced, unpinned resident cold
// page; the page is evicted by Forget.
func (c *ClockPro) Victim(states []pg.BufState) (pg.Buffer, error) {
	if b := c.free.firstUnpinned(0, states); b != pg.InvalidBuffer {
		return b, nil
	}
	idle := 0
	for steps := 0; c.handCold != 0 && steps < 8*(c.nodes+1); steps++ {
		x := c.handCold
		f := c.flag[x]
		if int(x) <= c.m && f&cpHot == 0 && states[x]&pg.RefcountMask == 0 {
			switch {
			case f&cpRef == 0:
				return pg.Buffer(x), nil
			case f&cpTest != 0:
				// Re-accessed in its test period: hot.
				c.flag[x] = f&^(cpRef|cpTest) | cpHot
				c.nCold--
				c.nHot++
				c.mc = min(c.mc+1, c.mcMax())
				c.toHead(x)
				c.balanceHot()
			default:
				// Re-accessed after its test period: a new one.
				c.flag[x] = f&^cpRef | cpTest
				c.toHead(x)
			}
			idle = 0
			continue
		}
		c.handCold = c.next[x]
		if idle++; idle > c.nodes {
			c.runHandHot() // a lap without a cold page to take: make one
			idle = 0
		}
	}
	// Every resident cold page is pinned: any unpinned resident page.
	for x, i := c.handCold, 0; x != 0 && i < c.nodes; x, i = c.next[x], i+1 {
		if int(x) <= c.m && states[x]&pg.RefcountMask == 0 {
			return pg.Buffer(x), nil
		}
	}
	return pg.InvalidBuffer, ErrNoUnpinnedBuffers
}

// Counts are the numbers of hot, resident cold and non-resident cold pages
// and the cold target mc (for tests and display).
func (c *ClockPro) Counts() (hot, cold, nonresident, mc int) {
	return c.nHot, c.nCold, c.nNon, c.mc
}
