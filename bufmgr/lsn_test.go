package bufmgr

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/internal/rng"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

// TestLSNTable: the compact table returns every LSN set, exactly, against
// a plain slice, through the cases its encoding distinguishes — LSNs close
// together (one base), a later epoch (the second base), a base freed and
// reused, one out of both bases' reach (the chunk widens), LSN 0 — and it
// stays at 4 bytes a page for a load followed by a scan that relogs it.
func TestLSNTable(t *testing.T) {
	r := rng.New(3)
	const n = 3*lsnChunkPages + 77
	tab := newLSNTable(0)
	var ref []pg.LSN
	for i := 0; i < n; i++ {
		tab.grow()
		ref = append(ref, 0)
	}
	check := func() {
		for i := range ref {
			if tab.get(i) != ref[i] {
				require.Equal(t, ref[i], tab.get(i), "block %d", i)
			}
		}
	}
	// A load: increasing LSNs 8 kB apart; then a scan relogs every page far later.
	lsn := pg.LSN(0x1000028)
	for i := range ref {
		lsn += 8192
		tab.set(i, lsn)
		ref[i] = lsn
	}
	check()
	lsn += 1 << 40
	for i := range ref {
		lsn += 8200
		tab.set(i, lsn)
		ref[i] = lsn
	}
	check()
	for c := range tab.chunks {
		require.Nil(t, tab.chunks[c].wide, "chunk %d widened by a load and one relog", c)
	}
	// Random epochs and zeros: widening happens, values stay exact.
	epochs := []pg.LSN{lsn, lsn + 1<<33, lsn + 1<<34, 5, 1 << 62}
	for k := 0; k < 20000; k++ {
		i := int(r.Uint64n(n))
		v := epochs[r.Uint64n(uint64(len(epochs)))] + pg.LSN(r.Uint64n(1<<20))
		if r.Uint64n(10) == 0 {
			v = 0
		}
		tab.set(i, v)
		ref[i] = v
	}
	check()
	wide := 0
	for c := range tab.chunks {
		if tab.chunks[c].wide != nil {
			wide++
		}
	}
	require.Positive(t, wide, "four epochs in one chunk must widen it")
	tab.truncate()
	require.Equal(t, 0, tab.len())
	tab.grow()
	require.Equal(t, pg.LSN(0), tab.get(0))
}
