// Package bufmgr models PostgreSQL's shared buffer pool (bufmgr.c,
// buf_table.c, buf_init.c): descriptors with their packed state words, the
// buffer mapping table, pinning with the usage-count rules, victim selection
// through package strategy, dirtying (including hint bits, which can write a
// full-page image), writing with the WAL-before-data rule, eviction,
// checkpoints' BufferSync, read streams (read_stream.c), the I/O workers,
// pg_buffercache rows and pg_stat_io counters.
//
// The pool is single-threaded: concurrent backends are simulated by package
// internal/engine, which interleaves them on a simulated clock. Every operation charges
// its cost to the calling Backend's clock (Backend.Now).
//
// # Buffer mapping
//
// PostgreSQL hashes BufferTags in a partitioned hash table (buf_table.c:
// BufTableHashCode, BufTableLookup, BufTableInsert, BufTableDelete). Block
// numbers are dense per relation, so the pool keeps a []pg.Buffer per
// relation indexed by block number instead (Lookup): the same answers, a
// slice index in place of a hash probe. reference_test.go checks them
// against a naive pool keyed by a map; the README's "Layout" section says why.
//
// # Usage counts (PinBuffer)
//
// A backend's first pin of a buffer bumps usage by one up to 5 without a
// strategy, and only from 0 to 1 with one; re-pinning a buffer the backend
// already holds changes nothing. A victim buffer starts at usage 1 whether or
// not a strategy is used (BufferAlloc). Eviction and invalidation reset it to 0.
// A Backend counts its own pins as PrivateRefCountArray and
// PrivateRefCountHash do, so only its first pin and last unpin touch the
// shared refcount.
//
// # Victims and writes
//
// A miss takes a victim from strategy.Control (GetVictimBuffer). A dirty
// victim is written first (FlushBuffer): WAL is flushed up to the page's LSN
// (XLogFlush), then the page goes to storage, with a checksum computed when
// data_checksums is on. A BULKREAD ring gives up a dirty buffer whose write
// would need that WAL flush (StrategyRejectBuffer) and takes another victim.
// Evict is pg_buffercache_evict_relation and _all (EvictRelUnpinnedBuffers,
// EvictAllUnpinnedBuffers): the buffers are emptied but do not go back on
// the free list.
//
// # Hint bits
//
// MarkBufferDirtyHint dirties a page for a hint bit; with data_checksums or
// wal_log_hints, the first hint to a page not logged since the redo pointer
// writes an XLOG_FPI_FOR_HINT record (XLogSaveBufferForHint) and sets the
// page LSN, so the page cannot be written before that WAL is flushed.
// ExampleFPIForHint in package wal derives the record's size.
//
// # Checkpoints
//
// BufferSync marks every dirty buffer (permanent ones, or all at shutdown)
// BM_CHECKPOINT_NEEDED, sorts them by relation, fork and block
// as the checkpointer does, and writes those still dirty.
//
// # Read streams and asynchronous I/O
//
// ReadStream models read_stream.c (17, 18, and 19's reworked distances):
// blocks from a callback, combined into reads of up to io_combine_limit,
// every buffer pinned and its victim chosen when the read starts. IOModel
// times reads through package storage; with io_method=worker (18 and later)
// a pool of I/O workers performs them asynchronously (method_worker.c, 19's
// pool growing and shrinking).
//
// # Statistics and tracing
//
// IOStats are pg_stat_io's counters for object relation (pgstat_io.c), by
// backend type, context and operation; BufferUsage is pgBufferUsage, what
// EXPLAIN (BUFFERS) prints. A Tracer (SetTracer) sees every step of the
// victim search, each write and WAL flush, and each hint-bit image.
//
// # Crash recovery
//
// CrashReset is the pool after a power loss and recovery: every buffer
// empty and no page LSN past the end of the WAL that survived; while asked
// (TrackHintImages) the pool remembers each page's last hint-bit image,
// which is what restores a torn page when full_page_writes is off.
package bufmgr
