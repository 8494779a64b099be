package bufmgr

import "github.com/pgbufsim/pgbufsim/pg"

// # What a crash needs from the pool
//
// Recovery restores a torn page from a full-page image in the WAL after the
// redo pointer. A normal record carries one when full_page_writes is on and
// the page was last logged before the redo pointer, which the caller can
// tell from the page LSN alone; a hint-bit image (XLogSaveBufferForHint,
// REGBUF_FORCE_IMAGE: taken even with full_page_writes=off) is not always
// stamped on the page, so the pool remembers the last one of each page.

// noteHintImage remembers an XLOG_FPI_FOR_HINT of page t ending at lsn.
func (p *Pool) noteHintImage(t pg.BufferTag, lsn pg.LSN) {
	if p.hintImages == nil {
		p.hintImages = map[pg.BufferTag]pg.LSN{}
	}
	p.hintImages[t] = lsn
}

// LastHintImage is the end LSN of the last hint-bit image of page t (0: none remembered).
func (p *Pool) LastHintImage(t pg.BufferTag) pg.LSN { return p.hintImages[t] }

// ForgetHintImages drops the hint-bit images at or before lsn (a completed
// checkpoint's redo pointer: recovery never starts before it again).
func (p *Pool) ForgetHintImages(lsn pg.LSN) {
	for t, l := range p.hintImages {
		if l <= lsn {
			delete(p.hintImages, t)
		}
	}
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
		for i, l := range r.lsn {
			if l > end {
				r.lsn[i] = end
			}
		}
	}
	p.hintImages = nil
}
