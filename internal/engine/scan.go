package engine

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/catalog"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/planner"
	"github.com/pgbufsim/pgbufsim/strategy"
)

// Plan is what the planner decided for a count(*) sequential scan.
type Plan = planner.SeqScan

// planSeqScan is the planner's choice for SELECT count(*) FROM rel (planner.PlanSeqScan).
func (c *Cluster) planSeqScan(rel *heap.Relation, nblocks int) Plan {
	return planner.PlanSeqScan(planner.CostsFrom(c.S), planner.StatsOf(rel, nblocks))
}

// computeParallelWorker is compute_parallel_worker for a table's pages
// (planner.ParallelWorkers over min_parallel_table_scan_size).
func computeParallelWorker(s *Settings, nblocks, limit int) int {
	return planner.ParallelWorkers(nblocks, int(s.Int("min_parallel_table_scan_size")), limit)
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
	c.asyncCommit(res.WAL.Records, c.now)
}

// newStream is the read stream a heap scan of rel uses: read_stream.c's from
// 17 (at maintenance_io_concurrency for VACUUM and ANALYZE), one page per
// read before.
func (c *Cluster) newStream(be *bufmgr.Backend, ring *strategy.Ring, rel *heap.Relation, maintenance, sequential bool, next func() (pg.BlockNumber, bool)) *bufmgr.ReadStream {
	cfg := bufmgr.StreamConfig{Version: c.S.Version}
	if c.S.Version >= 17 {
		cfg = c.S.StreamConfig(maintenance)
	}
	if sequential { // READ_STREAM_SEQUENTIAL: the kernel's readahead is left to work
		cfg.Advice = false
	}
	return c.pool.NewReadStream(be, ring, rel.ID, cfg, next)
}

// scanParticipant reads rel through stream, checking every page's tuples
// (processPage) and releasing it; with prune, each page first goes through
// heap_page_prune_opt, as a page-at-a-time scan's heap_prepare_pagescan
// does (an MVCC snapshot's; CREATE INDEX's scan with SnapshotAny reads
// tuple by tuple and prunes nothing).
func (c *Cluster) scanParticipant(be *bufmgr.Backend, ring *strategy.Ring, rel *heap.Relation, stream *bufmgr.ReadStream, prune bool) *participant {
	p := &participant{be: be, ring: ring}
	vm := &vmPin{} // rs_vmbuffer, for 19's on-access pruning
	p.step = func() (bool, error) {
		b, blk, ok, err := stream.Next()
		if err == nil && ok && prune {
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
	be.Now += c.costs.PageNs
	switch {
	case f&heap.PageAllVisible != 0:
		be.Now += n * c.costs.TupleAllVisNs
	case f&heap.PageHinted != 0:
		be.Now += n * c.costs.TupleNs
	default:
		be.Now += n * c.costs.TupleUnhintNs
		if n > 0 {
			c.pool.MarkBufferDirtyHint(be, b, rel.Hole(blk))
			rel.SetFlags(blk, heap.PageHinted)
		}
	}
}

// seqScan runs SELECT count(*) FROM rel.
func (c *Cluster) seqScan(rel *heap.Relation) (*StmtResult, error) {
	s := c.S
	leader, err := c.beginStatement(catalog.Scan)
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

	var pscan *heap.ParallelScan
	if workers > 0 {
		pscan = &heap.ParallelScan{NBlocks: nblocks, SyncScan: syncscan}
		if syncscan {
			pscan.Start = c.sync.GetLocation(rel.ID, nblocks)
		}
	}
	var serialStart pg.BlockNumber
	var sync *heap.SyncScans // a serial sync scan reports its positions
	if workers == 0 && syncscan {
		serialStart, sync = c.sync.GetLocation(rel.ID, nblocks), &c.sync
	}
	ps, all, err := c.heapScanners(leader, rel, ringN, workers, pscan, heap.SerialScan(sync, rel.ID, nblocks, serialStart), true, catalog.Worker)
	if err != nil {
		return nil, err
	}
	if err := c.run(ps); err != nil {
		return nil, err
	}
	c.finish(append(ps, &participant{be: leader}))
	c.gatherResults(res, all)
	res.TimeNs = c.now - start
	return res, nil
}

// heapScanners are a heap scan's processes, each with its own read stream
// (READ_STREAM_SEQUENTIAL) and ring of ringN buffers (initscan gives every
// participant its own BAS_BULKREAD ring): the leader alone reading serial's
// blocks, or with workers sharing pscan's parallel block table, the leader
// too under parallel_leader_participation. A worker's start-up takes a
// core and pins worker's catalog pages (catalog.Worker, a query's;
// catalog.IndexWorker, a parallel index build's). all is the leader, then the workers.
func (c *Cluster) heapScanners(leader *bufmgr.Backend, rel *heap.Relation, ringN, workers int, pscan *heap.ParallelScan,
	serial func() (pg.BlockNumber, bool), prune bool, worker catalog.Kind) (ps []*participant, all []*bufmgr.Backend, err error) {
	add := func(be *bufmgr.Backend) {
		ring := strategy.NewRing(strategy.BulkRead, ringN)
		next := serial
		if workers > 0 {
			w := &heap.ParallelWorker{}
			next = func() (pg.BlockNumber, bool) { return pscan.NextPage(w, &c.sync, rel.ID) }
		}
		ps = append(ps, c.scanParticipant(be, ring, rel, c.newStream(be, ring, rel, false, true, next), prune))
	}
	if workers == 0 || c.S.Bool("parallel_leader_participation") {
		add(leader)
	}
	all = append(all, leader)
	for i := 0; i < workers; i++ {
		wb := bufmgr.NewBackend(bufmgr.BackgroundWorker, c.pool.IO().Cores().Run(leader.Now, c.costs.WorkerStartNs)) // its start-up takes a core
		if err := c.touchCatalog(wb, worker); err != nil {
			return nil, nil, err
		}
		all = append(all, wb)
		add(wb)
	}
	return ps, all, nil
}
