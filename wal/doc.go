// Package wal models the write-ahead log as arithmetic (xlog.c, xloginsert.c):
// no record contents, only their exact sizes, where they land in the stream,
// and how far the log has been written and flushed.
//
// # Record sizes
//
// A record's length (xl_tot_len, what EXPLAIN's "WAL: bytes=" and
// pg_stat_wal add up) is computed the way XLogRecordAssemble (xloginsert.c)
// lays a record out with the headers of xlogrecord.h: the XLogRecord, a
// block header, RelFileLocator and block number per registered page, the
// page minus its hole behind an image header when a full-page image is
// taken, then the main data. FPIForHint is XLogSaveBufferForHint's record,
// HeapInsert heap_insert's (heapam.c), CheckpointRecord and CheckpointRedo
// CreateCheckPoint's (xlog.c).
//
// # Positions
//
// Like xlog.c, the insert position is kept as a count of usable bytes
// (CurrBytePos) and converted to an LSN by XLogBytePosToRecPtr, so records are
// MAXALIGNed in the stream, every 8 kB WAL page starts with a 24-byte short
// header and every 16 MB segment with a 40-byte long one. A record's length as
// EXPLAIN counts it (xl_tot_len) is therefore smaller than the LSN distance
// pg_current_wal_insert_lsn() shows (ExampleFPIForHint).
//
// # WAL buffers
//
// wal_buffers pages form a ring (XLogCtl->pages). Before an inserter can use a
// new page, the page that last occupied its slot must have been written
// (AdvanceXLInsertBuffer); if nobody wrote it yet, the inserter writes exactly
// up to that page's end itself and counts one "WAL buffers full". The WAL
// writer (XLogBackgroundFlush) writes complete pages in "flexible" mode, which
// stops after the first contiguous group (at the ring's wrap point or a
// segment end), and flushes what it wrote. XLogWrite fsyncs each segment it
// finishes. XLogFlush (commit, FlushBuffer) writes and flushes everything
// inserted so far. WALWriteLock is modelled as a time at which it is free, so
// backends and the WAL writer queue behind each other's writes.
//
// # Compression
//
// Under wal_compression a page image is compressed for real, as
// XLogCompressBackupBlock does, and kept only when it saves more than the
// compress header: pglz is common/pg_lzcompress.c's algorithm re-implemented
// (only the output length is computed), lz4 and zstd are Go implementations
// of those formats (NewCompressor).
//
// # Crash recovery
//
// InitialRedo is where initdb's shutdown checkpoint leaves a new cluster's
// redo pointer; Recovered is the log after StartupXLOG replayed it to the
// end of what had been flushed, the records after it lost.
package wal
