package engine

import (
	"fmt"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/catalog"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/internal/engine/bulk"
	"github.com/pgbufsim/pgbufsim/internal/engine/bulkext"
	"github.com/pgbufsim/pgbufsim/internal/engine/vacpage"
	"github.com/pgbufsim/pgbufsim/internal/engine/vacwal"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/strategy"
	"github.com/pgbufsim/pgbufsim/wal"
)

// copyFrom runs COPY rel FROM STDIN [FREEZE] of n rows (copyfrom.c CopyFrom):
// rows buffered and flushed by heap_multi_insert through a BulkInsertState,
// whose BAS_BULKWRITE ring supplies the buffers of new pages and writes dirty
// ones it gets back itself (after flushing WAL: bulkwrite rings never reject).
// The state keeps the current page pinned, so the next batch continues on it
// without another pin. One XLOG_HEAP2_MULTI_INSERT per page per batch. With
// FREEZE (the table created or truncated in this transaction, so the FSM is
// skipped too) tuples are written frozen and a page that was empty when its
// batch began is set all-visible and all-frozen, with an XLOG_HEAP2_VISIBLE
// for the visibility map (15–18; in 19 the multi-insert record carries the
// VM page).
func (c *Cluster) copyFrom(rel *heap.Relation, n int64, freeze bool) (*StmtResult, error) {
	if freeze && !c.txn.created[rel.ID] {
		return nil, fmt.Errorf("copy %s freeze: %s", rel.Name, heap.ErrCopyFreeze)
	}
	be, err := c.beginStatement(catalog.Copy)
	if err != nil {
		return nil, err
	}
	start := c.now
	ringN := c.RingBuffers(strategy.BulkWrite)
	ring := strategy.NewRing(strategy.BulkWrite, ringN)
	tlen := rel.Shape.TupleLen
	bis := bulk.NewInsertState(c.pool, c, ring, !c.txn.created[rel.ID]) // TABLE_INSERT_SKIP_FSM for a relfilenode new in this transaction
	bis.AddBlocks = c.addBlocks
	vmBuf, vmBlk := pg.InvalidBuffer, pg.InvalidBlockNumber
	// FreeBulkInsertState: the state's pin goes (on an error path too), and the ring with it.
	defer func() {
		bis.Free(be)
		if vmBuf != pg.InvalidBuffer {
			c.pool.Unpin(be, vmBuf)
		}
	}()
	first := rel.Rows + 1
	var done int64
	indexes := c.openIndexes(be, rel) // the table's indexes, each new row's entries (ExecOpenIndices)
	var flushHeap func(ntuples int) error
	// flush is CopyMultiInsertBufferFlush: heap_multi_insert of the batch,
	// then ExecInsertIndexTuples for each of its rows.
	flush := func(ntuples int) error {
		if err := flushHeap(ntuples); err != nil {
			return err
		}
		for i := 0; i < ntuples; i++ {
			if err := indexes.insert(); err != nil {
				return err
			}
		}
		return nil
	}
	flushHeap = func(ntuples int) error {
		// heap_multi_insert's pages to extend by: computed for the tuples
		// left whenever the last page did not start empty, else one fewer.
		npages, used, startedEmpty := 0, 0, false
		for first := true; ntuples > 0; first = false {
			if first || !startedEmpty {
				npages, used = bulkext.MultiInsertPages(ntuples, tlen, rel.Shape.Fillfactor), 0
			} else {
				used++
			}
			b, blk, err := bis.GetBuffer(be, rel, npages-used)
			if err != nil {
				return err
			}
			startedEmpty = rel.Tuples(blk) == 0
			if freeze {
				// visibilitymap_pin for the page (the VM fork extended as needed).
				if want := blk / heapBlocksPerVMPage; want != vmBlk {
					if vmBuf != pg.InvalidBuffer {
						c.pool.Unpin(be, vmBuf)
						vmBuf = pg.InvalidBuffer
					}
					nb, _, err := c.forkReadBuf(be, rel, pg.VMFork, want, true)
					if err != nil {
						return err
					}
					vmBuf = nb
					vmBlk = want
				}
			}
			empty := rel.Tuples(blk) == 0
			k := 0
			for ntuples > 0 && (k == 0 || rel.Fits(blk)) {
				rel.AddTuple(blk, freeze)
				k++
				ntuples--
				done++
				c.rowChanges++
			}
			allFrozenSet := empty && freeze
			if allFrozenSet {
				rel.SetFlags(blk, heap.PageHinted|heap.PageAllVisible|heap.PageAllFrozen)
				rel.ClearFlags(blk, heap.PagePrunable) // PageClearPrunable (19)
			}
			c.pool.MarkBufferDirty(be, b)
			image := !empty && c.needsImage(c.pool.BufferLSN(b))
			nfpi := 0
			if image {
				nfpi = 1
			}
			size := wal.MultiInsertLen(k, tlen, empty, image, c.imageHole(be, image, b, rel.Hole(blk)))
			vmInRecord := allFrozenSet && c.S.Version >= 19
			if vmInRecord {
				// 19: no XLOG_HEAP2_VISIBLE; the multi-insert record registers
				// the VM page as block 1 (heap_multi_insert, 19): same relation,
				// flags 0, so an image when last logged before the redo pointer.
				c.pool.MarkBufferDirty(be, vmBuf)
				size += wal.SizeOfBlockHeader + wal.SizeOfBlockNumber
				if c.needsImage(c.pool.BufferLSN(vmBuf)) {
					size += wal.SizeOfBlockImageHeader + c.imageLen(be, c.pool.Tag(vmBuf), 0)
					nfpi++
				}
			}
			lsn, now := c.wal.Insert(be.Now, &be.WAL, size, nfpi)
			be.Now = now + int64(k)*c.costs.InsertTupleNs
			c.pool.SetPageLSN(b, lsn)
			if vmInRecord {
				c.pool.SetPageLSN(vmBuf, lsn)
			} else if allFrozenSet {
				c.logVisible(be, b, vmBuf, rel.Hole(blk))
			}
		}
		return nil
	}
	p := &participant{be: be}
	batch, bytes := 0, 0
	// Buffering a row takes no simulated time, so nothing the scheduler runs
	// can come between two rows of a batch: one step buffers up to the flush
	// (bulk.RowByRow: a row a step, the reference).
	p.step = func() (bool, error) {
		for {
			if done+int64(batch) == n {
				if batch > 0 {
					if err := flush(batch); err != nil {
						return true, err
					}
				}
				return true, nil
			}
			batch++
			bytes += rel.CopyLineLen(first + done + int64(batch) - 1)
			if batch >= heap.CopyMaxBufferedTuples || bytes >= heap.CopyMaxBufferedBytes {
				err := flush(batch)
				batch, bytes = 0, 0
				return err != nil, err
			}
			if bulk.RowByRow {
				return false, nil
			}
		}
	}
	if err := c.run([]*participant{p}); err != nil {
		return nil, err
	}
	rel.TargetBlock = bis.CurBlk
	res := &StmtResult{Kind: "Copy", Relation: rel.Name, Strategy: strategy.BulkWrite, RingBuffers: ringN, Buf: be.Buf, WAL: be.WAL, IOReadNs: be.IOReadNs}
	c.endStatement(be, true)
	c.finish([]*participant{p})
	res.TimeNs = c.now - start
	if freeze {
		av, af := rel.CountVisibility()
		res.Extra = append(res.Extra, fmt.Sprintf("all-visible pages=%d all-frozen pages=%d", av, af))
	}
	c.foldWAL(be)
	return res, nil
}

// logVisible is vacpage.LogVisible: XLOG_HEAP2_VISIBLE after the heap page's own record.
func (c *Cluster) logVisible(be *bufmgr.Backend, b, vmBuf pg.Buffer, hole int) {
	vacpage.LogVisible(c.vacPageEnv(), be, b, vmBuf, hole)
}

// endStatement ends a writing statement's transaction: outside a
// transaction block, XLOG_XACT_COMMIT, flushed before the client hears back
// (synchronous_commit); inside one, the commit waits for `commit`.
func (c *Cluster) endStatement(be *bufmgr.Backend, wrote bool) {
	c.stmtXid = false
	if c.txn.active {
		c.txn.wrote = c.txn.wrote || wrote
		return
	}
	if !wrote {
		return
	}
	c.xids++
	var end pg.LSN
	end, be.Now = c.wal.Insert(be.Now, &be.WAL, vacwal.CommitLen(c.invals), 0)
	c.invals = 0
	be.Now = c.wal.Flush(be.Now, &be.WAL, end)
}
