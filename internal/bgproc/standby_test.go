package bgproc

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
	"github.com/stretchr/testify/require"
)

// TestStandbySnapshots: the background writer logs XLOG_RUNNING_XACTS at
// the first round 15 s (LOG_SNAPSHOT_INTERVAL_MS) after the last one, if an
// important record was logged since; the snapshot itself is not important.
//
// A real PostgreSQL 18beta1, started after initdb with checkpoint_timeout =
// 30s and left idle for 75 s, logged (pg_waldump): RUNNING_XACTS (50 bytes)
// about 15 s after the start, before anything else — last_snapshot_lsn and
// GetLastImportantRecPtr are both 0 on a fresh server, and 0 <= 0 —, then
// the timed checkpoint at 30 s (CHECKPOINT_REDO, RUNNING_XACTS,
// CHECKPOINT_ONLINE: "distance=0 kB"), then one more RUNNING_XACTS (the
// checkpoint record is important), and nothing else: pg_stat_checkpointer
// then said num_timed 2, num_done 1 (the 60 s checkpoint skipped as idle).
func TestStandbySnapshots(t *testing.T) {
	env := testEnv(t, 16384, "checkpoint_timeout", "30s")
	xids := 0
	env.RunningXids = func() int { return xids }
	w := env.WAL
	bg, ck := NewBgWriter(env), NewCheckpointer(env)
	start := w.InsertLSN()
	runUntil := func(t int64) {
		for min(bg.Next, ck.Next) <= t {
			if ck.Next <= bg.Next {
				ck.Run()
			} else {
				bg.Run()
			}
		}
	}
	// Rounds every 200 ms (the idle pool is lapped over 121 s, so no
	// hibernation here); the round at 15.0 s is the first 15 s after the start.
	runUntil(14_999_999_999)
	require.Equal(t, int64(0), w.Total.Records)
	runUntil(15e9)
	require.Equal(t, int64(1), w.Total.Records)
	require.Equal(t, int64(wal.RunningXacts), w.Total.Bytes)
	require.Equal(t, wal.RunningXacts, 50)
	require.Equal(t, start+56, w.InsertLSN(), "MAXALIGN(50)")
	require.Equal(t, pg.LSN(0), w.LastImportantRecPtr(), "a snapshot is not important")

	// The timed checkpoint at 30 s is performed though nothing important was
	// logged: the last important record (none) is not the last checkpoint's.
	// It writes no buffers, so it ends at 30 s, before the bgwriter's round
	// at 30.0 s (ties go to the checkpointer here), which then finds the
	// checkpoint record important and logs a snapshot: REDO, RUNNING_XACTS,
	// CHECKPOINT_ONLINE, RUNNING_XACTS — the server's order.
	runUntil(45e9)
	require.Equal(t, int64(1), ck.Stats.Done)
	ckptRec := w.LastCheckpointLSN()
	require.Equal(t, ckptRec, w.LastImportantRecPtr())
	require.Equal(t, int64(5), w.Total.Records)
	require.Equal(t, int64(wal.CheckpointRedo(18)+3*wal.RunningXacts+wal.CheckpointRecord(18)), w.Total.Bytes)
	records := w.Total.Records
	// Idle from here: the checkpoint at 60 s is skipped, no more snapshots.
	runUntil(75e9)
	require.Equal(t, records, w.Total.Records)
	require.Equal(t, int64(1), ck.Stats.Done)
	require.Equal(t, int64(2), ck.Stats.Timed, "num_timed 2, num_done 1 as on the server")

	// An important record, with one transaction running: the next
	// snapshot lists its XID (4 bytes more; MAXALIGN still 56).
	var u wal.Usage
	xids = 1
	rec := w.InsertLSN()
	_, _ = w.Insert(bg.Next, &u, 100, 0)
	require.Equal(t, rec, w.LastImportantRecPtr())
	bytes := w.Total.Bytes
	runUntil(bg.Next) // the next round (75.2 s: 45 s since the last snapshot)
	require.Equal(t, int64(wal.RunningXacts+4), w.Total.Bytes-bytes)
	require.Equal(t, rec, w.LastImportantRecPtr())
}
