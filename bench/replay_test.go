package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/pgbufsim/pgbufsim/replay"
	"github.com/pgbufsim/pgbufsim/scenario"
	"github.com/stretchr/testify/require"
)

// refClock is the naive reference model of PostgreSQL's buffer replacement
// for one backend that reads and releases one block at a time with no
// strategy: a Go map for the buffer table, slices for the descriptors,
// written for obviousness rather than speed.
//
//   - StrategyInitialize puts every buffer on the free list; it hands them
//     out 1, 2, 3, … and the clock hand does not move while it is non-empty.
//   - A hit bumps the usage count by one, up to BM_MAX_USAGE_COUNT = 5 (PinBuffer).
//   - A miss takes the next free buffer, else runs the clock from buffer 1:
//     a buffer with usage > 0 loses one and the hand moves on; the first
//     with usage 0 is the victim (StrategyGetBuffer). Evicting a valid
//     buffer counts an eviction. The new page starts at usage 1 (BufferAlloc).
type refClock struct {
	table  map[uint64]int // block → buffer
	holds  []uint64       // buffer → block
	valid  []bool
	usage  []int
	nfree  int // buffers 0..nfree−1 have been handed out from the free list
	hand   int
	hits   int64
	misses int64
	evicts int64
}

func newRefClock(n int) *refClock {
	return &refClock{table: map[uint64]int{}, holds: make([]uint64, n), valid: make([]bool, n), usage: make([]int, n)}
}

func (m *refClock) access(blk uint64) {
	if b, ok := m.table[blk]; ok {
		m.hits++
		if m.usage[b] < 5 {
			m.usage[b]++
		}
		return
	}
	m.misses++
	var victim int
	if m.nfree < len(m.usage) {
		victim = m.nfree
		m.nfree++
	} else {
		for {
			b := m.hand
			m.hand = (m.hand + 1) % len(m.usage)
			if m.usage[b] > 0 {
				m.usage[b]--
				continue
			}
			victim = b
			break
		}
	}
	if m.valid[victim] {
		delete(m.table, m.holds[victim])
		m.evicts++
	}
	m.table[blk], m.holds[victim], m.valid[victim], m.usage[victim] = victim, blk, true, 1
}

// Replaying a generated oracleGeneral trace through the simulator's pool
// gives exactly the reference model's hits, misses and evictions, for every
// workload kind: a key space 3× the pool for zipf/uniform (many evictions,
// hits still common), a loop longer than the pool (clock's worst case), and
// a zipf hot set mixed with a scan over as many cold blocks.
func TestReplayMatchesReferenceClock(t *testing.T) {
	const nbuffers = 4096 // shared_buffers=32MB
	dir := t.TempDir()
	for _, w := range []Workload{
		{Kind: "zipf", Requests: 200000, Blocks: 3 * nbuffers, Seed: 1},
		{Kind: "zipf", Requests: 200000, Blocks: 3 * nbuffers, Alpha: 1.2, Seed: 2},
		{Kind: "uniform", Requests: 100000, Blocks: 3 * nbuffers, Seed: 3},
		{Kind: "loop", Requests: 50000, Blocks: nbuffers + 100, Seed: 4},
		{Kind: "scan-mix", Requests: 200000, Blocks: 2 * nbuffers, Seed: 5},
	} {
		t.Run(fmt.Sprintf("%s/seed=%d", w.Kind, w.Seed), func(t *testing.T) {
			recs, err := w.Records()
			require.NoError(t, err)
			ref := newRefClock(nbuffers)
			for _, r := range recs {
				ref.access(r.ObjID)
			}
			path := filepath.Join(dir, w.Kind+".oracleGeneral")
			f, err := os.Create(path)
			require.NoError(t, err)
			require.NoError(t, w.WriteOracle(f))
			require.NoError(t, f.Close())

			sc, err := scenario.Parse("replay.scn", "cluster version=18 shared_buffers=32MB\nreplay "+path+" format=oraclegeneral\n")
			require.NoError(t, err)
			env := &scenario.Env{Seed: 1, CheckInvariants: true}
			var out scenario.Output
			for _, st := range sc.Steps {
				out, err = env.Exec(st.Cmd, st.Args)
				require.NoError(t, err)
			}
			got, ok := out.Result.(*replay.Result)
			require.True(t, ok, "replay gave %T", out.Result)
			require.EqualValues(t, len(recs), got.Requests)
			require.Equal(t, ref.hits, got.Hits, "hits")
			require.Equal(t, ref.misses, got.Misses, "misses")
			require.Equal(t, ref.evicts, got.Evictions, "evictions")
			require.InDelta(t, float64(ref.hits)/float64(len(recs)), got.HitRatio(), 1e-12)
			t.Logf("%s: hit ratio %.4f (%d of %d), evictions %d", w.Kind, got.HitRatio(), ref.hits, len(recs), ref.evicts)
			// The workloads are not degenerate: the loop longer than the
			// pool never hits (the clock always evicts the block needed
			// next); the others hit and evict.
			if w.Kind == "loop" {
				require.Zero(t, ref.hits)
			} else {
				require.NotZero(t, ref.hits)
				require.NotZero(t, ref.evicts)
			}
		})
	}
}
