package nbtree_test

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/nbtree"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
	"github.com/stretchr/testify/require"
)

// fakeEngine is the cluster's side of an insertion without a cluster: an
// image is the page less its hole (no wal_compression), and the catalog
// lookups are counted.
type fakeEngine struct{ opened int }

var _ nbtree.Engine = (*fakeEngine)(nil)

func (e *fakeEngine) ImageLen(b pg.Buffer, hole int) int { return pg.BLCKSZ - hole }

func (e *fakeEngine) OpenIndex() error { e.opened++; return nil }

// newWriter is a writer for ix on a pool of 1,024 buffers (8 MB) and a WAL
// of its own, PostgreSQL 15, full_page_writes on; the index's pages so far
// are on disk.
func newWriter(t testing.TB, ix *nbtree.Index) (*nbtree.Writer, *fakeEngine) {
	t.Helper()
	w, err := wal.New(wal.Config{Version: 15, WalBuffers: 512})
	require.NoError(t, err)
	p, err := bufmgr.NewPool(bufmgr.Config{NBuffers: 1024, Version: 15}, w)
	require.NoError(t, err)
	p.CreateRel(ix.ID, ix.Pages(), true)
	e := &fakeEngine{}
	return &nbtree.Writer{Pool: p, Backend: bufmgr.NewBackend(bufmgr.ClientBackend, 0), WAL: w, FullPageWrites: true, Engine: e}, e
}

// insertN inserts the next n ids into ix.
func insertN(t testing.TB, ix *nbtree.Index, w *nbtree.Writer, n int) {
	t.Helper()
	for range n {
		if err := ix.Insert(w); err != nil {
			t.Fatal(err)
		}
	}
}

// noPins checks that the insertions left no page pinned.
func noPins(t testing.TB, w *nbtree.Writer) {
	t.Helper()
	require.NoError(t, w.Pool.CheckInvariants(nil, nil))
}

// reads is the pages the writer's backend has pinned (hits and reads).
func reads(w *nbtree.Writer) int64 { return w.Backend.Buf.Hit + w.Backend.Buf.Read }
