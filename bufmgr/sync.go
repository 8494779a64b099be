package bufmgr

import (
	"cmp"
	"slices"

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
	want := pg.FlagDirty | pg.FlagPermanent // the buffers listed: s&want == want
	if all {
		want = pg.FlagDirty
	}
	states := p.states[1 : p.n+1] // buffer b at b−1
	n := 0                        // counted first: a large pool's list is allocated once, at its size
	for _, s := range states {
		if s&want == want {
			n++
		}
	}
	// Tag order as a two-word key per buffer (relation; fork and block; a
	// valid tag is in one buffer only, so no two keys are equal and the order
	// is total), sorted by radix (a checkpoint of a large pool lists millions).
	keys := make([]syncKey, 0, n)
	for i, s := range states {
		if s&want == want {
			states[i] = s | pg.FlagCheckpointNeed
			t := p.tags[i+1]
			keys = append(keys, syncKey{rel: uint32(t.Rel) ^ 1<<31, forkBlock: uint64(t.Fork)<<32 | uint64(t.Block), b: pg.Buffer(i + 1)})
		}
	}
	if !syncKeysSorted(keys) { // a load's checkpoint often finds the pool in tag order already
		keys = radixSortSyncKeys(keys)
	}
	todo := make([]pg.Buffer, len(keys))
	for i, k := range keys {
		todo[i] = k.b
	}
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
	p.scheduleWriteback(be, b, strategy.Normal)
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
	p.scheduleWriteback(be, b, strategy.Normal)
	p.Unpin(be, b)
	return true, true
}

// CleanRun is CleanOneBuffer over buffers from+1, from+2, … (at most k of
// them, within the pool) while fewer than need of them have been found
// reusable: BgBufferSync's scan loop between two of its other stops (the
// pool's end, where the caller counts a pass, and bgwriter_lru_maxpages:
// the run ends once it has written left buffers, full). It returns how many
// buffers it scanned, wrote and found reusable (the written ones included).
func (p *Pool) CleanRun(be *Backend, from, k, need int, left int64) (scanned, written, reusable int, full bool) {
	states := p.states[from+1 : from+1+k]
	for i, s := range states {
		if reusable >= need {
			break
		}
		scanned++
		if s.Refcount() != 0 || s.Usage() != 0 {
			continue
		}
		if s&pg.FlagValid == 0 || s&pg.FlagDirty == 0 || s&pg.FlagIOInProgress != 0 {
			reusable++
			continue
		}
		p.CleanOneBuffer(be, pg.Buffer(from+1+i))
		reusable++
		if written++; int64(written) >= left {
			return scanned, written, reusable, true
		}
	}
	return scanned, written, reusable, false
}

// scheduleWriteback is ScheduleBufferTagForWriteback (bufmgr.c): a buffer
// just written joins the process's pending write-backs (its WritebackContext,
// at most FlushAfter[its type] of them: checkpoint_flush_after for the
// checkpointer, bgwriter_flush_after for the background writer,
// backend_flush_after for backends' evictions; 0 is off); a full list is
// issued at once, in the context of the write that filled it.
func (p *Pool) scheduleWriteback(be *Backend, b pg.Buffer, ctx strategy.Kind) {
	n := p.FlushAfter[be.Type]
	if n <= 0 {
		return
	}
	be.writeback = append(be.writeback, p.tags[b])
	if len(be.writeback) >= n {
		p.IssuePendingWritebacks(be, ctx)
	}
}

// IssuePendingWritebacks is IssuePendingWritebacks (bufmgr.c): the pending
// tags sorted, runs of consecutive blocks of one file merged (a tag listed
// twice once), one smgrwriteback — sync_file_range(SYNC_FILE_RANGE_WRITE),
// which starts the write-out of those dirty pages of the page cache without
// waiting for it — per run, and pg_stat_io's writebacks counted as the
// number of tags pending (duplicates included), in ctx.
func (p *Pool) IssuePendingWritebacks(be *Backend, ctx strategy.Kind) {
	wb := be.writeback
	if len(wb) == 0 {
		return
	}
	byTag := func(a, c pg.BufferTag) int {
		if a.Rel != c.Rel {
			return cmp.Compare(a.Rel, c.Rel)
		}
		return cmp.Compare(a.Block, c.Block)
	}
	if !slices.IsSortedFunc(wb, byTag) { // a checkpoint's writes come in tag order
		slices.SortFunc(wb, byTag)
	}
	for i := 0; i < len(wb); {
		start, n := wb[i], 1
		j := i + 1
		for ; j < len(wb) && wb[j].Rel == start.Rel; j++ {
			if wb[j].Block == wb[j-1].Block {
				continue
			}
			if wb[j].Block != wb[j-1].Block+1 {
				break
			}
			n++
		}
		be.Now += p.cfg.Costs.WritebackNs
		p.cfg.Storage.Writeback(be.Now, start.Rel, start.Block, n)
		i = j
	}
	p.Stats.Rel[be.Type][ctx][OpWritebacks] += int64(len(wb))
	be.writeback = wb[:0]
}

// syncKeysSorted reports whether keys are in (rel, forkBlock) order.
func syncKeysSorted(keys []syncKey) bool {
	for i := 1; i < len(keys); i++ {
		a, b := &keys[i-1], &keys[i]
		if b.rel < a.rel || b.rel == a.rel && b.forkBlock < a.forkBlock {
			return false
		}
	}
	return true
}

// radixSortSyncKeys sorts keys by (rel, forkBlock): a least-significant-digit
// radix sort over the keys' nine significant bytes (four of the relation, one
// of the fork, four of the block), skipping the bytes all keys share (found
// in one pass first, so only the bytes that vary are counted). The sort is
// stable and the keys distinct, so the order is the comparison sort's. It
// returns the sorted slice (keys or its scratch twin).
func radixSortSyncKeys(keys []syncKey) []syncKey {
	const nbytes = 9
	if len(keys) < 2 {
		return keys
	}
	var diffFB uint64
	var diffRel uint32
	k0 := keys[0]
	for i := range keys {
		diffFB |= keys[i].forkBlock ^ k0.forkBlock
		diffRel |= keys[i].rel ^ k0.rel
	}
	// The varying bytes as shifts into forkBlock (digits 0–4) and rel (5–8).
	var fbShifts, relShifts []uint
	for d := 0; d < nbytes; d++ {
		if d < 5 && uint8(diffFB>>(8*d)) != 0 {
			fbShifts = append(fbShifts, uint(8*d))
		} else if d >= 5 && uint8(diffRel>>(8*(d-5))) != 0 {
			relShifts = append(relShifts, uint(8*(d-5)))
		}
	}
	nfb := len(fbShifts)
	counts := make([][256]int, nfb+len(relShifts))
	for i := range keys {
		k := &keys[i]
		for j, sh := range fbShifts {
			counts[j][uint8(k.forkBlock>>sh)]++
		}
		for j, sh := range relShifts {
			counts[nfb+j][uint8(k.rel>>sh)]++
		}
	}
	tmp := make([]syncKey, len(keys))
	for j := range counts {
		c := &counts[j]
		pos := 0
		for v := range c {
			c[v], pos = pos, pos+c[v]
		}
		if j < nfb {
			sh := fbShifts[j]
			for i := range keys {
				v := uint8(keys[i].forkBlock >> sh)
				tmp[c[v]] = keys[i]
				c[v]++
			}
		} else {
			sh := relShifts[j-nfb]
			for i := range keys {
				v := uint8(keys[i].rel >> sh)
				tmp[c[v]] = keys[i]
				c[v]++
			}
		}
		keys, tmp = tmp, keys
	}
	return keys
}
