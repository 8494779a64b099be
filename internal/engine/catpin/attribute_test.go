package catpin

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/internal/engine/pgclass"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
	"github.com/stretchr/testify/require"
)

// TestAttributePlacement15 places the pg_attribute rows of random seed
// 3074 on 15 (t1 (id, pad of 1,800 bytes) and t2 (id, pad of 48), each
// created and loaded in a transaction block) and checks them against the
// server's pg_attribute (ctid of each row after the run) and the images
// its ANALYZE of t1 logged after a checkpoint. Rows are 144 bytes (+4 for a
// new line pointer); the FSM (initdb's values) points the first row at
// page 17 (category 59), which has 604 bytes free and 4 unused line
// pointers: id, pad, ctid and xmin take them (604 − 4 × 144 = 28); cmin,
// xmax, cmax, tableoid go to page 55 (category 42; 1,360 − 4 × 148 = 768),
// then five of the TOAST table's nine rows (28 left), the other four and
// the TOAST index's two on page 56, which the insert adds; SET STORAGE
// PLAIN cannot keep pad on page 17 (no HOT update) and moves it to 56
// (the target block). t2 (a new session) finds no page in the FSM with
// room and takes the last page, 56: its 8 + 9 + 2 rows. Page 56: 26 rows,
// 8,168 − 26 × 148 = 4,320 free — the server's FPI_FOR_HINT of 1249/56 is
// 3,921 bytes (49 + 8,192 − 4,320). Page 17's image before its prune is
// 8,213 bytes (49 + 8,192 − 28), the prune record 56 bytes (one dead line
// pointer). The index leaf (block 10, 5,732 bytes free) took 20 + 19
// entries of 20 bytes: 4,952 free, the server's 3,289-byte image.
func TestAttributePlacement15(t *testing.T) {
	p := &Pins{Version: 15, Class: pgclass.New(15)}
	a := p.PgAttribute()
	require.NoError(t, p.PlaceAttributes(nil, nil, nil, 1, 2, true, []int{2}, false))
	key := func(rel pg.RelID, kind pgclass.Kind, col int) int {
		r, ok := a.Class.Row(pgclass.Key{Rel: rel, Kind: kind, Col: col})
		require.True(t, ok)
		return r.Block
	}
	require.Equal(t, 17, key(1, pgclass.Table, 1))
	require.Equal(t, 17, key(1, pgclass.Table, -2))
	require.Equal(t, 55, key(1, pgclass.Table, -3))
	require.Equal(t, 55, key(1, pgclass.Toast, 3))
	require.Equal(t, 56, key(1, pgclass.Toast, -3))
	require.Equal(t, 56, key(1, pgclass.ToastIndex, 2))
	require.Equal(t, 56, key(1, pgclass.Table, 2), "pad moved by SET STORAGE PLAIN")
	require.Equal(t, 28, a.Class.Hole(17))
	a.Class.NewSession()
	require.NoError(t, p.PlaceAttributes(nil, nil, nil, 2, 2, true, nil, false))
	require.Equal(t, 56, key(2, pgclass.Table, 1))
	require.Equal(t, 4320, a.Class.Hole(56))
	require.Equal(t, 4952, a.LeafFree)

	// ANALYZE t1's session: its relcache build enters page 17 (prunable:
	// full, a committed update's dead version) and page 56, and kills the
	// entry of pad's first version.
	a.Class.NewSession()
	require.Equal(t, []int{17, 56}, a.Class.Visits(pgclass.Key{Rel: 1, Col: 2}))
	require.True(t, a.Class.Prunable(17))
	require.False(t, a.Class.Prunable(56))
	require.Equal(t, 8213, wal.FPIForHint(a.Class.Hole(17)))
	ndead, nredirected, horizon := a.Class.Prune(17)
	require.Equal(t, 56, wal.PruneLenHorizon(15, nredirected, ndead, 0, false, 0, horizon))
	require.Equal(t, 3921, wal.FPIForHint(a.Class.Hole(56)))
	require.Equal(t, 1, a.Class.KillDead(pgclass.Key{Rel: 1, Col: 1}, pgclass.Key{Rel: 1, Col: 2}))
	require.Equal(t, 3289, wal.FPIForHint(a.LeafFree))
	require.Equal(t, []int{56}, a.Class.Visits(pgclass.Key{Rel: 1, Col: 2}), "the killed entry is skipped")
}

// TestPruneHorizon18: 18beta1's PRUNE_ON_ACCESS of one dead line pointer
// is 52 bytes when the row was created and altered in one transaction
// (seed 2162, pg_waldump), 56 with a conflict horizon.
func TestPruneHorizon18(t *testing.T) {
	require.Equal(t, 52, wal.PruneLenHorizon(18, 0, 1, 0, false, 0, false))
	require.Equal(t, 56, wal.PruneLenHorizon(18, 0, 1, 0, false, 0, true))
	require.Equal(t, 54, wal.PruneLenHorizon(18, 1, 0, 0, false, 0, false), "a HOT chain's root redirected: [36->41] on pg_class, seed 2151")
}
