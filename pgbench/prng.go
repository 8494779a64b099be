package pgbench

import "math/bits"

// PRNG is PostgreSQL's pg_prng_state: the xoroshiro128** generator that
// pgbench (15 and later) uses for every random draw. The zero value is not
// a usable state (all zeroes is a fixed point); make one with NewPRNG or
// Seed. It is identical in 15, 16, 17, 18 and 19 for everything pgbench
// draws (19 adds pg_prng_int64_range and pg_prng_double_normal, which
// pgbench's random functions do not use on the uniform path).
type PRNG struct {
	s0, s1 uint64
}

// NewPRNG returns a generator seeded as pg_prng_seed(state, seed) does.
func NewPRNG(seed uint64) *PRNG {
	p := &PRNG{}
	p.Seed(seed)
	return p
}

// splitmix64 models splitmix64 (pg_prng.c): the generator pg_prng_seed uses
// to fill the two state words from a 64-bit seed.
func splitmix64(state *uint64) uint64 {
	*state += 0x9E3779B97F4A7C15
	v := *state
	v = (v ^ (v >> 30)) * 0xBF58476D1CE4E5B9
	v = (v ^ (v >> 27)) * 0x94D049BB133111EB
	return v ^ (v >> 31)
}

// Seed models pg_prng_seed (pg_prng.c): s0 and s1 are the first two
// splitmix64 outputs from seed, and an all-zero state is replaced by
// Knuth's LCG constants (pg_prng_seed_check).
func (p *PRNG) Seed(seed uint64) {
	p.s0 = splitmix64(&seed)
	p.s1 = splitmix64(&seed)
	if p.s0 == 0 && p.s1 == 0 {
		p.s0 = 0x5851F42D4C957F2D
		p.s1 = 0x14057B7EF767814F
	}
}

// State returns the two state words (s0, s1), for tests and diagnostics.
func (p *PRNG) State() (s0, s1 uint64) { return p.s0, p.s1 }

// Uint64 models pg_prng_uint64 (pg_prng.c), one step of xoroshiro128ss.
func (p *PRNG) Uint64() uint64 {
	s0 := p.s0
	sx := p.s1 ^ s0
	val := bits.RotateLeft64(s0*5, 7) * 9
	p.s0 = bits.RotateLeft64(s0, 24) ^ sx ^ (sx << 16)
	p.s1 = bits.RotateLeft64(sx, 37)
	return val
}

// Uint64Range models pg_prng_uint64_range (pg_prng.c): uniform in
// [rmin, rmax] by the bitmask rejection method (the draw shifted right so
// it has as many bits as rmax-rmin, redrawn while above it). An empty or
// one-value range (rmax <= rmin) returns rmin without drawing at all, so
// pgbench's random(1, 1) consumes nothing from the state.
func (p *PRNG) Uint64Range(rmin, rmax uint64) uint64 {
	if rmax <= rmin {
		return rmin
	}
	r := rmax - rmin
	shift := uint(bits.LeadingZeros64(r)) // 63 - pg_leftmost_one_pos64(range)
	for {
		v := p.Uint64() >> shift
		if v <= r {
			return rmin + v
		}
	}
}

// Double models pg_prng_double (pg_prng.c): the top 52 bits as a fraction,
// uniform in [0, 1).
func (p *PRNG) Double() float64 {
	v := p.Uint64()
	return float64(v>>12) / (1 << 52) // ldexp(v >> (64 - 52), -52), exact
}

// Rand models pgbench's getrand (pgbench.c): uniform in [min, max] for
// min <= max, as min + pg_prng_uint64_range(0, max - min). It is what
// \set x random(min, max) evaluates to.
func (p *PRNG) Rand(min, max int64) int64 {
	return min + int64(p.Uint64Range(0, uint64(max-min)))
}
