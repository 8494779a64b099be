package engine

import (
	"math"

	"github.com/pgbufsim/pgbufsim/catalog"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/internal/engine/bulk"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
)

// insertSelect runs INSERT INTO rel SELECT … of n rows: heap_insert per row
// with no access strategy (ExecInsert passes no BulkInsertState), so every
// row pins its target page through the normal clock sweep and bumps its usage
// count; a new page comes from extending the relation by one block
// (RelationGetBufferForTuple after the last page's failed attempt). One
// XLOG_HEAP_INSERT per row (with XLOG_HEAP_INIT_PAGE for a page's first
// tuple, so no image); a page last logged before the redo pointer gets a
// full-page image. The commit record is flushed (synchronous commit).
func (c *Cluster) insertSelect(rel *heap.Relation, n int64) (*StmtResult, error) {
	be, err := c.beginStatement(catalog.Insert)
	if err != nil {
		return nil, err
	}
	start := c.now
	p := &participant{be: be}
	var done int64
	tlen := rel.Shape.TupleLen
	// A new session has no cached target block: RelationGetBufferForTuple asks
	// the FSM (GetPageWithFreeSpace), then tries the last page.
	if err := c.fsmSearchRoot(be, rel); err != nil {
		return nil, err
	}
	indexes := c.openIndexes(be, rel) // the table's indexes, each new row's entries (ExecOpenIndices)
	bulk.Start(c.pool, rel, n)
	p.step = func() (bool, error) {
		if done == n {
			return true, nil
		}
		var b pg.Buffer
		blk := rel.TargetBlock
		if blk != pg.InvalidBlockNumber && !rel.Fits(blk) && bulk.FullPage(c.pool, c.fork(rel, pg.FSMFork), be, rel, blk) {
			blk = pg.InvalidBlockNumber // the full page's and the FSM's hits in one step
		} else if blk != pg.InvalidBlockNumber {
			var err error
			b, _, err = c.pool.ReadBuffer(be, pg.BufferTag{Rel: rel.ID, Block: blk}, nil)
			if err != nil {
				return true, err
			}
			if !rel.Fits(blk) {
				c.pool.Unpin(be, b)
				// RecordAndGetPageWithFreeSpace: record the full page, search
				// (nothing has room for a tuple of this table), then extend.
				if err := c.recordPageWithFreeSpace(be, rel, blk); err != nil {
					return true, err
				}
				if err := c.fsmSearchRoot(be, rel); err != nil {
					return true, err
				}
				blk = pg.InvalidBlockNumber
			}
		}
		first := false
		if blk == pg.InvalidBlockNumber {
			var err error
			b, blk, err = c.pool.Extend(be, rel.ID, nil)
			if err != nil {
				return true, err
			}
			rel.AddPage()
			rel.TargetBlock = blk
			first = true
		}
		image := !first && c.needsImage(c.pool.PageLSN(rel.ID, blk))
		rel.AddTuple(blk, false)
		c.pool.MarkBufferDirty(be, b)
		nfpi := 0
		if image {
			nfpi = 1
		}
		var lsn pg.LSN
		lsn, be.Now = c.wal.Insert(be.Now, &be.WAL, wal.HeapInsert(tlen, image, c.imageHole(be, image, b, rel.Hole(blk))), nfpi)
		// With no index entry to make and no image for the next row, the
		// page's next rows in one step, which sets the page LSN once.
		samePage := len(indexes.indexes) == 0 && !c.needsImage(lsn)
		if !samePage {
			c.pool.SetPageLSN(b, lsn)
		}
		c.pool.Unpin(be, b)
		if err := indexes.insert(); err != nil {
			return true, err
		}
		be.Now += c.costs.InsertTupleNs
		k := int64(1)
		if samePage {
			k += bulk.InsertSamePage((*bgDue)(c), c.pool, c.wal, be, rel, blk, b, lsn, n-done-1, wal.HeapInsert(tlen, false, 0), c.costs.InsertTupleNs)
		}
		done += k
		c.rowChanges += k
		return false, nil
	}
	if err := c.run([]*participant{p}); err != nil {
		return nil, err
	}
	// EXPLAIN's counters stop with the executor; the commit comes after.
	res := &StmtResult{Kind: "Insert", Relation: rel.Name, Buf: be.Buf, WAL: be.WAL, IOReadNs: be.IOReadNs}
	c.endStatement(be, true)
	c.finish([]*participant{p})
	res.TimeNs = c.now - start
	c.foldWAL(be)
	return res, nil
}

// bgDue is the cluster's scheduler as a load's per-page step sees it.
type bgDue Cluster

// NextBackground is when runBackground would first run a process: the
// earliest wake-up, or never known ahead while the bgwriter hibernates (an
// allocation may wake it, so it is asked at every row).
func (d *bgDue) NextBackground() int64 {
	if d.bgw.Hibernating() {
		return math.MinInt64
	}
	return min(d.walwriter.Next, d.ckpt.Next, d.bgw.Next, d.av.Next())
}
