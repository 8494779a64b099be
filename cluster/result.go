package cluster

import (
	"fmt"
	"strings"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/internal/engine"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/strategy"
	"github.com/pgbufsim/pgbufsim/wal"
)

// StmtResult is what EXPLAIN (ANALYZE, BUFFERS, WAL) reports for one statement.
// Its fields are the engine's (converted, not copied).
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

// String prints the statement as EXPLAIN (ANALYZE, BUFFERS, WAL) would, plus the strategy line.
func (r *StmtResult) String() string {
	var b strings.Builder
	head := r.Kind
	if r.Relation != "" {
		head += " on " + r.Relation
	}
	b.WriteString(head)
	if r.RingBuffers > 0 {
		fmt.Fprintf(&b, "  strategy=%s ring=%d buffers (%s)", r.Strategy, r.RingBuffers, pg.FormatSize(int64(r.RingBuffers)*pg.BLCKSZ))
	} else if r.Kind == "Seq Scan" || r.Kind == "Insert" {
		b.WriteString("  strategy=normal")
	}
	if r.WorkersPlanned > 0 {
		fmt.Fprintf(&b, "\n  Workers Planned: %d\n  Workers Launched: %d", r.WorkersPlanned, r.Workers)
	}
	var parts []string
	for _, f := range []struct {
		n string
		v int64
	}{{"hit", r.Buf.Hit}, {"read", r.Buf.Read}, {"dirtied", r.Buf.Dirtied}, {"written", r.Buf.Written}} {
		if f.v != 0 {
			parts = append(parts, fmt.Sprintf("%s=%d", f.n, f.v))
		}
	}
	if len(parts) > 0 {
		b.WriteString("\n  Buffers: shared " + strings.Join(parts, " "))
	}
	if r.WAL.Records != 0 || r.WAL.BuffersFull != 0 {
		fmt.Fprintf(&b, "\n  WAL: records=%d", r.WAL.Records)
		if r.WAL.FPI != 0 {
			fmt.Fprintf(&b, " fpi=%d", r.WAL.FPI)
		}
		fmt.Fprintf(&b, " bytes=%d", r.WAL.Bytes)
		if r.WAL.BuffersFull != 0 {
			fmt.Fprintf(&b, " buffers full=%d", r.WAL.BuffersFull)
		}
	}
	if r.IOTimings && r.IOReadNs > 0 {
		label := "read"
		if r.Version >= 16 {
			label = "shared read"
		}
		fmt.Fprintf(&b, "\n  I/O Timings: %s=%.3f", label, float64(r.IOReadNs)/1e6)
	}
	if r.RingBuffers > 0 && r.Strategy == strategy.BulkRead {
		fmt.Fprintf(&b, "\n  Ring: rejected dirty buffers=%d", r.Rejects)
	}
	for _, e := range r.Extra {
		b.WriteString("\n  " + e)
	}
	// Simulated time: said on the line itself, after EXPLAIN's own text.
	fmt.Fprintf(&b, "\n  Execution Time: %.3f ms (simulated)", float64(r.TimeNs)/1e6)
	return b.String()
}

// stmt is an engine statement's result as the API's type.
func stmt(r *engine.StmtResult, err error) (*StmtResult, error) { return (*StmtResult)(r), err }
