package engine

import (
	"fmt"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
)

// checkpoint runs CHECKPOINT (FAST | FORCE | WAIT): the REDO record (17+)
// fixes the new redo pointer, BufferSync writes every dirty permanent buffer
// (usage counts untouched, buffers stay valid), then RUNNING_XACTS and
// CHECKPOINT_ONLINE are written and flushed (CreateCheckPoint).
//
// A checkpoint under way first runs to its end without pausing; the
// requests pending merge into this one, counted as one requested checkpoint
// (checkpointer.go).
func (c *Cluster) checkpoint() (*StmtResult, error) {
	start := c.now
	// The end of a checkpoint under way is part of what CHECKPOINT waits for:
	// its writes and records count in the command's result.
	wal0, written0 := c.wal.Total, c.ckpt.Stats.BuffersWritten
	c.finishRunningCheckpoint()
	tail, tailWritten := c.wal.Total.Sub(wal0), c.ckpt.Stats.BuffersWritten-written0
	c.ckpt.flags = 0
	c.ckpt.Stats.Requested++
	c.ckpt.lastStart = c.now / 1e9
	ownStart := c.now
	be := bufmgr.NewBackend(bufmgr.Checkpointer, c.now)
	lsn0 := c.wal.InsertLSN()
	be.Now = c.wal.Checkpoint(be.Now, &be.WAL, c.S.Version)
	redo, sizes := c.wal.RedoRecPtr(), c.pool.RelSizes()
	written := c.pool.BufferSync(be, false)
	writeEnd := be.Now
	be.Now = c.storage.SyncAll(be.Now) // ProcessSyncRequests: fsync the files written since the last checkpoint
	syncEnd := be.Now
	be.Now = c.wal.FinishCheckpoint(be.Now, &be.WAL)
	c.checkpointDone(redo, sizes)
	c.checkpointFinished(redo, int64(written), writeEnd-ownStart, syncEnd-writeEnd)
	c.ckpt.next = c.ckptTimeoutWake(be.Now)
	c.finish([]*participant{{be: be}})
	res := &StmtResult{Kind: "Checkpoint", Buf: be.Buf, WAL: be.WAL, IOReadNs: be.IOReadNs, TimeNs: c.now - start}
	res.Buf.Written += tailWritten
	res.WAL.Records += tail.Records
	res.WAL.FPI += tail.FPI
	res.WAL.Bytes += tail.Bytes
	res.Extra = append(res.Extra, fmt.Sprintf("wrote %d buffers; redo lsn=%s; WAL %d bytes", written, c.wal.RedoRecPtr(), c.wal.InsertLSN()-lsn0))
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
