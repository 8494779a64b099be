package wal

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

// CalculateCheckpointSegments: max_wal_size in 16 MB segments (integer
// division, ConvertToXSegs), divided by 1 + checkpoint_completion_target,
// rounded down, at least 1.
func TestCheckpointSegments(t *testing.T) {
	for _, c := range []struct {
		mb     int64
		target float64
		want   int
	}{
		{1024, 0.9, 33}, // 64 / 1.9 = 33.68: the default, about 528 MB of WAL between checkpoints
		{128, 0.9, 4},   // 8 / 1.9 = 4.21
		{1024, 0.5, 42}, // 64 / 1.5 = 42.67
		{1024, 0, 64},   // 64 / 1
		{8192, 0.9, 269},
		{32, 0.9, 1}, // 2 / 1.9 = 1.05
		{2, 0.9, 1},  // 0 segments: at least 1
		{47, 0.9, 1}, // 47 MB is 2 whole segments (the rest is dropped): 1.05
	} {
		require.Equal(t, c.want, CheckpointSegments(c.mb, c.target), "max_wal_size=%dMB target=%v", c.mb, c.target)
	}
}

// XLogCheckpointNeeded: a finished segment at least CheckPointSegments − 1
// past the redo pointer's segment requests a checkpoint; XLogWrite asks it
// when it writes a segment's last page, with the time of that write.
func TestCheckpointRequestedWhenSegmentFinishes(t *testing.T) {
	w := newWAL(t, 64)
	var at []int64
	w.SetCheckpointSegments(4, func(now int64) { at = append(at, now) })
	// The redo pointer is initdb's, in segment 1 (18beta1's initdb without
	// checksums logs 4.6 MB: 0/14A5FE0): segments 1 to 3 finish without a
	// request, segment 4 (1 + 4 − 1) is the first to ask.
	require.Equal(t, uint64(1), uint64(w.RedoRecPtr())/pg.WalSegSize)
	require.False(t, w.CheckpointNeeded(3))
	require.True(t, w.CheckpointNeeded(4))
	u := &Usage{}
	now := int64(0)
	for w.InsertLSN() < 4*pg.WalSegSize+1000 {
		_, now = w.Insert(now, u, 8000, 0)
	}
	// The inserts wrote segments 1 to 3 (no request) and are in 4; flushing
	// finishes nothing more until segment 4 is written to its end.
	now = w.FlushAll(now, u)
	require.Empty(t, at)
	for w.InsertLSN() < 5*pg.WalSegSize+1000 {
		_, now = w.Insert(now, u, 8000, 0)
	}
	w.FlushAll(now, u)
	require.Len(t, at, 1, "segment 4 finished: one request")
	// A new redo pointer in segment 5 moves the next request to segment 8.
	w.Checkpoint(now, u, 18)
	require.False(t, w.CheckpointNeeded(7))
	require.True(t, w.CheckpointNeeded(8))
	// Off: no request even far past the redo pointer.
	w.SetCheckpointSegments(0, func(int64) { t.Fatal("requested while off") })
	require.False(t, w.CheckpointNeeded(100))
}
