package sim

import "github.com/pgbufsim/pgbufsim/internal/rng"

// pcg is the cluster's only source of randomness: the shared PCG of package
// rng, seeded explicitly so that runs are reproducible.
type pcg = rng.PCG

func newPCG(seed uint64) *pcg { return rng.New(seed) }
