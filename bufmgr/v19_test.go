package bufmgr

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/storage"
	"github.com/pgbufsim/pgbufsim/strategy"
	"github.com/pgbufsim/pgbufsim/wal"
	"github.com/stretchr/testify/require"
)

// newVersionPool is a pool of n buffers for version v with relation 1
// (permanent) and relation 2 (unlogged), 1,000 blocks each.
func newVersionPool(t *testing.T, n int, v pg.Version, ioWorkers int) (*Pool, *Backend) {
	w, err := wal.New(wal.Config{Version: v, WalBuffers: 64})
	require.NoError(t, err)
	st, err := storage.New(storage.Config{CacheBlocks: 1 << 20, Device: storage.Devices["nvme"], ReadAheadKB: 128})
	require.NoError(t, err)
	p, err := NewPool(Config{NBuffers: n, Version: v, Storage: st, IOWorkers: ioWorkers}, w)
	require.NoError(t, err)
	p.CreateRel(1, 1000, true)
	p.CreateRel(2, 1000, false)
	return p, NewBackend(ClientBackend, 0)
}

// Version 19 has no free list (freelist.c, 19): 16 buffers, relation 1
// blocks 0..3 take buffers 1..4, relation 2 blocks 0..3 buffers 5..8, relation
// 1 blocks 4..11 buffers 9..16 — in both versions, since 19's clock finds every
// buffer at usage 0 in hand order; but 19's hand has gone round once
// (completePasses 1, back at buffer 1) while 18's has not moved. DROP of
// relation 2 frees buffers 5..8: 18 reuses buffer 8 at once (the free list is
// LIFO) and buffers 1..4 keep usage 1; 19's hand sweeps buffers 1..4 down to
// usage 0 and takes buffer 5.
func TestV19NoFreeList(t *testing.T) {
	for _, v := range []pg.Version{18, 19} {
		p, be := newVersionPool(t, 16, v, 0)
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
		require.Equal(t, []pg.Buffer{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, got, "version %d", v)
		require.Equal(t, pg.Buffer(1), p.Control().Hand())
		p.DropRelBuffers(2)
		b := read(1, 12)
		if v == 19 {
			require.EqualValues(t, 1, p.Control().CompletePasses)
			require.Equal(t, pg.Buffer(5), b)
			require.Equal(t, []int{0, 0, 0, 0}, []int{p.State(1).Usage(), p.State(2).Usage(), p.State(3).Usage(), p.State(4).Usage()})
			require.Equal(t, pg.Buffer(6), p.Control().Hand())
			require.Equal(t, 0, p.Control().FreeListLen())
		} else {
			require.EqualValues(t, 0, p.Control().CompletePasses)
			require.Equal(t, pg.Buffer(8), b)
			require.Equal(t, 1, p.State(1).Usage())
			require.Equal(t, 3, p.Control().FreeListLen())
		}
		require.NoError(t, p.CheckInvariants([]*Backend{be}, nil))
	}
}

// GetVictimBuffer (bufmgr.c, 19) asks StrategyRejectBuffer only about a
// BM_PERMANENT buffer. A two-slot BULKREAD ring: block 0 goes into buffer 1
// (slot 1: the cursor advances before use), is dirtied with a page LSN past
// the flushed WAL (an unlogged GiST page's fake LSN can be), block 1 into
// buffer 2 (slot 0). Block 2 comes back to slot 1, buffer 1: dirty, needing
// a flush. 18 rejects it (the slot is emptied), advances to slot 0 and reuses
// buffer 2, so buffer 1 keeps the dirty page; 19 writes buffer 1 (an unlogged
// page flushes no WAL) and reuses it. A permanent relation is rejected in both.
func TestV19RejectOnlyPermanent(t *testing.T) {
	for _, c := range []struct {
		v       pg.Version
		rel     pg.RelID
		rejects int64
		buf     pg.Buffer // the buffer block 2 lands in
		writes  int64
	}{
		{18, 2, 1, 2, 0},
		{19, 2, 0, 1, 1},
		{19, 1, 1, 2, 0},
	} {
		p, be := newVersionPool(t, 16, c.v, 0)
		ring := strategy.NewRing(strategy.BulkRead, 2)
		read := func(blk int) pg.Buffer {
			b, _, err := p.ReadBuffer(be, pg.BufferTag{Rel: c.rel, Block: pg.BlockNumber(blk)}, ring)
			require.NoError(t, err)
			return b
		}
		b0 := read(0)
		require.Equal(t, pg.Buffer(1), b0)
		lsn, _ := p.WAL().Insert(0, &be.WAL, 100, 0)
		p.MarkBufferDirty(be, b0)
		p.SetPageLSN(b0, lsn)
		require.True(t, p.WAL().NeedsFlush(lsn))
		p.Unpin(be, b0)
		p.Unpin(be, read(1))
		b2 := read(2)
		p.Unpin(be, b2)
		require.Equal(t, c.buf, b2, "version %d rel %d", c.v, c.rel)
		require.Equal(t, c.rejects, be.Rejects)
		require.Equal(t, c.writes, p.Stats.Rel[ClientBackend][strategy.BulkRead][OpWrites])
		require.EqualValues(t, 1, p.Stats.Rel[ClientBackend][strategy.BulkRead][OpReuses])
	}
}

// 19 has no BM_JUST_DIRTIED: MarkBufferDirty sets BM_DIRTY alone, and
// MarkBufferDirtyHint's early exit is "already dirty". The outcomes are 18's:
// with checksums the first hint on a page last logged before the redo
// pointer writes one FPI_FOR_HINT (8,241 − 824 = 7,417 bytes) and dirties the
// page; a second hint costs nothing; after a write and a new redo pointer
// the next hint pays again.
func TestV19HintDirtying(t *testing.T) {
	for _, v := range []pg.Version{18, 19} {
		w, err := wal.New(wal.Config{Version: v, WalBuffers: 64})
		require.NoError(t, err)
		p, err := NewPool(Config{NBuffers: 16, Version: v, Checksums: true}, w)
		require.NoError(t, err)
		p.CreateRel(1, 10, true)
		be := NewBackend(ClientBackend, 0)
		b, _, err := p.ReadBuffer(be, tag(0), nil)
		require.NoError(t, err)
		p.MarkBufferDirtyHint(be, b, 824)
		p.MarkBufferDirtyHint(be, b, 824)
		require.EqualValues(t, 1, be.WAL.FPI)
		require.EqualValues(t, 7417, be.WAL.Bytes)
		require.EqualValues(t, 1, be.Buf.Dirtied)
		require.True(t, p.State(b).Has(pg.FlagDirty))
		require.Equal(t, v < 19, p.State(b).Has(pg.FlagJustDirtied), "version %d", v)
		p.Unpin(be, b)
		ck := NewBackend(Checkpointer, 0)
		p.WAL().Checkpoint(0, &ck.WAL, v)
		require.Equal(t, 1, p.BufferSync(ck, false))
		require.False(t, p.State(b).Has(pg.FlagDirty|pg.FlagJustDirtied))
		b, _, _ = p.ReadBuffer(be, tag(0), nil)
		p.MarkBufferDirtyHint(be, b, 824)
		require.EqualValues(t, 2, be.WAL.FPI)
		p.MarkBufferDirty(be, b)
		require.Equal(t, v < 19, p.State(b).Has(pg.FlagJustDirtied))
		p.Unpin(be, b)
	}
}

// streamDistances reads blocks 0..nblocks-1 of relation 1 through a read
// stream (max_ios 16, io_combine_limit 16, pin limit 32: max_pinned 32) and
// returns the look-ahead distance after each buffer handed out; the consumer
// spends gapNs on each page.
func streamDistances(t *testing.T, p *Pool, be *Backend, v pg.Version, nblocks int, gapNs int64) []int {
	next := pg.BlockNumber(0)
	s := p.NewReadStream(be, nil, 1, StreamConfig{Version: v, MaxIOs: 16, IOCombineLimit: 16, PinLimit: 32, NBuffers: p.NBuffers()},
		func() (pg.BlockNumber, bool) {
			if int(next) >= nblocks {
				return 0, false
			}
			next++
			return next - 1, true
		})
	require.Equal(t, 32, s.MaxPinned())
	var ds []int
	for {
		b, _, ok, err := s.Next()
		require.NoError(t, err)
		if !ok {
			return ds
		}
		ds = append(ds, s.Distance())
		p.Unpin(be, b)
		be.Now += gapNs
	}
}

// Read streams, 19 (read_stream.c): cold blocks read synchronously give 18's
// distances — every read is waited for, so the distance doubles at the first
// buffer of each read: reads of 1, 2, 4, 8, 16, 16, 16, 1 blocks; distance 2
// after block 0, 4 after block 1 (the read of 1–2), 8 after block 3 (3–6),
// 16 after block 7 (7–14), 32 after block 15, except 31 after block 30 when
// the 18+ pin check (GetAdditionalPinLimit: 32 − 1 pinned) trims it, then 0
// at the end (block 32 on: the stream has seen its last block).
func TestV19StreamColdSync(t *testing.T) {
	want := []int{2, 4, 4, 8, 8, 8, 8, 16, 16, 16, 16, 16, 16, 16, 16}
	for i := 15; i < 30; i++ {
		want = append(want, 32)
	}
	want = append(want, 31, 32)
	for i := 32; i < 64; i++ {
		want = append(want, 0)
	}
	for _, v := range []pg.Version{18, 19} {
		p, be := newVersionPool(t, 256, v, 0)
		require.Equal(t, want, streamDistances(t, p, be, v, 64, 0), "version %d", v)
		require.EqualValues(t, 8, p.Stats.Rel[ClientBackend][strategy.Normal][OpReads])
	}
}

// 19 doubles the distance only when the consumer had to wait
// (f63ca33790). One I/O worker, a consumer that spends a second a page so
// every read but the first is done when it is needed: 18 doubles at each
// read anyway (2, 4, 4, 8, …); 19 waits only for block 0 (distance 2) and
// stays at 2, while the combine distance still doubles with every read, so
// the reads still grow 1, 2, 4, 8, 16 blocks: the same 8 reads.
func TestV19StreamNoWaitNoGrowth(t *testing.T) {
	p, be := newVersionPool(t, 256, 18, 1)
	d18 := streamDistances(t, p, be, 18, 64, 1e9)
	require.Equal(t, []int{2, 4, 4, 8}, d18[:4])
	p, be = newVersionPool(t, 256, 19, 1)
	d19 := streamDistances(t, p, be, 19, 64, 1e9)
	for i, d := range d19[:62] {
		require.Equal(t, 2, d, "after block %d", i)
	}
	require.EqualValues(t, 8, p.Stats.Rel[ClientBackend][strategy.Normal][OpReads])
}

// 19's distances decay only after max_pinned (32) reads with no I/O since the
// last one (distance_decay_holdoff, 6e36930f9a). Block 0 cold, blocks 1–39
// cached, synchronous reads: the read of block 0 is waited for (distance 2,
// holdoff 32); then each hit started with nothing in flight takes one off the
// holdoff — block j's hit (started when block j−1 is handed out) leaves
// 32 − j — and the 33rd (block 33) decays both distances to 1. 18 decays at
// the first hit: 1 from the start.
func TestV19StreamDecayHoldoff(t *testing.T) {
	for _, v := range []pg.Version{18, 19} {
		p, be := newVersionPool(t, 256, v, 0)
		for blk := 1; blk < 40; blk++ {
			b, _, err := p.ReadBuffer(be, tag(blk), nil)
			require.NoError(t, err)
			p.Unpin(be, b)
		}
		d := streamDistances(t, p, be, v, 40, 0)
		require.Len(t, d, 40)
		for i := 0; i < 39; i++ {
			want := 1
			if v == 19 && i < 32 {
				want = 2
			}
			require.Equal(t, want, d[i], "version %d after block %d", v, i)
		}
	}
}
