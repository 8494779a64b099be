package bufmgr_test

import (
	"fmt"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/strategy"
	"github.com/pgbufsim/pgbufsim/wal"
)

// The clock sweep in a 16-buffer pool (PostgreSQL 18). Reading blocks 0..15
// takes buffers 1..16 off the free list, each at usage 1 (BufferAlloc); a
// later first pin adds one (PinBuffer), so four more reads of block 0 leave
// it at 5, two of block 1 at 3, one of block 2 at 2.
//
// Block 16 finds the free list empty and the hand at buffer 1
// (ClockSweepTick). The first pass takes every count down by one: 4, 2, 1
// and thirteen 0s; the second takes buffer 1 to 3, buffer 2 to 1, buffer 3
// to 0 and stops at buffer 4, the first found at 0: block 3 is evicted and
// block 16 takes its buffer at usage 1, the hand now at buffer 5. Block 17
// finds buffer 5 at 0 at once and evicts block 4, with no pass completed.
// In all: 7 hits (the re-reads), 18 reads, and the 2 evictions pg_stat_io
// counts for a client backend in context normal.
func Example_clockSweep() {
	w, err := wal.New(wal.Config{Version: 18, WalBuffers: 64})
	if err != nil {
		panic(err)
	}
	p, err := bufmgr.NewPool(bufmgr.Config{NBuffers: 16, Version: 18}, w)
	if err != nil {
		panic(err)
	}
	p.CreateRel(1, 18, true)
	be := bufmgr.NewBackend(bufmgr.ClientBackend, 0)
	read := func(blk int) pg.Buffer {
		b, _, err := p.ReadBuffer(be, pg.BufferTag{Rel: 1, Block: pg.BlockNumber(blk)}, nil)
		if err != nil {
			panic(err)
		}
		p.Unpin(be, b) // each read is its own first pin
		return b
	}
	usage := func() []int {
		var u []int
		for _, r := range p.Contents() {
			u = append(u, r.Usage)
		}
		return u
	}
	for blk := 0; blk < 16; blk++ {
		read(blk)
	}
	for blk, times := range []int{4, 2, 1} {
		for range times {
			read(blk)
		}
	}
	fmt.Println("usage:", usage(), "free list:", p.Control().FreeListLen())
	for _, blk := range []int{16, 17} {
		b := read(blk)
		fmt.Printf("block %d → buffer %d, hand at buffer %d, passes %d\n", blk, b, p.Control().Hand(), p.Control().CompletePasses)
	}
	fmt.Println("usage:", usage())
	fmt.Printf("hit=%d read=%d evictions=%d\n", be.Buf.Hit, be.Buf.Read,
		p.Stats.Rel[bufmgr.ClientBackend][strategy.Normal][bufmgr.OpEvictions])
	// Output:
	// usage: [5 3 2 1 1 1 1 1 1 1 1 1 1 1 1 1] free list: 0
	// block 16 → buffer 4, hand at buffer 5, passes 1
	// block 17 → buffer 5, hand at buffer 6, passes 1
	// usage: [3 1 0 1 1 0 0 0 0 0 0 0 0 0 0 0]
	// hit=7 read=18 evictions=2
}
