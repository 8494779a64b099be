package replay

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// idTable numbers ids exactly as the Go map it replaces did (first seen,
// first numbered), through its growth, on ids that repeat, collide in the
// low bits, and include 0 and 2^64 − 1.
func TestIDTableMatchesMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 20; round++ {
		tab, m := newIDTable(), map[uint64]uint32{}
		var seen []uint64
		n := r.IntN(200000)
		for i := 0; i < n; i++ {
			var id uint64
			switch k := r.IntN(10); {
			case k < 4 && len(seen) > 0:
				id = seen[r.IntN(len(seen))]
			case k < 6:
				id = r.Uint64N(64) << 40 // the same low bits
			case k == 6:
				id = []uint64{0, 1<<64 - 1, 1<<64 - 2}[r.IntN(3)]
			default:
				id = r.Uint64()
			}
			seen = append(seen, id)
			tab.add(id)
			if _, ok := m[id]; !ok {
				m[id] = uint32(len(m))
			}
		}
		require.Equal(t, len(m), tab.len())
		for id, v := range m {
			require.Equal(t, v, tab.get(id), "id %d", id)
		}
	}
}
