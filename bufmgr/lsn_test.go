package bufmgr

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/internal/rng"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

// wideBlocks counts the table's wide blocks.
func (t *lsnTable) wideBlocks() int {
	n := 0
	for _, c := range t.chunks {
		if c == &lsnZero {
			continue
		}
		for b := range lsnBlocks {
			if c.base[b][1] == lsnWide {
				n++
			}
		}
	}
	return n
}

// TestLSNTable: the compact table returns every LSN set, exactly, against
// a plain slice, through the cases its encoding distinguishes — LSNs close
// together (one base), a later epoch (the second base, while a relog sweeps
// through a block), a base freed and reused, LSNs out of both bases' reach
// (the block widens) and back in reach (it narrows), LSN 0 — and a load
// followed by a scan that relogs it leaves no block wide.
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
	// A load: increasing LSNs 8 kB apart (a page of rows each: 32 pages of a
	// block span 256 kB, in reach of one base); then a scan relogs every page
	// far later, 8,200 bytes apart.
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
	require.Zero(t, tab.wideBlocks(), "blocks widened by a load and one relog")
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
	require.Positive(t, tab.wideBlocks(), "four epochs in one block must widen it")
	// Another relog of every page narrows every block again at its last page.
	for i := range ref {
		lsn += 8200
		tab.set(i, lsn)
		ref[i] = lsn
	}
	check()
	// (but the relation's last block, 77 % 32 = 13 pages, short of its last page)
	require.LessOrEqual(t, tab.wideBlocks(), 1, "blocks left wide after a relog of every page")
	require.GreaterOrEqual(t, len(tab.wideFree), len(tab.wide)-1, "wide slots not given back")
	tab.truncate()
	require.Equal(t, 0, tab.len())
	tab.grow()
	require.Equal(t, pg.LSN(0), tab.get(0))
}

// TestLSNTableEqualsArray drives the table and a plain []pg.LSN with the
// same random operations — extension by one page or by several chunks,
// sweeps logging a range in order at a load's or a scan's stride (from
// anywhere: across block and chunk boundaries, ending inside a block or at
// its end), sweeps in descending order, single pages logged at random at
// the WAL's current end, LSN 0, LSNs not MAXALIGNed, the crash model's
// reset of every LSN past a WAL end (CrashReset), truncation inside a chunk
// and at a chunk boundary, and emptying — and compares every value after
// each, so the encoding is exact whatever the order of LSNs.
func TestLSNTableEqualsArray(t *testing.T) {
	for seed := uint64(1); seed <= 12; seed++ {
		r := rng.New(seed)
		tab := newLSNTable(int(r.Uint64n(3 * lsnBlockPages)))
		ref := make([]pg.LSN, tab.len())
		end := pg.LSN(0x1000000) // the WAL's end, which only rises (but for a crash)
		check := func(step int, op uint64) {
			require.Equal(t, len(ref), tab.len(), "seed %d step %d op %d", seed, step, op)
			for i, v := range ref {
				if g := tab.get(i); g != v {
					t.Fatalf("seed %d step %d op %d: block %d = %#x, want %#x", seed, step, op, i, g, v)
				}
			}
		}
		set := func(i int, v pg.LSN) { tab.set(i, v); ref[i] = v }
		for step := 0; step < 400; step++ {
			op := r.Uint64n(12)
			switch {
			case op < 2: // extend
				k := 1 + int(r.Uint64n(40))
				if op == 0 {
					k = 1 + int(r.Uint64n(2*lsnChunkPages+100))
				}
				tab.reserve(len(ref) + k)
				if op == 0 { // in one step
					tab.growN(k)
					ref = append(ref, make([]pg.LSN, k)...)
					break
				}
				for range k {
					tab.grow()
					ref = append(ref, 0)
				}
			case op < 5 && len(ref) > 0: // an ascending sweep at a stride, with irregular steps
				from := int(r.Uint64n(uint64(len(ref))))
				to := from + 1 + int(r.Uint64n(uint64(len(ref)-from)))
				stride := pg.LSN(8 * (1 + r.Uint64n(2200)))
				for i := from; i < to; i++ {
					end += stride
					if r.Uint64n(200) == 0 {
						end += 8192 + 8*pg.LSN(r.Uint64n(4096)) // an FPI or checkpoint between
					}
					set(i, end)
				}
			case op == 5 && len(ref) > 0: // a descending sweep
				from := int(r.Uint64n(uint64(len(ref))))
				for i := from; i >= 0 && i > from-200; i-- {
					end += 8 * pg.LSN(1+r.Uint64n(1100))
					set(i, end)
				}
			case op < 9 && len(ref) > 0: // pages at random, at the WAL's end or odd values
				for range 1 + r.Uint64n(300) {
					i := int(r.Uint64n(uint64(len(ref))))
					end += 8 * pg.LSN(r.Uint64n(64))
					v := end
					switch r.Uint64n(20) {
					case 0:
						v = 0
					case 1:
						v = end + 1 + pg.LSN(r.Uint64n(7)) // not MAXALIGNed
					case 2:
						v = pg.LSN(r.Uint64n(1 << 24)) // an old LSN
					}
					set(i, v)
				}
			case op == 9 && len(ref) > 0: // crash: nothing past a WAL end
				cut := end - pg.LSN(r.Uint64n(1<<20))
				if r.Uint64n(2) == 0 {
					cut |= 3 // an end not MAXALIGNed
				}
				for i := range ref {
					if tab.get(i) > cut {
						tab.set(i, cut)
					}
					ref[i] = min(ref[i], cut)
				}
			case op == 10: // truncation, at a chunk or block boundary or inside one
				n := int(r.Uint64n(uint64(len(ref) + 1)))
				switch r.Uint64n(3) {
				case 0:
					n &^= lsnChunkPages - 1
				case 1:
					n &^= lsnBlockPages - 1
				}
				tab.shrink(n)
				ref = ref[:n]
			case op == 11 && r.Uint64n(8) == 0:
				tab.truncate()
				ref = ref[:0]
			}
			check(step, op)
		}
	}
}
