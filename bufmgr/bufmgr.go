package bufmgr

import (
	"fmt"
	"github.com/pgbufsim/pgbufsim/internal/cores"

	"github.com/pgbufsim/pgbufsim/internal/prefetch"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/storage"
	"github.com/pgbufsim/pgbufsim/strategy"
	"github.com/pgbufsim/pgbufsim/wal"
)

// Costs are simulated durations of buffer-manager work, in nanoseconds.
type Costs struct {
	PinNs       int64 // buffer table lookup + pin + unpin
	WritePageNs int64 // pwrite of one 8 kB data page into the OS page cache
	ChecksumNs  int64 // pg_checksum_page of one page: before a write, and verifying a read (data_checksums=on)
	ReadCallNs  int64 // one read system call served from the OS page cache (seed 003: ~4 µs per 8 kB read)
	ReadPageNs  int64 // each further 8 kB copied by a vectored read
	AdviseNs    int64 // one posix_fadvise(WILLNEED) system call
	WritebackNs int64 // one sync_file_range(SYNC_FILE_RANGE_WRITE) system call (a *_flush_after write-back)
}

// Config configures a pool.
type Config struct {
	NBuffers    int
	Version     pg.Version
	Checksums   bool         // data_checksums
	WALLogHints bool         // wal_log_hints
	IOWorkers   int          // io_method=worker (18+): the I/O worker pool; 0 = synchronous reads
	IOPool      IOWorkerPool // 19: the pool's growth (Max 0: fixed at IOWorkers)
	Costs       Costs
	// Cores is the host's CPU cores that the I/O workers' reads share with
	// the other processes (host_cpus; nil: a core for each).
	Cores *cores.Pool
	// Storage is the machine's page cache and device; it outlives the pool
	// (a restart keeps it). Nil: storage.NewFlat, every read served by a page
	// cache that holds everything and tracks nothing.
	Storage *storage.Storage

	// What-if variants (simulator settings, not PostgreSQL's); the zero
	// values are PostgreSQL's behaviour.
	Replacement string          // strategy.PolicyNames(); "" is clock
	UsageMax    int             // cap of the usage count PinBuffer bumps to; 0 is BM_MAX_USAGE_COUNT (5)
	Reject      strategy.Reject // what a BULKREAD ring does with a dirty buffer needing a WAL flush
	NoFreeList  bool            // freelist=off: PostgreSQL 19's clock sweep without a free list (always so for 19)
}

// Validate reports every problem with c, one line each.
func (c Config) Validate() error {
	var errs []error
	if c.NBuffers < 16 {
		errs = append(errs, &pg.SettingError{Name: "shared_buffers", Value: fmt.Sprint(c.NBuffers), Allowed: "below the minimum of 16 buffers (128kB)"})
	}
	if c.Version < pg.MinVersion || c.Version > pg.MaxVersion {
		errs = append(errs, &pg.SettingError{Name: "version", Value: fmt.Sprint(c.Version), Allowed: fmt.Sprintf("supported versions are %d to %d", pg.MinVersion, pg.MaxVersion)})
	}
	if c.UsageMax != 0 {
		if err := strategy.CheckUsageMax(c.UsageMax); err != nil {
			errs = append(errs, err)
		}
	}
	if c.Replacement != "" {
		if _, err := strategy.NewReplacement(c.Replacement, 16); err != nil {
			errs = append(errs, err)
		}
	}
	return joinErrs(errs)
}

// relStorage is one relation's storage manager state and mapping entries.
type relStorage struct {
	nblocks   int
	permanent bool
	mapping   blockMap // block → buffer holding it, or InvalidBuffer
	lsn       lsnTable // page LSN (pd_lsn) of each block
	// hits and reads are pgstat_count_buffer_hit/_read for the storage:
	// what pg_statio_user_tables and _indexes sum per relation.
	hits, reads int64
}

// Pool is the shared buffer pool of one cluster.
type Pool struct {
	cfg Config
	n   int
	// leaves is where the relations' mapping leaves come from and go back.
	leaves leafAlloc
	states []pg.BufState // [1..n]
	tags   []pg.BufferTag
	ctl    *strategy.Control
	wal    *wal.WAL
	rels   []*relStorage
	// imageBytes sizes full-page images under wal_compression (nil: uncompressed).
	imageBytes func(t pg.BufferTag, hole int) (int, int64)
	io         *IOModel

	// Stats are the pg_stat_io counters since the cluster started.
	Stats IOStats
	// TrackIOTiming is track_io_timing: read time goes into Stats.
	TrackIOTiming bool
	// FlushAfter is each process type's *_flush_after in blocks (0: no
	// write-back requests): see scheduleWriteback.
	FlushAfter [NumBackendTypes]int

	// tracer sees every traced step (nil: off); traceBE and traceRing are
	// the process and ring of the victim search under way.
	tracer    Tracer
	traceBE   *Backend
	traceRing strategy.Kind
	traceFor  pg.BufferTag // the page the victim is for
	// rings took victims since ForgetRings (lastRing: the latest, to skip the search).
	rings    []*strategy.Ring
	lastRing *strategy.Ring
	// hintImages: the last XLOG_FPI_FOR_HINT of each page by RelID and
	// block, kept only while TrackHintImages is on (crash.go).
	hintImages      [][]pg.LSN
	trackHintImages bool

	// repl is the what-if replacement policy (nil: the clock sweep), told of
	// every access, load and eviction; maxUsage caps PinBuffer's usage bump.
	repl     strategy.Replacement
	maxUsage int
	variant  bool // repl != nil || maxUsage < BM_MAX_USAGE_COUNT

	// dirtyFlags is what MarkBufferDirty sets and MarkBufferDirtyHint's
	// early exit tests: BM_DIRTY | BM_JUST_DIRTIED up to 18, BM_DIRTY in 19
	// (MarkSharedBufferDirtyHint returns once the buffer is BM_DIRTY).
	dirtyFlags pg.BufState
}

// NewPool builds an empty pool whose buffers are all on the free list.
func NewPool(c Config, w *wal.WAL) (*Pool, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if c.Storage == nil {
		c.Storage = storage.NewFlat()
	}
	if c.Version >= 19 {
		// 19 has no free list (2c78940527): StrategyGetBuffer is ring, then clock sweep.
		c.NoFreeList = true
	}
	p := &Pool{cfg: c, n: c.NBuffers, wal: w, dirtyFlags: pg.FlagDirty | pg.FlagJustDirtied,
		leaves: leafAlloc{denseBlocks: denseBlocksPerBuffer * c.NBuffers, hashed: c.NBuffers <= hashMaxBuffers}}
	if c.Version >= 19 {
		p.dirtyFlags = pg.FlagDirty
	}
	// Read at random by the clock sweep and every access: on huge pages
	// where the system allows (prefetch.Slice), a large pool's lookups miss
	// the CPU's cache but seldom its TLB.
	p.states = prefetch.Slice[pg.BufState](c.NBuffers + 1)
	p.tags = prefetch.Slice[pg.BufferTag](c.NBuffers + 1)
	p.ctl = strategy.NewControl(p.states)
	p.maxUsage = pg.MaxUsageCount
	if c.UsageMax != 0 {
		p.maxUsage = c.UsageMax
	}
	p.installReplacement()
	p.io = newIOModel(c, c.Storage)
	return p, nil
}

// installReplacement gives a fresh Control the configured policy (and
// removes its free list under freelist=off).
func (p *Pool) installReplacement() {
	p.repl = nil
	p.variant = p.maxUsage < pg.MaxUsageCount
	if p.cfg.NoFreeList {
		p.ctl.RemoveFreeList()
	}
	if p.cfg.Replacement == "" || p.cfg.Replacement == "clock" {
		return
	}
	r, err := strategy.NewReplacement(p.cfg.Replacement, p.n)
	if err != nil {
		panic(err) // Validate accepted the name
	}
	p.ctl.SetReplacement(r)
	p.repl = r
	p.variant = true
}

// DefaultStorage is a 16 GB page cache over the nvme profile with Linux's
// default readahead, the sim's default machine.
func DefaultStorage() *storage.Storage {
	st, err := storage.New(storage.Config{CacheBlocks: 16 << 30 / pg.BLCKSZ, Device: storage.Devices["nvme"],
		ReadAheadKB: storage.DefaultReadAheadKB})
	if err != nil {
		panic(err) // a constant configuration
	}
	return st
}

// NBuffers is the pool size.
func (p *Pool) NBuffers() int { return p.n }

// Control exposes the clock and free list (for display and invariants).
func (p *Pool) Control() *strategy.Control { return p.ctl }

// WAL is the log the pool writes ahead of its pages.
func (p *Pool) WAL() *wal.WAL { return p.wal }

// IO is the read-I/O model.
func (p *Pool) IO() *IOModel { return p.io }

// State is buffer b's state word.
func (p *Pool) State(b pg.Buffer) pg.BufState { return p.states[b] }

// Tag is buffer b's tag (meaningful only if FlagTagValid).
func (p *Pool) Tag(b pg.Buffer) pg.BufferTag { return p.tags[b] }

// CreateRel registers storage for relation id (smgrcreate).
func (p *Pool) CreateRel(id pg.RelID, nblocks int, permanent bool) {
	for int(id) >= len(p.rels) {
		p.rels = append(p.rels, nil)
	}
	p.rels[id] = &relStorage{nblocks: nblocks, permanent: permanent,
		mapping: newBlockMap(nblocks, &p.leaves), lsn: newLSNTable(nblocks)}
}

// ReserveBlocks makes room for relation id to grow to nblocks without
// reallocating its mapping and page LSNs (for loads that know their size).
func (p *Pool) ReserveBlocks(id pg.RelID, nblocks int) {
	r := p.rels[id]
	if p.cfg.Storage != nil {
		p.cfg.Storage.Reserve(nblocks - r.nblocks)
	}
	r.mapping.reserve(nblocks)
	r.lsn.reserve(nblocks)
}

// FlattenMapping keeps relation id's part of the buffer mapping as a flat
// array, 4 bytes a block, whatever the pool's size, until the relation
// grows; it changes no lookup's answer, only where it is found. For a trace
// replay over a relation many times the pool, whose next requests are known:
// one load a lookup, fetched ahead (Prefetcher), where a hash table's probes
// and backward-shift deletions cost more than the cache misses they avoid.
func (p *Pool) FlattenMapping(id pg.RelID) { p.rels[id].mapping.flatten() }

// NBlocks is RelationGetNumberOfBlocks.
func (p *Pool) NBlocks(id pg.RelID) int { return p.rels[id].nblocks }

// PageLSN is the LSN of a page, in cache or on disk.
func (p *Pool) PageLSN(id pg.RelID, blk pg.BlockNumber) pg.LSN { return p.rels[id].lsn.get(int(blk)) }

// SetPageLSN is PageSetLSN after a WAL-logged change to a pinned, locked buffer.
func (p *Pool) SetPageLSN(b pg.Buffer, lsn pg.LSN) {
	t := p.tags[b]
	p.rels[t.Rel].lsn.set(int(t.Block), lsn)
}

// PagesLoggedAfter counts the pages of every relation whose LSN is past lsn:
// the blocks WAL has referenced since then (what a WAL summary, hence an
// incremental backup, sees as changed).
func (p *Pool) PagesLoggedAfter(lsn pg.LSN) int {
	n := 0
	for _, r := range p.rels {
		if r == nil {
			continue
		}
		for i := 0; i < r.lsn.len(); i++ {
			if r.lsn.get(i) > lsn {
				n++
			}
		}
	}
	return n
}

// SetPageLSNOnDisk sets the LSN of a page written straight to storage.
func (p *Pool) SetPageLSNOnDisk(id pg.RelID, blk pg.BlockNumber, lsn pg.LSN) {
	p.rels[id].lsn.set(int(blk), lsn)
}

// BufferLSN is the LSN of the page in buffer b (BufferGetLSNAtomic).
func (p *Pool) BufferLSN(b pg.Buffer) pg.LSN { return p.bufLSN(b) }

func (p *Pool) bufLSN(b pg.Buffer) pg.LSN {
	t := p.tags[b]
	return p.rels[t.Rel].lsn.get(int(t.Block))
}

// Lookup returns the buffer holding the tag, if any (BufTableLookup).
func (p *Pool) Lookup(t pg.BufferTag) pg.Buffer {
	r := p.rels[t.Rel]
	if int(t.Block) < r.mapping.len() {
		return r.mapping.get(t.Block)
	}
	return pg.InvalidBuffer
}

func ioContext(r *strategy.Ring) strategy.Kind {
	if r == nil {
		return strategy.Normal
	}
	return r.Kind
}

// Accesses are the buffer hits and reads counted for storage id
// (pgstat_count_buffer_hit and _read): blocks found in the pool, blocks
// read into it, and up to 15 blocks added by extension.
func (p *Pool) Accesses(id pg.RelID) (hits, reads int64) {
	r := p.rels[id]
	return r.hits, r.reads
}

// PinForRead finds or allocates the buffer for a block and pins it
// (PinBufferForBlock in 17+, the start of ReadBuffer_common before). On a hit
// it counts a hit; on a miss the buffer is assigned to the tag and the caller
// accounts for the read I/O (CountRead) — its contents are modelled as
// available once the read completes.
func (p *Pool) PinForRead(be *Backend, t pg.BufferTag, r *strategy.Ring) (pg.Buffer, bool, error) {
	be.Now += p.cfg.Costs.PinNs
	rel := p.rels[t.Rel]
	if b := rel.mapping.get(t.Block); b != pg.InvalidBuffer {
		rel.hits++
		p.pin(be, b, r)
		p.Stats.Rel[be.Type][ioContext(r)][OpHits]++
		be.Buf.Hit++
		return b, true, nil
	}
	if p.tracer != nil {
		p.traceFor = t
	}
	b, err := p.getVictimBuffer(be, r)
	if err != nil {
		return pg.InvalidBuffer, false, err
	}
	p.assign(b, t, rel)
	rel.reads++
	be.Buf.Read++
	return b, false, nil
}

// CountRead counts one read I/O of nblocks blocks in pg_stat_io: from 18 on
// "reads" counts I/Os, before 18 blocks.
func (p *Pool) CountRead(be *Backend, r *strategy.Ring, nblocks int) {
	c := &p.Stats.Rel[be.Type][ioContext(r)]
	if p.cfg.Version >= 18 {
		c[OpReads]++
	} else {
		c[OpReads] += int64(nblocks)
	}
	c[OpReadBlocks] += int64(nblocks)
}

// ReadBuffer is ReadBufferExtended(RBM_NORMAL) with a synchronous read on a miss.
func (p *Pool) ReadBuffer(be *Backend, t pg.BufferTag, r *strategy.Ring) (pg.Buffer, bool, error) {
	b, hit, err := p.PinForRead(be, t, r)
	if err != nil || hit {
		return b, hit, err
	}
	p.CountRead(be, r, 1)
	before := be.Now
	be.Now = p.io.SyncRead(be, t, 1)
	p.countReadTime(be, r, be.Now-before)
	return b, false, nil
}

// countReadTime adds time spent reading or waiting for a read to the
// backend's I/O timing and, with track_io_timing, to pg_stat_io's read_time.
func (p *Pool) countReadTime(be *Backend, r *strategy.Ring, ns int64) {
	be.IOReadNs += ns
	if p.TrackIOTiming {
		p.Stats.Rel[be.Type][ioContext(r)][OpReadTime] += ns
	}
}

// assign gives victim b (pinned once by the caller, invalid) the tag: BM_TAG_VALID | BM_VALID, usage 1.
func (p *Pool) assign(b pg.Buffer, t pg.BufferTag, rel *relStorage) {
	s := p.states[b]&pg.RefcountMask | pg.FlagTagValid | pg.FlagValid
	if rel.permanent {
		s |= pg.FlagPermanent
	}
	p.states[b] = s.WithUsage(1)
	p.tags[b] = t
	rel.mapping.insert(t.Block, b) // BufTableInsert: the lookup before found none
	if p.repl != nil {
		p.repl.Load(b, t)
	}
}

// getVictimBuffer is GetVictimBuffer: take a buffer from the strategy, pin it,
// write it if dirty (unless a BULKREAD ring rejects it because the write would
// need a WAL flush), count the eviction or reuse, and invalidate it.
func (p *Pool) getVictimBuffer(be *Backend, r *strategy.Ring) (pg.Buffer, error) {
	ctx := ioContext(r)
	if r != nil && r != p.lastRing {
		p.noteRing(r)
	}
	if p.tracer != nil {
		p.traceBE, p.traceRing = be, ctx
	}
	for {
		b, fromRing, err := p.ctl.GetBuffer(r)
		if err != nil {
			return pg.InvalidBuffer, err
		}
		p.pinLocked(be, b)
		s := p.states[b]
		if s&pg.FlagDirty != 0 {
			if r != nil && p.cfg.Reject == strategy.RejectPG && p.mayReject(s) && p.wal.NeedsFlushAt(be.Now, p.bufLSN(b)) && r.RejectBuffer(b, fromRing) {
				if p.tracer != nil {
					ev := p.event(EvReject, be, b)
					ev.For = p.traceFor
					p.tracer(ev)
				}
				p.Unpin(be, b)
				be.Rejects++
				continue
			}
			p.flushBuffer(be, b, ctx)
			p.scheduleWriteback(be, b, ctx)
		}
		if s&pg.FlagValid != 0 {
			if fromRing {
				p.Stats.Rel[be.Type][ctx][OpReuses]++
			} else {
				p.Stats.Rel[be.Type][ctx][OpEvictions]++
			}
		}
		p.invalidateVictim(b)
		return b, nil
	}
}

// mayReject is GetVictimBuffer's condition for asking StrategyRejectBuffer
// beyond the dirty page needing a WAL flush: none up to 18; in 19 the buffer
// must also be BM_PERMANENT (an unlogged relation's page may carry a fake
// LSN, so XLogNeedsFlush means nothing for it). 19's other new condition,
// from_ring, is one StrategyRejectBuffer checks itself (RejectBuffer).
func (p *Pool) mayReject(s pg.BufState) bool {
	return p.cfg.Version < 19 || s&pg.FlagPermanent != 0
}

// invalidateVictim is InvalidateVictimBuffer: drop the mapping entry, clear flags and usage; the pins stay.
func (p *Pool) invalidateVictim(b pg.Buffer) {
	s := p.states[b]
	if s&pg.FlagTagValid != 0 {
		t := p.tags[b]
		p.rels[t.Rel].mapping.remove(t.Block) // BufTableDelete
		if p.repl != nil {
			p.repl.Forget(b, t)
		}
	}
	p.states[b] = s & pg.RefcountMask
}

// flushBuffer is FlushBuffer: XLogFlush up to the page LSN for a permanent
// buffer, write the page, mark it clean, count the write in ctx.
func (p *Pool) flushBuffer(be *Backend, b pg.Buffer, ctx strategy.Kind) {
	if p.tracer != nil {
		p.traceWrite(be, b, ctx)
	}
	s, t := p.states[b], p.tags[b]
	lsn := p.rels[t.Rel].lsn.get(int(t.Block)) // BufferGetLSN: XLogFlush does not change it
	if s&pg.FlagPermanent != 0 {
		before := be.Now
		be.Now = p.wal.Flush(be.Now, &be.WAL, lsn)
		be.Waited += be.Now - before // XLogFlush waits for WALWriteLock and the fdatasync
	}
	if p.cfg.Checksums {
		be.Now += p.cfg.Costs.ChecksumNs
	}
	be.Now += p.cfg.Costs.WritePageNs
	p.cfg.Storage.WriteLSN(be.Now, t.Rel, t.Block, lsn) // mdwrite
	p.states[b] = s &^ (pg.FlagDirty | pg.FlagJustDirtied | pg.FlagCheckpointNeed)
	p.Stats.Rel[be.Type][ctx][OpWrites]++
	be.Buf.Written++
}

// Extend is ExtendBufferedRel for one block: a new zeroed page at the end of
// the relation, in a fresh victim buffer at usage 1, pinned. Counted as an extend in ctx.
func (p *Pool) Extend(be *Backend, id pg.RelID, r *strategy.Ring) (pg.Buffer, pg.BlockNumber, error) {
	be.Now += p.cfg.Costs.PinNs
	if p.tracer != nil {
		p.traceFor = pg.BufferTag{Rel: id, Block: pg.BlockNumber(p.rels[id].nblocks)}
	}
	b, err := p.getVictimBuffer(be, r)
	if err != nil {
		return pg.InvalidBuffer, 0, err
	}
	rel := p.rels[id]
	blk := pg.BlockNumber(rel.nblocks)
	rel.nblocks++
	if p.cfg.Version < 16 {
		rel.reads++ // ReadBuffer(P_NEW) counts a read; 16's ExtendBufferedRel none
	}
	rel.mapping.grow()
	rel.lsn.grow()
	p.cfg.Storage.Write(be.Now, id, blk) // smgrextend / smgrzeroextend: a zeroed page
	p.assign(b, pg.BufferTag{Rel: id, Block: blk}, rel)
	p.Stats.Rel[be.Type][ioContext(r)][OpExtends]++
	// EXPLAIN counts an extension as a written block (ReadBuffer_common with
	// P_NEW in 15, ExtendBufferedRelShared from 16), pg_stat_io as an extend.
	be.Buf.Written++
	return b, blk, nil
}

// SetImageBytes installs wal_compression: fn gives the bytes a page's image
// takes in a record (compressed, with its compress header) and the CPU time
// compressing it took.
func (p *Pool) SetImageBytes(fn func(t pg.BufferTag, hole int) (bytes int, ns int64)) {
	p.imageBytes = fn
}

// ExtendOnDisk grows a relation fork to nblocks with zeroed pages written
// straight to storage, not through shared buffers (fsm_extend, vm_extend:
// smgrextend); the pages are read into buffers when first used.
func (p *Pool) ExtendOnDisk(now int64, id pg.RelID, nblocks int) {
	rel := p.rels[id]
	for rel.nblocks < nblocks {
		p.cfg.Storage.Write(now, id, pg.BlockNumber(rel.nblocks))
		rel.nblocks++
		rel.mapping.grow()
		rel.lsn.grow()
	}
}

// MarkBufferDirty sets BM_DIRTY | BM_JUST_DIRTIED (BM_DIRTY in 19); counts shared dirtied if it was clean.
func (p *Pool) MarkBufferDirty(be *Backend, b pg.Buffer) {
	s := p.states[b]
	if s&pg.FlagDirty == 0 {
		be.Buf.Dirtied++
	}
	p.states[b] = s | p.dirtyFlags
}

// XLogHintBitIsNeeded is data_checksums || wal_log_hints.
func (p *Pool) XLogHintBitIsNeeded() bool { return p.cfg.Checksums || p.cfg.WALLogHints }

// MarkBufferDirtyHint is MarkBufferDirtyHint for a standard page with the given
// hole (pd_upper − pd_lower): nothing if already DIRTY and JUST_DIRTIED (in
// 19, MarkSharedBufferDirtyHint: already DIRTY); otherwise, when hint bits
// need WAL (checksums or wal_log_hints) and the page has not been logged
// since the redo pointer, an XLOG_FPI_FOR_HINT (XLogSaveBufferForHint) whose
// LSN becomes the page LSN if this call dirties it.
//
// The two exits differ only for a page being written when the hint comes
// (18 re-dirties it through BM_JUST_DIRTIED; 19's BufferBeginSetHintBits
// refuses the hint while the writer holds the share-exclusive lock). A
// simulated write is one step that no other backend interleaves with, and
// outside a write BM_DIRTY implies BM_JUST_DIRTIED in ≤18, so both versions
// give the same images, dirtied counts and page LSNs here.
func (p *Pool) MarkBufferDirtyHint(be *Backend, b pg.Buffer, hole int) {
	s := p.states[b]
	if s&p.dirtyFlags == p.dirtyFlags {
		return
	}
	var lsn pg.LSN
	if p.XLogHintBitIsNeeded() && s&pg.FlagPermanent != 0 {
		if p.bufLSN(b) <= p.wal.RedoRecPtr() {
			size := wal.FPIForHint(hole)
			if p.imageBytes != nil { // wal_compression: the image compressed for real
				n, ns := p.imageBytes(p.tags[b], hole)
				size = wal.FPIForHintBytes(n)
				be.Now += ns
			}
			lsn, be.Now = p.wal.Insert(be.Now, &be.WAL, size, 1)
			p.noteHintImage(p.tags[b], lsn)
			if p.tracer != nil {
				ev := p.event(EvFPIForHint, be, b)
				ev.LSN, ev.Bytes = lsn, size
				p.tracer(ev)
			}
		}
	}
	s = p.states[b]
	if s&pg.FlagDirty == 0 {
		if lsn != 0 {
			p.SetPageLSN(b, lsn)
		}
		be.Buf.Dirtied++
	}
	p.states[b] = s | p.dirtyFlags
}

// pin is PinBuffer: the first pin by this backend bumps usage (to at most 5
// without a strategy; only 0→1 with one); further pins change nothing shared.
func (p *Pool) pin(be *Backend, b pg.Buffer, r *strategy.Ring) {
	if be.addPrivate(b) {
		return
	}
	s := p.states[b] + pg.RefcountOne
	if u := s.Usage(); r == nil {
		if u < pg.MaxUsageCount {
			s += pg.UsageOne
		}
	} else if u == 0 {
		s += pg.UsageOne
	}
	p.states[b] = s
	if p.variant {
		p.pinVariant(b)
	}
}

// pinVariant is the what-if part of a pin, kept off PostgreSQL's path (one
// test of p.variant): usage_max caps the count, the replacement policy
// hears of the access.
func (p *Pool) pinVariant(b pg.Buffer) {
	if s := p.states[b]; s.Usage() > p.maxUsage {
		p.states[b] = s.WithUsage(p.maxUsage)
	}
	if p.repl != nil {
		p.repl.Access(b)
	}
}

// PinCost is the simulated time of one pin (PinForRead's share of a hit).
func (p *Pool) PinCost() int64 { return p.cfg.Costs.PinNs }

// RepeatHits is k ReadBuffer hits of buffer b with no access strategy, each
// released before the next, by a backend holding no other pin (a load's
// rows on the page it is filling): what k PinForRead and Unpin pairs count
// — hits, usage count bumps — but not their time (the caller adds PinCost
// a row, interleaved with the rest of each row's work).
func (p *Pool) RepeatHits(be *Backend, b pg.Buffer, k int64) {
	if p.variant { // usage_max and the replacement policy hear of every pin
		for i := int64(0); i < k; i++ {
			p.pin(be, b, nil)
			p.Unpin(be, b)
		}
	} else {
		if s := p.states[b]; s.Usage() < pg.MaxUsageCount {
			p.states[b] = s.WithUsage(int(min(int64(s.Usage())+k, pg.MaxUsageCount)))
		}
	}
	p.rels[p.tags[b].Rel].hits += k
	p.Stats.Rel[be.Type][strategy.Normal][OpHits] += k
	be.Buf.Hit += k
}

// pinLocked is PinBuffer_Locked: a pin without touching the usage count.
func (p *Pool) pinLocked(be *Backend, b pg.Buffer) {
	if !be.addPrivate(b) {
		p.states[b] += pg.RefcountOne
	}
}

// Pin pins a buffer the backend already knows about (IncrBufferRefCount / a hit by buffer number).
func (p *Pool) Pin(be *Backend, b pg.Buffer, r *strategy.Ring) { p.pin(be, b, r) }

// Unpin is UnpinBuffer / ReleaseBuffer: drops one private pin; the last one drops the shared refcount.
func (p *Pool) Unpin(be *Backend, b pg.Buffer) {
	if be.dropPrivate(b) {
		p.states[b] -= pg.RefcountOne
	}
}

// EvictResult is what pg_buffercache_evict_relation / _all return.
type EvictResult struct{ Evicted, Flushed, Skipped int }

// Evict is EvictUnpinnedBufferInternal over every valid buffer of rel (or of
// every relation when all): flush if dirty (context normal, by be), then
// invalidate. Buffers do NOT go back on the free list.
func (p *Pool) Evict(be *Backend, rel pg.RelID, all bool) EvictResult {
	var res EvictResult
	for b := pg.Buffer(1); int(b) <= p.n; b++ {
		s := p.states[b]
		if s&pg.FlagValid == 0 || (!all && p.tags[b].Rel != rel) {
			continue
		}
		if s.Refcount() > 0 {
			res.Skipped++
			continue
		}
		p.pinLocked(be, b)
		if s&pg.FlagDirty != 0 {
			p.flushBuffer(be, b, strategy.Normal)
			res.Flushed++
		}
		p.invalidateVictim(b)
		p.Unpin(be, b)
		res.Evicted++
	}
	return res
}

// DropRelBuffers is DropRelationBuffers + InvalidateBuffer for every buffer of
// rel (DROP, TRUNCATE): the buffers go to the head of the free list.
func (p *Pool) DropRelBuffers(rel pg.RelID) {
	for b := pg.Buffer(1); int(b) <= p.n; b++ {
		if p.states[b]&pg.FlagTagValid != 0 && p.tags[b].Rel == rel {
			p.invalidateVictim(b)
			p.ctl.FreeBuffer(b)
		}
	}
	r := p.rels[rel]
	r.nblocks = 0
	r.mapping.truncate()
	r.lsn.truncate()
	p.cfg.Storage.Truncate(rel, 0) // the old relfilenode's file is unlinked
}

// BufferSync is the buffer part of a checkpoint (CheckPointBuffers): mark every
// dirty permanent buffer, write them in tag order with SyncOneBuffer (no usage
// change, buffers stay valid), counted for the checkpointer in context normal.
func (p *Pool) BufferSync(be *Backend, all bool) int {
	written := 0
	for _, b := range p.StartBufferSync(all) {
		if p.SyncOneBuffer(be, b) {
			written++
		}
	}
	p.IssuePendingWritebacks(be, strategy.Normal)
	return written
}

// syncKey is a buffer to write at a checkpoint and its tag's sort key.
type syncKey struct {
	forkBlock uint64
	rel       uint32 // the RelID's bits with the sign flipped: its order as unsigned
	b         pg.Buffer
}

// Reset empties the pool as a restart does: every buffer invalid and on the
// free list, the clock hand at the start (dirty buffers must have been written).
func (p *Pool) Reset() {
	for b := range p.states {
		p.states[b] = 0
	}
	for _, r := range p.rels {
		if r != nil {
			r.mapping.clear()
		}
	}
	p.ctl = strategy.NewControl(p.states)
	p.installReplacement()
	p.installObserver()
	p.io = newIOModel(p.cfg, p.cfg.Storage)
}

// Row is one pg_buffercache row.
type Row struct {
	Buffer  pg.Buffer
	Valid   bool
	Tag     pg.BufferTag
	Dirty   bool
	Usage   int
	Pinning int
}

// Contents returns pg_buffercache in buffer order.
func (p *Pool) Contents() []Row {
	rows := make([]Row, 0, p.n)
	for b := pg.Buffer(1); int(b) <= p.n; b++ {
		s := p.states[b]
		rows = append(rows, Row{Buffer: b, Valid: s&pg.FlagValid != 0, Tag: p.tags[b],
			Dirty: s&pg.FlagDirty != 0, Usage: s.Usage(), Pinning: s.Refcount()})
	}
	return rows
}

// CheckInvariants verifies: one buffer per tag and mapping ↔ tags agree; usage
// ≤ 5; shared refcounts equal the backends' private pins; free-list buffers are
// invalid; every ring slot is inside the pool.
func (p *Pool) CheckInvariants(backends []*Backend, rings []*strategy.Ring) error {
	pins := map[pg.Buffer]int{}
	for _, be := range backends {
		be.forEachPin(func(b pg.Buffer) { pins[b]++ })
	}
	for b := pg.Buffer(1); int(b) <= p.n; b++ {
		s := p.states[b]
		if s.Usage() > p.maxUsage {
			return fmt.Errorf("invariant: buffer %d has usage count %d > %d", b, s.Usage(), p.maxUsage)
		}
		if s.Refcount() != pins[b] {
			return fmt.Errorf("invariant: buffer %d has refcount %d but %d backends pin it", b, s.Refcount(), pins[b])
		}
		if s&pg.FlagTagValid != 0 {
			t := p.tags[b]
			if int(t.Rel) >= len(p.rels) || p.rels[t.Rel] == nil || int(t.Block) >= p.rels[t.Rel].mapping.len() {
				return fmt.Errorf("invariant: buffer %d has tag %+v outside its relation", b, t)
			}
			if m := p.rels[t.Rel].mapping.get(t.Block); m != b {
				return fmt.Errorf("invariant: buffer %d holds %+v but the mapping says buffer %d", b, t, m)
			}
		}
	}
	for id, r := range p.rels {
		if r == nil {
			continue
		}
		for blk := 0; blk < r.mapping.len(); blk++ {
			b := r.mapping.get(pg.BlockNumber(blk))
			if b == pg.InvalidBuffer {
				continue
			}
			if p.states[b]&pg.FlagTagValid == 0 || p.tags[b] != (pg.BufferTag{Rel: pg.RelID(id), Block: pg.BlockNumber(blk)}) {
				return fmt.Errorf("invariant: mapping of rel %d block %d points at buffer %d holding something else", id, blk, b)
			}
		}
	}
	for _, b := range p.ctl.FreeList() {
		if p.states[b]&pg.FlagValid != 0 {
			return fmt.Errorf("invariant: buffer %d is valid but on the free list", b)
		}
	}
	for _, r := range rings {
		if err := r.Check(p.n); err != nil {
			return fmt.Errorf("invariant: %w", err)
		}
	}
	return nil
}
