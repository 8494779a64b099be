package strategy

import "github.com/pgbufsim/pgbufsim/pg"

// EventKind is one step of StrategyGetBuffer that an observer can watch.
type EventKind uint8

// The steps of StrategyGetBuffer, in the order they can happen.
const (
	// EvRingReuse: GetBufferFromRing returned the current slot's buffer (unpinned, usage ≤ 1).
	EvRingReuse EventKind = iota
	// EvRingEscape: the current slot's buffer is pinned or was used by
	// someone else (usage > 1); it stays in cache and leaves the ring, and the
	// slot takes the next victim (AddBufferToRing).
	EvRingEscape
	// EvFreeListPop: the buffer came off the head of the free list.
	EvFreeListPop
	// EvHandPinned: ClockSweepTick passed a pinned buffer (no change).
	EvHandPinned
	// EvUsageDecrement: the hand passed an unpinned buffer and took one usage count.
	EvUsageDecrement
	// EvVictim: the hand stopped on an unpinned buffer at usage 0.
	EvVictim
	// NumEventKinds counts the kinds.
	NumEventKinds
)

// Event is one observed step: the buffer it concerns, its usage count after
// the step, and the ring slot (for ring events).
type Event struct {
	Kind   EventKind
	Buffer pg.Buffer
	Usage  int
	Slot   int
}

// getBufferObserved is GetBuffer reporting every step to c.Observer. It is a
// separate copy so that the unobserved clock sweep pays one nil test per call
// and nothing per step; TestObservedSweepMatches keeps the two in agreement.
func (c *Control) getBufferObserved(r *Ring) (pg.Buffer, bool, error) {
	obs := c.Observer
	if r != nil {
		if r.current++; r.current >= len(r.slots) {
			r.current = 0
		}
		if b := r.slots[r.current]; b != pg.InvalidBuffer {
			if s := c.states[b]; s.Refcount() == 0 && s.Usage() <= 1 {
				obs(Event{Kind: EvRingReuse, Buffer: b, Usage: s.Usage(), Slot: r.current})
				return b, true, nil
			}
			obs(Event{Kind: EvRingEscape, Buffer: b, Usage: c.states[b].Usage(), Slot: r.current})
		}
	}
	c.NumBufferAllocs++
	for len(c.free) > 0 {
		b := c.free[len(c.free)-1]
		c.free = c.free[:len(c.free)-1]
		s := c.states[b]
		if s.Refcount() == 0 && s.Usage() == 0 {
			r.addBufferToRing(b)
			obs(Event{Kind: EvFreeListPop, Buffer: b, Slot: ringSlot(r)})
			return b, false, nil
		}
	}
	states, n := c.states, c.n
	try := c.n
	for {
		v := c.nextVictim
		if c.nextVictim++; c.nextVictim == n {
			c.nextVictim = 0
			c.CompletePasses++
		}
		b := pg.Buffer(v + 1)
		s := states[b]
		if s&pg.RefcountMask == 0 {
			if s&pg.UsageMask != 0 {
				states[b] = s - pg.UsageOne
				try = c.n
				obs(Event{Kind: EvUsageDecrement, Buffer: b, Usage: states[b].Usage()})
				continue
			}
			r.addBufferToRing(b)
			obs(Event{Kind: EvVictim, Buffer: b, Slot: ringSlot(r)})
			return b, false, nil
		}
		obs(Event{Kind: EvHandPinned, Buffer: b, Usage: s.Usage()})
		if try--; try == 0 {
			return pg.InvalidBuffer, false, ErrNoUnpinnedBuffers
		}
	}
}

func ringSlot(r *Ring) int {
	if r == nil {
		return -1
	}
	return r.current
}

// Current is the ring's current slot (the one the last buffer went into).
func (r *Ring) Current() int { return r.current }
