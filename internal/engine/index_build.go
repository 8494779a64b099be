package engine

import (
	"fmt"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/catalog"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/nbtree"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/planner"
	"github.com/pgbufsim/pgbufsim/strategy"
)

// createIndex is CREATE INDEX NAME ON TABLE (id), or (key) when key is set:
// the build's heap scan (a seq scan's strategy: a BULKREAD ring over
// NBuffers/4, hint bits set on every tuple it checks), then the index pages
// nbtree lays out written and logged page by page (nbtsort.c).
func (c *Cluster) createIndex(name string, rel *heap.Relation, key *nbtree.Key, pkey bool) (*StmtResult, error) {
	be, err := c.beginStatement(catalog.Index)
	if err != nil {
		return nil, err
	}
	start := c.now
	nblocks := rel.NPages()
	ringN := 0
	if nblocks > c.S.NBuffers()/4 {
		ringN = c.RingBuffers(strategy.BulkRead)
	}
	// index_build → plan_create_index_workers: btbuild's heap scan in
	// parallel (_bt_begin_parallel, the leader taking part), each process
	// with its own ring over a parallel block table (table_beginscan_parallel;
	// a sync scan's start over NBuffers/4); serially from block 0 otherwise.
	// A worker starts with empty caches (ParallelWorkerMain, _bt_parallel_build_main).
	workers := min(planner.IndexBuildWorkers(nblocks, int(c.S.Int("min_parallel_table_scan_size")), int(c.S.Int("max_parallel_maintenance_workers")), int(c.S.Int("maintenance_work_mem"))), int(c.S.Int("max_parallel_workers")), int(c.S.Int("max_worker_processes")))
	var pscan *heap.ParallelScan
	if workers > 0 {
		pscan = &heap.ParallelScan{NBlocks: nblocks, SyncScan: ringN > 0 && c.S.Bool("synchronize_seqscans")}
		if pscan.SyncScan {
			pscan.Start = c.sync.GetLocation(rel.ID, nblocks)
		}
	}
	ps, all, err := c.heapScanners(be, rel, ringN, workers, pscan, heap.SerialScan(nil, rel.ID, nblocks, 0), false, catalog.IndexWorker)
	if err != nil {
		return nil, err
	}
	if err := c.run(ps); err != nil {
		return nil, err
	}
	for _, wb := range all { // _bt_parallel_heapscan: the leader waits for every participant
		be.Now = max(be.Now, wb.Now, c.now)
	}
	id := pg.RelID(len(c.rels))
	c.rels = append(c.rels, nil)
	ix := nbtree.New(name, rel, id)
	if key != nil {
		ix = nbtree.NewOnKey(name, rel, id, *key)
	}
	c.pool.CreateRel(id, 0, true)
	c.pool.ExtendOnDisk(be.Now, id, ix.Pages())
	c.indexOwner(id, ix)
	had := c.hasIndex(rel) // then index_create's catalog rows (catpin.Pins.IndexCreate), looked up after
	if err := c.cat.IndexCreate(c.pool, c.wal, be, id, name, ix.Column(), pkey, c.needsImage); err != nil {
		return nil, err
	}
	if err := c.catalogStep(func(lb *bufmgr.Backend) error { return c.cat.LookUpAfter(c.pool, c.wal, lb, id, !c.txn.active) }); err != nil {
		return nil, err
	}
	// _bt_blwritepage: the pages logged as written (nbtree.Index.LogBuild).
	ix.LogBuild(c.S.Version, func(blk pg.BlockNumber, hole int) int { return c.imageLen(be, pg.BufferTag{Rel: id, Block: blk}, hole) },
		func(recLen, nfpi int, blks []pg.BlockNumber) {
			var lsn pg.LSN
			lsn, be.Now = c.wal.Insert(be.Now, &be.WAL, recLen, nfpi)
			for _, b := range blks {
				c.pool.SetPageLSNOnDisk(id, b, lsn)
			}
		})
	if c.S.Version < 17 {
		// _bt_load ends with smgrimmedsync: the pages were written outside
		// shared buffers, so no checkpoint would flush them (17+ registers the
		// sync with the checkpointer instead: smgr_bulk_finish).
		be.Now = c.storage.Sync(be.Now, id)
	}
	c.indexes[name] = ix
	c.indexOwner(id, ix)
	invals, err := c.cat.IndexUpdateStats(c.pool, c.wal, be, rel, id, nblocks, had, !c.S.Bool("autovacuum") || !rel.Autovacuum, pkey, &c.av.Counts(rel.ID).RelAllFrozen, c.needsImage)
	if c.invals += invals; err != nil {
		return nil, err
	}
	res := &StmtResult{Kind: "Create Index", Relation: rel.Name, Strategy: strategy.BulkRead, RingBuffers: ringN, Buf: be.Buf, WAL: be.WAL, IOReadNs: be.IOReadNs, Workers: workers}
	for _, wb := range all[1:] { // _bt_end_parallel: InstrAccumParallelQuery, as a Gather's workers
		res.Buf.Add(wb.Buf)
		res.IOReadNs += wb.IOReadNs
		res.WAL.Add(wb.WAL)
		c.statWALTwice.Add(wb.WAL)
		c.foldWAL(wb)
	}
	if ringN == 0 {
		res.Strategy = strategy.Normal
	}
	res.Extra = append(res.Extra, fmt.Sprintf("index %s: %d pages (%d leaves, %d levels)", name, ix.Pages(), ix.Leaves(), len(ix.Levels())))
	res.IndexPages = ix.Pages()
	if workers > 0 {
		// The parallel build's workers leave pg_class hinted (catpin.Pins.ScanPgClass).
		if err := c.cat.ScanPgClass(c.pool, c.wal, be, c.needsImage); err != nil {
			return nil, err
		}
	}
	c.endStatement(be, true)
	c.finish(append(ps, &participant{be: be}))
	res.TimeNs = c.now - start
	c.foldWAL(be)
	return res, nil
}
