package oltp

import "math/bits"

// prng is pg_prng (xoroshiro128**, seeded by splitmix64) for the tests'
// draws, as pgbench seeds a client: base_random_sequence from
// --random-seed, then the client's cs_func_rs from its first value.
type prng struct{ s0, s1 uint64 }

func splitmix(s *uint64) uint64 {
	*s += 0x9E3779B97f4A7C15
	v := *s
	v = (v ^ (v >> 30)) * 0xBF58476D1CE4E5B9
	v = (v ^ (v >> 27)) * 0x94D049BB133111EB
	return v ^ (v >> 31)
}

func newPRNG(seed uint64) *prng {
	p := &prng{splitmix(&seed), splitmix(&seed)}
	return p
}

func (p *prng) next() uint64 {
	s0, sx := p.s0, p.s1^p.s0
	v := bits.RotateLeft64(s0*5, 7) * 9
	p.s0 = bits.RotateLeft64(s0, 24) ^ sx ^ (sx << 16)
	p.s1 = bits.RotateLeft64(sx, 37)
	return v
}

func (p *prng) rng(lo, hi int64) int64 {
	r := uint64(hi - lo)
	if r == 0 {
		return lo
	}
	shift := bits.LeadingZeros64(r)
	for {
		v := p.next() >> shift
		if v <= r {
			return lo + int64(v)
		}
	}
}

type testKeys struct {
	p      *prng
	scale  int64
	script Builtin
}

func newTestKeys(seed uint64, scale int, script Builtin) *testKeys {
	base := newPRNG(seed)
	return &testKeys{p: newPRNG(base.next()), scale: int64(scale), script: script}
}

func (k *testKeys) Next() Txn {
	var t Txn
	t.AID = k.p.rng(1, 100000*k.scale)
	if k.script == SelectOnly {
		return t
	}
	t.BID = k.p.rng(1, k.scale)
	t.TID = k.p.rng(1, 10*k.scale)
	t.Delta = k.p.rng(-5000, 5000)
	return t
}
