package strategy

import (
	"errors"
	"fmt"

	"github.com/pgbufsim/pgbufsim/pg"
)

// Kind is a BufferAccessStrategyType; its String is the pg_stat_io context.
type Kind uint8

// Strategy kinds (BAS_*).
const (
	Normal Kind = iota
	BulkRead
	BulkWrite
	Vacuum
	NumKinds
)

func (k Kind) String() string {
	return [...]string{"normal", "bulkread", "bulkwrite", "vacuum"}[k]
}

// Settings are the inputs of ring sizing.
type Settings struct {
	Version                pg.Version
	NBuffers               int
	EffectiveIOConcurrency int
	IOCombineLimit         int // blocks, already capped by io_max_combine_limit
	PinLimit               int // GetPinLimit() (18+)
	VacuumBufferUsageKB    int // vacuum_buffer_usage_limit (16+), in kB
	// RingOverride is the what-if setting ring=N: every ring gets N buffers
	// (still capped at NBuffers/8 like GetAccessStrategyWithSize); 0 is ring=auto.
	RingOverride int
}

// RingBuffers is the size of the ring a strategy of this kind gets, in
// buffers, or 0 for no ring (GetAccessStrategy / GetAccessStrategyWithSize).
// For Vacuum it is the ring VACUUM and ANALYZE actually use (ExecVacuum):
// vacuum_buffer_usage_limit from 16 on.
func RingBuffers(k Kind, s Settings) int {
	const blckKB = pg.BLCKSZ / 1024
	var kb int
	switch k {
	case Normal:
		return 0
	}
	if s.RingOverride > 0 {
		return min(s.RingOverride, s.NBuffers/8)
	}
	switch k {
	case BulkRead:
		kb = 256
		if s.Version >= 18 {
			// 18: room for io_combine_limit × effective_io_concurrency of
			// in-flight reads, but no more than this backend may pin.
			maxKB := s.PinLimit * blckKB
			if maxKB < kb {
				maxKB = kb
			}
			kb += blckKB * s.IOCombineLimit * s.EffectiveIOConcurrency
			if kb > maxKB {
				kb = maxKB
			}
		}
	case BulkWrite:
		kb = 16 * 1024
	case Vacuum:
		if s.Version >= 16 {
			kb = s.VacuumBufferUsageKB
		} else {
			kb = 256
		}
	}
	n := kb / blckKB
	if n == 0 {
		return 0
	}
	if n > s.NBuffers/8 {
		n = s.NBuffers / 8
	}
	return n
}

// StreamPinLimit is GetAccessStrategyPinLimit (17+): how many buffers a read
// stream may pin with this ring; nbuffers for BULKREAD, half otherwise.
func StreamPinLimit(r *Ring, nbuffers int) int {
	if r == nil {
		return nbuffers
	}
	if r.Kind == BulkRead {
		return len(r.slots)
	}
	return len(r.slots) / 2
}

// Ring is a BufferAccessStrategyData: a private ring of buffer numbers.
type Ring struct {
	Kind    Kind
	slots   []pg.Buffer
	current int
}

// NewRing returns an empty ring of n slots, or nil when n is 0 (no strategy).
func NewRing(k Kind, n int) *Ring {
	if n <= 0 || k == Normal {
		return nil
	}
	return &Ring{Kind: k, slots: make([]pg.Buffer, n)}
}

// Len is the number of slots.
func (r *Ring) Len() int { return len(r.slots) }

// Slots returns the ring's buffer numbers (InvalidBuffer for empty slots); do not modify.
func (r *Ring) Slots() []pg.Buffer { return r.slots }

// ErrNoUnpinnedBuffers is StrategyGetBuffer's "no unpinned buffers available".
var ErrNoUnpinnedBuffers = errors.New("pgbufsim: no unpinned buffers available")

// Control is StrategyControl plus the free list, over the pool's state words.
type Control struct {
	states []pg.BufState // indexed by pg.Buffer; element 0 unused
	n      int
	free   []pg.Buffer // free list as a stack: the last element is firstFreeBuffer

	nextVictim int // nextVictimBuffer modulo NBuffers: the 0-based position of the hand
	// CompletePasses counts the clock's full passes (StrategySyncStart).
	CompletePasses uint64
	// NumBufferAllocs counts allocations not served by a ring (bgwriter's buffers_alloc).
	NumBufferAllocs uint64
	// Observer, when set, sees every step of GetBuffer (for tracing and
	// teaching); nil costs one test per call.
	Observer func(Event)
	// repl is the what-if replacement policy (nil: the clock sweep below).
	repl Replacement
	// noFreeList: the what-if freelist=off (PostgreSQL 19's design).
	noFreeList bool
}

// NewControl sets up StrategyControl for the pool whose state words are
// states[1..n]: every buffer is on the free list, handed out 1, 2, 3, …
// (StrategyInitialize + BufferManagerShmemInit).
func NewControl(states []pg.BufState) *Control {
	n := len(states) - 1
	c := &Control{states: states, n: n, free: make([]pg.Buffer, n, n)}
	for i := 0; i < n; i++ {
		c.free[i] = pg.Buffer(n - i)
	}
	return c
}

// Hand is the clock hand's position as a 1-based buffer number.
func (c *Control) Hand() pg.Buffer { return pg.Buffer(c.nextVictim) + 1 }

// FreeListLen is the number of buffers on the free list.
func (c *Control) FreeListLen() int { return len(c.free) }

// FreeList returns the free list, tail first (the last element is popped next); do not modify.
func (c *Control) FreeList() []pg.Buffer { return c.free }

// FreeBuffer is StrategyFreeBuffer: push b on the head of the free list
// (LIFO); nothing without a free list.
func (c *Control) FreeBuffer(b pg.Buffer) {
	if !c.noFreeList {
		c.free = append(c.free, b)
	}
}

// RemoveFreeList is the what-if freelist=off, PostgreSQL 19's design
// ("bufmgr: Remove freelist, always use clock-sweep", 2c78940527): no
// buffer is ever on a free list, so the first fill is the clock handing out
// buffers 1, 2, 3, … at usage 0 (the hand advances and completes a pass),
// and a buffer freed by DROP or TRUNCATE is reused only when the hand gets
// to it. Call it on a new Control, before any GetBuffer.
func (c *Control) RemoveFreeList() {
	c.noFreeList = true
	c.free = c.free[:0]
}

// GetBuffer is StrategyGetBuffer: a victim buffer, unpinned, with the
// information whether it came from the ring. The caller pins it.
func (c *Control) GetBuffer(r *Ring) (pg.Buffer, bool, error) {
	if c.repl != nil {
		return c.getBufferReplaced(r)
	}
	if c.Observer != nil {
		return c.getBufferObserved(r)
	}
	if r != nil {
		if b := r.getBufferFromRing(c.states); b != pg.InvalidBuffer {
			return b, true, nil
		}
	}
	c.NumBufferAllocs++
	for len(c.free) > 0 {
		b := c.free[len(c.free)-1]
		c.free = c.free[:len(c.free)-1]
		s := c.states[b]
		if s.Refcount() == 0 && s.Usage() == 0 {
			r.addBufferToRing(b)
			return b, false, nil
		}
	}
	// Clock sweep (ClockSweepTick), the hand wrapped by comparison rather than a division.
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
				continue
			}
			r.addBufferToRing(b)
			return b, false, nil
		}
		if try--; try == 0 {
			return pg.InvalidBuffer, false, ErrNoUnpinnedBuffers
		}
	}
}

// getBufferReplaced is GetBuffer with a what-if Replacement choosing the
// victim once the ring and the free list have none. An Observer sees the
// ring reuse, the free-list pop or the victim (the policy's own steps are
// not events).
func (c *Control) getBufferReplaced(r *Ring) (pg.Buffer, bool, error) {
	if r != nil {
		if b := r.getBufferFromRing(c.states); b != pg.InvalidBuffer {
			c.observe(EvRingReuse, b, r)
			return b, true, nil
		}
	}
	c.NumBufferAllocs++
	for len(c.free) > 0 {
		b := c.free[len(c.free)-1]
		c.free = c.free[:len(c.free)-1]
		s := c.states[b]
		if s.Refcount() == 0 && s.Usage() == 0 {
			r.addBufferToRing(b)
			c.observe(EvFreeListPop, b, r)
			return b, false, nil
		}
	}
	b, err := c.repl.Victim(c.states)
	if err != nil {
		return pg.InvalidBuffer, false, err
	}
	r.addBufferToRing(b)
	c.observe(EvVictim, b, r)
	return b, false, nil
}

// observe reports one step to the Observer, if any.
func (c *Control) observe(k EventKind, b pg.Buffer, r *Ring) {
	if c.Observer != nil {
		c.Observer(Event{Kind: k, Buffer: b, Usage: c.states[b].Usage(), Slot: ringSlot(r)})
	}
}

// getBufferFromRing is GetBufferFromRing.
func (r *Ring) getBufferFromRing(states []pg.BufState) pg.Buffer {
	if r.current++; r.current >= len(r.slots) {
		r.current = 0
	}
	b := r.slots[r.current]
	if b == pg.InvalidBuffer {
		return b
	}
	if s := states[b]; s.Refcount() == 0 && s.Usage() <= 1 {
		return b
	}
	return pg.InvalidBuffer
}

// addBufferToRing is AddBufferToRing: the new victim fills the current slot.
func (r *Ring) addBufferToRing(b pg.Buffer) {
	if r != nil {
		r.slots[r.current] = b
	}
}

// RejectBuffer is StrategyRejectBuffer: a BULKREAD ring gives up a dirty
// buffer that came from the ring (and is still in the current slot) rather
// than flush WAL to write it; the slot is emptied so the next victim refills it.
func (r *Ring) RejectBuffer(b pg.Buffer, fromRing bool) bool {
	if r == nil || r.Kind != BulkRead {
		return false
	}
	if !fromRing || r.slots[r.current] != b {
		return false
	}
	r.slots[r.current] = pg.InvalidBuffer
	return true
}

// Check verifies the ring's slots are inside the pool.
func (r *Ring) Check(nbuffers int) error {
	if r == nil {
		return nil
	}
	for i, b := range r.slots {
		if b < 0 || int(b) > nbuffers {
			return fmt.Errorf("ring %s slot %d holds buffer %d outside the pool of %d", r.Kind, i, b, nbuffers)
		}
	}
	return nil
}

// SyncStart is StrategySyncStart: the clock hand's 0-based position, the
// complete passes it has made, and the allocations counted so far (the
// caller keeps the last value: StrategySyncStart resets numBufferAllocs).
func (c *Control) SyncStart() (hand int, passes, allocs uint64) {
	return c.nextVictim, c.CompletePasses, c.NumBufferAllocs
}
