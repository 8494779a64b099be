// Package cluster is the simulator's engine: a simulated PostgreSQL cluster
// (settings, tables and indexes, the buffer pool, the WAL, the OS page cache
// and the device below it, background processes) on a simulated clock,
// driven through typed methods that return typed results.
//
//	c, err := cluster.Open(cluster.Options{Version: 18, SharedBuffers: "16MB"})
//	_, err = c.CreateTable(cluster.TableSpec{Name: "big", Rows: 16384, TupleBytes: 1832})
//	_, err = c.Insert("big", 0)
//	_, err = c.Checkpoint()
//	scan, err := c.Scan("big") // scan.WAL.FPI, scan.Buf.Written, scan.Rejects, …
//
// Everything the scenario language can do is a method here (the scenario
// package is a thin layer that parses a command, calls one method and prints
// the result); the engine reads no files and imports no test library.
//
// # Statements
//
// Each statement method is one client command as PostgreSQL runs it: a new
// session whose catalog lookups pin catalog pages (measured per version on
// real servers, catalog.go), the client's pause between statements, then the
// statement — INSERT … SELECT row by row (heap_insert, hio.c), COPY in 64 kB
// batches of multi-inserts (copyfrom.c, heap_multi_insert), SELECT count(*)
// as a serial or parallel Seq Scan through a read stream (heapam.c,
// read_stream.c) or an Index Only Scan, VACUUM (vacuumlazy.c), ANALYZE
// (analyze.c), CREATE INDEX and index scans (package nbtree's btree),
// CHECKPOINT (CreateCheckPoint, BufferSync), TRUNCATE, pg_buffercache's
// eviction functions, a fast restart, a power loss and crash recovery.
// Results carry what EXPLAIN (ANALYZE, BUFFERS, WAL) reports: buffers hit,
// read, dirtied and written, WAL records, full-page images, bytes and
// buffers full, the strategy and its ring, workers, simulated time.
//
// # Time and processes
//
// Time is simulated nanoseconds; nothing reads the wall clock. A statement
// runs as one or more participant processes (the leader and its parallel
// workers), each advancing page by page and charging the costs of costs.go
// to its own clock. The scheduler always runs the process whose clock is
// earliest (ties: leader first, then workers in order), and wakes the WAL
// writer whenever its next wake-up time comes first. So whether a ring buffer
// is still unflushed when the ring comes back to it — which decides
// StrategyRejectBuffer — is an outcome of modelled timing. Nothing runs in
// goroutines; the only randomness is a seeded PRNG owned by the Cluster.
//
// # Snapshots and observers
//
// Buffercache, StatIO, WALSince, Replication, Visibility and Settings are the
// views a DBA would query (pg_buffercache, pg_stat_io, pg_current_wal_lsn and
// pg_stat_wal, pg_visibility_map_summary, SHOW ALL); Pool exposes the buffer
// pool itself, buffer by buffer. An Observer sees every buffer-manager step
// as it happens; a Workload drives raw buffer accesses (package replay).
package cluster
