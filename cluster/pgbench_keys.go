package cluster

import (
	"math/bits"

	"github.com/pgbufsim/pgbufsim/internal/engine/oltp"
)

// prng is pg_prng (pg_prng.c): xoroshiro128** seeded through splitmix64.
type prng struct{ s0, s1 uint64 }

func splitmix64(s *uint64) uint64 {
	*s += 0x9E3779B97f4A7C15
	v := *s
	v = (v ^ (v >> 30)) * 0xBF58476D1CE4E5B9
	v = (v ^ (v >> 27)) * 0x94D049BB133111EB
	return v ^ (v >> 31)
}

// newPRNG is pg_prng_seed.
func newPRNG(seed uint64) *prng {
	p := &prng{splitmix64(&seed), splitmix64(&seed)}
	if p.s0 == 0 && p.s1 == 0 { // pg_prng_seed_check
		p.s0, p.s1 = 0x5851F42D4C957F2D, 0x14057B7EF767814F
	}
	return p
}

// uint64 is pg_prng_uint64 (xoroshiro128ss).
func (p *prng) uint64() uint64 {
	s0, sx := p.s0, p.s1^p.s0
	v := bits.RotateLeft64(s0*5, 7) * 9
	p.s0 = bits.RotateLeft64(s0, 24) ^ sx ^ (sx << 16)
	p.s1 = bits.RotateLeft64(sx, 37)
	return v
}

// getrand is pgbench's getrand: min + pg_prng_uint64_range(0, max − min),
// which draws the top bits it needs until the value is in range.
func (p *prng) getrand(lo, hi int64) int64 {
	r := uint64(hi - lo)
	if r == 0 {
		return lo
	}
	shift := bits.LeadingZeros64(r)
	for {
		if v := p.uint64() >> shift; v <= r {
			return lo + int64(v)
		}
	}
}

// clientKeys is one client's cs_func_rs drawing the builtin script's \set lines.
type clientKeys struct {
	p      *prng
	scale  int64
	script oltp.Builtin
}

// Next draws \set aid random(1, 100000 * :scale) and, but for select-only,
// bid random(1, :scale), tid random(1, 10 * :scale), delta random(-5000, 5000).
func (k *clientKeys) Next() oltp.Txn {
	var t oltp.Txn
	t.AID = k.p.getrand(1, 100000*k.scale)
	if k.script == oltp.SelectOnly {
		return t
	}
	t.BID = k.p.getrand(1, k.scale)
	t.TID = k.p.getrand(1, 10*k.scale)
	t.Delta = k.p.getrand(-5000, 5000)
	return t
}

// pgbenchKeys seeds the clients as pgbench does with --random-seed=seed:
// base_random_sequence from the seed (set_random_seed), then each client's
// cs_func_rs from its next value, in client order (main, initRandomState).
func pgbenchKeys(seed uint64, clients, scale int, script oltp.Builtin) []oltp.Keys {
	base := newPRNG(seed)
	out := make([]oltp.Keys, clients)
	for i := range out {
		out[i] = &clientKeys{p: newPRNG(base.uint64()), scale: int64(scale), script: script}
	}
	return out
}
