package storage

import (
	"fmt"
	"slices"
	"unsafe"

	"github.com/pgbufsim/pgbufsim/internal/prefetch"
	"github.com/pgbufsim/pgbufsim/pg"
)

// Config describes the machine below PostgreSQL.
type Config struct {
	CacheBlocks int64 // the page cache's size for data files, in 8 kB blocks (0: none)
	Device      Device
	ReadAheadKB int // /sys/block/DEV/queue/read_ahead_kb (Linux default 128)
	// MaxRequestKB is the largest request the block layer sends the device
	// (max_sectors_kb): longer runs of pages are split.
	MaxRequestKB int
}

// DefaultReadAheadKB and DefaultMaxRequestKB are Linux's defaults.
const (
	DefaultReadAheadKB  = 128
	DefaultMaxRequestKB = 128
)

// Validate names each bad setting with its allowed range.
func (c Config) Validate() error {
	if c.CacheBlocks < 0 {
		return &pg.SettingError{Name: "os_cache", Value: fmt.Sprint(c.CacheBlocks * 8), Allowed: "must not be negative"}
	}
	if c.ReadAheadKB < 0 || c.ReadAheadKB%4 != 0 || c.ReadAheadKB > MaxReadAheadKB {
		return &pg.SettingError{Name: "read_ahead_kb", Value: fmt.Sprint(c.ReadAheadKB),
			Allowed: fmt.Sprintf("must be a multiple of 4 (kB pages) from 0 to %d", MaxReadAheadKB)}
	}
	if c.Device.BytesPerSec <= 0 {
		return &pg.SettingError{Name: "device", Value: c.Device.Name, Allowed: "a device profile: " + joinNames()}
	}
	return nil
}

// MaxReadAheadKB bounds read_ahead_kb (the kernel accepts more, but windows
// beyond 64 MB are never useful and would make one read cost seconds).
const MaxReadAheadKB = 65536

func joinNames() string {
	s := ""
	for i, n := range DeviceNames() {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}

// Stats count what the page cache and the device did.
type Stats struct {
	CacheHits, CacheMisses int64 // blocks asked of read() found cached / not cached
	DeviceBlocks           int64 // blocks read from the device (asked, read ahead or advised)
	AdvisedBlocks          int64 // of those, read because of posix_fadvise(WILLNEED)
	WrittenBack            int64 // dirty blocks written to the device
	Reclaimed              int64 // blocks evicted from the page cache
}

// Storage is the page cache and the device of one machine. It outlives the
// PostgreSQL server above it: a restart keeps it, DropCaches empties it.
type Storage struct {
	flat  bool // NewFlat: every page cached, nothing tracked
	cfg   Config
	cache *pageCache
	dev   *deviceQueue
	run   []int32   // scratch for readPages
	wlsn  []uint64  // scratch: the versions of a run of pages being written back
	one   [1]uint64 // scratch: the version of a single page written
	Stats Stats
	crash crashLog // device writes in flight, for Crash (crash.go)
	// walOff is where the WAL's next write lands on the device: a region
	// of its own, past every data file's (SyncWAL).
	walOff int64
	// pending are the sync requests the checkpointer holds: the 1 GB
	// segment files written since their last fsync (register_dirty_segment:
	// every mdwrite and mdextend asks for one), a flag per segment of each
	// file. SyncAll fsyncs them.
	pending [][]bool
}

// RelSegBlocks is RELSEG_SIZE: a relation's file is split into 1 GB
// segments of 131,072 blocks, each fsynced on its own.
const RelSegBlocks = 1 << 17

// register is register_dirty_segment for block b of file f.
func (s *Storage) register(f int32, b uint32) {
	seg := int(b / RelSegBlocks)
	if int(f) < len(s.pending) && seg < len(s.pending[f]) && s.pending[f][seg] {
		return
	}
	for int(f) >= len(s.pending) {
		s.pending = append(s.pending, nil)
	}
	for seg >= len(s.pending[f]) {
		s.pending[f] = append(s.pending[f], false)
	}
	s.pending[f][seg] = true
}

// New builds the storage of a machine.
func New(c Config) (*Storage, error) {
	if c.MaxRequestKB == 0 {
		c.MaxRequestKB = DefaultMaxRequestKB
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &Storage{cfg: c, cache: newPageCache(int(c.CacheBlocks)), dev: newDeviceQueue(c.Device), walOff: offset(walFileSlot, 0)}, nil
}

// NewFlat is the storage of the model before there was one: every read
// served from the page cache, nothing tracked, no device. Benchmarks measure
// what the real layer costs against it.
func NewFlat() *Storage {
	return &Storage{flat: true, cfg: Config{Device: Devices["nvme"], ReadAheadKB: DefaultReadAheadKB}, cache: newPageCache(0),
		dev: newDeviceQueue(Devices["nvme"])}
}

// Config is the machine's description.
func (s *Storage) Config() Config { return s.cfg }

// Reserve tells the page cache that n pages are about to be written (an
// INSERT or COPY of known size), so its bookkeeping grows once, not in steps.
func (s *Storage) Reserve(n int) {
	if s.flat || s.cache.capacity == 0 || n <= 0 {
		return
	}
	// A read inserts its pages (the block asked for, its readahead window
	// and the asynchronous one after it) before reclaim trims the cache back
	// to its capacity, so the array must hold that many past it, or it
	// doubles — copying every page — the first time the cache is full.
	s.cache.reserve(n, 4*max(s.cfg.ReadAheadKB, s.cfg.MaxRequestKB)/(pg.BLCKSZ/1024)+1)
}

// DeviceStats returns the device's request and byte counters.
func (s *Storage) DeviceStats() (reads, writes, readBytes, writeBytes int64) {
	return s.dev.Reads, s.dev.Writes, s.dev.ReadBytes, s.dev.WriteBytes
}

// Cached reports how many blocks the page cache holds (inactive, active).
func (s *Storage) Cached() (inactive, active int) {
	return s.cache.lists[0].n, s.cache.lists[1].n
}

// IsCached reports whether block blk of file f is in the page cache.
func (s *Storage) IsCached(f pg.RelID, blk pg.BlockNumber) bool {
	return s.cache.lookup(int32(f), uint32(blk)) != 0
}

// fileSlot spaces files on the device (16 GiB apart), which only matters to
// a disk's seek distances.
const fileSlotBlocks = 1 << 21

// walFileSlot is the WAL's place on the device: one slot before the first
// data file's.
const walFileSlot = -1

func offset(f int32, blk uint32) int64 {
	return (int64(f)*fileSlotBlocks + int64(blk)) * pg.BLCKSZ
}

// Reader is one open file description's readahead state per file
// (struct file_ra_state): each process that reads a file has its own.
type Reader struct {
	ra map[int32]*raState
	// The state last asked for (a scan or a replay reads one file for long).
	lastFile int32
	last     *raState
}

type raState struct {
	start, size, async int64 // the current window, in 4 kB pages
	prev               int64 // page just past the last read (ra->prev_pos >> PAGE_SHIFT); -1 at open
}

func (r *Reader) state(f int32) *raState {
	if r.last != nil && r.lastFile == f {
		return r.last
	}
	if r.ra == nil {
		r.ra = map[int32]*raState{}
	}
	st := r.ra[f]
	if st == nil {
		st = &raState{prev: -1}
		r.ra[f] = st
	}
	r.lastFile, r.last = f, st
	return st
}

// Read is a pread/preadv of n blocks from blk of file f issued at time now by
// the process owning r (filemap_read): pages missing from the cache are read
// through readahead, a page carrying the readahead mark starts the next
// window asynchronously, and the call waits for every page's I/O. It returns
// when the data is in the page cache, and how many of the n blocks were not.
// The system call's own CPU cost is the caller's to add.
func (s *Storage) Read(now int64, r *Reader, file pg.RelID, blk pg.BlockNumber, n int) (ready int64, missed int) {
	if s.flat {
		s.Stats.CacheHits += int64(n)
		return now, 0
	}
	f, b0 := int32(file), uint32(blk)
	ready = now
	if s.cache.capacity == 0 { // no page cache: straight to the device
		s.Stats.CacheMisses += int64(n)
		s.Stats.DeviceBlocks += int64(n)
		return s.submitRun(now, f, b0, n, nil), n
	}
	ra := r.state(f)
	end := b0 + uint32(n)
	for b := b0; b < end; b++ {
		p := s.cache.lookup(f, b)
		if p == 0 {
			missed++
			s.syncReadahead(now, ra, f, b, int64(end-b))
			if p = s.cache.lookup(f, b); p == 0 {
				// The window moved past b (its marked page was reclaimed before
				// it was read): filemap_create_folio reads the page itself.
				s.readPages(now, f, int64(b)*2, 2, 0)
				p = s.cache.lookup(f, b)
			}
		} else {
			s.Stats.CacheHits++
		}
		pc := &s.cache.nodes[p]
		if pc.flags&flagReadahead != 0 {
			pc.flags &^= flagReadahead
			s.asyncReadahead(now, ra, f, b, int64(end-b))
			pc = &s.cache.nodes[p]
		}
		ready = max(ready, pc.readyAt)
		s.cache.markAccessed(p)
	}
	s.Stats.CacheMisses += int64(missed)
	ra.prev = int64(end) * 2
	s.reclaim(now)
	return ready, missed
}

// Advise is posix_fadvise(POSIX_FADV_WILLNEED) for n blocks from blk
// (force_page_cache_ra): the missing pages are read asynchronously, without
// a readahead mark and without touching the readahead state.
func (s *Storage) Advise(now int64, file pg.RelID, blk pg.BlockNumber, n int) {
	if s.flat || s.cache.capacity == 0 {
		return
	}
	s.Stats.AdvisedBlocks += int64(s.readPages(now, int32(file), int64(blk)*2, int64(n)*2, 0))
	s.reclaim(now)
}

// Preload puts blocks [0, nblocks) of file f in the page cache, clean and
// unreferenced (pages written before the simulation began).
func (s *Storage) Preload(file pg.RelID, nblocks int) {
	if s.flat || s.cache.capacity == 0 {
		return
	}
	for b := 0; b < nblocks; b++ {
		if s.cache.lookup(int32(file), uint32(b)) == 0 {
			s.cache.insert(int32(file), uint32(b), 0)
		}
	}
	s.reclaim(0)
}

// Write is a pwrite of one block into the page cache (the page becomes dirty;
// the device sees it at write-back). It returns at once.
func (s *Storage) Write(now int64, file pg.RelID, blk pg.BlockNumber) {
	s.WriteLSN(now, file, blk, 0)
}

// WriteLSN is Write of a page whose pd_lsn is lsn: the version the crash
// model says reached the device when the page is written back.
func (s *Storage) WriteLSN(now int64, file pg.RelID, blk pg.BlockNumber, lsn pg.LSN) {
	if s.flat {
		return
	}
	f, b := int32(file), uint32(blk)
	s.register(f, b)
	if s.cache.capacity == 0 {
		s.one[0] = uint64(lsn)
		s.submitRun(now, f, b, 1, s.one[:])
		return
	}
	s.cache.write(f, b, now, uint64(lsn))
	s.reclaim(now)
}

// Writeback is sync_file_range(SYNC_FILE_RANGE_WRITE) on blocks [blk,
// blk+n) of file: the range's dirty pages are sent to the device (runs of
// contiguous ones as one request) and become clean; the call does not wait
// for them. Pages not cached or clean are left alone.
func (s *Storage) Writeback(now int64, file pg.RelID, blk pg.BlockNumber, n int) {
	f := int32(file)
	if s.flat || s.cache.capacity == 0 || int(f) >= len(s.cache.dirty) || s.cache.dirty[f] == 0 {
		return // no dirty page of the file: nothing to send
	}
	fi := &s.cache.files[f]
	runStart, lsns := uint32(0), s.wlsn[:0]
	flush := func() {
		if len(lsns) > 0 {
			s.submitRun(now, f, runStart, len(lsns), lsns)
			s.Stats.WrittenBack += int64(len(lsns))
		}
		lsns = lsns[:0]
	}
	// The range leaf by leaf: a leaf without a dirty page ends any run and
	// is passed over whole.
	for b, end := uint32(blk), uint32(blk)+uint32(n); b < end; {
		l := int(b >> leafBits)
		next := min(end, uint32(l+1)<<leafBits)
		if l >= len(fi.leaves) || fi.leaves[l] == nil || fi.dirty[l] == 0 {
			flush()
			b = next
			continue
		}
		leaf, cleaned := fi.leaves[l], int32(0)
		for ; b < next; b++ {
			p := leaf[b&(leafSize-1)]
			if p == 0 {
				flush()
				continue
			}
			pc := &s.cache.nodes[p]
			if pc.flags&flagDirty == 0 {
				flush()
				continue
			}
			if len(lsns) == 0 {
				runStart = b
			}
			lsns = append(lsns, s.cache.lsn(p))
			pc.flags &^= flagDirty // clearDirty, its counts below for the leaf at once
			cleaned++
		}
		s.cache.dirty[f] -= cleaned
		fi.dirty[l] -= cleaned
	}
	flush()
	s.wlsn = lsns
}

// Sync is fsync of file f: every dirty page is written back, contiguous
// pages in one request; it returns when the last write completes (the
// caller's own smgrimmedsync: the file's sync requests are satisfied).
func (s *Storage) Sync(now int64, file pg.RelID) int64 {
	f := int32(file)
	if int(f) < len(s.pending) {
		clear(s.pending[f])
	}
	return s.syncLeaves(now, f, 0, -1)
}

// syncLeaves writes back the dirty pages of file f in index leaves [from,
// to) (to < 0: to the end) and returns when the last write completes.
func (s *Storage) syncLeaves(now int64, f int32, from, to int) int64 {
	if int(f) >= len(s.cache.dirty) || s.cache.dirty[f] == 0 {
		return now
	}
	done := now
	fi := &s.cache.files[f]
	if to < 0 || to > len(fi.leaves) {
		to = len(fi.leaves)
	}
	runStart, lsns := uint32(0), s.wlsn[:0]
	flush := func() {
		if len(lsns) > 0 {
			done = max(done, s.submitRun(now, f, runStart, len(lsns), lsns))
			s.Stats.WrittenBack += int64(len(lsns))
		}
		lsns = lsns[:0]
	}
	for l := from; l < to; l++ {
		leaf := fi.leaves[l]
		left := fi.dirty[l] // dirty pages of this leaf not yet reached
		if leaf == nil || left == 0 {
			flush()
			continue
		}
		cleaned := fi.dirty[l]
		for i, p := range leaf {
			if p == 0 || s.cache.nodes[p].flags&flagDirty == 0 {
				flush()
				if left == 0 {
					break // the rest of the leaf is clean: the run has ended
				}
				continue
			}
			if len(lsns) == 0 {
				runStart = uint32(l<<leafBits + i)
			}
			lsns = append(lsns, s.cache.lsn(p))
			left--
			s.cache.nodes[p].flags &^= flagDirty // clearDirty, its counts below for the leaf at once
		}
		// Every dirty page of the leaf is now clean (the walk stops only
		// once none is left).
		s.cache.dirty[f] -= cleaned
		fi.dirty[l] = 0
	}
	flush()
	s.wlsn = lsns
	return done
}

// SyncWAL is fdatasync of a WAL segment with n bytes written since its last
// one: they go to the device in requests of at most MaxRequestKB,
// sequentially in the WAL's own region (a segment is written in order), and
// the device's cache flush follows; it returns when the flush is done.
// Models issue_xlog_fsync (xlog.c) below the kernel: the WAL's pages are
// written to the page cache by XLogWrite and reach the device only here.
func (s *Storage) SyncWAL(now, n int64) int64 {
	per := int64(s.cfg.MaxRequestKB) * 1024
	done := now
	for n > 0 {
		k := min(n, per)
		done = max(done, s.dev.submit(now, s.walOff, k, true))
		s.walOff += k
		n -= k
	}
	return done + s.dev.d.FlushNs
}

// SyncStats are what ProcessSyncRequests reports to the checkpoint's log
// line: the files fsynced, the longest fsync and their sum.
type SyncStats struct {
	Files            int
	LongestNs, SumNs int64
}

// SyncAll is ProcessSyncRequests: the checkpointer fsyncs each segment
// file written since its last fsync, one after the other (mdsyncfiletag's
// FileSync), each fsync writing back the segment's dirty pages and ending
// with the device's cache flush. It returns when the last is done. The
// pending requests are taken in file and segment order (the server's
// hash table has its own order; the sum is the same).
func (s *Storage) SyncAll(now int64) (int64, SyncStats) {
	var st SyncStats
	if s.flat {
		return now, st
	}
	n := 0
	for _, d := range s.cache.dirty {
		n += int(d)
	}
	s.crash.lsns = slices.Grow(s.crash.lsns, n) // the write log takes the batch in one allocation
	const leavesPerSeg = RelSegBlocks / leafSize
	for f, segs := range s.pending {
		for seg, p := range segs {
			if !p {
				continue
			}
			segs[seg] = false
			start := now
			now = s.syncLeaves(now, int32(f), seg*leavesPerSeg, (seg+1)*leavesPerSeg) + s.dev.d.FlushNs
			st.Files++
			st.SumNs += now - start
			st.LongestNs = max(st.LongestNs, now-start)
		}
	}
	return now, st
}

// DropCaches is `echo 3 > /proc/sys/vm/drop_caches`: every clean page whose
// I/O has completed by now is dropped; dirty pages stay.
func (s *Storage) DropCaches(now int64) int {
	dropped := 0
	for list := range s.cache.lists {
		l := &s.cache.lists[list]
		for i := l.start; i < len(l.log); i++ { // from the tail (removals only write 0s behind)
			p := l.log[i]
			if p == 0 {
				continue
			}
			if pc := s.cache.nodes[p]; pc.flags&flagDirty == 0 && pc.readyAt <= now {
				s.cache.remove(p)
				dropped++
			}
		}
	}
	return dropped
}

// Truncate drops file f's pages from block nblocks on (ftruncate, or the
// unlink of a dropped or truncated relation's old file).
func (s *Storage) Truncate(file pg.RelID, nblocks int) {
	f := int32(file)
	if int(f) >= len(s.cache.files) {
		return
	}
	fi := &s.cache.files[f]
	for l := len(fi.leaves) - 1; l >= 0; l-- {
		leaf := fi.leaves[l]
		if leaf == nil || (l+1)<<leafBits <= nblocks {
			continue
		}
		for i := len(leaf) - 1; i >= 0; i-- {
			if p := leaf[i]; p != 0 && l<<leafBits+i >= nblocks {
				s.cache.remove(p)
			}
		}
	}
}

// reclaim evicts pages until the cache fits, writing back dirty victims.
func (s *Storage) reclaim(now int64) {
	for s.cache.size() > s.cache.capacity {
		p := s.cache.victim()
		if p == 0 {
			return
		}
		pc := s.cache.nodes[p]
		if pc.flags&flagDirty != 0 {
			s.one[0] = s.cache.lsn(p)
			s.submitRun(now, pc.file, pc.blk, 1, s.one[:])
			s.Stats.WrittenBack++
		}
		s.cache.remove(p)
		s.Stats.Reclaimed++
	}
}

// submitRun sends n contiguous blocks to the device at time now, split into
// requests of at most MaxRequestKB, and returns when the last completes. A
// write passes the versions of its n pages (lsns), which the crash model
// logs; a read passes nil.
func (s *Storage) submitRun(now int64, f int32, blk uint32, n int, lsns []uint64) int64 {
	write := lsns != nil
	done := now
	if n == 1 { // a single page (a reclaimed one, a write without a page cache)
		d := s.dev.submit(now, offset(f, blk), pg.BLCKSZ, write)
		if write {
			s.logWrites(now, f, blk, lsns, s.dev.lastStart, d)
		}
		return max(done, d)
	}
	per := max(1, s.cfg.MaxRequestKB*1024/pg.BLCKSZ)
	for i := 0; i < n; {
		k := min(n-i, per)
		d := s.dev.submit(now, offset(f, blk), int64(k)*pg.BLCKSZ, write)
		if write {
			s.logWrites(now, f, blk, lsns[i:i+k], s.dev.lastStart, d)
		}
		done = max(done, d)
		blk += uint32(k)
		i += k
	}
	return done
}

// readPages is do_page_cache_ra / page_cache_ra_unbounded for the 4 kB pages
// [start, start+nr): every missing block is allocated, runs of missing blocks
// go to the device as one request each (split at the device's maximum), and
// the block holding page start+nr−lookahead gets the readahead mark if it is
// newly read. It returns how many blocks it read.
func (s *Storage) readPages(now int64, f int32, start, nr, lookahead int64) int {
	if nr <= 0 {
		return 0
	}
	b0, b1 := uint32(start/2), uint32(pg.DivCeil(start+nr, 2))
	mark := uint32(1<<32 - 1)
	if lookahead > 0 {
		mark = uint32((start + nr - lookahead) / 2)
	}
	runStart, runN, total := uint32(0), 0, 0
	runPages := s.run[:0]
	flush := func() {
		if runN == 0 {
			return
		}
		done := s.submitRun(now, f, runStart, runN, nil)
		for _, p := range runPages {
			s.cache.nodes[p].readyAt = done
		}
		s.Stats.DeviceBlocks += int64(runN)
		total += runN
		runN, runPages = 0, runPages[:0]
	}
	for b := b0; b < b1; b++ {
		if s.cache.lookup(f, b) != 0 {
			flush()
			continue
		}
		p := s.cache.insert(f, b, now)
		if b == mark {
			s.cache.nodes[p].flags |= flagReadahead
		}
		if runN == 0 {
			runStart = b
		}
		runN++
		runPages = append(runPages, p)
	}
	flush()
	s.run = runPages
	return total
}

// Prefetch asks the CPU to bring into its cache the page cache's memory
// that reads of file's blocks will use (prefetch.Line, a hint): with index,
// the blocks' index entries; without, the pages those entries name (the
// entries themselves read, so an earlier call with index should have
// fetched them). It changes no state: a replay that knows its next requests
// calls it on them ahead of time, so that their cache misses overlap with
// the work on the requests before them.
func (s *Storage) Prefetch(file pg.RelID, blocks []uint32, index bool) {
	if s.flat || s.cache.capacity == 0 {
		return
	}
	f := int(file)
	if f >= len(s.cache.files) {
		return
	}
	leaves := s.cache.files[f].leaves
	nodes := s.cache.nodes
	for _, b := range blocks {
		l := int(b >> leafBits)
		if l >= len(leaves) || leaves[l] == nil {
			continue
		}
		e := &leaves[l][b&(leafSize-1)]
		if index {
			prefetch.Line(unsafe.Pointer(e))
		} else if p := *e; p != 0 && int(p) < len(nodes) {
			prefetch.Line(unsafe.Pointer(&nodes[p]))
		}
	}
}

// PrefetchReclaim asks the CPU to bring into its cache the index entries
// of the pages reclaim takes next when n more pages are read into a full
// cache: it walks 2n pages from the inactive list's tail (the walk's first
// half is mostly the one the call before walked, already in the CPU's
// cache; the removal of each victim clears its index entry, a cache miss
// otherwise). It changes no state.
func (s *Storage) PrefetchReclaim(n int) {
	c := s.cache
	if s.flat || c.capacity == 0 || n == 0 || c.size()+n <= c.capacity {
		return
	}
	l := &c.lists[inactive]
	for i, k := l.start, 0; i < len(l.log) && k < 2*n; i++ {
		p := l.log[i]
		if p == 0 {
			continue
		}
		k++
		pc := &c.nodes[p]
		if fi := &c.files[pc.file]; int(pc.blk>>leafBits) < len(fi.leaves) {
			if leaf := fi.leaves[pc.blk>>leafBits]; leaf != nil {
				prefetch.Line(unsafe.Pointer(&leaf[pc.blk&(leafSize-1)]))
			}
		}
	}
}
