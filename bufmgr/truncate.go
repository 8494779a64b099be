package bufmgr

import "github.com/pgbufsim/pgbufsim/pg"

// TruncateRel is smgrtruncate of one storage to nblocks: DropRelationBuffers
// from firstDelBlock = nblocks (InvalidateBuffer for each buffer of a
// removed block, as DropRelBuffers does for all of them), then the file cut
// (VACUUM's lazy_truncate_heap, the FSM and VM forks after it).
func (p *Pool) TruncateRel(rel pg.RelID, nblocks int) {
	r := p.rels[rel]
	if nblocks >= r.nblocks {
		return
	}
	for b := pg.Buffer(1); int(b) <= p.n; b++ {
		if p.states[b]&pg.FlagTagValid != 0 && p.tags[b].Rel == rel && int(p.tags[b].Block) >= nblocks {
			p.invalidateVictim(b)
			p.ctl.FreeBuffer(b)
		}
	}
	r.nblocks = nblocks
	r.mapping.shrink(nblocks)
	r.lsn.shrink(nblocks)
	p.cfg.Storage.Truncate(rel, nblocks)
}
