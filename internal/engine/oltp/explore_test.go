package oltp

import (
	"fmt"
	"testing"

	"github.com/pgbufsim/pgbufsim/internal/engine"
	"github.com/pgbufsim/pgbufsim/pg"
)

func newTestCluster(t testing.TB, v pg.Version, sb string) *engine.Cluster {
	s, err := engine.DefaultSettings(v)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range [][2]string{{"shared_buffers", sb}, {"data_checksums", "on"}, {"autovacuum", "off"},
		{"max_wal_size", "8GB"}, {"checkpoint_timeout", "1h"}, {"bgwriter_lru_maxpages", "0"}, {"track_io_timing", "on"}} {
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

func TestExplore(t *testing.T) {
	for _, tc := range []struct {
		v      pg.Version
		sb     string
		scale  int
		n      int
		script Builtin
		two    bool
	}{{15, "32MB", 10, 20000, SelectOnly, false}, {18, "64MB", 5, 10000, TPCBLike, true}} {
		c := newTestCluster(t, tc.v, tc.sb)
		b, _, err := Init(c, tc.scale, 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, tb := range b.Tables() {
			ix := ""
			if tb.Index != nil {
				ix = fmt.Sprint(tb.Index.Pages(), tb.Index.Levels())
			}
			t.Logf("%s pages=%d %s", tb.Name, tb.Rel.NPages(), ix)
		}
		if _, err := c.RunCheckpoint(); err != nil {
			t.Fatal(err)
		}
		if err := c.Restart(); err != nil {
			t.Fatal(err)
		}
		if err := c.Session(engine.SessionBuffercache); err != nil {
			t.Fatal(err)
		}
		hist := map[string][6]int{}
		for _, r := range c.Pool().Contents() {
			if !r.Valid {
				continue
			}
			h := hist[c.RelName(r.Tag.Rel)]
			h[r.Usage]++
			hist[c.RelName(r.Tag.Rel)] = h
		}
		t.Logf("after restart %v", hist)
		seeds := []uint64{3}
		if tc.two {
			seeds = []uint64{3, 4}
		}
		for i, seed := range seeds {
			if i > 0 {
				if _, err := c.RunCheckpoint(); err != nil {
					t.Fatal(err)
				}
			}
			res, err := b.Run(tc.script, tc.n, []Keys{newTestKeys(seed, tc.scale, tc.script)})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("v%d run seed %d: buf %+v wal %+v time %.1f ms", tc.v, seed, res.Buf, res.WAL, float64(res.TimeNs)/1e6)
			for _, n := range []string{Accounts, Tellers, Branches, History} {
				t.Logf("  %s %+v", n, res.Tables[n])
			}
			for _, tb := range b.Tables() {
				t.Logf("  %s pages=%d", tb.Name, tb.Rel.NPages())
			}
		}
		hist = map[string][6]int{}
		for _, r := range c.Pool().Contents() {
			if !r.Valid {
				continue
			}
			h := hist[c.RelName(r.Tag.Rel)]
			h[r.Usage]++
			hist[c.RelName(r.Tag.Rel)] = h
		}
		t.Logf("buffercache %v", hist)
	}
}
