package bgproc

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/guc"
)

// FlushAfter is each process type's WritebackContext limit, in blocks
// (bufmgr.Pool.FlushAfter): checkpoint_flush_after for the checkpointer,
// bgwriter_flush_after for the background writer, backend_flush_after for
// the processes that evict buffers themselves (client backends, parallel
// workers, autovacuum workers). The WAL writer writes no data pages.
func FlushAfter(s *guc.Settings) [bufmgr.NumBackendTypes]int {
	var f [bufmgr.NumBackendTypes]int
	backend := int(s.Int("backend_flush_after"))
	for t := range f {
		f[t] = backend
	}
	f[bufmgr.Checkpointer] = int(s.Int("checkpoint_flush_after"))
	f[bufmgr.BackgroundWriter] = int(s.Int("bgwriter_flush_after"))
	f[bufmgr.Walwriter] = 0
	return f
}
