package storage

import (
	"sort"

	"github.com/pgbufsim/pgbufsim/pg"
)

// # Power loss
//
// A crash keeps only what reached the medium. The page cache keeps the
// version (pd_lsn) of each page written into it; the device writes of data
// pages that may still be in flight are logged with that version, when the
// device started serving them and when they completed. At a power loss at
// time T a write that completed by T is durable, one that started by T but
// had not completed is torn (the caller decides which of its 16 sectors of
// 512 bytes made it), and one that had not started never happened; the page
// cache, dirty pages included, is gone. Entries are pruned once completed
// before the submitting caller's time, so the log holds only the writes
// still in flight (at most a checkpoint's fsync batch).

// PageWrite is one data page's device write.
type PageWrite struct {
	File  pg.RelID
	Block pg.BlockNumber
	LSN   pg.LSN // the version written (its pd_lsn)
	Start int64  // when the device started serving the request
	Done  int64  // when it completed
}

// crashLog is the storage's crash bookkeeping. The write log is kept per
// device request (a run of consecutive blocks of one file, served from one
// start to one done), the pages' versions beside it in request order: a
// checkpoint's fsync of a thousand contiguous dirty pages is a handful of
// entries, not a thousand.
type crashLog struct {
	runs  []writeRun
	lsns  []uint64 // the versions of the logged pages, run after run
	armed int64    // page writes left before an armed crash fires (0: none armed)
	// pruneLen is the number of logged pages at which completed writes are
	// next pruned.
	pruneLen int
	fired    bool
	at       int64 // when the armed crash fired
	onFire   func(at int64)
}

// writeRun is one logged device request: k pages from blk of file, their
// versions at lsns[lsn:lsn+k].
type writeRun struct {
	file        int32
	blk         uint32
	k, lsn      int32
	start, done int64
}

// pruneAt is how many logged pages trigger pruning the completed writes.
const pruneAt = 1024

// logWrites records a request of the k = len(lsns) pages from blk of file
// f, of versions lsns, served from start to done, and fires an armed crash
// at the start of the request that holds its last counted page.
func (s *Storage) logWrites(now int64, f int32, blk uint32, lsns []uint64, start, done int64) {
	c := &s.crash
	k := len(lsns)
	if c.fired && start > c.at {
		return // after the power went: it never happened
	}
	if !c.fired && len(c.lsns) >= max(pruneAt, c.pruneLen) {
		kept, keptLSNs := c.runs[:0], c.lsns[:0]
		for _, w := range c.runs {
			if w.done > now {
				n := int32(len(keptLSNs))
				if w.k == 1 { // a reclaimed page's write: no copy call
					keptLSNs = append(keptLSNs, c.lsns[w.lsn])
				} else {
					keptLSNs = append(keptLSNs, c.lsns[w.lsn:w.lsn+w.k]...) // never ahead of the source: copy order is safe
				}
				w.lsn = n
				kept = append(kept, w)
			}
		}
		c.runs, c.lsns = kept, keptLSNs
		c.pruneLen = 2 * len(keptLSNs) // amortised: a long fsync batch is not rescanned at every request
	}
	c.runs = append(c.runs, writeRun{file: f, blk: blk, k: int32(k), lsn: int32(len(c.lsns)), start: start, done: done})
	if k == 1 { // a single page (a reclaimed one): no copy call
		c.lsns = append(c.lsns, lsns[0])
	} else {
		c.lsns = append(c.lsns, lsns...)
	}
	if c.armed > 0 && !c.fired {
		if int64(k) >= c.armed {
			c.armed, c.fired, c.at = 0, true, start
			if c.onFire != nil {
				c.onFire(start)
			}
		} else {
			c.armed -= int64(k)
		}
	}
}

// pages is the write log page by page, in the order written.
func (c *crashLog) pages() []PageWrite {
	ws := make([]PageWrite, 0, len(c.lsns))
	for _, w := range c.runs {
		for i := range w.k {
			ws = append(ws, PageWrite{File: pg.RelID(w.file), Block: pg.BlockNumber(w.blk + uint32(i)),
				LSN: pg.LSN(c.lsns[w.lsn+i]), Start: w.start, Done: w.done})
		}
	}
	return ws
}

// ArmCrash makes the power fail as the n-th data page written to the device
// from now on starts its write (n ≥ 1); onFire is called at that moment with
// its time. The caller goes on running: writes starting later are dropped.
func (s *Storage) ArmCrash(n int64, onFire func(at int64)) {
	s.crash.armed, s.crash.fired, s.crash.onFire = n, false, onFire
}

// Armed reports how many page writes are left before an armed crash fires (0: none armed).
func (s *Storage) Armed() int64 { return s.crash.armed }

// Fired reports whether an armed crash fired, and when.
func (s *Storage) Fired() (at int64, ok bool) { return s.crash.at, s.crash.fired }

// Crash is the power failing at time at: it returns the page writes in
// flight then (started by at, not completed; the last one per page, in file
// and block order), empties the page cache, dirty pages included, and leaves
// the device idle. Nothing is armed afterwards.
func (s *Storage) Crash(at int64) []PageWrite {
	last := map[[2]int64]PageWrite{}
	for _, r := range s.crash.runs {
		if r.start <= at && at < r.done {
			for i := range r.k {
				w := PageWrite{File: pg.RelID(r.file), Block: pg.BlockNumber(r.blk + uint32(i)),
					LSN: pg.LSN(s.crash.lsns[r.lsn+i]), Start: r.start, Done: r.done}
				last[[2]int64{int64(w.File), int64(w.Block)}] = w
			}
		}
	}
	torn := make([]PageWrite, 0, len(last))
	for _, w := range last {
		torn = append(torn, w)
	}
	sort.Slice(torn, func(i, j int) bool {
		if torn[i].File != torn[j].File {
			return torn[i].File < torn[j].File
		}
		return torn[i].Block < torn[j].Block
	})
	s.crash = crashLog{}
	s.cache = newPageCache(s.cache.capacity)
	q := s.dev
	for i := range q.units {
		q.units[i] = 0
	}
	q.bus, q.nextIO, q.head, q.headFree, q.nextUnit = 0, 0, -1, 0, 0
	return torn
}

// DirtyPages is how many dirty pages the page cache holds (what a power loss now would lose).
func (s *Storage) DirtyPages() int {
	n := 0
	for _, d := range s.cache.dirty {
		n += int(d)
	}
	return n
}
