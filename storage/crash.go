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

// crashLog is the storage's crash bookkeeping.
type crashLog struct {
	writes []PageWrite
	direct uint64 // the version of a page written straight to the device (no page cache)
	armed  int64  // page writes left before an armed crash fires (0: none armed)
	// pruneLen is the log length at which completed writes are next pruned.
	pruneLen int
	fired    bool
	at       int64 // when the armed crash fired
	onFire   func(at int64)
}

// pruneAt is how many logged writes trigger pruning the completed ones.
const pruneAt = 1024

// logWrites records a request of k pages from blk of file f, served from
// start to done, and fires an armed crash at the start of the request that
// holds its last counted page.
func (s *Storage) logWrites(now int64, f int32, blk uint32, k int, start, done int64) {
	c := &s.crash
	if c.fired && start > c.at {
		return // after the power went: it never happened
	}
	if !c.fired && len(c.writes) >= max(pruneAt, c.pruneLen) {
		kept := c.writes[:0]
		for _, w := range c.writes {
			if w.Done > now {
				kept = append(kept, w)
			}
		}
		c.writes = kept
		c.pruneLen = 2 * len(kept) // amortised: a long fsync batch is not rescanned at every request
	}
	for i := 0; i < k; i++ {
		b := blk + uint32(i)
		v := c.direct
		if p := s.cache.lookup(f, b); p != 0 {
			v = s.cache.lsn(p)
		}
		c.writes = append(c.writes, PageWrite{File: pg.RelID(f), Block: pg.BlockNumber(b), LSN: pg.LSN(v), Start: start, Done: done})
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
	for _, w := range s.crash.writes {
		if w.Start <= at && at < w.Done {
			last[[2]int64{int64(w.File), int64(w.Block)}] = w
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
