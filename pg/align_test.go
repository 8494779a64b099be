package pg_test

import (
	"math"
	"testing"

	"github.com/pgbufsim/pgbufsim/pg"
)

// TestMaxAlign checks MAXALIGN on the lengths the simulator rounds: a
// 23-byte heap tuple header takes 24 bytes (t_hoff), a one-int4 tuple of 28
// bytes takes 32 on the page, and a 114-byte checkpoint record (15–18) takes
// 120 bytes of the WAL stream, 122 (19) takes 128.
func TestMaxAlign(t *testing.T) {
	for _, c := range []struct{ n, want int }{
		{0, 0}, {1, 8}, {7, 8}, {8, 8}, {9, 16}, {23, 24}, {28, 32}, {114, 120}, {122, 128},
	} {
		if got := pg.MaxAlign(c.n); got != c.want {
			t.Errorf("MaxAlign(%d) = %d, want %d", c.n, got, c.want)
		}
	}
	// The same rounding in every integer type, without a conversion: a WAL
	// byte position past 2^63 (uint64), a block number (uint32 underneath).
	if got := pg.MaxAlign(uint64(1<<63 + 1)); got != 1<<63+8 {
		t.Errorf("MaxAlign(uint64 2^63+1) = %d, want 2^63+8", got)
	}
	if got := pg.MaxAlign(pg.BlockNumber(4093)); got != 4096 {
		t.Errorf("MaxAlign(BlockNumber 4093) = %d, want 4096", got)
	}
	// Like the C macro it wraps in T: uint8 250 + 7 = 257 ≡ 1, rounded down
	// to 0; int8 121 + 7 = 128 ≡ −128 (0x80), whose low three bits are clear.
	if got := pg.MaxAlign(uint8(250)); got != 0 {
		t.Errorf("MaxAlign(uint8 250) = %d, want 0 (wrapped)", got)
	}
	if got := pg.MaxAlign(int8(121)); got != -128 {
		t.Errorf("MaxAlign(int8 121) = %d, want -128 (wrapped)", got)
	}
	if got := pg.MaxAlign(int8(120)); got != 120 {
		t.Errorf("MaxAlign(int8 120) = %d, want 120", got)
	}
}

// TestMaxAlignDown checks MAXALIGN_DOWN: the longest tuple that still lets
// four fit on a page is ((8192 − 24) / 4 − 4) = 2038 bytes, rounded down to
// 2032 (254 × 8).
func TestMaxAlignDown(t *testing.T) {
	for _, c := range []struct{ n, want int64 }{
		{0, 0}, {7, 0}, {8, 8}, {15, 8}, {16, 16}, {(8192-24)/4 - 4, 2032},
	} {
		if got := pg.MaxAlignDown(c.n); got != c.want {
			t.Errorf("MaxAlignDown(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

// TestShortAlign checks SHORTALIGN: odd lengths gain a byte.
func TestShortAlign(t *testing.T) {
	for _, c := range []struct{ n, want uint16 }{{0, 0}, {1, 2}, {2, 2}, {3, 4}, {65533, 65534}} {
		if got := pg.ShortAlign(c.n); got != c.want {
			t.Errorf("ShortAlign(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

// TestTypeAlign checks TYPEALIGN for the alignments of c.h: 4 (INTALIGN)
// takes 5 to 8, 1 leaves everything alone, 8 is MAXALIGN, and a 4096-byte
// alignment takes 1 to 4096.
func TestTypeAlign(t *testing.T) {
	for _, c := range []struct{ align, n, want int32 }{
		{4, 5, 8}, {4, 8, 8}, {4, 0, 0}, {1, 7, 7}, {2, 3, 4}, {8, 9, 16}, {4096, 1, 4096},
	} {
		if got := pg.TypeAlign(c.align, c.n); got != c.want {
			t.Errorf("TypeAlign(%d, %d) = %d, want %d", c.align, c.n, got, c.want)
		}
	}
}

// TestAlignNaive checks MaxAlign, MaxAlignDown and ShortAlign on every
// int16 that does not overflow against their definitions: the smallest
// multiple ≥ n, the largest multiple ≤ n.
func TestAlignNaive(t *testing.T) {
	for n := int16(0); n <= math.MaxInt16-8; n++ {
		up, down, short := n, n, n
		for up%8 != 0 {
			up++
		}
		for down%8 != 0 {
			down--
		}
		if short%2 != 0 {
			short++
		}
		if pg.MaxAlign(n) != up || pg.MaxAlignDown(n) != down || pg.ShortAlign(n) != short {
			t.Fatalf("n=%d: MaxAlign %d MaxAlignDown %d ShortAlign %d, want %d %d %d",
				n, pg.MaxAlign(n), pg.MaxAlignDown(n), pg.ShortAlign(n), up, down, short)
		}
		if pg.TypeAlign(int16(8), n) != up {
			t.Fatalf("TypeAlign(8, %d) = %d, want %d", n, pg.TypeAlign(int16(8), n), up)
		}
	}
}

// TestDivCeil checks ⌈n/d⌉: a 1 MiB read split at a 128 kB maximum I/O is 8
// I/Os, one byte more is 9; 6,250 pages hold 600,000 rows at 96 a page
// (exact), 600,001 rows need 6,251. Near the top of the type it does not
// overflow: (2^63 − 1) / 2 is 2^62 − 1 remainder 1, so 2^62; uint8 255 / 16
// is 15 remainder 15, so 16, where (255 + 15) / 16 would wrap to 14 / 16 = 0.
func TestDivCeil(t *testing.T) {
	for _, c := range []struct{ n, d, want int64 }{
		{0, 3, 0}, {1, 3, 1}, {3, 3, 1}, {4, 3, 2},
		{1 << 20, 128 << 10, 8}, {1<<20 + 1, 128 << 10, 9},
		{600000, 96, 6250}, {600001, 96, 6251},
		{math.MaxInt64, 2, 1 << 62}, {math.MaxInt64, 1, math.MaxInt64},
	} {
		if got := pg.DivCeil(c.n, c.d); got != c.want {
			t.Errorf("DivCeil(%d, %d) = %d, want %d", c.n, c.d, got, c.want)
		}
	}
	if got := pg.DivCeil(uint8(255), 16); got != 16 {
		t.Errorf("DivCeil(uint8 255, 16) = %d, want 16", got)
	}
}
