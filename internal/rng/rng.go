// Package rng holds pgbufsim's seeded pseudo-random generators: a PCG for
// every random choice of the simulator (ANALYZE's block sampler) and of the
// workload generators in package bench, and a Zipf sampler on top of it.
// Nothing here is global: each user creates its generator from an explicit
// seed, so the same seed gives the same sequence on every platform.
//
// PostgreSQL draws its own random choices (ANALYZE's block sample:
// BlockSampler in sampling.c, Knuth's Algorithm S) from pg_prng.c's
// xoroshiro128**, seeded differently in every backend, so no two server runs
// sample alike; the simulator runs the same algorithm on a PCG, and a seed
// makes its own runs repeatable.
package rng

import (
	"math"
	"math/bits"
)

// PCG is a PCG-XSH-RR 64/32 generator (O'Neill, "PCG: A Family of Simple
// Fast Space-Efficient Statistically Good Algorithms for Random Number
// Generation", 2014). The zero value is not seeded; use New.
type PCG struct{ state, inc uint64 }

// New returns a PCG seeded with seed (the stream is seed<<1|1).
func New(seed uint64) *PCG {
	p := &PCG{inc: seed<<1 | 1}
	p.Uint32()
	p.state += seed
	p.Uint32()
	return p
}

// Uint32 returns the next 32 random bits.
func (p *PCG) Uint32() uint32 {
	old := p.state
	p.state = old*6364136223846793005 + p.inc
	x := uint32(((old >> 18) ^ old) >> 27)
	r := uint32(old >> 59)
	return x>>r | x<<((-r)&31)
}

// Float64 is uniform in [0, 1), with 32 bits of precision.
func (p *PCG) Float64() float64 { return float64(p.Uint32()) / (1 << 32) }

// Uint64n is uniform in [0, n) for n ≥ 1 (Lemire's multiply-shift on 64
// random bits; the bias is below n/2^64, far under anything measurable here).
func (p *PCG) Uint64n(n uint64) uint64 {
	x := uint64(p.Uint32())<<32 | uint64(p.Uint32())
	hi, _ := bits.Mul64(x, n)
	return hi
}

// Zipf draws ranks 1..N with P(k) ∝ 1/k^s for any exponent s > 0, by
// Hörmann and Derflinger's rejection-inversion ("Rejection-inversion to
// generate variates from monotone discrete distributions", 1996), in the
// form Apache Commons RNG uses: O(1) memory and about one uniform per draw,
// so a key space of billions costs nothing to set up.
type Zipf struct {
	p              *PCG
	n, s           float64
	hX1, hN, slack float64
}

// NewZipf returns a sampler of ranks 1..n with exponent s, drawing from p.
// ok is false for n < 1 or s ≤ 0.
func NewZipf(p *PCG, n uint64, s float64) (z *Zipf, ok bool) {
	if n < 1 || !(s > 0) {
		return nil, false
	}
	z = &Zipf{p: p, n: float64(n), s: s}
	z.hX1 = z.hIntegral(1.5) - 1
	z.hN = z.hIntegral(z.n + 0.5)
	z.slack = 2 - z.hIntegralInv(z.hIntegral(2.5)-z.h(2))
	return z, true
}

// Next returns a rank in 1..N; rank 1 is the most frequent.
func (z *Zipf) Next() uint64 {
	for {
		u := z.hN + z.p.Float64()*(z.hX1-z.hN)
		x := z.hIntegralInv(u)
		k := math.Floor(x + 0.5)
		if k < 1 {
			k = 1
		} else if k > z.n {
			k = z.n
		}
		if k-x <= z.slack || u >= z.hIntegral(k+0.5)-z.h(k) {
			return uint64(k)
		}
	}
}

// h is the density x^-s; hIntegral its antiderivative (x^(1-s) − 1)/(1 − s)
// (log x at s = 1), hIntegralInv the inverse of that.
func (z *Zipf) h(x float64) float64 { return math.Exp(-z.s * math.Log(x)) }

func (z *Zipf) hIntegral(x float64) float64 {
	lx := math.Log(x)
	return expm1Over((1-z.s)*lx) * lx
}

func (z *Zipf) hIntegralInv(x float64) float64 {
	t := x * (1 - z.s)
	if t < -1 {
		t = -1 // rounding can push t just below -1
	}
	return math.Exp(log1pOver(t) * x)
}

// expm1Over is (e^x − 1)/x, and log1pOver log(1+x)/x, both continuous at 0.
func expm1Over(x float64) float64 {
	if math.Abs(x) > 1e-8 {
		return math.Expm1(x) / x
	}
	return 1 + x*0.5*(1+x/3*(1+0.25*x))
}

func log1pOver(x float64) float64 {
	if math.Abs(x) > 1e-8 {
		return math.Log1p(x) / x
	}
	return 1 - x*(0.5-x*(1.0/3-0.25*x))
}
