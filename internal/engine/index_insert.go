package engine

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
	w       nbtree.Writer
	engine  btEngine
}

// openIndexes opens rel's indexes for a load by be: a statement is a new
// session, so each index's session caches start empty.
func (c *Cluster) openIndexes(be *bufmgr.Backend, rel *heap.Relation) *indexWriter {
	iw := &indexWriter{indexes: c.sortedIndexes(rel), engine: btEngine{c: c, be: be}}
	iw.w = nbtree.Writer{Pool: c.pool, Backend: be, WAL: c.wal, FullPageWrites: c.S.Bool("full_page_writes"), Engine: &iw.engine}
	for _, ix := range iw.indexes {
		ix.StartSession()
	}
	return iw
}

// insert is ExecInsertIndexTuples for one new row: each of the table's
// indexes gets its key (_bt_doinsert). It runs once a row, so it is kept
// small enough for the compiler to inline.
func (iw *indexWriter) insert() (err error) {
	for _, ix := range iw.indexes {
		if err = ix.Insert(&iw.w); err != nil {
			break
		}
	}
	return err
}

// btEngine is the cluster's side of an index insertion (nbtree.Engine).
type btEngine struct {
	c  *Cluster
	be *bufmgr.Backend
}

var _ nbtree.Engine = (*btEngine)(nil)

// ImageLen is an image's bytes under wal_compression, compressed for real
// from the page's modelled bytes.
func (e *btEngine) ImageLen(b pg.Buffer, hole int) int {
	return e.c.imageLen(e.be, e.c.pool.Tag(b), hole)
}

// OpenIndex pins the catalog pages of a session's first index insertion.
func (e *btEngine) OpenIndex() error { return e.c.indexInsertPins(e.be) }
