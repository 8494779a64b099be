package engine

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
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
