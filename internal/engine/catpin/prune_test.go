package catpin

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/catalog"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
	"github.com/stretchr/testify/require"
)

// TestSessionPrunesOnce: on 18 a plain session (the Session kind) after
// verify's setup and a checkpoint, data checksums on. Its profile's one
// dirtied page is pg_proc/0/66, the page it is the first to prune
// (prunes18: Hint 8,205, Plain 54). The server's WAL for that session, read
// with pg_waldump after CHECKPOINT on 18beta1, is one FPI_FOR_HINT of
// 1255 blk 66 (8,205 bytes) and one PRUNE_ON_ACCESS (54): the dirtying is
// the prune's. So the session logs 2 records, 1 image, 8,259 bytes, and
// leaves the page dirty; without the rule the profile's mark would add its
// own hint image first (MarkBufferDirtyHint: 2 images). A second session
// finds the page pruned: nothing logged, and its mark (hinted when pruned)
// is dropped. A cluster not fresh from the setup prunes nothing, and the
// mark is dropped too.
func TestSessionPrunesOnce(t *testing.T) {
	prof := catalog.For(18)
	blk, ok := prof.Block("pg_proc/66")
	require.True(t, ok)
	pins := catalog.Decode(prof.Kinds[catalog.Session])
	require.Equal(t, catalog.Pin{N: 1, Dirty: true}, pins[blk])
	for i, pin := range pins {
		require.True(t, !pin.Dirty || i == blk, "page %d: pg_proc/0/66 is the only page the profile dirties", i)
	}
	for _, fresh := range []bool{true, false} {
		w, err := wal.New(wal.Config{Version: 18, WalBuffers: 512})
		require.NoError(t, err)
		pool, err := bufmgr.NewPool(bufmgr.Config{NBuffers: 1024, Version: 18, Checksums: true}, w)
		require.NoError(t, err)
		pool.CreateRel(pg.CatalogRel, 100000, true)
		p := &Pins{Version: 18, On: true, FreshSetup: fresh}
		be := bufmgr.NewBackend(bufmgr.ClientBackend, 0)
		session := func() wal.Usage {
			var got wal.Usage
			started := false
			txn := Txn{Started: &started, FoldWAL: func(x *bufmgr.Backend) { got = x.WAL }, FullPageWrites: true}
			require.NoError(t, p.Touch(pool, w, be, catalog.Session, txn))
			return got
		}
		dirty := func() bool {
			b := pool.Lookup(pg.BufferTag{Rel: pg.CatalogRel, Block: pg.BlockNumber(blk)})
			require.NotEqual(t, pg.InvalidBuffer, b)
			return pool.State(b)&pg.FlagDirty != 0
		}
		// The pages were last written before the checkpoint (LSN 0, the redo pointer's).
		u := session()
		if fresh {
			require.Equal(t, wal.Usage{Records: 2, FPI: 1, Bytes: 8205 + 54}, pick(u), "the prune's records only")
			require.True(t, dirty(), "dirtied by the prune")
			require.True(t, p.Pruned["pg_proc/66"])
		} else {
			require.Equal(t, wal.Usage{}, pick(u), "no prune, no hint")
			require.False(t, dirty())
		}
		require.Equal(t, wal.Usage{}, pick(session()), "fresh=%v: the page is pruned (and hinted) already", fresh)
	}
}

// pick is a session's records, images and bytes.
func pick(u wal.Usage) wal.Usage { return wal.Usage{Records: u.Records, FPI: u.FPI, Bytes: u.Bytes} }

// TestPruneTakesNoSecondPin: on 15 a plain session prunes pg_proc/0/44
// (prunes15's Session record), a page its profile pins. heap_page_prune_opt
// (pruneheap.c) runs under the pin of the access that reaches the page, so
// the prune marks the resident buffer dirty and counts no access of its own:
// the catalog's hits and reads, and the page's usage count, are the same
// as those of a session on a cluster not fresh from the setup, which prunes
// nothing. (A second pin would add a hit and raise the usage count by one,
// moving the clock sweep's victims in a small pool.)
func TestPruneTakesNoSecondPin(t *testing.T) {
	prof := catalog.For(15)
	blk, ok := prof.Block("pg_proc/44")
	require.True(t, ok)
	require.Positive(t, catalog.Decode(prof.Kinds[catalog.Session])[blk].N, "the session's profile pins the page it prunes")
	type result struct {
		hits, reads int64
		usage       int
		dirty       bool
	}
	run := func(fresh bool) result {
		w, err := wal.New(wal.Config{Version: 15, WalBuffers: 512})
		require.NoError(t, err)
		pool, err := bufmgr.NewPool(bufmgr.Config{NBuffers: 1024, Version: 15}, w)
		require.NoError(t, err)
		pool.CreateRel(pg.CatalogRel, 100000, true)
		p := &Pins{Version: 15, On: true, FreshSetup: fresh}
		be := bufmgr.NewBackend(bufmgr.ClientBackend, 0)
		started := false
		txn := Txn{Started: &started, FoldWAL: func(*bufmgr.Backend) {}, FullPageWrites: true}
		require.NoError(t, p.Touch(pool, w, be, catalog.Session, txn))
		require.Equal(t, fresh, p.Pruned["pg_proc/44"])
		b := pool.Lookup(pg.BufferTag{Rel: pg.CatalogRel, Block: pg.BlockNumber(blk)})
		require.NotEqual(t, pg.InvalidBuffer, b)
		hits, reads := pool.Accesses(pg.CatalogRel)
		return result{hits, reads, pool.State(b).Usage(), pool.State(b)&pg.FlagDirty != 0}
	}
	pruned, plain := run(true), run(false)
	require.True(t, pruned.dirty, "dirtied by the prune")
	pruned.dirty = plain.dirty
	require.Equal(t, plain, pruned, "the prune adds no access and no usage")
}
