package bgproc

import "github.com/pgbufsim/pgbufsim/bufmgr"

// Counters are the counters pg_stat_bgwriter shows (15, 16), which 17 split
// into pg_stat_bgwriter and pg_stat_checkpointer.
type Counters struct {
	Checkpointer CheckpointerStats
	// BgWriter: the background writer's writes (buffers_clean) and the
	// rounds it stopped at bgwriter_lru_maxpages (maxwritten_clean).
	BgWriter BgWriterStats
	// BuffersBackend is 15's and 16's buffers_backend: blocks written or
	// extended by the processes other than the checkpointer and the
	// background writer (each registers a sync request with the checkpointer).
	BuffersBackend int64
	// BuffersAlloc is buffers_alloc: StrategyGetBuffer calls not served by a ring.
	BuffersAlloc int64
}

// Sub returns s − o (since MARK).
func (s Counters) Sub(o Counters) Counters {
	return Counters{Checkpointer: s.Checkpointer.Sub(o.Checkpointer),
		BgWriter:       BgWriterStats{Clean: s.BgWriter.Clean - o.BgWriter.Clean, MaxWritten: s.BgWriter.MaxWritten - o.BgWriter.MaxWritten},
		BuffersBackend: s.BuffersBackend - o.BuffersBackend, BuffersAlloc: s.BuffersAlloc - o.BuffersAlloc}
}

// Collect gathers the counters: the two processes', pg_stat_io's writes
// and extends by every other process, and allocs (buffers_alloc).
func Collect(k *Checkpointer, w *BgWriter, io *bufmgr.IOStats, allocs int64) Counters {
	s := Counters{Checkpointer: k.Stats, BgWriter: w.Stats, BuffersAlloc: allocs}
	for bt := range io.Rel {
		if t := bufmgr.BackendType(bt); t == bufmgr.Checkpointer || t == bufmgr.BackgroundWriter {
			continue
		}
		for ctx := range io.Rel[bt] {
			s.BuffersBackend += io.Rel[bt][ctx][bufmgr.OpWrites] + io.Rel[bt][ctx][bufmgr.OpExtends]
		}
	}
	return s
}
