package engine

import (
	"fmt"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
)

// checkpoint runs CHECKPOINT (FAST | FORCE | WAIT) in the checkpointer
// (bgproc.Checkpointer.RunImmediate). Its result includes the end of a
// checkpoint under way, which it waits for.
func (c *Cluster) checkpoint() (*StmtResult, error) {
	start := c.now
	r := c.ckpt.RunImmediate(c.now, c.runOthersUntil, func(t int64) int64 { c.advanceTo(t); return c.now })
	be := r.Be
	c.finish([]*participant{{be: be}})
	res := &StmtResult{Kind: "Checkpoint", Buf: be.Buf, WAL: be.WAL, IOReadNs: be.IOReadNs, TimeNs: c.now - start}
	res.Buf.Written += r.TailWritten
	res.WAL.Records, res.WAL.FPI, res.WAL.Bytes = res.WAL.Records+r.TailWAL.Records, res.WAL.FPI+r.TailWAL.FPI, res.WAL.Bytes+r.TailWAL.Bytes
	res.Extra = append(res.Extra, fmt.Sprintf("wrote %d buffers; redo lsn=%s; LSN advanced %d bytes (the records' bytes plus alignment and page headers)", r.Written, c.wal.RedoRecPtr(), c.wal.InsertLSN()-r.StartLSN))
	c.foldWAL(be)
	return res, nil
}

// evict runs pg_buffercache_evict_all() or pg_buffercache_evict_relation().
func (c *Cluster) evict(rel *heap.Relation) (*StmtResult, error) {
	start := c.now
	be := bufmgr.NewBackend(bufmgr.ClientBackend, c.now)
	var r bufmgr.EvictResult
	if rel == nil {
		r = c.pool.Evict(be, 0, true)
	} else {
		r = c.pool.Evict(be, rel.ID, false)
	}
	c.finish([]*participant{{be: be}})
	res := &StmtResult{Kind: "Evict", Buf: be.Buf, WAL: be.WAL, IOReadNs: be.IOReadNs, TimeNs: c.now - start}
	if rel != nil {
		res.Relation = rel.Name
	}
	res.Extra = append(res.Extra, fmt.Sprintf("buffers_evicted=%d buffers_flushed=%d buffers_skipped=%d", r.Evicted, r.Flushed, r.Skipped))
	c.foldWAL(be)
	return res, nil
}

// insertRecord inserts a record with no image.
func (c *Cluster) insertRecord(now int64, u *wal.Usage, size int) (int64, pg.LSN) {
	lsn, now := c.wal.Insert(now, u, size, 0)
	return now, lsn
}
