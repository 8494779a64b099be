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
	"github.com/pgbufsim/pgbufsim/internal/engine/pgclass"
	"github.com/pgbufsim/pgbufsim/internal/engine/vacwal"
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
	// Class is pg_class's pages: where the scenario's rows lie.
	Class *pgclass.Class
	// InitFileStale: no session has rebuilt the relcache init file since the server started.
	InitFileStale bool
	// PageHole is the image hole of a catalog page not modelled page by page.
	PageHole int
	// FreshSetup: the catalogs are as verify's setup leaves them (extensions
	// just created, their dead pg_proc tuples not pruned yet); only then do
	// sessions prune (catalog.Profile.Prunes). A cluster whose extensions
	// were created long ago has had those pages pruned.
	FreshSetup bool
	// Pruned: catalog pages (catalog.Prune.Page) a session has pruned on access.
	Pruned map[string]bool
	// Index is pg_index's pages: where the scenario's indexes' rows lie (PgIndex).
	Index *pgclass.Class
	// fsmLSN: the LSN of each catalog FSM page's last hint image (fsmHints).
	fsmLSN map[fsmPage]pg.LSN
	// StatsModelled: the next ANALYZE's pg_statistic rows are modelled
	// (StatColumns), so its session leaves the pages the Analyze profile
	// shows written to Statistics.
	StatsModelled bool
	// Statistic is pg_statistic's pages (PgStatistic), StatIdx its index's rightmost leaf.
	Statistic *pgclass.Class
	StatIdx   *StatIndex
	// Notes: what the catalog model left out since last taken (TakeNotes).
	Notes []string
	// LookUps: the pg_class rows the next session looks up (the relations
	// its command names), hinted as its statement starts (pgclass.Class.LookUp),
	// with their pg_attribute rows (attrLookUp).
	LookUps []pgclass.Key
	// Attr is pg_attribute's pages: where the scenario's relations' column rows lie.
	Attr *Attributes
	// held: the catalog pages TableCreate has pinned for the statement (buffer).
	held []heldBuf
	// OidCount is the OIDs left of the last XLOG_NEXTOID's prefetch (0
	// after a server start: the first OID assigned logs one; NextOids).
	OidCount int
	// DDL is the catalog index leaves and pg_depend page the scenario's DDL inserts into (ddlLeaves).
	DDL *DDLLeaves
	// StmtLSN is the insert position after the last session's start-up,
	// before its statement opens the relations it names (a client's
	// statement starts there: the server's relcache builds come after the
	// session's first query).
	StmtLSN pg.LSN
	// Dirtied counts the catalog buffers sessions have dirtied (clean to
	// dirty: hints, prunes, DDL's rows), which the statements' own counters
	// leave out; a command measured over the whole pool (pgbench's run,
	// read off pg_buffercache's dirty buffers and the writes) counts them.
	Dirtied int64
	// pruneDirty: during a session's pins, the profile pages its prunes
	// dirty (catalog.Profile.ByPrunes, catalog.Hint.Prune).
	pruneDirty map[int]bool
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
// (those whose WAL is not modelled count as logged now); a page the
// measured profile shows dirtied by a reading session is one whose tuples
// it is the first to hint (MarkBufferDirtyHint: an image when hints are
// WAL-logged), which happens once.
func (p *Pins) Touch(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, kind catalog.Kind, txn Txn) error {
	p.StmtLSN = w.InsertLSN()
	// A parallel worker (a query's or an index build's) is no session of the client's.
	worker := kind == catalog.Worker || kind == catalog.IndexWorker
	if !worker && (!txn.Active || !*txn.Started) && p.Class != nil {
		p.Class.SessionStart()
		p.PgIndex().SessionStart()
		p.PgStatistic().SessionStart()
		p.PgAttribute().Class.NewSession()
	}
	if p.On && p.Class != nil && pool.Lookup(pg.BufferTag{Rel: pg.CatalogRel, Block: pg.BlockNumber(catalog.PgClassFSMLeaf(p.Version))}) == pg.InvalidBuffer {
		// Checked before any session pins it again: every eviction is seen.
		p.Class.FSMEvicted()
	}
	if !p.On {
		p.LookUps = p.LookUps[:0]
		return nil
	}
	saved, savedWAL, savedIO := be.Buf, be.WAL, be.IOReadNs
	defer func() {
		be.IOReadNs = savedIO
		// Catalog WAL (hint images) is the session's, not the statement's.
		extra := bufmgr.Backend{Type: be.Type, WAL: be.WAL.Sub(savedWAL)}
		txn.FoldWAL(&extra)
		p.Dirtied += be.Buf.Dirtied - saved.Dirtied
		be.Buf, be.WAL = saved, savedWAL
	}()
	prof := catalog.For(p.Version)
	pruneKind := kind
	if _, ok := prof.Kinds[kind]; !ok {
		kind = catalog.Session // a kind the version's profile lacks (15's show io) pins as a plain session
	}
	pins := catalog.Decode(prof.Kinds[kind])
	if h, ok := catalog.HintsFor(p.Version)[kind]; ok {
		// A pgbench session's first hints, measured in a run's order; the
		// pages it prunes (prune, below) are dirtied by the prune.
		pins = catalog.WithHints(pins, h, func(x catalog.Hint) bool { return p.prunes(x.Prune) })
	}
	if txn.Active && !worker {
		if *txn.Started {
			// The block's session is open: only what this command adds to a plain session's.
			pins = catalog.Sub(pins, catalog.Decode(prof.Kinds[catalog.Session]))
		}
		*txn.Started = true
	}
	first := false
	if p.InitFileStale && !worker {
		p.InitFileStale = false
		if f, ok := prof.Kinds[catalog.First]; ok {
			first = true
			// The first session's pins, plus what this statement adds to a plain session's.
			pins = catalog.Add(catalog.Decode(f), catalog.Sub(pins, catalog.Decode(prof.Kinds[catalog.Session])))
		}
	}
	// The dirty marks on the pages this session's prunes reach are the
	// prunes' (catalog.Profile.ByPrunes).
	recs := catalog.PrunesFor(p.Version)[pruneKind]
	if first {
		recs = append(append([]catalog.Prune(nil), catalog.PrunesFor(p.Version)[catalog.First]...), recs...)
	}
	pins, p.pruneDirty = prof.ByPrunes(pins, recs, func(r catalog.Prune) bool { return p.prunes(r.Page) })
	defer func() { p.pruneDirty = nil }()
	if err := p.pinAll(pool, w, be, kind, pins); err != nil {
		return err
	}
	needsImage := func(lsn pg.LSN) bool { return txn.FullPageWrites && lsn <= w.RedoRecPtr() }
	if p.Class != nil && (first || kind == catalog.Buffercache) {
		if err := p.prunePinned(pool, w, be, pins, needsImage); err != nil {
			return err
		}
	}
	if first {
		p.prune(pool, w, be, catalog.First, txn.FullPageWrites)
	}
	p.prune(pool, w, be, pruneKind, txn.FullPageWrites)
	switch {
	case kind == catalog.Table:
		// The catalog pages this table's rows land on beyond the profile's.
		for i := 0; i < prof.TableGrowthPages && p.TablesCreated > 0; i++ {
			blk := pg.BlockNumber(prof.Pages + 1 + (p.TablesCreated-1)*prof.TableGrowthPages + i)
			if int(blk) >= pool.NBlocks(pg.CatalogRel) {
				pool.ExtendOnDisk(be.Now, pg.CatalogRel, int(blk)+1)
			}
			if err := p.dirty(pool, w, be, blk); err != nil {
				return err
			}
		}
		p.TablesCreated++
	case p.Class != nil && (first || kind == catalog.Buffercache || kind == catalog.StatTables || kind == catalog.Worker):
		// A heap scan of pg_class hints the row versions DDL left (their
		// writers' commits): the relcache init file's rebuild, the
		// queries of show buffercache and show stat tables, which join
		// pg_class whole, and a parallel worker's start-up (ScanPgClass:
		// measured on 18 beside a serial run of the same scan, whose
		// session leaves the TOAST rows on pg_class's page 0 unhinted).
		if err := p.classAccess(pool, w, be, nil, needsImage); err != nil {
			return err
		}
	}
	p.StmtLSN = w.InsertLSN()
	if p.Class != nil && len(p.LookUps) > 0 {
		err := p.classAccess(pool, w, be, p.LookUps, needsImage)
		if err == nil {
			err = p.attrLookUp(pool, w, be, p.LookUps, needsImage)
		}
		p.LookUps = p.LookUps[:0]
		if err != nil {
			return err
		}
	}
	return nil
}

// isPgClass: catalog page blk is one of pg_class's, whose writes and hints
// package pgclass models (the profile's dirtied pg_class pages are where
// the measuring session's own table rows lay).
func (p *Pins) isPgClass(blk int) bool {
	if p.Class == nil {
		return false
	}
	for _, b := range p.Class.Profile {
		if b == blk {
			return true
		}
	}
	return false
}

// PgClassBlock is the catalog block holding pg_class's page k: its page in
// the profile, or the page one past the profile's (a page pg_class was
// extended by; all such share it).
func (p *Pins) PgClassBlock(k int) pg.BlockNumber {
	if p.Class != nil && k < len(p.Class.Profile) && p.Class.Profile[k] >= 0 {
		return pg.BlockNumber(p.Class.Profile[k])
	}
	return pg.BlockNumber(catalog.For(p.Version).Pages)
}

// Hint sets hint bits on pg_class's pages (MarkBufferDirtyHint: an image
// of the page, without its hole, when hints are WAL-logged and the page was
// last logged before the redo pointer).
func (p *Pins) Hint(pool *bufmgr.Pool, be *bufmgr.Backend, pages []int) error {
	if !p.On {
		return nil
	}
	for _, k := range pages {
		b, _, err := pool.ReadBuffer(be, pg.BufferTag{Rel: pg.CatalogRel, Block: p.PgClassBlock(k)}, nil)
		if err != nil {
			return err
		}
		pool.MarkBufferDirtyHint(be, b, p.Class.Hole(k))
		pool.Unpin(be, b)
	}
	return nil
}

// ScanPgClass is a heap scan of pg_class hinting every committed row. Measured
// on 15 and 18 after a parallel CREATE INDEX (its workers' start scans
// pg_class): every row is hinted, where after a serial build the TOAST rows
// no lookup reached are not.
func (p *Pins) ScanPgClass(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, needsImage func(pg.LSN) bool) error {
	if p.Class == nil {
		return nil
	}
	return p.classAccess(pool, w, be, nil, needsImage)
}

// classAccess is a lookup of the keys' pg_class rows (an index scan
// reaching their pages), or with keys nil a heap scan of pg_class (every
// page): heap_page_prune_opt on each page reached (prunePage: a
// reltoastrelid update, HOT, left the table's first version dead), then the
// committed versions reached hinted (Hint).
func (p *Pins) classAccess(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, keys []pgclass.Key, needsImage func(pg.LSN) bool) error {
	reached := p.Class.Reaches(keys...)
	if keys == nil {
		reached = reached[:0]
		for k := range p.Class.Pages {
			reached = append(reached, k)
		}
	}
	for _, k := range reached {
		if err := p.prunePage(pool, w, be, p.Class, k, p.PgClassBlock(k), needsImage); err != nil {
			return err
		}
	}
	if keys == nil {
		return p.Hint(pool, be, p.Class.HeapScan())
	}
	return p.Hint(pool, be, p.Class.LookUp(keys...))
}

// DirtyPgClass is DDL writing a row on pg_class's page k (its WAL is not
// modelled, but the page counts as logged now).
func (p *Pins) DirtyPgClass(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, k int) error {
	if !p.On {
		return nil // catalog_pins=off: the DDL's catalog writes are left out too
	}
	return p.dirty(pool, w, be, p.PgClassBlock(k))
}

func (p *Pins) dirty(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, blk pg.BlockNumber) error {
	b, _, err := pool.ReadBuffer(be, pg.BufferTag{Rel: pg.CatalogRel, Block: blk}, nil)
	if err != nil {
		return err
	}
	pool.MarkBufferDirty(be, b)
	pool.SetPageLSN(b, w.InsertLSN())
	pool.Unpin(be, b)
	return nil
}

// TouchAlso is the rest of a plain session's work when it goes on to do
// what a session of kind does (a mark that reads pg_stat_io after the WAL
// position: the pg_stat_io query's catalog lookups come after it): the
// pins of kind beyond a plain session's, then what kind prunes beyond those
// already pruned. Its WAL is the session's, as Touch's.
func (p *Pins) TouchAlso(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, kind catalog.Kind, txn Txn) error {
	if !p.On {
		return nil
	}
	saved, savedWAL, savedIO := be.Buf, be.WAL, be.IOReadNs
	prof := catalog.For(p.Version)
	var err error
	if k, ok := prof.Kinds[kind]; ok {
		pins := catalog.Sub(catalog.Decode(k), catalog.Decode(prof.Kinds[catalog.Session]))
		pins, p.pruneDirty = prof.ByPrunes(pins, catalog.PrunesFor(p.Version)[kind], func(r catalog.Prune) bool { return p.prunes(r.Page) })
		err = p.pinAll(pool, w, be, kind, pins)
		p.pruneDirty = nil
	}
	if err == nil {
		p.prune(pool, w, be, kind, txn.FullPageWrites)
	}
	extra := bufmgr.Backend{Type: be.Type, WAL: be.WAL.Sub(savedWAL)}
	txn.FoldWAL(&extra)
	p.Dirtied += be.Buf.Dirtied - saved.Dirtied
	be.Buf, be.WAL, be.IOReadNs = saved, savedWAL, savedIO
	return err
}

// pinAll pins and releases each catalog page as often as pins says (in rounds), a
// session of kind dirtying the pages it writes (DDL) or hinting, once, the
// pages the measured profile shows a reading session dirtied.
func (p *Pins) pinAll(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, kind catalog.Kind, pins []catalog.Pin) error {
	if p.Hinted == nil {
		p.Hinted = map[int]bool{}
	}
	// The profile counts each page's pins, not their order. A page's pins
	// come from lookups spread over the session (connection start, each
	// query's parse, plan and executor start-up), so the pins go in rounds:
	// round k pins once every page pinned more than k times. A pin that
	// misses allocates a buffer (StrategyGetBuffer's clock sweep, freelist.c;
	// after a scan every buffer may be in use, and the sweep goes round the
	// pool once, taking one off each usage count), and the hot pages' later
	// pins bump them back (PinBuffer, bufmgr.c) as on the server, where
	// all of a page's pins at once left the hot pages one below 5 after such
	// a sweep.
	for round := 0; ; round++ {
		pinned := false
		for blk, pin := range pins {
			if round >= pin.N && (round > 0 || !pin.Dirty) {
				continue
			}
			if kind == catalog.Analyze && p.StatsModelled && pin.Dirty && p.isPgStatistic(blk) {
				continue // the pg_statistic pages ANALYZE writes: pinned as Statistics places its rows
			}
			if pin.Dirty && p.Class != nil && p.isPgAttribute(blk) {
				pin.Dirty = false // the pg_attribute pages the model writes and hints itself (PlaceAttributes, attrLookUp)
			}
			pinned = true
			b, _, err := pool.ReadBuffer(be, pg.BufferTag{Rel: pg.CatalogRel, Block: pg.BlockNumber(blk)}, nil)
			if err != nil {
				return err
			}
			if pin.Dirty && round == 0 && !p.isPgClass(blk) && (p.Class == nil || !p.isPgIndex(blk)) {
				if p.pruneDirty[blk] {
					pool.MarkBufferDirty(be, b) // heap_page_prune's (its records are prune's)
				} else if kind == catalog.Table || kind == catalog.Index || kind == catalog.Analyze { // DDL: rows written
					pool.MarkBufferDirty(be, b)
					pool.SetPageLSN(b, w.InsertLSN())
				} else if !p.Hinted[blk] {
					pool.MarkBufferDirtyHint(be, b, p.PageHole)
					p.Hinted[blk] = true
				}
			}
			pool.Unpin(be, b)
		}
		if !pinned {
			break
		}
	}
	return nil
}

// prunes: page (catalog.Prune.Page) is still to be pruned on access, by
// the session about to reach it (prune).
func (p *Pins) prunes(page string) bool { return p.FreshSetup && !p.Pruned[page] }

// prune is heap_page_prune_opt (pruneheap.c) on the catalog pages a session
// of kind reaches that the setup left prunable (catalog.Profile.Prunes),
// each once: the pages were last written before the setup's restart, so
// the first change since needs an image. With hint bits WAL-logged, the
// visibility checks pruning makes (heap_prune_satisfies_vacuum) hint the
// page first: MarkBufferDirtyHint's XLOG_FPI_FOR_HINT (XLogSaveBufferForHint
// forces the image whatever full_page_writes says), then a plain prune
// record; otherwise one prune record, with the image when full_page_writes
// is on (XLogCheckBufferNeedsBackup). The measured image sizes are the
// uncompressed ones (wal_compression is not applied to them). A pruned page
// of the profile's is dirtied (heap_page_prune_opt's prune marks the buffer
// dirty; a page the profile does not name stays out of the simulated
// pool), as the session's own mark on it is (catalog.Profile.ByPrunes).
func (p *Pins) prune(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, kind catalog.Kind, fpw bool) {
	recs := catalog.PrunesFor(p.Version)[kind]
	if !p.FreshSetup || len(recs) == 0 {
		return
	}
	if p.Pruned == nil {
		p.Pruned = map[string]bool{}
	}
	hints := pool.XLogHintBitIsNeeded()
	prof := catalog.For(p.Version)
	for _, r := range recs {
		if p.Pruned[r.Page] {
			continue
		}
		p.Pruned[r.Page] = true
		if blk, ok := prof.Block(r.Page); ok {
			// The prune marks the buffer dirty whether or not the session's
			// profile marks the page (a later kind's mark on it is dropped:
			// ByPrunes). It runs under the pin of the access that reaches
			// the page, so a resident page (pinned by pinAll) takes no
			// second access: a pin here would count a hit the server does
			// not make and raise the buffer's usage count, which moves the
			// sweep's victims. A page no longer resident (a transaction's
			// later statement, whose session pins came at its start, in a
			// pool its statements have cycled) is read back by that access.
			tag := pg.BufferTag{Rel: pg.CatalogRel, Block: pg.BlockNumber(blk)}
			if b := pool.Lookup(tag); b != pg.InvalidBuffer {
				pool.MarkBufferDirty(be, b)
			} else if b, _, err := pool.ReadBuffer(be, tag, nil); err == nil {
				pool.MarkBufferDirty(be, b)
				pool.Unpin(be, b)
			}
		}
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

// VacuumWindow re-pins, inside VACUUM's counted window, the catalog lookups
// VACUUM makes as it ends (vac_update_relstats and the like), which VACUUM
// VERBOSE counts as hits; one of the measured hits is the pg_class page,
// which the model pins itself. Each of the table's btrees adds its measured
// pins (vac_open_indexes building its relcache entry; on the server before
// the heap scan, here with the rest).
func (p *Pins) VacuumWindow(pool *bufmgr.Pool, be *bufmgr.Backend, indexes int) error {
	prof := catalog.For(p.Version)
	n := prof.VacuumWindowHits - 1
	if indexes > 0 {
		n += prof.VacuumIndexWindowHits + (indexes-1)*prof.VacuumNextIndexWindowHits
	}
	return p.Window(pool, be, catalog.Vacuum, n)
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

// PlaceRows is the pg_class rows of a new relation rel whose own row has
// rowData bytes (vacwal.PgClassRow): heap_create_with_catalog's row, then,
// with a TOAST table, the TOAST table's and its index's rows (no
// reloptions) and the reltoastrelid update of rel's row
// (create_toast_table's CatalogTupleUpdate). Each page written is dirtied
// by be. lookAfter: the DDL commits and a statement of the same session
// looks the relation up (verify's `table` sets its varlena columns PLAIN
// with ALTER TABLE; its `index` reads the index's size), hinting its row.
func (p *Pins) PlaceRows(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, rel pg.RelID, rowData, plainData int, toast, lookAfter bool) error {
	if p.Class == nil {
		return nil
	}
	pages := []int{p.Class.Insert(pgclass.Key{Rel: rel}, pgclass.RowLen(rowData))}
	if toast {
		pages = append(pages,
			p.Class.Insert(pgclass.Key{Rel: rel, Kind: pgclass.Toast}, pgclass.RowLen(plainData)),
			p.Class.Insert(pgclass.Key{Rel: rel, Kind: pgclass.ToastIndex}, pgclass.RowLen(plainData)))
		blk, _ := p.Class.Update(pgclass.Key{Rel: rel}, pgclass.RowLen(rowData))
		pages = append(pages, blk)
		// The TOAST table's index's pg_index row (index_create for two columns).
		x := p.PgIndex().Insert(pgclass.Key{Rel: rel, Kind: pgclass.ToastIndex}, pgclass.IndexRowLen(2))
		p.fsmHints(pool, w, be, "pg_index", p.PgIndex(), false)
		if p.On {
			if err := p.dirty(pool, w, be, p.pgIndexBlock(x)); err != nil {
				return err
			}
		}
	}
	p.fsmHints(pool, w, be, "pg_class", p.Class, false)
	seen := map[int]bool{}
	for _, k := range pages {
		if !seen[k] {
			seen[k] = true
			if err := p.DirtyPgClass(pool, w, be, k); err != nil {
				return err
			}
		}
	}
	return p.LookUpAfter(pool, w, be, rel, lookAfter)
}

// LookUpAfter, when look: the DDL commits and a statement of the same
// session looks rel up, hinting its row (PlaceRows' lookAfter).
func (p *Pins) LookUpAfter(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, rel pg.RelID, look bool) error {
	if p.Class == nil || !look {
		return nil
	}
	p.Class.Commit()
	if p.Attr != nil {
		p.Attr.Class.Commit()
	}
	if err := p.classAccess(pool, w, be, []pgclass.Key{{Rel: rel}}, nil); err != nil {
		return err
	}
	return p.attrLookUp(pool, w, be, []pgclass.Key{{Rel: rel}}, nil)
}

// LookUpNext: the next session looks up these relations' pg_class rows (LookUps).
func (p *Pins) LookUpNext(rels ...pg.RelID) {
	for _, r := range rels {
		p.LookUps = append(p.LookUps, pgclass.Key{Rel: r})
	}
}

// VacuumHints is the pg_class hints of VACUUM: with toast, opening rel's
// TOAST table and its index looks their rows up (and their pg_attribute
// rows: attrLookUp); at the end (!toast), vac_update_datfrozenxid scans
// pg_class.
func (p *Pins) VacuumHints(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, rel pg.RelID, toast bool, needsImage func(pg.LSN) bool) error {
	switch {
	case p.Class == nil:
		return nil
	case toast:
		keys := []pgclass.Key{{Rel: rel, Kind: pgclass.Toast}, {Rel: rel, Kind: pgclass.ToastIndex}}
		if err := p.classAccess(pool, w, be, keys, needsImage); err != nil {
			return err
		}
		return p.attrLookUp(pool, w, be, keys, needsImage)
	}
	return p.classAccess(pool, w, be, nil, needsImage)
}

// PgClassRow is the catalog block of key's pg_class row and the hole of
// its page; ok is false for a row not placed (a relation attached without
// DDL).
func (p *Pins) PgClassRow(key pgclass.Key) (blk pg.BlockNumber, hole int, ok bool) {
	if p.Class == nil {
		return 0, 0, false
	}
	r, ok := p.Class.Row(key)
	if !ok {
		return 0, 0, false
	}
	return p.PgClassBlock(r.Block), p.Class.Hole(r.Block), true
}

// Inplace is heap_inplace_update of key's pg_class row of rowData bytes:
// the row's page is pinned and dirtied, and XLOG_HEAP_INPLACE registers it
// (REGBUF_STANDARD: an image, without the page's hole and the row data,
// when needsImage says the page was last logged before the redo pointer).
// A row no DDL placed is on the page past the profile's, with the measured
// hole of vacwal.PgClassHole.
func (p *Pins) Inplace(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, key pgclass.Key, rowData int, needsImage func(pg.LSN) bool) error {
	blk, hole, ok := p.PgClassRow(key)
	if !ok {
		blk, hole = pg.BlockNumber(catalog.For(p.Version).Pages), vacwal.PgClassHole(p.Version)
	}
	return p.logOn(pool, w, be, blk, false, needsImage, func(image bool) int {
		return vacwal.InplaceLenHole(p.Version, image, rowData, hole)
	})
}
