package wal

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

// recPtrToBytePos inverts both conversions (XLogRecPtrToBytePos), across
// page and segment boundaries.
func TestRecPtrToBytePos(t *testing.T) {
	for _, p := range []uint64{usableBytesInSeg, usableBytesInSeg + 1, usableBytesInSeg + pg.XLogBlcksz - SizeOfLongPHD,
		usableBytesInSeg + pg.XLogBlcksz - SizeOfLongPHD + 1, 2*usableBytesInSeg - 1, 2 * usableBytesInSeg, 3*usableBytesInSeg + 12345} {
		require.Equal(t, p, recPtrToBytePos(bytePosToRecPtr(p)), "start %d", p)
		require.Equal(t, p, recPtrToBytePos(bytePosToEndRecPtr(p)), "end %d", p)
	}
}

// Recovered drops what was inserted after the flushed end.
func TestRecovered(t *testing.T) {
	w, err := New(Config{WalBuffers: 512})
	require.NoError(t, err)
	var u Usage
	end, now := w.Insert(0, &u, 100, 0)
	now = w.Flush(now, &u, end)
	w.Insert(now, &u, 5000, 0)
	require.Greater(t, w.InsertLSN(), end)
	w.Recovered(w.FlushLSN())
	require.Equal(t, end, w.FlushLSN())
	require.Equal(t, end, w.InsertLSN())
	require.Equal(t, InitialRedo(0, false), w.RedoRecPtr())
	// Without a measured initdb (version 0) its shutdown checkpoint record
	// (114 bytes, 120 aligned) ends at the start, 0/1000028: its position is
	// the first segment's last 120 bytes.
	require.Equal(t, pg.LSN(0x1000000-120), InitialRedo(0, false))
	// 18beta1's initdb with checksums: pg_controldata's REDO location
	// 0/16ED3E0; the server's first insert position is 120 bytes on,
	// 0/16ED458 (pg_current_wal_insert_lsn() after the start).
	w18, err := New(Config{Version: 18, Checksums: true, WalBuffers: 512})
	require.NoError(t, err)
	require.Equal(t, pg.LSN(0x16ED3E0), w18.RedoRecPtr())
	require.Equal(t, pg.LSN(0x16ED458), w18.InsertLSN())
}
