package sim

// pcg is a PCG-XSH-RR 64/32 generator: the cluster's only source of
// randomness, seeded explicitly so that runs are reproducible.
type pcg struct{ state, inc uint64 }

func newPCG(seed uint64) *pcg {
	p := &pcg{inc: seed<<1 | 1}
	p.next()
	p.state += seed
	p.next()
	return p
}

func (p *pcg) next() uint32 {
	old := p.state
	p.state = old*6364136223846793005 + p.inc
	x := uint32(((old >> 18) ^ old) >> 27)
	r := uint32(old >> 59)
	return x>>r | x<<((-r)&31)
}

// Float64 is uniform in [0, 1).
func (p *pcg) Float64() float64 { return float64(p.next()) / (1 << 32) }
