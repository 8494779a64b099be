package engine

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/catalog"
	"github.com/pgbufsim/pgbufsim/pg"
)

// System catalogs are modelled as one relation, "(other)", whose pages a
// session pins while it starts, plans and runs a statement: a workload input
// (which catalog rows a statement needs), measured on real servers per
// version, not a buffer-manager mechanism. Each statement runs in a new
// session, as `psql -c` would.

// The measured profiles live in package catalog; the engine's names for them.
type catalogKind = catalog.Kind

const (
	catalogSession     = catalog.Session
	catalogFirst       = catalog.First
	catalogScan        = catalog.Scan
	catalogScan1w      = catalog.Scan1w
	catalogInsert      = catalog.Insert
	catalogVacuum      = catalog.Vacuum
	catalogCheckpoint  = catalog.Checkpoint
	catalogBuffercache = catalog.Buffercache
	catalogTable       = catalog.Table
	catalogCopy        = catalog.Copy
	catalogWorker      = catalog.Worker
)

// catalogFor is the profile the version runs with (catalog.For).
func catalogFor(v pg.Version) *catalog.Profile { return catalog.For(v) }

// touchCatalog pins and releases the catalog pages of a session doing kind.
// They count in pg_stat_io but not in the statement's EXPLAIN counters (they
// belong to connection start, planning and executor start-up). The first
// session after the server starts also rebuilds the relcache init file,
// reading pg_class with a heap scan (so it sets the hint bits DDL left on the
// page of the scenario's rows). A session of DDL dirties the pages it writes
// (their WAL is not modelled, but they count as logged now); a page the
// measured profile shows dirtied by a reading session is one whose tuples
// it is the first to hint (MarkBufferDirtyHint: an image when hints are
// WAL-logged), which happens once.
func (c *Cluster) touchCatalog(be *bufmgr.Backend, kind catalogKind) error {
	if !c.S.Bool("catalog_pins") {
		return nil
	}
	saved, savedWAL, savedIO := be.Buf, be.WAL, be.IOReadNs
	defer func() {
		be.IOReadNs = savedIO
		// Catalog WAL (hint images) is the session's, not the statement's.
		extra := bufmgr.Backend{Type: be.Type, WAL: be.WAL.Sub(savedWAL)}
		c.foldWAL(&extra)
		be.Buf, be.WAL = saved, savedWAL
	}()
	prof := catalogFor(c.S.Version)
	pins := catalog.Decode(prof.Kinds[kind])
	if c.txn.active && kind != catalogWorker {
		if c.txn.started {
			// The block's session is open: only what this command adds to a plain session's.
			pins = catalog.Sub(pins, catalog.Decode(prof.Kinds[catalogSession]))
		}
		c.txn.started = true
	}
	first := false
	if c.initFileStale && kind != catalogWorker {
		c.initFileStale = false
		if f, ok := prof.Kinds[catalogFirst]; ok {
			first = true
			// The first session's pins, plus what this statement adds to a plain session's.
			pins = catalog.Add(catalog.Decode(f), catalog.Sub(pins, catalog.Decode(prof.Kinds[catalogSession])))
		}
	}
	if c.catalogHinted == nil {
		c.catalogHinted = map[int]bool{}
	}
	for blk, p := range pins {
		tag := pg.BufferTag{Rel: pg.CatalogRel, Block: pg.BlockNumber(blk)}
		for k := 0; k < p.N || (k == 0 && p.Dirty); k++ {
			b, _, err := c.pool.ReadBuffer(be, tag, nil)
			if err != nil {
				return err
			}
			if p.Dirty && k == 0 {
				if kind == catalogTable {
					c.pool.MarkBufferDirty(be, b)
					c.pool.SetPageLSN(b, c.wal.InsertLSN())
				} else if !c.catalogHinted[blk] {
					c.pool.MarkBufferDirtyHint(be, b, catalogPageHole)
					c.catalogHinted[blk] = true
				}
			}
			c.pool.Unpin(be, b)
		}
	}
	// The page holding the scenario's pg_class rows (one past the profile's pages).
	rowsPage := pg.BufferTag{Rel: pg.CatalogRel, Block: pg.BlockNumber(prof.Pages)}
	switch {
	case kind == catalogTable:
		// The catalog pages this table's rows land on beyond the profile's.
		for i := 0; i < prof.TableGrowthPages && c.tablesCreated > 0; i++ {
			blk := pg.BlockNumber(prof.Pages + 1 + (c.tablesCreated-1)*prof.TableGrowthPages + i)
			if int(blk) >= c.pool.NBlocks(pg.CatalogRel) {
				c.pool.ExtendOnDisk(be.Now, pg.CatalogRel, int(blk)+1)
			}
			b, _, err := c.pool.ReadBuffer(be, pg.BufferTag{Rel: pg.CatalogRel, Block: blk}, nil)
			if err != nil {
				return err
			}
			c.pool.MarkBufferDirty(be, b)
			c.pool.SetPageLSN(b, c.wal.InsertLSN())
			c.pool.Unpin(be, b)
		}
		c.tablesCreated++
		b, _, err := c.pool.ReadBuffer(be, rowsPage, nil)
		if err != nil {
			return err
		}
		c.pool.MarkBufferDirty(be, b)
		c.pool.SetPageLSN(b, c.wal.InsertLSN())
		c.pool.Unpin(be, b)
		c.pgClassUnhinted = true
	case first && c.pgClassUnhinted:
		b, _, err := c.pool.ReadBuffer(be, rowsPage, nil)
		if err != nil {
			return err
		}
		c.pool.MarkBufferDirtyHint(be, b, pgClassHole(c.S.Version))
		c.pool.Unpin(be, b)
		c.pgClassUnhinted = false
	}
	return nil
}

// vacuumWindowPins re-pins, inside VACUUM's counted window, the catalog
// lookups VACUUM makes as it ends (vac_update_relstats and the like), which
// VACUUM VERBOSE counts as hits; one of the measured hits is the pg_class
// page, which the model pins itself.
func (c *Cluster) vacuumWindowPins(be *bufmgr.Backend) error {
	prof := catalogFor(c.S.Version)
	return c.windowPins(be, catalogVacuum, prof.VacuumWindowHits-1)
}

// indexInsertPins pins, inside the statement, the catalog pages of a
// session's first index insertion (the btree's support functions looked up).
func (c *Cluster) indexInsertPins(be *bufmgr.Backend) error {
	prof := catalogFor(c.S.Version)
	return c.windowPins(be, catalogInsert, prof.IndexInsertHits)
}

// windowPins makes n catalog pins counted in the statement, on the most
// pinned pages of kind's profile.
func (c *Cluster) windowPins(be *bufmgr.Backend, kind catalogKind, n int) error {
	pins := catalog.Decode(catalogFor(c.S.Version).Kinds[kind])
	for blk := 0; blk < len(pins) && n > 0; blk++ {
		for k := 0; k < pins[blk].N && n > 0; k++ {
			if err := c.readRelease(be, pg.BufferTag{Rel: pg.CatalogRel, Block: pg.BlockNumber(blk)}); err != nil {
				return err
			}
			n--
		}
	}
	return nil
}

// catalogPageHole is the free space an image of a catalog page leaves out:
// that of the pg_class page measured on 15 (pgClassPageHole). Real catalog
// pages differ (images of 4–8 kB were seen); a workload input.
const catalogPageHole = pgClassPageHole
