package rng

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Algorithm S picks exactly n of N, in ascending order, and all of them when n ≥ N.
func TestBlockSampler(t *testing.T) {
	for _, c := range []struct{ N, n int }{{62500, 30000}, {100, 100}, {100, 300}, {1, 1}, {5000, 7}} {
		bs := NewBlockSampler(c.N, c.n, New(7))
		prev, got := -1, 0
		for bs.HasMore() {
			b := int(bs.Next())
			require.Greater(t, b, prev)
			require.Less(t, b, c.N)
			prev = b
			got++
		}
		require.Equal(t, min(c.N, c.n), got)
	}
}
