package bufmgr

import (
	"sort"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/strategy"
)

// StartBufferSync is the first half of BufferSync (bufmgr.c): every dirty
// permanent buffer (every dirty buffer when all, as a shutdown checkpoint
// does) gets BM_CHECKPOINT_NEEDED, and the list of them is returned in the
// order the checkpoint writes them: by relation, fork and block (one
// tablespace, so the per-tablespace balancing has nothing to balance). A
// spread checkpoint then calls SyncOneBuffer on each, pausing between them.
func (p *Pool) StartBufferSync(all bool) []pg.Buffer {
	var todo []pg.Buffer
	for b := pg.Buffer(1); int(b) <= p.n; b++ {
		s := p.states[b]
		if s&pg.FlagDirty != 0 && (all || s&pg.FlagPermanent != 0) {
			p.states[b] = s | pg.FlagCheckpointNeed
			todo = append(todo, b)
		}
	}
	sort.Slice(todo, func(i, j int) bool {
		a, c := p.tags[todo[i]], p.tags[todo[j]]
		if a.Rel != c.Rel {
			return a.Rel < c.Rel
		}
		if a.Fork != c.Fork {
			return a.Fork < c.Fork
		}
		return a.Block < c.Block
	})
	return todo
}

// SyncOneBuffer is BufferSync's step on one listed buffer (SyncOneBuffer with
// skip_recently_used false): if it still needs the checkpoint's write (no
// backend wrote or evicted it since it was marked) and is not being read in,
// write it in context normal, usage count untouched. It reports whether it
// wrote.
func (p *Pool) SyncOneBuffer(be *Backend, b pg.Buffer) bool {
	s := p.states[b]
	if s&pg.FlagCheckpointNeed == 0 || s&pg.FlagDirty == 0 || s&pg.FlagIOInProgress != 0 {
		return false
	}
	p.pinLocked(be, b)
	p.flushBuffer(be, b, strategy.Normal)
	p.Unpin(be, b)
	return true
}

// CleanOneBuffer is the background writer's SyncOneBuffer (skip_recently_used
// true): a buffer that is unpinned with usage count 0 is reusable; one that is
// pinned or recently used is left alone; a reusable one that is valid and
// dirty is written (context normal, by be). It reports whether it wrote and
// whether the buffer is reusable (BUF_WRITTEN, BUF_REUSABLE).
func (p *Pool) CleanOneBuffer(be *Backend, b pg.Buffer) (written, reusable bool) {
	s := p.states[b]
	if s.Refcount() != 0 || s.Usage() != 0 {
		return false, false
	}
	if s&pg.FlagValid == 0 || s&pg.FlagDirty == 0 || s&pg.FlagIOInProgress != 0 {
		return false, true
	}
	p.pinLocked(be, b)
	p.flushBuffer(be, b, strategy.Normal)
	p.Unpin(be, b)
	return true, true
}
