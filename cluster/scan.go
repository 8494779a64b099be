package cluster

import (
	"math/bits"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/strategy"
)

// syncScanTable is syncscan.c's shared LRU of scan positions (SYNC_SCAN_NELEM = 20).
type syncScanTable struct {
	rels []pg.RelID
	locs []pg.BlockNumber
}

const syncScanNElem = 20
const syncScanReportInterval = 128 * 1024 / pg.BLCKSZ // SYNC_SCAN_REPORT_INTERVAL: 16 blocks

// search is ss_search: find rel's entry (adding it at location 0 if absent) and move it to the front.
func (t *syncScanTable) search(rel pg.RelID, loc pg.BlockNumber, set bool) pg.BlockNumber {
	i := 0
	for ; i < len(t.rels); i++ {
		if t.rels[i] == rel {
			break
		}
	}
	if i == len(t.rels) {
		if len(t.rels) == syncScanNElem {
			i = len(t.rels) - 1 // reuse the least recently used entry
		} else {
			t.rels = append(t.rels, 0)
			t.locs = append(t.locs, 0)
		}
		t.rels[i], t.locs[i] = rel, 0
	}
	if set {
		t.locs[i] = loc
	}
	r, l := t.rels[i], t.locs[i]
	copy(t.rels[1:i+1], t.rels[:i])
	copy(t.locs[1:i+1], t.locs[:i])
	t.rels[0], t.locs[0] = r, l
	return l
}

// getLocation is ss_get_location.
func (t *syncScanTable) getLocation(rel pg.RelID, nblocks int) pg.BlockNumber {
	l := t.search(rel, 0, false)
	if int(l) >= nblocks {
		return 0
	}
	return l
}

// report is ss_report_location: only every SYNC_SCAN_REPORT_INTERVAL blocks.
func (t *syncScanTable) report(rel pg.RelID, blk pg.BlockNumber) {
	if blk%syncScanReportInterval == 0 {
		t.search(rel, blk, true)
	}
}

// Plan is what the planner decided for a count(*) sequential scan.
type Plan struct {
	Workers       int // planned workers (compute_parallel_worker)
	Parallel      bool
	SerialCost    float64
	ParallelCost  float64
	EstimatedRows float64
}

// planSeqScan models the planner's choice for SELECT count(*) FROM rel:
// compute_parallel_worker's worker count, then cost_seqscan + cost_agg for the
// serial plan against the partial-aggregate Gather plan, with the row estimate
// of table_block_relation_estimate_size (reltuples/relpages once known, else
// a density from the row width).
func (c *Cluster) planSeqScan(rel *heap.Relation, nblocks int) Plan {
	s := c.S
	var pl Plan
	// Row estimate.
	tuples := estimatedTuples(rel, nblocks)
	if rel.RelTuples == 0 && rel.RelPages == 0 && nblocks == 0 {
		tuples = 0
	}
	pl.EstimatedRows = tuples
	seqPage, cpuTuple, cpuOp := s.Real("seq_page_cost"), s.Real("cpu_tuple_cost"), s.Real("cpu_operator_cost")
	pl.SerialCost = float64(nblocks)*seqPage + tuples*cpuTuple + tuples*cpuOp
	pl.Workers = computeParallelWorker(s, nblocks, int(s.Int("max_parallel_workers_per_gather")))
	if pl.Workers > 0 {
		d := float64(pl.Workers)
		if s.Bool("parallel_leader_participation") {
			if lc := 1.0 - 0.3*float64(pl.Workers); lc > 0 {
				d += lc
			}
		}
		pl.ParallelCost = float64(nblocks)*seqPage + tuples*cpuTuple/d + tuples*cpuOp/d +
			s.Real("parallel_setup_cost") + s.Real("parallel_tuple_cost")*float64(pl.Workers+1)
		pl.Parallel = pl.ParallelCost < pl.SerialCost
	}
	return pl
}

// parallelScan is ParallelBlockTableScanDesc: the shared allocation counter.
type parallelScan struct {
	nblocks   int
	start     pg.BlockNumber
	nalloc    int
	syncscan  bool
	reportEnd bool
}

// parallelWorkerState is ParallelBlockTableScanWorkerData.
type parallelWorkerState struct {
	chunkSize, remaining, nallocated int
}

// nextPage is table_block_parallelscan_nextpage: chunks of
// nextpow2(nblocks/2048) blocks (at most 8192), halving over the last 64
// chunks, handed out from a shared counter; sync-scan positions reported per page.
func (c *Cluster) nextPage(ps *parallelScan, w *parallelWorkerState, rel pg.RelID) (pg.BlockNumber, bool) {
	if w.chunkSize == 0 {
		n := max(ps.nblocks/2048, 1)
		w.chunkSize = min(1<<bits.Len(uint(n-1)), 8192)
		if n == 1 {
			w.chunkSize = 1
		}
	}
	var nalloc int
	if w.remaining > 0 {
		w.nallocated++
		nalloc = w.nallocated
		w.remaining--
	} else {
		if w.chunkSize > 1 && w.nallocated > ps.nblocks-w.chunkSize*64 {
			w.chunkSize >>= 1
		}
		nalloc = ps.nalloc
		ps.nalloc += w.chunkSize
		w.nallocated = nalloc
		if nalloc < ps.nblocks {
			w.remaining = w.chunkSize - 1
		}
	}
	if nalloc >= ps.nblocks {
		if ps.syncscan && nalloc == ps.nblocks && !ps.reportEnd {
			ps.reportEnd = true
			c.sync.report(rel, ps.start)
		}
		return 0, false
	}
	page := pg.BlockNumber((nalloc + int(ps.start)) % ps.nblocks)
	if ps.syncscan {
		c.sync.report(rel, page)
	}
	return page, true
}

// streamConfig is read_stream_begin_relation's sizing for a scan.
func (c *Cluster) streamConfig(maintenance bool) bufmgr.StreamConfig {
	ios := int(c.S.Int("effective_io_concurrency"))
	if maintenance {
		ios = int(c.S.Int("maintenance_io_concurrency"))
	}
	pinLimit := c.S.PinLimit()
	// read_stream_begin_impl: advice where it can help (no direct I/O, max_ios > 0),
	// from 18 only when reads are synchronous (io_method=sync).
	advice := ios > 0 && (c.S.Version == 17 || (c.S.Version >= 18 && c.S.Enum("io_method") == "sync"))
	return bufmgr.StreamConfig{Version: c.S.Version, MaxIOs: ios, IOCombineLimit: c.S.IOCombineLimit(),
		PinLimit: pinLimit, NBuffers: c.S.NBuffers(), Advice: advice}
}

// computeParallelWorker is compute_parallel_worker (allpaths.c) for a heap of
// nblocks pages: none under min_parallel_table_scan_size, then one more
// worker each time the size triples, up to limit.
func computeParallelWorker(s *Settings, nblocks, limit int) int {
	return parallelWorkers(nblocks, int(s.Int("min_parallel_table_scan_size")), limit)
}

// parallelWorkers is compute_parallel_worker's log-3 rule for pages against
// its minimum (min_parallel_table_scan_size or min_parallel_index_scan_size).
func parallelWorkers(pages, minPages, limit int) int {
	if pages < minPages {
		return 0
	}
	w := 1
	th := max(minPages, 1)
	for pages >= th*3 {
		w++
		th *= 3
		if th > (1<<31-1)/3 {
			break
		}
	}
	return min(w, limit)
}

// gatherResults adds every process's counters to the statement's (the
// leader's first), as EXPLAIN reports them. ExecParallelFinish adds each
// worker's WalUsage to the leader's pgWalUsage, and both report it:
// pg_stat_wal counts a worker's WAL twice. A read-only transaction that
// wrote WAL (hint-bit images) does not wait for it: RecordTransactionCommit
// → XLogSetAsyncXactLSN.
func (c *Cluster) gatherResults(res *StmtResult, all []*bufmgr.Backend) {
	for i, be := range all {
		res.Buf.Add(be.Buf)
		res.IOReadNs += be.IOReadNs
		res.WAL.Add(be.WAL)
		if i > 0 {
			c.statWALTwice.Records += be.WAL.Records
			c.statWALTwice.FPI += be.WAL.FPI
			c.statWALTwice.Bytes += be.WAL.Bytes
		}
		res.Rejects += be.Rejects
		c.foldWAL(be)
	}
	if res.WAL.Records > 0 && c.wal.SetAsyncXactLSN(c.wal.InsertLSN()) {
		c.wakeWalWriter(c.now)
	}
}

// newStream is the read stream a heap scan of rel uses: read_stream.c's from
// 17 (at maintenance_io_concurrency for VACUUM and ANALYZE), one page per
// read before.
func (c *Cluster) newStream(be *bufmgr.Backend, ring *strategy.Ring, rel *heap.Relation, maintenance, sequential bool, next func() (pg.BlockNumber, bool)) *bufmgr.ReadStream {
	cfg := bufmgr.StreamConfig{Version: c.S.Version}
	if c.S.Version >= 17 {
		cfg = c.streamConfig(maintenance)
	}
	if sequential { // READ_STREAM_SEQUENTIAL: the kernel's readahead is left to work
		cfg.Advice = false
	}
	return c.pool.NewReadStream(be, ring, rel.ID, cfg, next)
}

// scanParticipant reads rel through stream, checking every page's tuples
// (processPage) and releasing it.
func (c *Cluster) scanParticipant(be *bufmgr.Backend, ring *strategy.Ring, rel *heap.Relation, stream *bufmgr.ReadStream) *participant {
	p := &participant{be: be, ring: ring}
	vm := &vmPin{} // rs_vmbuffer, for 19's on-access pruning
	p.step = func() (bool, error) {
		b, blk, ok, err := stream.Next()
		if err == nil && ok {
			err = c.pruneOnAccess(be, b, rel, blk, vm)
		}
		if err != nil || !ok {
			if ok {
				c.pool.Unpin(be, b)
			}
			stream.End()
			vm.release(c, be)
			return true, err
		}
		c.processPage(be, b, rel, blk)
		c.pool.Unpin(be, b)
		return false, nil
	}
	return p
}

// processPage is page-at-a-time visibility (heap_prepare_pagescan /
// page_collect_tuples, heapgetpage before 17): every tuple of a page that is
// not all-visible is checked; a tuple whose inserter committed gets
// HEAP_XMIN_COMMITTED and the buffer goes through MarkBufferDirtyHint once.
func (c *Cluster) processPage(be *bufmgr.Backend, b pg.Buffer, rel *heap.Relation, blk pg.BlockNumber) {
	n := int64(rel.Tuples(blk))
	f := rel.Flags(blk)
	be.Now += costs.PageNs
	switch {
	case f&heap.PageAllVisible != 0:
		be.Now += n * costs.TupleAllVisNs
	case f&heap.PageHinted != 0:
		be.Now += n * costs.TupleNs
	default:
		be.Now += n * costs.TupleUnhintNs
		if n > 0 {
			c.pool.MarkBufferDirtyHint(be, b, rel.Hole(blk))
			rel.SetFlags(blk, heap.PageHinted)
		}
	}
}

// seqScan runs SELECT count(*) FROM rel.
func (c *Cluster) seqScan(rel *heap.Relation) (*StmtResult, error) {
	s := c.S
	leader, err := c.beginStatement(catalogScan)
	if err != nil {
		return nil, err
	}
	nblocks := c.pool.NBlocks(rel.ID)
	// initscan: a ring and sync scan only for tables larger than NBuffers/4.
	bulk := nblocks > s.NBuffers()/4
	syncscan := bulk && s.Bool("synchronize_seqscans")
	ringN := 0
	if bulk {
		ringN = c.RingBuffers(strategy.BulkRead)
	}
	// Planning: get_relation_info reads each btree's metapage
	// (_bt_getrootheight; not in EXPLAIN's executor counters), and count(*)
	// may be cheaper as an index-only scan of one of them.
	indexes := c.sortedIndexes(rel)
	if len(indexes) > 0 {
		saved, savedIO := leader.Buf, leader.IOReadNs
		for _, ix := range indexes {
			if err := c.readRelease(leader, pg.BufferTag{Rel: ix.ID, Block: 0}); err != nil {
				return nil, err
			}
		}
		leader.Buf, leader.IOReadNs = saved, savedIO
	}
	plan := c.planSeqScan(rel, nblocks)
	if ios, parallel, ok := c.cheapestIndexOnly(rel, nblocks, plan); ok {
		return c.indexOnlyScan(leader, rel, ios, parallel, c.now)
	}
	workers := 0
	if plan.Parallel {
		workers = min(plan.Workers, int(s.Int("max_parallel_workers")), int(s.Int("max_worker_processes")))
	}
	res := &StmtResult{Kind: "Seq Scan", Relation: rel.Name, Workers: workers, WorkersPlanned: 0}
	if plan.Parallel {
		res.WorkersPlanned = plan.Workers
	}
	if ringN > 0 {
		res.Strategy, res.RingBuffers = strategy.BulkRead, ringN
	}
	start := c.now

	var ps []*participant
	var pscan *parallelScan
	if workers > 0 {
		pscan = &parallelScan{nblocks: nblocks, syncscan: syncscan}
		if syncscan {
			pscan.start = c.sync.getLocation(rel.ID, nblocks)
		}
	}
	var serialStart pg.BlockNumber
	if workers == 0 && syncscan {
		serialStart = c.sync.getLocation(rel.ID, nblocks)
	}
	addParticipant := func(be *bufmgr.Backend) {
		ring := strategy.NewRing(strategy.BulkRead, ringN)
		var next func() (pg.BlockNumber, bool)
		if pscan != nil {
			w := &parallelWorkerState{}
			next = func() (pg.BlockNumber, bool) { return c.nextPage(pscan, w, rel.ID) }
		} else {
			// heapgettup_advance_block for a forward serial scan: from the
			// start block, wrapping, reporting at look-ahead time (17+).
			first, cur := true, serialStart
			next = func() (pg.BlockNumber, bool) {
				if nblocks == 0 {
					return 0, false
				}
				if first {
					first = false
					return cur, true
				}
				cur++
				if int(cur) >= nblocks {
					cur = 0
				}
				if syncscan {
					c.sync.report(rel.ID, cur)
				}
				if cur == serialStart {
					return 0, false
				}
				return cur, true
			}
		}
		cfg := c.streamConfig(false)
		cfg.Advice = false // heapam's seq scans are READ_STREAM_SEQUENTIAL
		stream := c.pool.NewReadStream(be, ring, rel.ID, cfg, next)
		ps = append(ps, c.scanParticipant(be, ring, rel, stream))
	}
	if workers == 0 || s.Bool("parallel_leader_participation") {
		addParticipant(leader)
	}
	var all []*bufmgr.Backend
	all = append(all, leader)
	for i := 0; i < workers; i++ {
		wb := bufmgr.NewBackend(bufmgr.BackgroundWorker, leader.Now+costs.WorkerStartNs)
		if err := c.touchCatalog(wb, catalogWorker); err != nil {
			return nil, err
		}
		all = append(all, wb)
		addParticipant(wb)
	}
	if err := c.run(ps); err != nil {
		return nil, err
	}
	c.finish(append(ps, &participant{be: leader}))
	c.gatherResults(res, all)
	res.TimeNs = c.now - start
	return res, nil
}
