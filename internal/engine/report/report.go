// Package report holds the engine's result types: a statement's EXPLAIN
// figures, and what a crash, a recovery and pg_checksums report.
package report

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/recovery"
	"github.com/pgbufsim/pgbufsim/strategy"
	"github.com/pgbufsim/pgbufsim/wal"
)

// StmtResult is what EXPLAIN (ANALYZE, BUFFERS, WAL) reports for one
// statement (cluster.StmtResult has the same fields and prints it).
type StmtResult struct {
	Kind           string // "Seq Scan", "Insert", "Vacuum", "Checkpoint", …
	Relation       string
	Strategy       strategy.Kind
	RingBuffers    int
	Workers        int // launched
	WorkersPlanned int
	Buf            bufmgr.BufferUsage
	WAL            wal.Usage
	Rejects        int64
	TimeNs         int64
	IOReadNs       int64
	Extra          []string
	// ANALYZE: pages sampled of the table's pages.
	Scanned, RelPages int
	// CREATE INDEX: the index's size.
	IndexPages int
	// An index scan: the id range asked for.
	From, To int64
	// IOTimings prints "I/O Timings:" (track_io_timing), as version Version words it.
	IOTimings bool
	Version   int
}

// CrashReport is what a power loss destroyed.
type CrashReport struct {
	AtNs             int64  // the simulated moment of the power loss
	WALEnd           pg.LSN // the WAL is durable up to here
	WALLost          uint64 // bytes inserted but not flushed
	DirtyBuffersLost int
	DirtyOSPagesLost int
	Torn             []string // relation/block of each page write in flight, torn
}

// RecoveryReport is what crash recovery did.
type RecoveryReport struct {
	RedoFrom, RedoTo pg.LSN // the last completed checkpoint's redo pointer, the end of the WAL
	ReplayedBytes    uint64
	Torn             []string // the torn pages
	Untouched        int      // torn pages none of whose sectors were new
	Whole            int      // all 16 sectors new: a whole version
	Images           int      // restored from a full-page image
	Rebuilt          int      // initialised by a record after the redo pointer
	HintOnly         int      // differing in hint bits only
	Corrupted        []string // sectors of two versions and no image
	Checksums        bool     // data_checksums: the corrupted pages fail their checksum
	RedoLSN          pg.LSN   // the end-of-recovery checkpoint's redo pointer
}

// CorruptionReport is what pg_checksums --check finds after recovery.
type CorruptionReport struct {
	Pages    []string // relation/block of each corrupted page
	Detected bool     // data_checksums: they fail their checksum
}

// Count counts a torn page's fate; true when the page stays corrupt.
func (r *RecoveryReport) Count(f recovery.Fate) bool {
	switch f {
	case recovery.Untouched:
		r.Untouched++
	case recovery.Whole:
		r.Whole++
	case recovery.Rebuilt:
		r.Rebuilt++
	case recovery.HintOnly:
		r.HintOnly++
	case recovery.Image:
		r.Images++
	default:
		return true
	}
	return false
}
