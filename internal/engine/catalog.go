package engine

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/catalog"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/internal/engine/catpin"
	"github.com/pgbufsim/pgbufsim/internal/engine/vacwal"
	"github.com/pgbufsim/pgbufsim/pg"
)

// catalogFor is the profile the version runs with (catalog.For).
func catalogFor(v pg.Version) *catalog.Profile { return catalog.For(v) }

// touchCatalog pins and releases the catalog pages of a session doing kind
// (catpin.Pins.Touch).
func (c *Cluster) touchCatalog(be *bufmgr.Backend, kind catalog.Kind) error {
	c.cat.On = c.S.Bool("catalog_pins")
	before := c.wal.InsertLSN()
	err := c.cat.Touch(c.pool, c.wal, be, kind, c.catTxn())
	// A client session is taken to have logged WAL before its statement: on
	// the servers measured its catalog lookups prune catalog pages on access
	// (19beta1 after a restart: six PRUNE_ON_ACCESS of pg_proc pages before a
	// scan's first heap page), which the catalog profile models only for
	// verify's fresh setup (catpin.Pins.FreshSetup). A parallel worker starts
	// with nothing logged.
	be.SessionWAL = be.Type == bufmgr.ClientBackend || c.wal.InsertLSN() != before
	if be.Type == bufmgr.ClientBackend {
		c.StmtStart = c.cat.StmtLSN // before the relations it names are opened (catpin.Pins.StmtLSN)
	}
	return err
}

// catTxn is what the catalog pins need of the session's transaction block and settings.
func (c *Cluster) catTxn() catpin.Txn {
	return catpin.Txn{Active: c.txn.active, Started: &c.txn.started, FoldWAL: c.foldWAL, FullPageWrites: c.S.Bool("full_page_writes")}
}

// CatalogPins is the catalog pins' state (catpin.Pins).
func (c *Cluster) CatalogPins() *catpin.Pins { return &c.cat }

// TouchCatalogAlso pins and prunes what a session of kind does beyond a plain session (catpin.Pins.TouchAlso).
func (c *Cluster) TouchCatalogAlso(kind CatalogKind) error {
	return c.catalogStep(func(be *bufmgr.Backend) error { return c.cat.TouchAlso(c.pool, c.wal, be, kind, c.catTxn()) })
}

// catalogStep runs fn as a client backend of its own (catalog work outside the statement's counters).
func (c *Cluster) catalogStep(fn func(be *bufmgr.Backend) error) error {
	be := bufmgr.NewBackend(bufmgr.ClientBackend, c.now)
	err := fn(be)
	c.finish([]*participant{{be: be}})
	return err
}

// PlaceRows writes the catalog rows of the new table r (catpin.Pins.PlaceTable;
// a table with a TOAST table is looked up after by verify's SET STORAGE PLAIN).
func (c *Cluster) PlaceRows(r *heap.Relation) error {
	return c.catalogStep(func(be *bufmgr.Backend) error {
		invals, err := c.cat.PlaceTable(c.pool, c.wal, be, r, vacwal.PgClassRow(c.S.Version, r.Reloptions...), vacwal.PgClassRow(c.S.Version), r.HasToast && !c.txn.active, !c.txn.active, c.needsImage)
		if c.invals += invals; invals > 0 {
			c.endStatement(be, true) // CREATE TABLE's commit (inside a block, at commit)
		}
		return err
	})
}

// xlogCheckBufferNeedsBackup is XLogCheckBufferNeedsBackup (xloginsert.c)
// for a page last logged at lsn, with the process's own doPageWrites, false
// until its first WAL record: a parallel worker's first dirty page needs no
// image to it, so on-access pruning sets that one page all-visible (19).
func (c *Cluster) xlogCheckBufferNeedsBackup(be *bufmgr.Backend, lsn pg.LSN) bool {
	return (be.SessionWAL || be.WAL.Records > 0) && c.needsImage(lsn)
}

// vacuumWindowPins makes VACUUM's catalog pins inside its counted window
// (catpin.Pins.VacuumWindow).
func (c *Cluster) vacuumWindowPins(be *bufmgr.Backend, rel *heap.Relation) error {
	return c.cat.VacuumWindow(c.pool, be, len(c.sortedIndexes(rel)))
}

// indexInsertPins pins, inside the statement, the catalog pages of a
// session's first index insertion (the btree's support functions looked up).
func (c *Cluster) indexInsertPins(be *bufmgr.Backend) error {
	prof := catalogFor(c.S.Version)
	return c.cat.Window(c.pool, be, catalog.Insert, prof.IndexInsertHits)
}

// catalogPageHole is the free space an image of a catalog page leaves out:
// that of the pg_class page measured on 15 (vacwal.PgClassPageHole). Real catalog
// pages differ (images of 4–8 kB were seen); a workload input.
const catalogPageHole = vacwal.PgClassPageHole
