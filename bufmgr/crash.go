package bufmgr

import "github.com/pgbufsim/pgbufsim/pg"

// # What a crash needs from the pool
//
// Recovery restores a torn page from a full-page image in the WAL after the
// redo pointer. A normal record carries one when full_page_writes is on and
// the page was last logged before the redo pointer, which the caller can
// tell from the page LSN alone. A hint-bit image (XLogSaveBufferForHint,
// REGBUF_FORCE_IMAGE) is taken whatever full_page_writes says; with it off
// it is the only image a page can have, so while the caller asks
// (TrackHintImages) the pool remembers the last one of each page: 8 bytes a
// page, allocated only for relations that get one.

// TrackHintImages turns remembering hint-bit images on or off.
func (p *Pool) TrackHintImages(on bool) { p.trackHintImages = on }

// noteHintImage remembers an XLOG_FPI_FOR_HINT of page t ending at lsn.
func (p *Pool) noteHintImage(t pg.BufferTag, lsn pg.LSN) {
	if !p.trackHintImages {
		return
	}
	for int(t.Rel) >= len(p.hintImages) {
		p.hintImages = append(p.hintImages, nil)
	}
	r := p.hintImages[t.Rel]
	if int(t.Block) >= len(r) {
		n := max(int(t.Block)+1, 2*len(r))
		if n > p.rels[t.Rel].nblocks {
			n = max(int(t.Block)+1, p.rels[t.Rel].nblocks)
		}
		r = append(r, make([]pg.LSN, n-len(r))...)
		p.hintImages[t.Rel] = r
	}
	r[t.Block] = lsn
}

// LastHintImage is the end LSN of the last hint-bit image of page t
// remembered while TrackHintImages was on (0: none).
func (p *Pool) LastHintImage(t pg.BufferTag) pg.LSN {
	if int(t.Rel) < len(p.hintImages) && int(t.Block) < len(p.hintImages[t.Rel]) {
		return p.hintImages[t.Rel][t.Block]
	}
	return 0
}

// RelSizes is every relation fork's size in blocks, by RelID.
func (p *Pool) RelSizes() []int {
	n := make([]int, len(p.rels))
	for id, r := range p.rels {
		if r != nil {
			n[id] = r.nblocks
		}
	}
	return n
}

// CrashReset is the pool after a power loss and recovery up to end: every
// buffer empty (nothing written), and no page LSN past end, the end of the
// WAL that survived (the records after it are lost; a page keeps at most
// the end of the replayed WAL as its LSN).
func (p *Pool) CrashReset(end pg.LSN) {
	p.Reset()
	for _, r := range p.rels {
		if r == nil {
			continue
		}
		for i := 0; i < r.lsn.len(); i++ {
			if r.lsn.get(i) > end {
				r.lsn.set(i, end)
			}
		}
	}
	for _, r := range p.hintImages {
		for i, l := range r {
			if l > end {
				r[i] = 0
			}
		}
	}
}
