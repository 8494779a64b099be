// Package catpin is the catalog pages each session pins: the system
// catalogs are one relation, "(other)", whose pages a session pins while it
// starts, plans and runs a statement — a workload input (which catalog rows
// a statement needs), measured on real servers per version (package
// catalog), not a buffer-manager mechanism. Each statement runs in a new
// session, as `psql -c` would. Pins keeps what those pins leave behind
// between sessions: the pages already hinted, the pg_class page DDL left to
// hint, the relcache init file.
package catpin

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/catalog"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
)

// Pins is the catalog pins' state in one cluster.
type Pins struct {
	Version pg.Version
	// On is catalog_pins (off: sessions pin nothing).
	On bool
	// Hinted: catalog pages a reading session has hinted once.
	Hinted map[int]bool
	// TablesCreated counts CREATE TABLEs, whose catalog rows spread onto new pages.
	TablesCreated int
	// PgClassUnhinted: DDL left tuples on the pg_class rows page that only a heap scan of pg_class hints.
	PgClassUnhinted bool
	// InitFileStale: no session has rebuilt the relcache init file since the server started.
	InitFileStale bool
	// PgClassHole and PageHole are the image holes of the pg_class rows
	// page and of another catalog page.
	PgClassHole, PageHole int
	// FreshSetup: the catalogs are as verify's setup leaves them (extensions
	// just created, their dead pg_proc tuples not pruned yet); only then do
	// sessions prune (catalog.Profile.Prunes). A cluster whose extensions
	// were created long ago has had those pages pruned.
	FreshSetup bool
	// Pruned: catalog pages (catalog.Prune.Page) a session has pruned on access.
	Pruned map[string]bool
}

// Txn is what the session's transaction block means for its pins: in a
// block the session starts once (Started), and the WAL its hint images
// write is folded into pg_stat_io outside the statement's counters.
type Txn struct {
	Active  bool
	Started *bool
	FoldWAL func(*bufmgr.Backend)
	// FullPageWrites is full_page_writes (the prune's image).
	FullPageWrites bool
}

// Touch pins and releases the catalog pages of a session doing kind.
// They count in pg_stat_io but not in the statement's EXPLAIN counters (they
// belong to connection start, planning and executor start-up). The first
// session after the server starts also rebuilds the relcache init file,
// reading pg_class with a heap scan (so it sets the hint bits DDL left on the
// page of the scenario's rows). A session of DDL dirties the pages it writes
// (their WAL is not modelled, but they count as logged now); a page the
// measured profile shows dirtied by a reading session is one whose tuples
// it is the first to hint (MarkBufferDirtyHint: an image when hints are
// WAL-logged), which happens once.
func (p *Pins) Touch(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, kind catalog.Kind, txn Txn) error {
	if !p.On {
		return nil
	}
	saved, savedWAL, savedIO := be.Buf, be.WAL, be.IOReadNs
	defer func() {
		be.IOReadNs = savedIO
		// Catalog WAL (hint images) is the session's, not the statement's.
		extra := bufmgr.Backend{Type: be.Type, WAL: be.WAL.Sub(savedWAL)}
		txn.FoldWAL(&extra)
		be.Buf, be.WAL = saved, savedWAL
	}()
	prof := catalog.For(p.Version)
	pruneKind := kind
	if _, ok := prof.Kinds[kind]; !ok {
		kind = catalog.Session // a kind the version's profile lacks (15's show io) pins as a plain session
	}
	pins := catalog.Decode(prof.Kinds[kind])
	if txn.Active && kind != catalog.Worker {
		if *txn.Started {
			// The block's session is open: only what this command adds to a plain session's.
			pins = catalog.Sub(pins, catalog.Decode(prof.Kinds[catalog.Session]))
		}
		*txn.Started = true
	}
	first := false
	if p.InitFileStale && kind != catalog.Worker {
		p.InitFileStale = false
		if f, ok := prof.Kinds[catalog.First]; ok {
			first = true
			// The first session's pins, plus what this statement adds to a plain session's.
			pins = catalog.Add(catalog.Decode(f), catalog.Sub(pins, catalog.Decode(prof.Kinds[catalog.Session])))
		}
	}
	if p.Hinted == nil {
		p.Hinted = map[int]bool{}
	}
	for blk, pin := range pins {
		tag := pg.BufferTag{Rel: pg.CatalogRel, Block: pg.BlockNumber(blk)}
		for k := 0; k < pin.N || (k == 0 && pin.Dirty); k++ {
			b, _, err := pool.ReadBuffer(be, tag, nil)
			if err != nil {
				return err
			}
			if pin.Dirty && k == 0 {
				if kind == catalog.Table {
					pool.MarkBufferDirty(be, b)
					pool.SetPageLSN(b, w.InsertLSN())
				} else if !p.Hinted[blk] {
					pool.MarkBufferDirtyHint(be, b, p.PageHole)
					p.Hinted[blk] = true
				}
			}
			pool.Unpin(be, b)
		}
	}
	if first {
		p.prune(pool, w, be, catalog.First, txn.FullPageWrites)
	}
	p.prune(pool, w, be, pruneKind, txn.FullPageWrites)
	// The page holding the scenario's pg_class rows (one past the profile's pages).
	rowsPage := pg.BufferTag{Rel: pg.CatalogRel, Block: pg.BlockNumber(prof.Pages)}
	switch {
	case kind == catalog.Table:
		// The catalog pages this table's rows land on beyond the profile's.
		for i := 0; i < prof.TableGrowthPages && p.TablesCreated > 0; i++ {
			blk := pg.BlockNumber(prof.Pages + 1 + (p.TablesCreated-1)*prof.TableGrowthPages + i)
			if int(blk) >= pool.NBlocks(pg.CatalogRel) {
				pool.ExtendOnDisk(be.Now, pg.CatalogRel, int(blk)+1)
			}
			b, _, err := pool.ReadBuffer(be, pg.BufferTag{Rel: pg.CatalogRel, Block: blk}, nil)
			if err != nil {
				return err
			}
			pool.MarkBufferDirty(be, b)
			pool.SetPageLSN(b, w.InsertLSN())
			pool.Unpin(be, b)
		}
		p.TablesCreated++
		b, _, err := pool.ReadBuffer(be, rowsPage, nil)
		if err != nil {
			return err
		}
		pool.MarkBufferDirty(be, b)
		pool.SetPageLSN(b, w.InsertLSN())
		pool.Unpin(be, b)
		p.PgClassUnhinted = true
	case first && p.PgClassUnhinted:
		b, _, err := pool.ReadBuffer(be, rowsPage, nil)
		if err != nil {
			return err
		}
		pool.MarkBufferDirtyHint(be, b, p.PgClassHole)
		pool.Unpin(be, b)
		p.PgClassUnhinted = false
	}
	return nil
}

// PruneAlso prunes, as part of be's session, what a session of kind would
// prune beyond those already pruned (a mark that reads pg_stat_io after the
// WAL position: the pg_stat_io query's prunes come after it). Its WAL is the
// session's, as Touch's.
func (p *Pins) PruneAlso(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, kind catalog.Kind, txn Txn) {
	if !p.On {
		return
	}
	savedWAL := be.WAL
	p.prune(pool, w, be, kind, txn.FullPageWrites)
	extra := bufmgr.Backend{Type: be.Type, WAL: be.WAL.Sub(savedWAL)}
	txn.FoldWAL(&extra)
	be.WAL = savedWAL
}

// prune is heap_page_prune_opt (pruneheap.c) on the catalog pages a session
// of kind reaches that the setup left prunable (catalog.Profile.Prunes),
// each once: the pages were last written before the setup's restart, so
// the first change since needs an image. With hint bits WAL-logged, the
// visibility checks pruning makes (heap_prune_satisfies_vacuum) hint the
// page first: MarkBufferDirtyHint's XLOG_FPI_FOR_HINT (XLogSaveBufferForHint
// forces the image whatever full_page_writes says), then a plain prune
// record; otherwise one prune record, with the image when full_page_writes
// is on (XLogCheckBufferNeedsBackup). The measured image sizes are the
// uncompressed ones (wal_compression is not applied to them), and the page
// stays clean in the simulated pool (the catalog's pages are the profile's,
// which does not name every pruned page).
func (p *Pins) prune(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, kind catalog.Kind, fpw bool) {
	recs := catalog.PrunesFor(p.Version)[kind]
	if !p.FreshSetup || len(recs) == 0 {
		return
	}
	if p.Pruned == nil {
		p.Pruned = map[string]bool{}
	}
	hints := pool.XLogHintBitIsNeeded()
	for _, r := range recs {
		if p.Pruned[r.Page] {
			continue
		}
		p.Pruned[r.Page] = true
		switch {
		case hints:
			_, be.Now = w.Insert(be.Now, &be.WAL, r.Hint, 1)
			_, be.Now = w.Insert(be.Now, &be.WAL, r.Plain, 0)
		case fpw:
			_, be.Now = w.Insert(be.Now, &be.WAL, r.Image, 1)
		default:
			_, be.Now = w.Insert(be.Now, &be.WAL, r.Plain, 0)
		}
	}
}

// Window makes n catalog pins counted in the statement, on the most pinned
// pages of kind's profile.
func (p *Pins) Window(pool *bufmgr.Pool, be *bufmgr.Backend, kind catalog.Kind, n int) error {
	pins := catalog.Decode(catalog.For(p.Version).Kinds[kind])
	for blk := 0; blk < len(pins) && n > 0; blk++ {
		for k := 0; k < pins[blk].N && n > 0; k++ {
			b, _, err := pool.ReadBuffer(be, pg.BufferTag{Rel: pg.CatalogRel, Block: pg.BlockNumber(blk)}, nil)
			if err != nil {
				return err
			}
			pool.Unpin(be, b)
			n--
		}
	}
	return nil
}
