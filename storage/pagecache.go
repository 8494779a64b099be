package storage

import (
	"math"
	"unsafe"

	"github.com/pgbufsim/pgbufsim/internal/prefetch"
)

// pageCache is the kernel's page cache for data files, with Linux's two LRU
// lists for file pages (mm/swap.c, mm/vmscan.c):
//
//   - A page read or written for the first time goes to the head of the
//     inactive list.
//   - folio_mark_accessed: the first access of a page on the inactive list
//     sets its referenced flag; a second one moves it to the active list.
//     An access of an active page only sets the flag.
//   - Reclaim (shrink_lruvec) takes pages from the inactive tail. A file page
//     only referenced through read()/write() — PostgreSQL's case, it does not
//     mmap data files — is reclaimed whatever its flag (folio_check_references
//     returns FOLIOREF_RECLAIM_CLEAN for it). A dirty page is written back
//     first.
//   - When the inactive list is low (inactive_is_low: inactive × ratio <
//     active, ratio = int_sqrt(10 × GB of file pages), 1 below 1 GB), pages
//     move from the active tail to the inactive head, their flag cleared.
//
// Not modelled: refault detection (workingset shadow entries that activate a
// page read again soon after its eviction), the multi-generational LRU, and
// memory pressure from anything but these files.
//
// The index from (file, block) to page is a lazily allocated two-level table
// per file whose leaves are freed when their last page leaves the cache, so
// its memory follows the cache's contents, not the files' sizes.
type pageCache struct {
	capacity int // blocks; 0 = no page cache (every read goes to the device)
	files    []fileIndex
	nodes    []page   // [0] unused: index 0 means "not cached"
	lsns     []uint64 // nodes' LSNs (lsn), allocated at the first nonzero one
	free     []int32
	lists    [2]lruList // inactive, active
	dirty    []int32    // dirty pages per file
	// Index leaves come from slabs of up to leafSlab (huge-page backed,
	// see growNodes) and go back to leafFree when emptied (all zero by then).
	leafFree [][]int32
	leafSlab []int32
	leaves   int // leaves taken from slabs so far
	// ratio is inactive_is_low's int_sqrt(10 × ratioGB), kept while the
	// cache's size in GB stays the same (every reclaim asks).
	ratioGB, ratio int
}

const (
	inactive = 0
	active   = 1

	leafBits = 12
	leafSize = 1 << leafBits
	leafSlab = 256 // the most leaves per slab: 4 MB
)

// newLeaf is a zeroed index leaf.
func (c *pageCache) newLeaf() []int32 {
	if n := len(c.leafFree); n > 0 {
		l := c.leafFree[n-1]
		c.leafFree = c.leafFree[:n-1]
		return l
	}
	if len(c.leafSlab) == 0 {
		// Slabs double up to leafSlab leaves: a small cache takes small ones.
		n := min(max(c.leaves, 1), leafSlab)
		c.leafSlab = prefetch.Slice[int32](n * leafSize)
		c.leaves += n
	}
	l := c.leafSlab[:leafSize:leafSize]
	c.leafSlab = c.leafSlab[leafSize:]
	return l
}

// growNodes makes room for at least want pages in one new array whose
// memory the kernel is asked to back with huge pages (prefetch.Slice): the
// pages are read at random, and on 4 kB pages nearly every read of a large
// cache's would also miss the TLB.
func (c *pageCache) growNodes(want int) {
	if want <= cap(c.nodes) {
		return
	}
	nodes := prefetch.Slice[page](want)[:len(c.nodes)]
	copy(nodes, c.nodes)
	c.nodes = nodes
}

type fileIndex struct {
	leaves [][]int32
	counts []int32
	// dirty is each leaf's count of dirty pages, so that an fsync skips the
	// leaves with none (a checkpoint of a terabyte file would otherwise walk
	// every cached block of it).
	dirty []int32
}

// lruList is one LRU list as a log of its pages from the tail (the least
// recently added, log[start]) to the head (the end): a page added at the
// head is appended, one unlinked leaves a 0 where it was (its place is in
// the page: pos), and the tail skips the 0s. The order is a doubly linked
// list's — the lists only ever gain pages at the head — but adding and
// unlinking touch no neighbouring page, and walking from the tail (reclaim,
// a drop of the caches) reads the log in order instead of chasing links
// through the page array at random. The log is compacted, in place, when
// it is full and half of it or more is 0s.
type lruList struct {
	log   []int32
	start int // log[start] is the tail (a page) unless start == len(log)
	dead  int // 0s in log[start:]
	n     int
}

// tail is the list's tail page, or 0.
func (l *lruList) tail() int32 {
	if l.start < len(l.log) {
		return l.log[l.start]
	}
	return 0
}

const (
	flagReferenced uint8 = 1 << iota
	flagDirty
	flagReadahead // PG_readahead: reaching this page triggers asynchronous readahead
)

type page struct {
	file    int32
	blk     uint32
	pos     int32 // its place in its list's log
	list    uint8
	flags   uint8
	readyAt int64 // when its read completes (the page is locked until then)
}

// A page is 32 bytes, so that one never spans two cache lines (the array
// starts on a page boundary): a read of a large cache costs one miss, not
// sometimes two. Its LSN, which only writes and the crash model use, is
// kept beside it (pageCache.lsns).
var _ [32 - unsafe.Sizeof(page{})]struct{}

// lsn is page n's pd_lsn as last written into it (the version the crash
// model says reached the device when it is written back); 0 for a page
// written without one or only read.
func (c *pageCache) lsn(n int32) uint64 {
	if int(n) < len(c.lsns) {
		return c.lsns[n]
	}
	return 0
}

func (c *pageCache) setLSN(n int32, v uint64) {
	if int(n) >= len(c.lsns) {
		if v == 0 {
			return
		}
		lsns := make([]uint64, cap(c.nodes))
		copy(lsns, c.lsns)
		c.lsns = lsns
	}
	c.lsns[n] = v
}

func newPageCache(capacity int) *pageCache {
	return &pageCache{capacity: capacity, nodes: make([]page, 1)}
}

func (c *pageCache) lookup(f int32, blk uint32) int32 {
	if int(f) >= len(c.files) {
		return 0
	}
	fi := &c.files[f]
	l := int(blk >> leafBits)
	if l >= len(fi.leaves) || fi.leaves[l] == nil {
		return 0
	}
	return fi.leaves[l][blk&(leafSize-1)]
}

// growLeaf is the index leaf l of file f holding blk's entry, file and
// leaf made if missing.
func (c *pageCache) growLeaf(f int32, blk uint32) (fi *fileIndex, l int, leaf []int32) {
	for int(f) >= len(c.files) {
		c.files = append(c.files, fileIndex{})
		c.dirty = append(c.dirty, 0)
	}
	fi = &c.files[f]
	l = int(blk >> leafBits)
	for l >= len(fi.leaves) {
		fi.leaves = append(fi.leaves, nil)
		fi.counts = append(fi.counts, 0)
		fi.dirty = append(fi.dirty, 0)
	}
	if fi.leaves[l] == nil {
		fi.leaves[l] = c.newLeaf()
	}
	return fi, l, fi.leaves[l]
}

func (c *pageCache) setIndex(f int32, blk uint32, n int32) {
	fi, l, leaf := c.growLeaf(f, blk)
	old := leaf[blk&(leafSize-1)]
	leaf[blk&(leafSize-1)] = n
	switch {
	case old == 0 && n != 0:
		fi.counts[l]++
	case old != 0 && n == 0:
		if fi.counts[l]--; fi.counts[l] == 0 {
			c.leafFree = append(c.leafFree, fi.leaves[l])
			fi.leaves[l] = nil
		}
	}
}

// clearIndex is setIndex(f, blk, 0) of a cached block: its entry is written
// without being read (on a large cache that entry is a cache miss, and a
// store that depends on no load does not wait for it).
func (c *pageCache) clearIndex(f int32, blk uint32) {
	fi := &c.files[f]
	l := int(blk >> leafBits)
	fi.leaves[l][blk&(leafSize-1)] = 0
	if fi.counts[l]--; fi.counts[l] == 0 {
		c.leafFree = append(c.leafFree, fi.leaves[l])
		fi.leaves[l] = nil
	}
}

// size is the number of cached blocks.
func (c *pageCache) size() int { return c.lists[inactive].n + c.lists[active].n }

func (c *pageCache) unlink(n int32) {
	p := &c.nodes[n]
	l := &c.lists[p.list]
	l.log[p.pos] = 0
	l.dead++
	l.n--
	if int(p.pos) == l.start { // the tail: on to the next page
		for l.start < len(l.log) && l.log[l.start] == 0 {
			l.start++
			l.dead--
		}
	}
	p.pos = 0
}

func (c *pageCache) pushHead(n int32, list uint8) {
	l := &c.lists[list]
	if len(l.log) == cap(l.log) && 2*(l.start+l.dead) >= len(l.log) && len(l.log) > 0 {
		c.compact(l)
	}
	p := &c.nodes[n]
	p.list = list
	p.pos = int32(len(l.log))
	l.log = append(l.log, n)
	l.n++
}

// compact moves list l's pages to the start of its log, in order, and
// tells each its new place.
func (c *pageCache) compact(l *lruList) {
	j := 0
	for _, n := range l.log[l.start:] {
		if n != 0 {
			l.log[j] = n
			c.nodes[n].pos = int32(j)
			j++
		}
	}
	l.log, l.start, l.dead = l.log[:j], 0, 0
}

// insert adds a page for (f, blk) at the inactive head and returns it.
func (c *pageCache) insert(f int32, blk uint32, readyAt int64) int32 {
	n := c.alloc()
	c.nodes[n] = page{file: f, blk: blk, readyAt: readyAt}
	c.setLSN(n, 0)
	c.pushHead(n, inactive)
	c.setIndex(f, blk, n)
	return n
}

// write is a block written into the cache (the page cache's side of
// WriteLSN): a page not cached is inserted at the inactive head, then
// folio_mark_accessed, dirtied, and given version lsn — insert, markAccessed,
// setDirty and setLSN in one walk of the index (a load writes every block of
// its relation once as it extends it and again as it evicts it).
func (c *pageCache) write(f int32, blk uint32, now int64, lsn uint64) {
	var fi *fileIndex
	var leaf []int32
	l := int(blk >> leafBits)
	if int(f) < len(c.files) { // the leaf is there: no call
		if fi = &c.files[f]; l < len(fi.leaves) {
			leaf = fi.leaves[l]
		}
	}
	if leaf == nil {
		fi, l, leaf = c.growLeaf(f, blk)
	}
	slot := &leaf[blk&(leafSize-1)]
	if n := *slot; n != 0 {
		c.markAccessed(n)
		c.setDirty(n)
		c.setLSN(n, lsn)
		return
	}
	n := c.alloc()
	// insert's page, then markAccessed (an inactive page's first access
	// sets its referenced flag) and setDirty.
	c.nodes[n] = page{file: f, blk: blk, readyAt: now, flags: flagReferenced | flagDirty}
	c.setLSN(n, lsn)
	c.pushHead(n, inactive)
	*slot = n
	fi.counts[l]++
	c.dirty[f]++
	fi.dirty[l]++
}

// alloc takes a page record: the last freed, or a new one.
func (c *pageCache) alloc() int32 {
	if k := len(c.free); k > 0 {
		n := c.free[k-1]
		c.free = c.free[:k-1]
		return n
	}
	if len(c.nodes) == cap(c.nodes) {
		// Double: append grows large slices by ~1.25×, copying the
		// array several times over while a load fills the cache.
		c.growNodes(2*len(c.nodes) + 1024)
	}
	c.nodes = append(c.nodes, page{})
	return int32(len(c.nodes) - 1)
}

// reserve makes room for n more pages in one step (a load about to write
// them), up to the cache's capacity and over that the slack pages a read
// inserts before reclaim evicts: the page array then grows once.
func (c *pageCache) reserve(n, slack int) {
	want := min(len(c.nodes)-len(c.free)+n, c.capacity+slack) + 1 // [0] unused
	c.growNodes(want)
}

// remove drops page n from the cache.
func (c *pageCache) remove(n int32) {
	p := &c.nodes[n]
	if p.flags&flagDirty != 0 {
		c.dirty[p.file]--
		c.files[p.file].dirty[p.blk>>leafBits]--
	}
	c.unlink(n)
	c.clearIndex(p.file, p.blk)
	*p = page{}
	c.setLSN(n, 0)
	c.free = append(c.free, n)
}

// markAccessed is folio_mark_accessed.
func (c *pageCache) markAccessed(n int32) {
	p := &c.nodes[n]
	if p.list == inactive && p.flags&flagReferenced != 0 {
		c.unlink(n)
		p.flags &^= flagReferenced
		c.pushHead(n, active)
		return
	}
	p.flags |= flagReferenced
}

func (c *pageCache) setDirty(n int32) {
	p := &c.nodes[n]
	if p.flags&flagDirty == 0 {
		p.flags |= flagDirty
		c.dirty[p.file]++
		c.files[p.file].dirty[p.blk>>leafBits]++
	}
}

func (c *pageCache) clearDirty(n int32) {
	p := &c.nodes[n]
	if p.flags&flagDirty != 0 {
		p.flags &^= flagDirty
		c.dirty[p.file]--
		c.files[p.file].dirty[p.blk>>leafBits]--
	}
}

// inactiveIsLow is inactive_is_low for the file LRU.
func (c *pageCache) inactiveIsLow() bool {
	in, act := c.lists[inactive].n, c.lists[active].n
	gb := (in + act) >> (30 - 13) // 8 kB blocks per GB: 2^17
	if gb != c.ratioGB || c.ratio == 0 {
		c.ratioGB, c.ratio = gb, 1
		if gb > 0 {
			c.ratio = isqrt(10 * gb)
		}
	}
	return in*c.ratio < act
}

// isqrt is the kernel's int_sqrt: the largest r with r² ≤ x.
func isqrt(x int) int {
	r := int(math.Sqrt(float64(x)))
	for r*r > x {
		r--
	}
	for (r+1)*(r+1) <= x {
		r++
	}
	return r
}

// victim picks the next page to reclaim (after balancing the lists), or 0.
func (c *pageCache) victim() int32 {
	for c.lists[active].n > 0 && c.inactiveIsLow() {
		n := c.lists[active].tail()
		c.unlink(n)
		c.nodes[n].flags &^= flagReferenced
		c.pushHead(n, inactive)
	}
	return c.lists[inactive].tail()
}
