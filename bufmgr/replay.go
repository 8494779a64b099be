package bufmgr

import (
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/strategy"
)

// Due is the scheduler as a run of accesses sees it.
type Due interface {
	// NextBackground is the earliest time a background process runs;
	// math.MinInt64 when it must be asked before every access.
	NextBackground() int64
}

// ReadRelease is, for each block of relation rel in blocks, in order,
// ReadBuffer (ReadBufferExtended, RBM_NORMAL, no strategy, a synchronous
// read on a miss) and ReleaseBuffer by be — a trace replay's accesses. It
// stops before an access at whose start a background process is due (d),
// making the first in any case (the scheduler has just run what was due),
// and returns how many accesses it made and how many of them were hits.
//
// The accesses are PinForRead, CountRead, SyncRead and Unpin's, figure for
// figure; a hit by a backend holding no other pin, without a tracer or a
// what-if policy, takes a short path: its pin and release change only the
// usage count (PinBuffer's bump, to at most BM_MAX_USAGE_COUNT) and the
// counters, and its time is PinNs.
func (p *Pool) ReadRelease(d Due, be *Backend, rel pg.RelID, blocks []uint32) (n, hits int, err error) {
	r := p.rels[rel]
	fast := p.tracer == nil && !p.variant && be.PinCount() == 0
	pinNs := p.cfg.Costs.PinNs
	states := p.states
	var fastHits int64
	due := d.NextBackground()
	for ; n < len(blocks); n++ {
		if n > 0 && be.Now >= due {
			break
		}
		blk := pg.BlockNumber(blocks[n])
		if fast {
			if b := r.mapping.get(blk); b != pg.InvalidBuffer {
				// PinForRead's hit, pin and Unpin: refcount +1 then −1, the
				// private pin entry made and dropped, the usage count bumped.
				be.Now += pinNs
				if s := states[b]; s.Usage() < pg.MaxUsageCount {
					states[b] = s + pg.UsageOne
				}
				fastHits++
				continue
			}
		}
		b, hit, e := p.ReadBuffer(be, pg.BufferTag{Rel: rel, Block: blk}, nil)
		if e != nil {
			err = e
			break
		}
		p.Unpin(be, b)
		if hit {
			hits++
		}
		// A miss may have written a dirty victim (its WAL flush can wake
		// a process): ask again.
		due = d.NextBackground()
	}
	r.hits += fastHits
	p.Stats.Rel[be.Type][strategy.Normal][OpHits] += fastHits
	be.Buf.Hit += fastHits
	return n, hits + int(fastHits), err
}
