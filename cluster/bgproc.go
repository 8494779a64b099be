package cluster

import (
	"fmt"

	"github.com/pgbufsim/pgbufsim/catalog"
)

// StatBgwriter is pg_stat_bgwriter as PostgreSQL 15 and 16 have it; 17 moved
// the checkpoint columns to pg_stat_checkpointer (num_timed, num_requested,
// num_done from 18, buffers_written, write_time, sync_time) and dropped
// buffers_backend (pg_stat_io has those writes). The fields are the same on
// every version: each version's own views are mapped onto them.
type StatBgwriter struct {
	CheckpointsTimed  int64 // checkpoints_timed / num_timed: started by checkpoint_timeout (skipped ones too)
	CheckpointsReq    int64 // checkpoints_req / num_requested: started by a request (max_wal_size, CHECKPOINT)
	CheckpointsDone   int64 // num_done (18+): performed, not skipped
	BuffersCheckpoint int64 // buffers_checkpoint / buffers_written
	BuffersClean      int64 // the background writer's writes
	MaxwrittenClean   int64 // background writer rounds stopped by bgwriter_lru_maxpages
	BuffersBackend    int64 // 15, 16: blocks other processes wrote or extended themselves
	BuffersAlloc      int64 // buffers allocated (not from a ring)
	WriteTimeMs       float64
	SyncTimeMs        float64
	// Version is the server version, whose views the text shows.
	Version int
	// SinceMark says whether the counts are since a mark.
	SinceMark bool
}

// StatBgwriterSince reports the background processes' counters since the
// mark ("": since the cluster started).
func (c *Cluster) StatBgwriterSince(since string) (StatBgwriter, error) {
	var rep StatBgwriter
	err := c.e.Command("show", catalog.StatBgwriter, true, func() error {
		m, err := c.mark(since)
		if err != nil {
			return fmt.Errorf("show stat bgwriter: %w", err)
		}
		s := c.e.BgwriterStats()
		if m != nil {
			s = s.Sub(m.Bg)
			rep.SinceMark = true
		}
		k := s.Checkpointer
		rep.CheckpointsTimed, rep.CheckpointsReq, rep.CheckpointsDone = k.Timed, k.Requested, k.Done
		rep.BuffersCheckpoint = k.BuffersWritten
		rep.WriteTimeMs, rep.SyncTimeMs = float64(k.WriteNs)/1e6, float64(k.SyncNs)/1e6
		rep.BuffersClean, rep.MaxwrittenClean = s.BgWriter.Clean, s.BgWriter.MaxWritten
		rep.BuffersBackend, rep.BuffersAlloc = s.BuffersBackend, s.BuffersAlloc
		rep.Version = int(c.e.S.Version)
		return nil
	})
	return rep, err
}

// ServerLog returns the server log lines (log_checkpoints) written since the
// last call: the background processes' lines during the last command.
func (c *Cluster) ServerLog() []string { return c.e.TakeLog() }
