package rng

import (
	"math"
	"testing"
)

// The same seed gives the same sequence; different seeds differ.
func TestPCGSeeded(t *testing.T) {
	a, b, c := New(7), New(7), New(8)
	same, diff := 0, 0
	for i := 0; i < 1000; i++ {
		x, y, z := a.Uint32(), b.Uint32(), c.Uint32()
		if x == y {
			same++
		}
		if x != z {
			diff++
		}
	}
	if same != 1000 || diff < 990 {
		t.Fatalf("same seed agreed %d/1000, different seeds differed %d/1000", same, diff)
	}
}

// Uint64n stays in range and is uniform: over 100,000 draws of [0, 10) each
// value's count is binomial(100000, 0.1): mean 10,000, σ = √(100000·0.1·0.9) ≈ 95;
// 5σ bounds fail by chance with probability ~6e-7 per value.
func TestUint64nUniform(t *testing.T) {
	p := New(1)
	var cnt [10]int
	for i := 0; i < 100000; i++ {
		v := p.Uint64n(10)
		if v >= 10 {
			t.Fatalf("Uint64n(10) = %d", v)
		}
		cnt[v]++
	}
	for v, c := range cnt {
		if math.Abs(float64(c)-10000) > 5*95 {
			t.Errorf("value %d drawn %d times, want 10000 ± 475", v, c)
		}
	}
}

// Zipf follows P(k) = k^-s / Σ j^-s: for each rank, the count over draws is
// binomial, so it must lie within 5σ of draws·P(k). Checked below, at and
// above s = 1, where the sampler's formulas take different branches.
func TestZipfFrequencies(t *testing.T) {
	for _, s := range []float64{0.6, 0.99, 1, 1.4} {
		const n, draws = 20, 200000
		z, ok := NewZipf(New(3), n, s)
		if !ok {
			t.Fatal("NewZipf refused valid parameters")
		}
		var cnt [n + 1]int
		for i := 0; i < draws; i++ {
			k := z.Next()
			if k < 1 || k > n {
				t.Fatalf("s=%v: rank %d outside 1..%d", s, k, n)
			}
			cnt[k]++
		}
		norm := 0.0
		for k := 1; k <= n; k++ {
			norm += math.Pow(float64(k), -s)
		}
		for k := 1; k <= n; k++ {
			p := math.Pow(float64(k), -s) / norm
			mean, sd := draws*p, math.Sqrt(draws*p*(1-p))
			if math.Abs(float64(cnt[k])-mean) > 5*sd {
				t.Errorf("s=%v: rank %d drawn %d times, want %.0f ± %.0f", s, k, cnt[k], mean, 5*sd)
			}
		}
	}
	if _, ok := NewZipf(New(1), 10, 0); ok {
		t.Error("NewZipf accepted s = 0")
	}
	if _, ok := NewZipf(New(1), 0, 1); ok {
		t.Error("NewZipf accepted n = 0")
	}
}
