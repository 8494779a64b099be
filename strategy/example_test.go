package strategy_test

import (
	"fmt"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/strategy"
	"github.com/pgbufsim/pgbufsim/wal"
)

// mru evicts the most recently used page: the policy that suits a loop over
// more pages than the pool holds, where LRU and the clock miss every time.
// Its methods do not allocate (the stamps are sized once by the factory).
type mru struct {
	stamp []uint64 // by buffer: the tick of its last Access or Load, 0 once forgotten
	tick  uint64
}

func newMRU(nbuffers int) strategy.Replacement {
	return &mru{stamp: make([]uint64, nbuffers+1)}
}

// Access: a hit makes b the most recently used.
func (m *mru) Access(b pg.Buffer) { m.tick++; m.stamp[b] = m.tick }

// Load: a page read into b makes b the most recently used.
func (m *mru) Load(b pg.Buffer, _ pg.BufferTag) { m.Access(b) }

// Forget: b's page left the pool.
func (m *mru) Forget(b pg.Buffer, _ pg.BufferTag) { m.stamp[b] = 0 }

// Victim is an empty unpinned buffer if there is one, else the unpinned
// buffer used last.
func (m *mru) Victim(states []pg.BufState) (pg.Buffer, error) {
	best := pg.InvalidBuffer
	for i := 1; i < len(states); i++ {
		b, s := pg.Buffer(i), states[i]
		switch {
		case s.Refcount() > 0:
		case !s.Has(pg.FlagValid):
			return b, nil
		case best == pg.InvalidBuffer || m.stamp[b] > m.stamp[best]:
			best = b
		}
	}
	if best == pg.InvalidBuffer {
		return pg.InvalidBuffer, strategy.ErrNoUnpinnedBuffers
	}
	return best, nil
}

func init() {
	if err := strategy.Register("mru", "evict the most recently used page", newMRU); err != nil {
		panic(err)
	}
}

// loop reads blocks 0..19 of relation 1 once each, unpinning each at once as
// a sequential scan does, and returns the hits, the reads and the buffers
// that took blocks 16..19.
func loop(p *bufmgr.Pool, be *bufmgr.Backend) (hit, read int64, last []pg.Buffer) {
	before := be.Buf
	for blk := 0; blk < 20; blk++ {
		b, _, err := p.ReadBuffer(be, pg.BufferTag{Rel: 1, Block: pg.BlockNumber(blk)}, nil)
		if err != nil {
			panic(err)
		}
		p.Unpin(be, b)
		if blk >= 16 {
			last = append(last, b)
		}
	}
	return be.Buf.Hit - before.Hit, be.Buf.Read - before.Read, last
}

// A policy registered from outside the package is chosen by name in
// bufmgr.Config, like the built-in ones. Two passes of a 20-block loop over
// a 16-buffer pool (PostgreSQL 18: the free list serves the first 16 reads,
// handing out buffers 1..16; the policy chooses every victim after that):
//
// mru, pass 1: blocks 0..15 fill buffers 1..16; block 16 evicts the most
// recently used, buffer 16 (block 15), and becomes the most recent itself,
// so blocks 17, 18 and 19 evict buffer 16 too. The pool holds blocks 0..14
// and 19. Pass 2: blocks 0..14 hit (15), each becoming the most recent;
// block 15 misses and evicts buffer 15 (block 14, just used), and so do 16,
// 17 and 18; block 19 hits in buffer 16: 16 hits, 4 reads.
//
// clock, pass 1: the fill leaves every buffer at usage 1; block 16's sweep
// takes all sixteen to 0 in one pass and stops at buffer 1 (block 0) on the
// second; blocks 17..19 take buffers 2..4 (blocks 1..3). Pass 2 starts with
// the hand at buffer 5, and each block it reads evicts the block four ahead
// of it in the loop (block 0 evicts block 4 from buffer 5, …), which is then
// missing when the scan gets there: 0 hits, 20 reads.
func ExampleRegister() {
	for _, policy := range []string{"mru", "clock"} {
		w, err := wal.New(wal.Config{Version: 18, WalBuffers: 64})
		if err != nil {
			panic(err)
		}
		p, err := bufmgr.NewPool(bufmgr.Config{NBuffers: 16, Version: 18, Replacement: policy}, w)
		if err != nil {
			panic(err)
		}
		p.CreateRel(1, 20, true)
		be := bufmgr.NewBackend(bufmgr.ClientBackend, 0)
		hit1, read1, last1 := loop(p, be)
		hit2, read2, _ := loop(p, be)
		fmt.Printf("%-5s pass 1: hit=%d read=%d (blocks 16..19 into buffers %v); pass 2: hit=%d read=%d\n",
			policy, hit1, read1, last1, hit2, read2)
	}
	fmt.Println(strategy.PolicyDoc("mru"))
	// Output:
	// mru   pass 1: hit=0 read=20 (blocks 16..19 into buffers [16 16 16 16]); pass 2: hit=16 read=4
	// clock pass 1: hit=0 read=20 (blocks 16..19 into buffers [1 2 3 4]); pass 2: hit=0 read=20
	// evict the most recently used page
}
