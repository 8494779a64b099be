package bufmgr

import (
	"errors"
	"fmt"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/storage"

	"github.com/pgbufsim/pgbufsim/wal"
)

// Backend is one simulated process that uses the pool: its type for
// pg_stat_io, its simulated clock, its private pin counts
// (PrivateRefCountArray + overflow) and its pgBufferUsage / pgWalUsage.
type Backend struct {
	Type BackendType
	// Now is this process's simulated time in nanoseconds.
	Now int64
	// Buf and WAL are what EXPLAIN (BUFFERS, WAL) reports for this process.
	Buf BufferUsage
	WAL wal.Usage
	// Rejects counts StrategyRejectBuffer refusals (for tracing and tests).
	Rejects int64
	// IOReadNs is the time spent reading data files or waiting for reads
	// (track_io_timing's "I/O Timings: shared read").
	IOReadNs int64
	// Waited is the time the process spent waiting without holding a CPU
	// core (for the device, an I/O worker's read, a WAL flush): what
	// host_cpus's core pool leaves out of its bursts (cores.Pool.Step).
	Waited int64
	// Files is the process's open data files (their readahead state).
	Files storage.Reader
	// writeback is the process's WritebackContext: the tags written and
	// not yet handed to the kernel for write-back.
	writeback []pg.BufferTag
	// SessionWAL: the process inserted WAL before this statement (at
	// connection start, or earlier in its transaction block). Its first
	// XLogInsertRecord gives it its own doPageWrites and RedoRecPtr; until
	// then XLogCheckBufferNeedsBackup finds no page needing a backup.
	SessionWAL bool

	// small is PrivateRefCountArray: the first few buffers pinned, found by
	// a short scan; pins is the overflow table (PrivateRefCountHash).
	small  [privateRefsArray]pinEntry
	nsmall int
	pins   privateRefs
}

// privateRefsArray is REFCOUNT_ARRAY_ENTRIES (bufmgr.c).
const privateRefsArray = 8

type pinEntry struct {
	b pg.Buffer
	n int32
}

// privateRefs is PrivateRefCountArray + PrivateRefCountHash (bufmgr.c): how
// many times this backend pins each buffer it holds. It is an open-addressing
// table (Fibonacci hashing, linear probing, backward-shift deletion) so that
// the hundred pins a read stream holds cost no more to look up than one. The
// zero value is empty.
type privateRefs struct {
	slots []pinEntry // len a power of two; b == InvalidBuffer marks a free slot
	shift uint       // 32 − log2(len(slots))
	n     int
}

func (p *privateRefs) home(b pg.Buffer) int { return int(uint32(b) * 0x9E3779B9 >> p.shift) }

func (p *privateRefs) resize(size int) {
	old := p.slots
	p.slots = make([]pinEntry, size)
	p.shift = 32
	for s := size; s > 1; s >>= 1 {
		p.shift--
	}
	mask := size - 1
	for _, e := range old {
		if e.b != pg.InvalidBuffer {
			i := p.home(e.b)
			for p.slots[i].b != pg.InvalidBuffer {
				i = (i + 1) & mask
			}
			p.slots[i] = e
		}
	}
}

// addPrivate records one more pin of b; it reports whether the backend already held b.
// Its fast path is a backend holding no pin, as between one page's release
// and the next page's pin: no search of the array.
func (be *Backend) addPrivate(b pg.Buffer) bool {
	if be.nsmall == 0 && be.pins.n == 0 {
		be.small[0] = pinEntry{b, 1}
		be.nsmall = 1
		return false
	}
	return be.addPrivateSlow(b)
}

// addPrivateSlow is addPrivate with pins already held: the array, then the table.
func (be *Backend) addPrivateSlow(b pg.Buffer) bool {
	for i := 0; i < be.nsmall; i++ {
		if be.small[i].b == b {
			be.small[i].n++
			return true
		}
	}
	if be.pins.n == 0 && be.nsmall < privateRefsArray {
		be.small[be.nsmall] = pinEntry{b, 1}
		be.nsmall++
		return false
	}
	return be.pins.add(b)
}

// add is addPrivate's overflow table.
func (p *privateRefs) add(b pg.Buffer) bool {
	if p.slots == nil {
		p.resize(16)
	}
	mask := len(p.slots) - 1
	i := p.home(b)
	for {
		e := &p.slots[i]
		if e.b == b {
			e.n++
			return true
		}
		if e.b == pg.InvalidBuffer {
			break
		}
		i = (i + 1) & mask
	}
	if 2*(p.n+1) > len(p.slots) {
		p.resize(2 * len(p.slots))
		mask = len(p.slots) - 1
		i = p.home(b)
		for p.slots[i].b != pg.InvalidBuffer {
			i = (i + 1) & mask
		}
	}
	p.slots[i] = pinEntry{b, 1}
	p.n++
	return false
}

// dropPrivate releases one pin of b; it reports whether that was the backend's last pin of b.
// Its fast path is b the only buffer held, once: no search.
func (be *Backend) dropPrivate(b pg.Buffer) bool {
	if be.nsmall == 1 && be.small[0].b == b && be.small[0].n == 1 {
		be.small[0] = pinEntry{}
		be.nsmall = 0
		return true
	}
	return be.dropPrivateSlow(b)
}

// dropPrivateSlow is dropPrivate for the other cases.
func (be *Backend) dropPrivateSlow(b pg.Buffer) bool {
	for i := 0; i < be.nsmall; i++ {
		if be.small[i].b != b {
			continue
		}
		if be.small[i].n--; be.small[i].n > 0 {
			return false
		}
		be.nsmall--
		be.small[i] = be.small[be.nsmall]
		be.small[be.nsmall] = pinEntry{}
		return true
	}
	return be.pins.drop(b)
}

// drop is dropPrivate's overflow table.
func (p *privateRefs) drop(b pg.Buffer) bool {
	if p.n > 0 {
		mask := len(p.slots) - 1
		for i := p.home(b); p.slots[i].b != pg.InvalidBuffer; i = (i + 1) & mask {
			if p.slots[i].b != b {
				continue
			}
			if p.slots[i].n--; p.slots[i].n > 0 {
				return false
			}
			// Backward-shift deletion: pull later entries of the probe run into the hole.
			hole := i
			for j := (i + 1) & mask; p.slots[j].b != pg.InvalidBuffer; j = (j + 1) & mask {
				if h := p.home(p.slots[j].b); (j-h)&mask >= (j-hole)&mask {
					p.slots[hole] = p.slots[j]
					hole = j
				}
			}
			p.slots[hole] = pinEntry{}
			p.n--
			return true
		}
	}
	panic(fmt.Sprintf("pgbufsim: invariant: backend releases buffer %d it does not pin", b))
}

// forEachPin calls fn for every buffer the backend pins, in no particular order.
func (be *Backend) forEachPin(fn func(b pg.Buffer)) {
	for _, e := range be.small[:be.nsmall] {
		fn(e.b)
	}
	for _, e := range be.pins.slots {
		if e.b != pg.InvalidBuffer {
			fn(e.b)
		}
	}
}

// NewBackend returns a backend of type t starting at simulated time now.
func NewBackend(t BackendType, now int64) *Backend { return &Backend{Type: t, Now: now} }

// PinCount is how many distinct buffers this backend pins.
func (be *Backend) PinCount() int { return be.nsmall + be.pins.n }

func joinErrs(errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	return errors.Join(errs...)
}
