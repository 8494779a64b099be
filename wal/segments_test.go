package wal

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

// A checkpoint recycles the segments before its redo pointer's as future
// segments up to XLOGfileslop and removes the rest. The WAL below starts in
// segment 1 (the only file, initdb's); a load writes into segment 20, so
// XLogWrite created segments 2 to 20 (19 files, one zero-fill and one
// fsync each). A checkpoint then puts the redo pointer in segment 20:
// segments 1 to 19 are removable. With the distance estimate at 4 segments
// (64 MB) and checkpoint_completion_target 0.9, XLOGfileslop is
// ceil((redo + 1.9 × 1.1 × 64 MB) / 16 MB) = ceil(20 + ε + 8.36) = 29 (the
// redo pointer a few kB into segment 20), inside min_wal_size's 20 + 5 − 1 = 24 and max_wal_size's 20 + 64 − 1 =
// 83: the free names 21 … 29 take 9 recycled segments, the other 10 are
// removed.
func TestRemoveOldSegments(t *testing.T) {
	var syncs []int64
	w, err := New(Config{Version: 18, WalBuffers: 512, Sync: func(now, n int64) int64 {
		syncs = append(syncs, n)
		return now + 1
	}})
	require.NoError(t, err)
	first, last := w.Segments()
	require.Equal(t, [2]uint64{1, 1}, [2]uint64{first, last}, "initdb's segment only")
	var u Usage
	now := int64(0)
	for w.InsertLSN() < 20*pg.WalSegSize+4096 {
		_, now = w.Insert(now, &u, 8000, 0)
	}
	now = w.FlushAll(now, &u)
	_, last = w.Segments()
	require.EqualValues(t, 20, last)
	require.EqualValues(t, 19, u.InitWrites)
	require.EqualValues(t, 19*pg.WalSegSize, u.InitBytes)

	now = w.Checkpoint(now, &u, 18)
	now = w.FinishCheckpoint(now, &u, 0)
	require.EqualValues(t, 20, uint64(w.RedoRecPtr())/pg.WalSegSize)
	syncs = nil
	_, st := w.RemoveOldSegments(now, &u, SegmentSettings{MinWALSizeMB: 80, MaxWALSizeMB: 1024, CompletionTarget: 0.9, Estimate: 64 << 20}, false)
	require.Equal(t, SegmentStats{Recycled: 9, Removed: 10}, st)
	require.Len(t, syncs, 19, "every rename and unlink is durable: an fsync of pg_wal each")
	first, last = w.Segments()
	require.Equal(t, [2]uint64{20, 29}, [2]uint64{first, last})

	// Writing on into segment 29 creates nothing; segment 30 is new.
	before := u.InitWrites
	for w.InsertLSN() < 29*pg.WalSegSize+4096 {
		_, now = w.Insert(now, &u, 8000, 0)
	}
	now = w.FlushAll(now, &u)
	require.Equal(t, before, u.InitWrites, "segments 21-29 were recycled")
	for w.InsertLSN() < 30*pg.WalSegSize+4096 {
		_, now = w.Insert(now, &u, 8000, 0)
	}
	w.FlushAll(now, &u)
	require.Equal(t, before+1, u.InitWrites)
}

// wal_recycle=off removes every old segment; wal_init_zero=off writes one
// byte of a new segment instead of 16 MB.
func TestSegmentSettings(t *testing.T) {
	w, err := New(Config{Version: 18, WalBuffers: 512})
	require.NoError(t, err)
	w.SetInitZero(false, false)
	var u Usage
	now := int64(0)
	for w.InsertLSN() < 3*pg.WalSegSize+4096 {
		_, now = w.Insert(now, &u, 8000, 0)
	}
	now = w.FlushAll(now, &u)
	require.EqualValues(t, 2, u.InitWrites)
	require.EqualValues(t, 2, u.InitBytes, "one byte a segment")
	now = w.Checkpoint(now, &u, 18)
	now = w.FinishCheckpoint(now, &u, 0)
	_, st := w.RemoveOldSegments(now, &u, SegmentSettings{MinWALSizeMB: 80, MaxWALSizeMB: 1024, CompletionTarget: 0.9, Estimate: 64 << 20}, false)
	require.Equal(t, SegmentStats{Removed: 2}, st, "segments 1 and 2 removed, none recycled")
}

// XLOGfileslop's bounds: min_wal_size keeps at least that many segments
// past the redo pointer's, max_wal_size at most.
func TestSlop(t *testing.T) {
	redo := pg.LSN(10*pg.WalSegSize + 100)
	// No estimate: the minimum, 10 + 80/16 − 1 = 14.
	require.EqualValues(t, 14, slop(redo, 0, 80, 1024, 0.9))
	// A huge estimate: the maximum, 10 + 1024/16 − 1 = 73.
	require.EqualValues(t, 73, slop(redo, 1<<40, 80, 1024, 0.9))
	// 160 MB: ceil((10×16 MB + 100 + 1.9 × 1.1 × 160 MB) / 16 MB) = ceil(10 + 20.9 + ε) = 31.
	require.EqualValues(t, 31, slop(redo, 160<<20, 80, 1024, 0.9))
}
