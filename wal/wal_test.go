package wal

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

func newWAL(t *testing.T, nbuf int) *WAL {
	w, err := New(Config{Version: 18, WalBuffers: nbuf, Costs: Costs{WriterDelayNs: 200e6, WriterFlushAft: 128}})
	require.NoError(t, err)
	return w
}

// Record sizes from xlogrecord.h / heapam_xlog.h, as XLogRecordAssemble
// (xloginsert.c) lays them out for XLogSaveBufferForHint and heap_insert.
func TestRecordSizes(t *testing.T) {
	// 24 + 4 + 5 + 12 + 4 + (8192 − 824) = 7417: a page of four 1,832-byte tuples.
	require.Equal(t, 7417, FPIForHint(824))
	require.Equal(t, 8241, FPIForHint(0))
	// 8137 = 8241 − 104 (seed 001: 508,562,500 bytes / 62,500 records).
	require.Equal(t, 8137, FPIForHint(104))
	// HEAP_INSERT of a 1,832-byte tuple: t_len + 31.
	require.Equal(t, 1863, HeapInsert(1832, false, 0))
	require.Equal(t, 30, CheckpointRedo(18))
	require.Equal(t, 0, CheckpointRedo(16))
	require.Equal(t, 194, CheckpointRedo(18)+RunningXacts+CheckpointOnline)
}

// Byte positions map to LSNs around page and segment headers (XLogBytePosToRecPtr).
func TestBytePosToRecPtr(t *testing.T) {
	// Byte 0 of a segment is just after its 40-byte long header.
	require.Equal(t, pg.LSN(40), bytePosToRecPtr(0))
	// The last usable byte of the first page, then the first of the second page (after 24 bytes).
	require.Equal(t, pg.LSN(8191), bytePosToRecPtr(8192-40-1))
	require.Equal(t, pg.LSN(8192+24), bytePosToRecPtr(8192-40))
	// An end position exactly at a page boundary stays there (XLogBytePosToEndRecPtr).
	require.Equal(t, pg.LSN(8192), bytePosToEndRecPtr(8192-40))
	// One segment of usable bytes is the next segment's first byte.
	require.Equal(t, pg.LSN(pg.WalSegSize+40), bytePosToRecPtr(usableBytesInSeg))
}

// The LSN distance of n records is n × MAXALIGN(len) plus a 24-byte header per
// WAL page crossed and 16 more per segment (ReserveXLogInsertLocation and
// XLogBytePosToRecPtr in xlog.c): 32,768 FPIs of 7,417
// bytes take 32,768 × 7,424 = 243,269,632 bytes of records.
func TestLSNDistance(t *testing.T) {
	w := newWAL(t, 2048)
	var u Usage
	start := w.InsertLSN()
	now := int64(0)
	for i := 0; i < 32768; i++ {
		_, now = w.Insert(now, &u, 7417, 1)
	}
	require.EqualValues(t, 32768, u.Records)
	require.EqualValues(t, 32768*7417, u.Bytes)
	d := int64(w.InsertLSN() - start)
	records := int64(32768 * 7424)
	pages := (d + 8191) / 8192
	require.InDelta(t, records+pages*24+16*(d/pg.WalSegSize), d, 48)
}

// Once the inserter gets wal_buffers pages ahead of the write pointer, every
// new page needs the old one written first: one "buffers full" per page.
func TestBuffersFull(t *testing.T) {
	w := newWAL(t, 8)
	var u Usage
	now := int64(0)
	for i := 0; i < 100; i++ {
		_, now = w.Insert(now, &u, 8000, 0)
	}
	// 100 records × 8000 bytes ≈ 98 pages; the first ~8 find their slots free.
	pages := int64(w.InsertLSN()/8192 - w.redo/8192)
	require.InDelta(t, pages-8, u.BuffersFull, 2)
	require.Less(t, int64(w.WriteLSN()), int64(w.InsertLSN()))
	require.False(t, w.NeedsFlush(w.redo))
	// XLogFlush writes and flushes everything inserted.
	end := w.InsertLSN()
	w.Flush(now, &u, end-1)
	require.False(t, w.NeedsFlush(end-1))
}

// The WAL writer's flexible write stops at the ring's wrap point.
func TestBackgroundFlushStopsAtWrap(t *testing.T) {
	w := newWAL(t, 8)
	var u, ww Usage
	now := int64(0)
	for i := 0; i < 20; i++ { // ~20 pages: the ring wrapped, backends wrote some
		_, now = w.Insert(now, &u, 8000, 0)
	}
	before := w.FlushLSN()
	worked, _ := w.BackgroundFlush(now, &ww)
	require.True(t, worked)
	require.Greater(t, w.FlushLSN(), before)
	require.Less(t, w.FlushLSN(), w.InsertLSN()-8192, "flexible mode stops at the wrap, short of the insert position")
	require.EqualValues(t, 1, ww.Writes)
}

// The end of the WAL address space: the last whole segment below 2^64 is
// the limit. An insert that would pass it leaves the log where it is and
// sets ErrWALExhausted (the sim reports it as the command's error) instead of
// wrapping to LSN 0.
func TestWALAddressSpaceEnd(t *testing.T) {
	w, err := New(Config{Version: 18, WalBuffers: 8})
	require.NoError(t, err)
	require.Less(t, uint64(bytePosToRecPtr(maxBytePos)), uint64(1<<64-1))
	require.Greater(t, uint64(bytePosToRecPtr(maxBytePos)), uint64(1<<64-2*pg.WalSegSize))
	w.currBytePos = maxBytePos - 1000
	w.initPage = (uint64(w.InsertLSN()) - 1) / pg.XLogBlcksz
	var u Usage
	lsn, _ := w.Insert(0, &u, 500, 0)
	require.NoError(t, w.Err())
	require.Greater(t, uint64(lsn), uint64(1<<64-2*pg.WalSegSize))
	before := w.InsertLSN()
	_, _ = w.Insert(0, &u, 600, 0)
	require.ErrorIs(t, w.Err(), ErrWALExhausted)
	require.Equal(t, before, w.InsertLSN(), "the log does not move, let alone wrap")
}

// An fdatasync is given the bytes written to its segment since the last
// one (issue_xlog_fsync after XLogWrite): each finished segment is synced
// as XLogWrite finishes it, so a load's syncs carry a whole segment's
// writes at a time, and an XLogFlush inside a segment the part written
// since. The WAL starts where initdb's ends, in segment 1 (flushed), so
// the first segment synced holds the rest of segment 1. Segments 2 and 3 do
// not exist yet (initdb made only the first): XLogWrite creates each as it
// reaches it, an fsync of its 16 MB of zeros, then one of pg_wal (0 bytes:
// durable_rename). The sum of the WAL's own syncs is what was written.
func TestFsyncBytes(t *testing.T) {
	var calls []int64
	w, err := New(Config{Version: 18, WalBuffers: 512, Sync: func(now, n int64) int64 {
		calls = append(calls, n)
		return now + 1000
	}})
	require.NoError(t, err)
	start := w.FlushLSN()
	var u Usage
	now := int64(0)
	for w.InsertLSN() < 3*pg.WalSegSize+100000 { // into the fourth segment
		_, now = w.Insert(now, &u, 8000, 0)
	}
	end := w.InsertLSN()
	now = w.Flush(now, &u, end-1)
	require.Equal(t, []int64{2*pg.WalSegSize - int64(start), pg.WalSegSize, 0, pg.WalSegSize, pg.WalSegSize, 0, calls[6]}, calls,
		"segment 1 finished, segment 2 created and finished, segment 3 created, then the flush inside it")
	require.EqualValues(t, 2, u.InitWrites)
	require.EqualValues(t, 2*pg.WalSegSize, u.InitBytes)
	var sum int64
	for i, n := range calls {
		if i != 1 && i != 2 && i != 4 && i != 5 {
			sum += n
		}
	}
	require.EqualValues(t, int64(w.FlushLSN()-start), sum)
	require.EqualValues(t, 3, u.Fsyncs)
	_ = now
}

// XLogWrite publishes its flush pointer in shared memory as it returns
// (XLogCtl->LogwrtResult), after its fsyncs: a process asking at a time
// inside another's write and sync still sees the old pointer, and an
// XLogFlush then waits for WALWriteLock until that write is done. Here one
// record of 8,000 bytes is flushed at time 0 with each sync taking 1 ms
// (the Sync hook): the flush is published at its end, E ≥ 1 ms; asked at
// 0.5 ms the record still needs a flush, and a second XLogFlush of it made
// at 0.5 ms returns at E, not at once.
func TestFlushPublishedAtEnd(t *testing.T) {
	w, err := New(Config{Version: 18, WalBuffers: 512, Sync: func(now, n int64) int64 { return now + 1_000_000 }})
	require.NoError(t, err)
	var u Usage
	end, now := w.Insert(0, &u, 8000, 0)
	done := w.Flush(now, &u, end)
	require.GreaterOrEqual(t, done, int64(1_000_000))
	require.True(t, w.NeedsFlushAt(500_000, end), "not yet published at 0.5 ms")
	require.False(t, w.NeedsFlushAt(done, end))
	require.False(t, w.NeedsFlush(end), "the simulator's own view: flushed")
	require.Equal(t, done, w.Flush(500_000, &u, end), "waits for WALWriteLock, then finds it flushed")
	require.EqualValues(t, 1, u.Fsyncs)
}
