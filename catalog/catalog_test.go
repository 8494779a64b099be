package catalog

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The codec: a digit is a page's pins, a letter a–f the same 0–5 pins on a
// page the session dirties; Add sums, Sub takes what a has beyond b.
func TestPins(t *testing.T) {
	p := Decode("52a0c")
	require.Equal(t, []Pin{{5, false}, {2, false}, {0, true}, {0, false}, {2, true}}, p)
	require.Equal(t, "52a0c", Encode(p))
	require.Equal(t, "73a0d", Encode(Add(p, Decode("21001")))) // 5+2, 2+1, a+0, 0+0, c(2)+1 = d
	require.Equal(t, "10a0c", Encode(Sub(p, Decode("44")))) // 5−4, 2−4 → 0; the rest as it was
	require.Equal(t, "5200c", Encode(Sub(p, Decode("00a0"))), "what b dirtied is not a's any more")
}

// The profiles in force: 15's (measured on Debian's 15.18) for 15 to 17,
// 18's for 18 and 19; a parallel worker's own pins are the one-worker scan
// less the serial scan.
func TestProfiles(t *testing.T) {
	require.Same(t, &PG15, For(15))
	require.Same(t, &PG15, For(17))
	require.Same(t, &PG18, For(19))
	require.Equal(t, 233, PG15.Pages)
	w := Decode(PG15.Kinds[Worker])
	scan, one := Decode(PG15.Kinds[Scan]), Decode(PG15.Kinds[Scan1w])
	for i := range w {
		want := one[i].N
		if i < len(scan) {
			want = max(0, one[i].N-scan[i].N)
		}
		require.Equal(t, want, w[i].N, "page %d", i)
	}
	// 18's leader pins 225 pages: 88 at 5, 17 at 4, 19 at 3, 58 at 2, 43 at 1 (724 pins).
	pins := 0
	for _, p := range Decode(PG18.Kinds[Scan]) {
		pins += p.N
	}
	require.Equal(t, 88*5+17*4+19*3+58*2+43, pins)
}
