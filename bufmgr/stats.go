package bufmgr

import (
	"github.com/pgbufsim/pgbufsim/strategy"
	"github.com/pgbufsim/pgbufsim/wal"
)

// BackendType is pg_stat_io's backend_type.
type BackendType uint8

// Backend types that the simulator runs.
const (
	ClientBackend BackendType = iota
	BackgroundWorker
	Checkpointer
	BackgroundWriter
	Walwriter
	Autovacuum
	NumBackendTypes
)

func (t BackendType) String() string {
	return [...]string{"client backend", "background worker", "checkpointer", "background writer", "walwriter", "autovacuum worker"}[t]
}

// IOOp is a pg_stat_io counter column.
type IOOp uint8

// The counted operations.
const (
	OpReads IOOp = iota // 18+: one per I/O (a combined read counts once); before 18: per block
	OpHits
	OpEvictions
	OpReuses
	OpWrites
	OpExtends
	OpReadBlocks // read_bytes / 8192 (18+)
	OpReadTime   // read_time in ns (counted only while track_io_timing is on)
	OpWritebacks // blocks whose write-back was requested (*_flush_after: sync_file_range)
	NumIOOps
)

func (o IOOp) String() string {
	return [...]string{"reads", "hits", "evictions", "reuses", "writes", "extends", "read_blocks", "read_time", "writebacks"}[o]
}

// IOStats are pg_stat_io counters for object "relation", indexed by backend
// type, context (strategy kind) and operation, plus object "wal" per backend type.
type IOStats struct {
	Rel [NumBackendTypes][strategy.NumKinds][NumIOOps]int64
	WAL [NumBackendTypes]wal.Usage
}

// Sub returns s − o, for "since MARK".
func (s IOStats) Sub(o IOStats) IOStats {
	var r IOStats
	for b := range s.Rel {
		for c := range s.Rel[b] {
			for op := range s.Rel[b][c] {
				r.Rel[b][c][op] = s.Rel[b][c][op] - o.Rel[b][c][op]
			}
		}
		r.WAL[b] = s.WAL[b].Sub(o.WAL[b])
	}
	return r
}

// BufferUsage is pgBufferUsage for shared buffers: what EXPLAIN (BUFFERS) prints.
type BufferUsage struct {
	Hit, Read, Dirtied, Written int64
}

// Add accumulates o into u.
func (u *BufferUsage) Add(o BufferUsage) {
	u.Hit += o.Hit
	u.Read += o.Read
	u.Dirtied += o.Dirtied
	u.Written += o.Written
}
