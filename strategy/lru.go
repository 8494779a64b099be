package strategy

import "github.com/pgbufsim/pgbufsim/pg"

// LRU evicts the page whose last access is the oldest, whatever how often it
// was used before: the textbook policy PostgreSQL used before 8.0 (a free
// list kept in LRU order, BufferReplacementPolicy of 7.x). Usage counts are
// still kept in the state words (PinBuffer) but play no part.
//
// Buffers never used, and those whose page was dropped or evicted without
// reuse (Forget), are at the LRU end, so they are reused first, like the
// clock finds them at usage 0.
type LRU struct {
	l bufLists
}

const lruList = 0

func newLRU(nbuffers int) *LRU {
	p := &LRU{l: newBufLists(nbuffers, 1)}
	p.l.fill(lruList)
	return p
}

// Access moves b to the MRU end.
func (p *LRU) Access(b pg.Buffer) { p.l.pushMRU(lruList, b) }

// Load puts b at the MRU end.
func (p *LRU) Load(b pg.Buffer, _ pg.BufferTag) { p.l.pushMRU(lruList, b) }

// Forget puts b at the LRU end.
func (p *LRU) Forget(b pg.Buffer, _ pg.BufferTag) { p.l.pushLRU(lruList, b) }

// Victim is the least recently used unpinned buffer.
func (p *LRU) Victim(states []pg.BufState) (pg.Buffer, error) {
	if b := p.l.firstUnpinned(lruList, states); b != pg.InvalidBuffer {
		return b, nil
	}
	return pg.InvalidBuffer, ErrNoUnpinnedBuffers
}
