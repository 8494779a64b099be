package engine

import (
	"fmt"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/catalog"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/nbtree"
	"github.com/pgbufsim/pgbufsim/pg"
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
	var ring *strategy.Ring
	if nblocks > c.S.NBuffers()/4 {
		ringN = c.RingBuffers(strategy.BulkRead)
		ring = strategy.NewRing(strategy.BulkRead, ringN)
	}
	next := pg.BlockNumber(0)
	cb := func() (pg.BlockNumber, bool) {
		if int(next) >= nblocks {
			return 0, false
		}
		next++
		return next - 1, true
	}
	p := c.scanParticipant(be, ring, rel, c.newStream(be, ring, rel, false, true, cb), false)
	if err := c.run([]*participant{p}); err != nil {
		return nil, err
	}
	be.Now = max(be.Now, c.now)
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
	res := &StmtResult{Kind: "Create Index", Relation: rel.Name, Strategy: strategy.BulkRead, RingBuffers: ringN, Buf: be.Buf, WAL: be.WAL, IOReadNs: be.IOReadNs}
	if ringN == 0 {
		res.Strategy = strategy.Normal
	}
	res.Extra = append(res.Extra, fmt.Sprintf("index %s: %d pages (%d leaves, %d levels)", name, ix.Pages(), ix.Leaves(), len(ix.Levels())))
	res.IndexPages = ix.Pages()
	if w := computeParallelWorker(c.S, nblocks, int(c.S.Int("max_parallel_maintenance_workers"))); w > 0 {
		// plan_create_index_workers would launch workers for the build scan.
		res.Extra = append(res.Extra, fmt.Sprintf("notice: PostgreSQL would build this with %d parallel workers; the simulated build is serial", w))
		// The parallel build's workers leave pg_class hinted (catpin.Pins.ScanPgClass).
		if err := c.cat.ScanPgClass(c.pool, c.wal, be, c.needsImage); err != nil {
			return nil, err
		}
	}
	c.endStatement(be, true)
	c.finish([]*participant{p})
	res.TimeNs = c.now - start
	c.foldWAL(be)
	return res, nil
}
