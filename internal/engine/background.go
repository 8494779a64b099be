package engine

import (
	"github.com/pgbufsim/pgbufsim/internal/bgproc"
)

// bgEnv is the server as the checkpointer and the background writer see it (package bgproc).
func (c *Cluster) bgEnv() bgproc.Env {
	return bgproc.Env{Pool: c.pool, WAL: c.wal, Storage: c.storage, Settings: func() *Settings { return c.S },
		CheckpointDone: c.checkpointDone, FoldWAL: c.foldWAL, RunningXids: func() int { // pgbench's not counted (see bgproc.Env)
			if c.stmtXid || c.txn.active && (c.txn.xid || c.txn.wrote) {
				return 1
			}
			return 0
		}}
}

// runOthersUntil runs the WAL writer and the background writer while either
// is due at or before t (what goes on beside a checkpoint finishing at full speed).
func (c *Cluster) runOthersUntil(t int64) {
	for {
		switch ww, bw := c.walwriter.Next, c.bgw.Next; {
		case ww <= t && ww <= bw:
			c.walwriter.Run()
		case bw <= t:
			c.bgw.Run()
		default:
			return
		}
	}
}

// BgwriterStats are pg_stat_bgwriter's (and 17+'s pg_stat_checkpointer's) counters so far.
func (c *Cluster) BgwriterStats() bgproc.Counters {
	return bgproc.Collect(c.ckpt, c.bgw, &c.pool.Stats, c.allocBase+int64(c.pool.Control().NumBufferAllocs))
}

// TakeLog returns the server log lines (log_checkpoints) written since the last call.
func (c *Cluster) TakeLog() []string { return c.ckpt.TakeLog() }
