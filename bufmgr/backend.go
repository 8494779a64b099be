package bufmgr

import (
	"errors"
	"fmt"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/storage"

	"github.com/pgbufsim/pgbufsim/wal"
)

// Backend is one simulated process that uses the pool: its type for
// pg_stat_io, its simulated clock, its private pin counts
// (PrivateRefCountArray + overflow) and its pgBufferUsage / pgWalUsage.
type Backend struct {
	Type BackendType
	// Now is this process's simulated time in nanoseconds.
	Now int64
	// Buf and WAL are what EXPLAIN (BUFFERS, WAL) reports for this process.
	Buf BufferUsage
	WAL wal.Usage
	// Rejects counts StrategyRejectBuffer refusals (for tracing and tests).
	Rejects int64
	// IOReadNs is the time spent reading data files or waiting for reads
	// (track_io_timing's "I/O Timings: shared read").
	IOReadNs int64
	// Files is the process's open data files (their readahead state).
	Files storage.Reader

	pins []pinEntry
}

type pinEntry struct {
	b pg.Buffer
	n int32
}

// addPrivate records one more pin of b; it reports whether the backend already held b.
func (be *Backend) addPrivate(b pg.Buffer) bool {
	for i := len(be.pins) - 1; i >= 0; i-- {
		if be.pins[i].b == b {
			be.pins[i].n++
			return true
		}
	}
	be.pins = append(be.pins, pinEntry{b, 1})
	return false
}

// dropPrivate releases one pin of b; it reports whether that was the backend's last pin of b.
func (be *Backend) dropPrivate(b pg.Buffer) bool {
	for i := len(be.pins) - 1; i >= 0; i-- {
		if be.pins[i].b == b {
			if be.pins[i].n--; be.pins[i].n > 0 {
				return false
			}
			last := len(be.pins) - 1
			be.pins[i] = be.pins[last]
			be.pins = be.pins[:last]
			return true
		}
	}
	panic(fmt.Sprintf("pgbufsim: invariant: backend releases buffer %d it does not pin", b))
}

// NewBackend returns a backend of type t starting at simulated time now.
func NewBackend(t BackendType, now int64) *Backend { return &Backend{Type: t, Now: now} }

// PinCount is how many distinct buffers this backend pins.
func (be *Backend) PinCount() int { return len(be.pins) }

func joinErrs(errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	return errors.Join(errs...)
}
