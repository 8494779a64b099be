package bufmgr

import (
	"unsafe"

	"github.com/pgbufsim/pgbufsim/internal/prefetch"
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
	counts := &p.Stats.Rel[be.Type][strategy.Normal]
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
			if e := p.readMiss(be, rel, r, blk, counts); e != nil {
				err = e
				break
			}
			due = d.NextBackground()
			continue
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

// readMiss is ReadRelease's miss on the short path (no tracer, no what-if
// policy, a backend holding no other pin, no ring): PinForRead's victim
// search and assign, CountRead, SyncRead and Unpin, figure for figure, with
// the pin taken on the victim and dropped at the end folded into the state
// words written in between (no step between them looks at a pin; the
// private pin entry is made and dropped likewise). counts is the backend's
// pg_stat_io row in context normal. Models GetVictimBuffer,
// InvalidateVictimBuffer and the read of ReadBuffer_common (bufmgr.c).
func (p *Pool) readMiss(be *Backend, rel pg.RelID, rs *relStorage, blk pg.BlockNumber, counts *[NumIOOps]int64) error {
	be.Now += p.cfg.Costs.PinNs
	b, _, err := p.ctl.GetBuffer(nil)
	if err != nil {
		return err
	}
	s := p.states[b]
	if s&pg.FlagDirty != 0 {
		// FlushBuffer of the victim, pinned: its state word carries the pin.
		p.states[b] += pg.RefcountOne
		p.flushBuffer(be, b, strategy.Normal)
		p.scheduleWriteback(be, b, strategy.Normal)
		s = p.states[b] - pg.RefcountOne
	}
	if s&pg.FlagValid != 0 {
		counts[OpEvictions]++
	}
	if s&pg.FlagTagValid != 0 {
		t := p.tags[b]
		p.rels[t.Rel].mapping.remove(t.Block) // BufTableDelete
	}
	// assign, then Unpin: BM_TAG_VALID | BM_VALID, usage 1, no pin.
	ns := s&pg.RefcountMask | pg.FlagTagValid | pg.FlagValid
	if rs.permanent {
		ns |= pg.FlagPermanent
	}
	t := pg.BufferTag{Rel: rel, Block: blk}
	p.states[b] = ns.WithUsage(1)
	p.tags[b] = t
	rs.mapping.insert(blk, b) // BufTableInsert
	rs.reads++
	be.Buf.Read++
	counts[OpReads]++ // CountRead of one block: one I/O, one block, on every version
	counts[OpReadBlocks]++
	before := be.Now
	be.Now = p.io.SyncRead(be, t, 1)
	p.countReadTime(be, nil, be.Now-before)
	return nil
}

// PrefetchBatch is how many requests a Prefetcher fetches memory for at a time.
const PrefetchBatch = 32

// Prefetcher asks the CPU to bring into its cache, ahead of time, the memory
// a replay's next accesses of one relation will read (prefetch.Line: hints
// that change no state), so that their cache misses overlap with the work
// on the requests before them instead of each waiting in turn. The requests
// are taken in batches of PrefetchBatch; before the accesses of batch k,
// Ahead fetches, in three steps that each read only what the one before
// fetched:
//
//   - batch k+3: each block's mapping entry (not for a hashed mapping: a
//     small pool's is in the CPU's cache already);
//   - batch k+2: the state word of the buffer a mapping entry names, and for
//     a block the pool does not hold, its page-cache index entry;
//   - batch k+1: the page-cache page those index entries name, and, in a
//     pool of handPrefetchBuffers or more, the mapping entries of the
//     usage-0 buffers just ahead of the clock hand (a valid one loses its
//     entry when it is evicted).
//
// The blocks are looked up as the pool is when Ahead runs; an access that
// meets something else by its turn only misses the CPU's cache as it would
// have without.
type Prefetcher struct {
	p     *Pool
	rel   pg.RelID
	miss  [2][PrefetchBatch]uint32 // the blocks of batches k+1, k+2 not in the pool
	nmiss [2]int
}

// handPrefetchBuffers is the smallest pool whose victims' mapping entries
// Ahead fetches: a smaller pool's state words and tags stay in the CPU's
// cache, and the mapping entry an eviction clears is a store, which waits
// for no load.
const handPrefetchBuffers = 1 << 18

// NewPrefetcher is a Prefetcher of relation rel's blocks.
func (p *Pool) NewPrefetcher(rel pg.RelID) *Prefetcher {
	return &Prefetcher{p: p, rel: rel}
}

// Ahead fetches for the batches after batch k of blocks (see Prefetcher).
func (f *Prefetcher) Ahead(blocks []uint32, k int) {
	p := f.p
	if int(f.rel) < 0 || int(f.rel) >= len(p.rels) || p.rels[f.rel] == nil {
		return
	}
	m := &p.rels[f.rel].mapping
	st := p.io.st
	hashed := m.hash.slots != nil
	batch := func(j int) []uint32 {
		lo := min(len(blocks), j*PrefetchBatch)
		return blocks[lo:min(len(blocks), lo+PrefetchBatch)]
	}
	// Batch k+1: the pages (their index entries fetched a batch ago).
	near := &f.miss[(k+1)%2]
	st.Prefetch(f.rel, near[:f.nmiss[(k+1)%2]], false)
	st.PrefetchReclaim(f.nmiss[(k+1)%2])
	f.nmiss[(k+1)%2] = 0
	if !hashed && p.n >= handPrefetchBuffers && p.repl == nil && p.ctl.FreeListLen() == 0 {
		b := int(p.ctl.Hand())
		for range 2 * PrefetchBatch {
			if s := p.states[b]; s&pg.FlagTagValid != 0 && s.Usage() == 0 {
				t := p.tags[b]
				if vr := p.rels[t.Rel]; vr != nil && int(t.Block) < vr.mapping.len() {
					if e := vr.mapping.entry(t.Block); e != nil {
						prefetch.Line(unsafe.Pointer(e))
					}
				}
			}
			if b++; b > p.n {
				b = 1
			}
		}
	}
	// Batch k+2: state words, and index entries of the misses.
	mid, n := &f.miss[k%2], 0
	for _, b := range batch(k + 2) {
		if int(b) >= m.n {
			continue
		}
		if hashed {
			// Not looked up: every block's page-cache memory is fetched
			// (a hit's is seldom far: the blocks the pool holds are the
			// ones the trace asks for most).
			mid[n] = b
			n++
		} else if buf := m.get(pg.BlockNumber(b)); buf == pg.InvalidBuffer {
			mid[n] = b
			n++
		} else {
			prefetch.Line(unsafe.Pointer(&p.states[buf]))
		}
	}
	f.nmiss[k%2] = n
	st.Prefetch(f.rel, mid[:n], true)
	// Batch k+3: mapping entries.
	if !hashed {
		for _, b := range batch(k + 3) {
			if int(b) < m.n {
				if e := m.entry(pg.BlockNumber(b)); e != nil {
					prefetch.Line(unsafe.Pointer(e))
				}
			}
		}
	}
}
