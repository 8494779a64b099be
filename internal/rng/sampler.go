package rng

// BlockSampler is BlockSampler (utils/misc/sampling.c): Knuth's Algorithm S,
// choosing exactly n of N blocks, in ascending order, each subset equally
// likely. The random source is a seeded PCG, so the blocks are
// reproducible (PostgreSQL seeds its own at random: which blocks it picks
// differs run to run, how many never does).
type BlockSampler struct {
	N, n int // blocks, sample size
	t, m int // blocks seen, selected
	rng  *PCG
}

// NewBlockSampler chooses samplesize of nblocks blocks with rng (all of them when samplesize ≥ nblocks).
func NewBlockSampler(nblocks, samplesize int, rng *PCG) *BlockSampler {
	return &BlockSampler{N: nblocks, n: min(samplesize, nblocks), rng: rng}
}

// HasMore reports whether blocks remain to be chosen.
func (bs *BlockSampler) HasMore() bool { return bs.t < bs.N && bs.m < bs.n }

// Next is BlockSampler_Next: the next chosen block.
func (bs *BlockSampler) Next() uint32 {
	K := bs.N - bs.t // remaining blocks
	k := bs.n - bs.m // still to select
	if k >= K {
		// All the rest are needed.
		bs.m++
		bs.t++
		return uint32(bs.t - 1)
	}
	p := 1.0 - float64(k)/float64(K)
	v := bs.rng.Float64()
	for v < p {
		bs.t++
		K--
		p *= 1.0 - float64(k)/float64(K)
	}
	bs.m++
	bs.t++
	return uint32(bs.t - 1)
}
