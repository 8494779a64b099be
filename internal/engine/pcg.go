package engine

import "github.com/pgbufsim/pgbufsim/internal/rng"

// pcg is the cluster's only source of randomness: the shared PCG of package
// rng, seeded explicitly so that runs are reproducible.
type pcg struct{ rng.PCG }

func newPCG(seed uint64) *pcg { return &pcg{*rng.New(seed)} }

// next is the next 32 random bits.
func (p *pcg) next() uint32 { return p.Uint32() }
