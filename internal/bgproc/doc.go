// Package bgproc holds PostgreSQL's background processes that write data
// pages, as processes on the simulated clock: the checkpointer
// (checkpointer.c's CheckpointerMain, CreateCheckPoint's buffer and sync
// phases, IsCheckpointOnSchedule) and the background writer (bgwriter.c's
// BackgroundWriterMain, bufmgr.c's BgBufferSync).
//
// Each process is a value with a next wake-up time (Next) and a Run method
// that does one step at that time; the engine's scheduler runs whichever
// process (statement participant, WAL writer, checkpointer, background
// writer) is due first, so a checkpoint's writes interleave with a load's
// page by page. A process acts on the server through Env: the buffer pool,
// the WAL, the storage below, the settings in force, and two engine hooks.
//
// # Time
//
// Simulated nanoseconds from the server's start. Where PostgreSQL keeps a
// time in whole seconds (last_checkpoint_time, ckpt_start_time are
// pg_time_t from time(NULL)) the model truncates the same way, so a timed
// checkpoint wakes on the whole seconds checkpoint_timeout leaves.
package bgproc

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/guc"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/storage"
	"github.com/pgbufsim/pgbufsim/wal"
)

// Env is the server the background processes act on.
type Env struct {
	Pool    *bufmgr.Pool
	WAL     *wal.WAL
	Storage *storage.Storage
	// Settings returns the settings in force (SET replaces them).
	Settings func() *guc.Settings
	// CheckpointDone records a completed checkpoint's redo pointer and the
	// relation sizes then (what crash recovery starts from).
	CheckpointDone func(redo pg.LSN, sizes []int)
	// FoldWAL moves a process's WAL I/O counters into pg_stat_io.
	FoldWAL func(be *bufmgr.Backend)
	// RunningXids is how many transactions have an XID now, as
	// GetRunningTransactionData lists them for a standby snapshot: the
	// session's writing statement or its transaction block that has one.
	// pgbench clients' transactions are not counted (each runs as one step
	// of the scheduler, so none is seen in progress); the count changes
	// the record's length by 4 bytes an XID, its MAXALIGNed size not
	// before the second. nil: none.
	RunningXids func() int
}

func (e Env) runningXids() int {
	if e.RunningXids == nil {
		return 0
	}
	return e.RunningXids()
}
