package bufmgr

import (
	"cmp"
	"slices"
	"testing"

	"github.com/pgbufsim/pgbufsim/internal/rng"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/storage"
	"github.com/pgbufsim/pgbufsim/strategy"
	"github.com/pgbufsim/pgbufsim/wal"
	"github.com/stretchr/testify/require"
)

func newPool(t *testing.T, n int, checksums bool) (*Pool, *Backend) {
	w, err := wal.New(wal.Config{Version: 18, WalBuffers: 64})
	require.NoError(t, err)
	st, err := storage.New(storage.Config{CacheBlocks: 1 << 20, Device: storage.Devices["nvme"], ReadAheadKB: 128})
	require.NoError(t, err)
	p, err := NewPool(Config{NBuffers: n, Version: 18, Checksums: checksums, Storage: st}, w)
	require.NoError(t, err)
	p.CreateRel(1, 1000, true)
	return p, NewBackend(ClientBackend, 0)
}

func tag(blk int) pg.BufferTag { return pg.BufferTag{Rel: 1, Block: pg.BlockNumber(blk)} }

// PinBuffer's usage rules: a new buffer starts at 1; each first pin without a
// strategy adds 1 up to 5; a strategy only raises 0 to 1; re-pinning a buffer
// this backend already holds changes nothing.
func TestUsageRules(t *testing.T) {
	p, be := newPool(t, 16, false)
	b, hit, err := p.ReadBuffer(be, tag(0), nil)
	require.NoError(t, err)
	require.False(t, hit)
	require.Equal(t, 1, p.State(b).Usage())
	b2, hit, _ := p.ReadBuffer(be, tag(0), nil) // still pinned: no bump
	require.True(t, hit)
	require.Equal(t, b, b2)
	require.Equal(t, 1, p.State(b).Usage())
	p.Unpin(be, b)
	p.Unpin(be, b)
	for i := 0; i < 10; i++ {
		b, _, _ = p.ReadBuffer(be, tag(0), nil)
		p.Unpin(be, b)
	}
	require.Equal(t, 5, p.State(b).Usage(), "BM_MAX_USAGE_COUNT")
	ring := strategy.NewRing(strategy.BulkRead, 2)
	b, _, _ = p.ReadBuffer(be, tag(0), ring)
	p.Unpin(be, b)
	require.Equal(t, 5, p.State(b).Usage(), "a ring user never lowers usage")
	require.NoError(t, p.CheckInvariants([]*Backend{be}, []*strategy.Ring{ring}))
}

// MarkBufferDirtyHint with checksums: an FPI only for a page not logged since
// the redo pointer, and only on the first hint (DIRTY|JUST_DIRTIED short-circuit).
func TestMarkBufferDirtyHint(t *testing.T) {
	p, be := newPool(t, 16, true)
	b, _, _ := p.ReadBuffer(be, tag(0), nil)
	p.MarkBufferDirtyHint(be, b, 824)
	require.EqualValues(t, 1, be.WAL.FPI)
	require.EqualValues(t, 7417, be.WAL.Bytes)
	require.EqualValues(t, 1, be.Buf.Dirtied)
	require.Greater(t, p.PageLSN(1, 0), p.WAL().RedoRecPtr())
	p.MarkBufferDirtyHint(be, b, 824)
	require.EqualValues(t, 1, be.WAL.FPI, "second hint costs nothing")
	p.Unpin(be, b)
	// Without checksums a hint only dirties.
	p2, be2 := newPool(t, 16, false)
	b, _, _ = p2.ReadBuffer(be2, tag(0), nil)
	p2.MarkBufferDirtyHint(be2, b, 824)
	require.EqualValues(t, 0, be2.WAL.Records)
	require.True(t, p2.State(b).Has(pg.FlagDirty))
}

// A dirty BULKREAD ring buffer whose LSN is not flushed is rejected; the
// replacement comes from the clock (an eviction, not a reuse).
func TestStrategyRejectBuffer(t *testing.T) {
	p, be := newPool(t, 64, true)
	ring := strategy.NewRing(strategy.BulkRead, 2)
	for blk := 0; blk < 2; blk++ {
		b, _, _ := p.ReadBuffer(be, tag(blk), ring)
		p.MarkBufferDirtyHint(be, b, 824) // FPI: LSN past the flush pointer
		p.Unpin(be, b)
	}
	// Block 2: the ring's next slot (buffer of block 0) is rejected, the loop
	// advances to the other slot (block 1), rejected too, and the victim comes
	// from the clock: two rejections, no reuse.
	b, _, err := p.ReadBuffer(be, tag(2), ring)
	require.NoError(t, err)
	p.MarkBufferDirty(be, b) // dirty, but its LSN (0) needs no flush
	p.Unpin(be, b)
	require.EqualValues(t, 2, be.Rejects)
	require.EqualValues(t, 0, p.Stats.Rel[ClientBackend][strategy.BulkRead][OpReuses])
	// Block 3 refills the emptied slot from the clock; block 4 comes back to
	// block 2's buffer: dirty without a WAL flush needed, so it is written and reused.
	for blk := 3; blk <= 4; blk++ {
		b, _, _ = p.ReadBuffer(be, tag(blk), ring)
		p.Unpin(be, b)
	}
	require.EqualValues(t, 2, be.Rejects)
	require.EqualValues(t, 1, p.Stats.Rel[ClientBackend][strategy.BulkRead][OpReuses])
	require.EqualValues(t, 1, p.Stats.Rel[ClientBackend][strategy.BulkRead][OpWrites])
}

// pg_buffercache_evict_all does not refill the free list; DROP does.
func TestEvictVsDrop(t *testing.T) {
	p, be := newPool(t, 16, false)
	for blk := 0; blk < 20; blk++ {
		b, _, _ := p.ReadBuffer(be, tag(blk), nil)
		p.Unpin(be, b)
	}
	require.Equal(t, 0, p.Control().FreeListLen())
	r := p.Evict(be, 0, true)
	require.Equal(t, 16, r.Evicted)
	require.Equal(t, 0, p.Control().FreeListLen())
	for blk := 0; blk < 5; blk++ {
		b, _, _ := p.ReadBuffer(be, tag(blk), nil)
		p.Unpin(be, b)
	}
	p.DropRelBuffers(1)
	require.Equal(t, 5, p.Control().FreeListLen())
	require.NoError(t, p.CheckInvariants(nil, nil))
}

// TestRadixSortSyncKeys: the checkpoint's radix sort gives the comparison
// sort's order (relation as a signed number, then fork, then block) on keys
// drawn at random, with negative relation ids and forks past the main one.
func TestRadixSortSyncKeys(t *testing.T) {
	r := rng.New(7)
	for _, n := range []int{0, 1, 2, 100, 5000} {
		seen := map[pg.BufferTag]bool{}
		var keys []syncKey
		var tags []pg.BufferTag
		for len(keys) < n {
			tag := pg.BufferTag{Rel: pg.RelID(int32(r.Uint64n(64)) - 8), Fork: pg.ForkNumber(r.Uint64n(3)), Block: pg.BlockNumber(r.Uint64n(70000))}
			if n > 1000 {
				tag.Block = pg.BlockNumber(r.Uint32()) // all four block bytes vary
			}
			if seen[tag] {
				continue
			}
			seen[tag] = true
			tags = append(tags, tag)
			keys = append(keys, syncKey{rel: uint32(tag.Rel) ^ 1<<31, forkBlock: uint64(tag.Fork)<<32 | uint64(tag.Block), b: pg.Buffer(len(keys) + 1)})
		}
		got := radixSortSyncKeys(keys)
		want := slices.Clone(tags)
		slices.SortFunc(want, func(a, b pg.BufferTag) int {
			if a.Rel != b.Rel {
				return cmp.Compare(a.Rel, b.Rel)
			}
			if a.Fork != b.Fork {
				return cmp.Compare(a.Fork, b.Fork)
			}
			return cmp.Compare(a.Block, b.Block)
		})
		require.Len(t, got, n)
		for i := range got {
			require.Equal(t, want[i], tags[got[i].b-1], "position %d of %d", i, n)
		}
	}
}

// TestSyncKeysSorted: the check that lets a checkpoint skip sorting agrees
// with the comparison order: keys the radix sort put in order pass, and
// swapping any two distinct neighbours (a relation, fork or block out of
// order) fails it.
func TestSyncKeysSorted(t *testing.T) {
	r := rng.New(11)
	var keys []syncKey
	seen := map[[2]uint64]bool{}
	for len(keys) < 3000 {
		k := syncKey{rel: uint32(r.Uint64n(4)) ^ 1<<31, forkBlock: r.Uint64n(3)<<32 | r.Uint64n(5000), b: pg.Buffer(len(keys) + 1)}
		if seen[[2]uint64{uint64(k.rel), k.forkBlock}] {
			continue
		}
		seen[[2]uint64{uint64(k.rel), k.forkBlock}] = true
		keys = append(keys, k)
	}
	require.False(t, syncKeysSorted(keys), "random keys")
	keys = radixSortSyncKeys(keys)
	require.True(t, syncKeysSorted(keys))
	require.True(t, syncKeysSorted(nil))
	require.True(t, syncKeysSorted(keys[:1]))
	for _, i := range []int{0, 1, 500, 1499, 2998} {
		swapped := slices.Clone(keys)
		swapped[i], swapped[i+1] = swapped[i+1], swapped[i]
		require.False(t, syncKeysSorted(swapped), "neighbours %d and %d swapped", i, i+1)
	}
}
