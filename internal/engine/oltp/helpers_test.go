package oltp

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/internal/engine"
	"github.com/pgbufsim/pgbufsim/pg"
)

func newTestCluster(t testing.TB, v pg.Version, sb string, extra ...[2]string) *engine.Cluster {
	s, err := engine.DefaultSettings(v)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range append([][2]string{{"shared_buffers", sb}, {"data_checksums", "on"}, {"autovacuum", "off"},
		{"max_wal_size", "8GB"}, {"checkpoint_timeout", "1h"}, {"bgwriter_lru_maxpages", "0"}, {"track_io_timing", "on"}}, extra...) {
		if _, err := s.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	c, err := engine.NewCluster(s, 1)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
