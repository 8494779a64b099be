package bufmgr

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/storage"
	"github.com/pgbufsim/pgbufsim/strategy"
	"github.com/pgbufsim/pgbufsim/wal"
	"github.com/stretchr/testify/require"
)

// newVariantPool is newPool with the what-if settings of cfg (NBuffers,
// Replacement, UsageMax, Reject); the rest as newPool.
func newVariantPool(t *testing.T, cfg Config) (*Pool, *Backend) {
	w, err := wal.New(wal.Config{Version: 18, WalBuffers: 64})
	require.NoError(t, err)
	st, err := storage.New(storage.Config{CacheBlocks: 1 << 20, Device: storage.Devices["nvme"], ReadAheadKB: 128})
	require.NoError(t, err)
	cfg.Version, cfg.Storage = 18, st
	p, err := NewPool(cfg, w)
	require.NoError(t, err)
	p.CreateRel(1, 1000, true)
	return p, NewBackend(ClientBackend, 0)
}

// access reads blk without a strategy and unpins it: one first pin.
func access(t *testing.T, p *Pool, be *Backend, blk int) pg.Buffer {
	b, _, err := p.ReadBuffer(be, tag(blk), nil)
	require.NoError(t, err)
	p.Unpin(be, b)
	return b
}

// frequentThenRecent fills 16 buffers with blocks 0..15 (the free list hands
// out buffers 1..16 in order), pins block 0 five more times, then blocks
// 1..15 once each, and reads block 16: the buffer that gives way.
func frequentThenRecent(t *testing.T, cfg Config) (pg.Buffer, *Pool) {
	cfg.NBuffers = 16
	p, be := newVariantPool(t, cfg)
	for blk := 0; blk < 16; blk++ {
		require.Equal(t, pg.Buffer(blk+1), access(t, p, be, blk))
	}
	for i := 0; i < 5; i++ {
		access(t, p, be, 0)
	}
	for blk := 1; blk < 16; blk++ {
		access(t, p, be, blk)
	}
	b := access(t, p, be, 16)
	require.NoError(t, p.CheckInvariants([]*Backend{be}, nil))
	return b, p
}

// The clock keeps the frequently used block 0 (usage 5; the others 2):
// the first pass takes every count down once (0 → 4, the others → 1), the
// second takes 0 to 3 and the others to 0, the third stops at buffer 2
// (block 1). LRU evicts block 0, the least recently pinned, whatever its
// frequency: buffer 1.
func TestLRUEvictsLeastRecentRegardlessOfFrequency(t *testing.T) {
	clock, _ := frequentThenRecent(t, Config{})
	require.Equal(t, pg.Buffer(2), clock, "clock: block 1's buffer")
	lru, p := frequentThenRecent(t, Config{Replacement: "lru"})
	require.Equal(t, pg.Buffer(1), lru, "LRU: block 0's buffer")
	require.Equal(t, pg.InvalidBuffer, p.Lookup(tag(0)))
	require.Equal(t, pg.Buffer(2), p.Lookup(tag(1)))
}

// usage_max=1 turns the clock into second chance: block 0's five extra pins
// leave it at usage 1 like every other buffer, so the first pass clears all
// the reference bits and the second stops at once at buffer 1 (block 0).
func TestUsageMaxOneIsSecondChance(t *testing.T) {
	b, p := frequentThenRecent(t, Config{UsageMax: 1})
	require.Equal(t, pg.Buffer(1), b)
	require.Equal(t, pg.InvalidBuffer, p.Lookup(tag(0)))
	for b := pg.Buffer(2); b <= 16; b++ {
		require.LessOrEqual(t, p.State(b).Usage(), 1, "buffer %d", b)
	}
}

// 2Q on 16 buffers (T1 target 4, B1 holds 8 tags). Blocks 0..15 fill T1;
// block 3 pinned again moves to T2. A scan of blocks 16..47, each read once:
// T1 holds 15 > 4 pages, so every victim is T1's least recent: blocks 0, 1,
// 2, 4, …, 15 (15 victims), then the scan's own pages 16..32 (17 victims).
// Block 3 stays in buffer 4. Under LRU the same sequence evicts it: it is
// the least recent page after 15 victims, and the 16th victim takes it.
func TestTwoQKeepsPageTouchedTwice(t *testing.T) {
	run := func(repl string) (*Pool, *Backend) {
		p, be := newVariantPool(t, Config{NBuffers: 16, Replacement: repl})
		for blk := 0; blk < 16; blk++ {
			access(t, p, be, blk)
		}
		access(t, p, be, 3)
		for blk := 16; blk < 48; blk++ {
			access(t, p, be, blk)
		}
		require.NoError(t, p.CheckInvariants([]*Backend{be}, nil))
		return p, be
	}
	p, be := run("2q")
	require.Equal(t, pg.Buffer(4), p.Lookup(tag(3)))
	q := p.repl.(*strategy.TwoQ)
	t1, t2, b1 := q.Sizes()
	require.Equal(t, [3]int{15, 1, 8}, [3]int{t1, t2, b1})
	// B1 remembers the last 8 pages evicted from T1, blocks 25..32: block 32
	// read again goes straight to T2 (and block 33, T1's least recent, gives
	// way); block 0, forgotten, joins T1 in place of block 34 (T1 stays at 14).
	access(t, p, be, 32)
	require.Equal(t, pg.InvalidBuffer, p.Lookup(tag(33)))
	t1, t2, _ = q.Sizes()
	require.Equal(t, [2]int{14, 2}, [2]int{t1, t2})
	access(t, p, be, 0)
	require.Equal(t, pg.InvalidBuffer, p.Lookup(tag(34)))
	t1, t2, _ = q.Sizes()
	require.Equal(t, [2]int{14, 2}, [2]int{t1, t2})

	lru, _ := run("lru")
	require.Equal(t, pg.InvalidBuffer, lru.Lookup(tag(3)))
}

// reject=flush: TestStrategyRejectBuffer's ring of 2 over two pages dirtied
// by a hint FPI, then block 2. Instead of rejecting the ring's next buffer
// (block 0's), the ring flushes WAL past its LSN, writes it and reuses it:
// no rejection, one reuse, one write, and the ring keeps its two buffers.
func TestRejectFlushKeepsRing(t *testing.T) {
	p, be := newVariantPool(t, Config{NBuffers: 64, Checksums: true, Reject: strategy.RejectFlush})
	ring := strategy.NewRing(strategy.BulkRead, 2)
	var bufs []pg.Buffer
	for blk := 0; blk < 2; blk++ {
		b, _, _ := p.ReadBuffer(be, tag(blk), ring)
		p.MarkBufferDirtyHint(be, b, 824)
		p.Unpin(be, b)
		bufs = append(bufs, b)
	}
	lsn0 := p.PageLSN(1, 0)
	require.True(t, p.WAL().NeedsFlush(lsn0))
	b, _, err := p.ReadBuffer(be, tag(2), ring)
	require.NoError(t, err)
	p.Unpin(be, b)
	require.Equal(t, bufs[0], b, "block 2 reuses block 0's buffer")
	require.False(t, p.WAL().NeedsFlush(lsn0), "WAL flushed up to the page's LSN first")
	require.EqualValues(t, 0, be.Rejects)
	require.EqualValues(t, 1, p.Stats.Rel[ClientBackend][strategy.BulkRead][OpReuses])
	require.EqualValues(t, 1, p.Stats.Rel[ClientBackend][strategy.BulkRead][OpWrites])
	require.ElementsMatch(t, bufs, ring.Slots())
}

// Config.Validate names the what-if setting and its range.
func TestVariantConfigErrors(t *testing.T) {
	err := Config{NBuffers: 16, Version: 18, UsageMax: 6, Replacement: "mru"}.Validate()
	require.EqualError(t, err, "usage_max=6: outside the allowed range 1..5\nreplacement=mru: must be one of clock, lru, 2q, arc, clock-pro")
}

// freelist=off (PostgreSQL 19). 16 buffers: rel 1 blocks 0..3 fill buffers
// 1..4, rel 2 blocks 0..3 buffers 5..8, rel 1 blocks 4..11 buffers 9..16 —
// the free list hands them out in that order, and so does the clock over
// buffers at usage 0, but the clock moves: one complete pass, the hand back
// at buffer 1. DROP of rel 2 frees buffers 5..8. With the free list the next
// page takes buffer 8 (the free list is LIFO) and buffers 1..4 keep usage 1;
// without it the hand takes buffers 1..4 down to 0 on its way to buffer 5.
func TestNoFreeList(t *testing.T) {
	for _, off := range []bool{false, true} {
		p, be := newVariantPool(t, Config{NBuffers: 16, NoFreeList: off})
		p.CreateRel(2, 100, true)
		read := func(rel pg.RelID, blk int) pg.Buffer {
			b, _, err := p.ReadBuffer(be, pg.BufferTag{Rel: rel, Block: pg.BlockNumber(blk)}, nil)
			require.NoError(t, err)
			p.Unpin(be, b)
			return b
		}
		var got []pg.Buffer
		for blk := 0; blk < 4; blk++ {
			got = append(got, read(1, blk))
		}
		for blk := 0; blk < 4; blk++ {
			got = append(got, read(2, blk))
		}
		for blk := 4; blk < 12; blk++ {
			got = append(got, read(1, blk))
		}
		require.Equal(t, []pg.Buffer{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, got)
		require.Equal(t, pg.Buffer(1), p.Control().Hand())
		if off {
			require.EqualValues(t, 1, p.Control().CompletePasses)
		} else {
			require.EqualValues(t, 0, p.Control().CompletePasses)
		}
		p.DropRelBuffers(2)
		b := read(1, 12)
		if off {
			require.Equal(t, pg.Buffer(5), b)
			require.Equal(t, 0, p.State(1).Usage())
			require.Equal(t, 0, p.Control().FreeListLen())
		} else {
			require.Equal(t, pg.Buffer(8), b)
			require.Equal(t, 1, p.State(1).Usage())
			require.Equal(t, 3, p.Control().FreeListLen())
		}
		require.NoError(t, p.CheckInvariants([]*Backend{be}, nil))
	}
}

// With freelist=off the policies hand out never-used buffers themselves, in
// buffer order, as PostgreSQL 19's clock does at start-up: 16 reads take
// buffers 1..16, the 17th evicts the least recent page (block 0, buffer 1)
// under LRU and T1's least recent (the same) under 2Q and ARC (T1 holds 16
// ≥ the target 8); under CLOCK-Pro hand-cold starts at the first page
// loaded, cold and unreferenced: buffer 1 too.
func TestPoliciesWithoutFreeList(t *testing.T) {
	for _, repl := range []string{"lru", "2q", "arc", "clock-pro"} {
		p, be := newVariantPool(t, Config{NBuffers: 16, Replacement: repl, NoFreeList: true})
		for blk := 0; blk < 16; blk++ {
			require.Equal(t, pg.Buffer(blk+1), access(t, p, be, blk), repl)
		}
		require.Equal(t, pg.Buffer(1), access(t, p, be, 16), repl)
		require.NoError(t, p.CheckInvariants([]*Backend{be}, nil))
	}
}
