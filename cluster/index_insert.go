package cluster

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/nbtree"
	"github.com/pgbufsim/pgbufsim/pg"
)

// indexWriter maintains a table's indexes during one statement's load
// (ExecOpenIndices at its start, ExecInsertIndexTuples for each new row).
type indexWriter struct {
	indexes []*nbtree.Index
	engine  btBackend
}

// openIndexes opens rel's indexes for a load by be: a statement is a new
// session, so each index's session caches start empty.
func (c *Cluster) openIndexes(be *bufmgr.Backend, rel *heap.Relation) *indexWriter {
	w := &indexWriter{indexes: c.sortedIndexes(rel), engine: btBackend{c: c, be: be}}
	for _, ix := range w.indexes {
		ix.StartSession()
	}
	return w
}

// insert is ExecInsertIndexTuples for one new row: each of the table's
// indexes gets its key (_bt_doinsert).
func (w *indexWriter) insert() error {
	for _, ix := range w.indexes {
		if err := ix.Insert(&w.engine); err != nil {
			return err
		}
	}
	return nil
}

// btBackend is one backend's side of an index insertion (nbtree.Engine):
// its pins through the pool, its WAL records, its clock.
type btBackend struct {
	c  *Cluster
	be *bufmgr.Backend
}

var _ nbtree.Engine = (*btBackend)(nil)

func (e *btBackend) ReadBuffer(t pg.BufferTag) (pg.Buffer, error) {
	b, _, err := e.c.pool.ReadBuffer(e.be, t, nil)
	return b, err
}

func (e *btBackend) ReleaseBuffer(b pg.Buffer) { e.c.pool.Unpin(e.be, b) }

func (e *btBackend) MarkBufferDirty(b pg.Buffer) { e.c.pool.MarkBufferDirty(e.be, b) }

func (e *btBackend) ExtendBufferedRel(rel pg.RelID) (pg.Buffer, pg.BlockNumber, error) {
	return e.c.pool.Extend(e.be, rel, nil)
}

func (e *btBackend) NeedsImage(b pg.Buffer) bool { return e.c.needsImage(e.c.pool.BufferLSN(b)) }

func (e *btBackend) ImageLen(b pg.Buffer, hole int) int {
	return e.c.imageLen(e.be, e.c.pool.Tag(b), hole)
}

func (e *btBackend) XLogInsert(size, fpi int, b, other pg.Buffer) {
	lsn, now := e.c.wal.Insert(e.be.Now, &e.be.WAL, size, fpi)
	e.be.Now = now
	e.c.pool.SetPageLSN(b, lsn)
	if other != pg.InvalidBuffer {
		e.c.pool.SetPageLSN(other, lsn)
	}
}

// OpenIndex pins the catalog pages of a session's first index insertion.
func (e *btBackend) OpenIndex() error { return e.c.indexInsertPins(e.be) }
