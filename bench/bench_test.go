// Package bench holds pgbufsim's benchmarks: the buffer-manager access path
// and whole scenarios.
package bench

import (
	"os"
	"testing"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/scenario"
	"github.com/pgbufsim/pgbufsim/sim"
	"github.com/pgbufsim/pgbufsim/wal"
)

func newPool(b *testing.B, nbuf, relBlocks int) (*bufmgr.Pool, *bufmgr.Backend) {
	w, err := wal.New(wal.Config{Version: 18, WalBuffers: 512})
	if err != nil {
		b.Fatal(err)
	}
	p, err := bufmgr.NewPool(bufmgr.Config{NBuffers: nbuf, Version: 18}, w)
	if err != nil {
		b.Fatal(err)
	}
	p.CreateRel(1, relBlocks, true)
	return p, bufmgr.NewBackend(bufmgr.ClientBackend, 0)
}

// BenchmarkReadBufferHit: lookup + pin (usage bump) + unpin of a cached page.
func BenchmarkReadBufferHit(b *testing.B) {
	p, be := newPool(b, 16384, 16384)
	for blk := 0; blk < 16384; blk++ {
		buf, _, _ := p.ReadBuffer(be, pg.BufferTag{Rel: 1, Block: pg.BlockNumber(blk)}, nil)
		p.Unpin(be, buf)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf, hit, err := p.ReadBuffer(be, pg.BufferTag{Rel: 1, Block: pg.BlockNumber(i & 16383)}, nil)
		if err != nil || !hit {
			b.Fatal("expected a hit")
		}
		p.Unpin(be, buf)
	}
	b.ReportMetric(float64(p.Stats.Rel[bufmgr.ClientBackend][0][bufmgr.OpHits])/float64(b.N+16384), "hit_ratio")
}

// BenchmarkReadBufferMissEvict: every access misses and runs the clock sweep
// (a cyclic scan of a relation twice the pool, no strategy).
func BenchmarkReadBufferMissEvict(b *testing.B) {
	p, be := newPool(b, 16384, 32768)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf, _, err := p.ReadBuffer(be, pg.BufferTag{Rel: 1, Block: pg.BlockNumber(i % 32768)}, nil)
		if err != nil {
			b.Fatal(err)
		}
		p.Unpin(be, buf)
	}
	// Each miss meets a usage-1 buffer: one decrement, one eviction → two clock steps.
	b.ReportMetric(float64(p.Control().CompletePasses)*16384/float64(b.N), "clock_steps/miss")
}

// BenchmarkScenarioRingFlood runs the shipped seed-000 scenario end to end.
func BenchmarkScenarioRingFlood(b *testing.B) {
	src, err := os.ReadFile("../examples/ring-flood.scn")
	if err != nil {
		b.Fatal(err)
	}
	f, err := scenario.Parse("ring-flood.scn", string(src))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		env := &sim.Env{Seed: 1}
		for _, st := range f.Steps {
			if _, err := env.Exec(st.Cmd, st.Args); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// seed001Setup loads seed 001's table (62,500 pages of 96 80-byte tuples at
// 1 GB) and checkpoints: the state the first read and ANALYZE start from.
const seed001Setup = `cluster version=18 shared_buffers=1GB data_checksums=on max_wal_size=8GB checkpoint_timeout=1h autovacuum=off
table events rows=6000000 tuple_bytes=80 fillfactor=99 autovacuum=off
insert events
checkpoint`

// benchAfterSetup times only the command after the setup: each iteration
// rebuilds the loaded cluster with the timer stopped.
func benchAfterSetup(b *testing.B, cmd string) {
	setup, err := scenario.Parse("setup.scn", seed001Setup)
	if err != nil {
		b.Fatal(err)
	}
	last, err := scenario.Parse("cmd.scn", cmd)
	if err != nil {
		b.Fatal(err)
	}
	st := last.Steps[0]
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		env := &sim.Env{Seed: 1}
		for _, s := range setup.Steps {
			if _, err := env.Exec(s.Cmd, s.Args); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		if _, err := env.Exec(st.Cmd, st.Args); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFirstRead62500 is seed 001's first count(*) after a checkpoint:
// 62,500 hits, each dirtied with a hint-bit image (F001-1).
func BenchmarkFirstRead62500(b *testing.B) { benchAfterSetup(b, "scan events") }

// BenchmarkAnalyze62500 is ANALYZE of the same table: 30,000 sampled pages (F001-7).
func BenchmarkAnalyze62500(b *testing.B) { benchAfterSetup(b, "analyze events") }
