package sim

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/pg"
)

// System catalogs are modelled as one relation, "(other)", whose pages a
// session pins while it starts, plans and runs a statement: a workload input
// (which catalog rows a statement needs), measured on real servers per
// version, not a buffer-manager mechanism. Each statement runs in a new
// session, as `psql -c` would.

// catalogKind is what a session does, for its catalog pins.
type catalogKind uint8

const (
	catalogSession     catalogKind = iota // connect and run a trivial command (CHECKPOINT-like utilities)
	catalogFirst                          // the first session after a start: it rebuilds the relcache init file
	catalogScan                           // SELECT count(*) FROM t, serial
	catalogScan1w                         // the same with one parallel worker (leader and worker)
	catalogInsert                         // INSERT … SELECT generate_series
	catalogVacuum                         // VACUUM t
	catalogCheckpoint                     // CHECKPOINT
	catalogBuffercache                    // the pg_buffercache query of `show buffercache`
	catalogTable                          // CREATE TABLE (catalog rows written: pages dirtied)
	catalogCopy                           // COPY … FROM STDIN
	catalogWorker                         // a parallel worker's own start-up (derived: scan1w − scan)
)

// catalogProfile gives, per kind, the pins on each catalog page as a string:
// a digit is how often page i is pinned, a letter a–f the same 0–5 pins on a
// page the session also dirties; a missing tail is 0.
type catalogProfile struct {
	pages int
	kinds map[catalogKind]string
	// vacuumWindowHits is how many catalog pins VACUUM makes inside the window
	// VACUUM VERBOSE counts (measured as an empty table's hits; one of them is
	// the pg_class page, which the model pins itself).
	vacuumWindowHits int
	// tableGrowthPages: each CREATE TABLE after the first dirties this many
	// catalog pages no earlier one did (the catalogs grow onto new pages).
	tableGrowthPages int
	// indexInsertHits: catalog pins a session's first index insertion makes
	// inside the statement (looking up the btree's support functions).
	indexInsertHits int
}

// catalogFor picks the measured profile nearest the version: 15's for 15–17
// (16 and 17 have not been measured yet), 18's for 18 and 19's for 19
// (catalog_pins=off leaves the catalog out).
func catalogFor(v pg.Version) *catalogProfile {
	switch {
	case v >= 19:
		return &catalogPG19
	case v >= 18:
		return &catalogPG18
	}
	return &catalogPG15
}

func init() {
	// A worker's own pins: the one-worker scan less the serial scan.
	for _, p := range []*catalogProfile{&catalogPG15, &catalogPG18, &catalogPG19} {
		p.kinds[catalogWorker] = encodePins(subPins(decodePins(p.kinds[catalogScan1w]), decodePins(p.kinds[catalogScan])))
	}
}

// catalogPin is one page's pins in a session, and whether the session dirties it.
type catalogPin struct {
	n     int
	dirty bool
}

func decodePins(s string) []catalogPin {
	out := make([]catalogPin, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] >= 'a' {
			out[i] = catalogPin{int(s[i] - 'a'), true}
		} else {
			out[i] = catalogPin{int(s[i] - '0'), false}
		}
	}
	return out
}

func encodePins(p []catalogPin) string {
	b := make([]byte, len(p))
	for i, c := range p {
		if c.dirty {
			b[i] = byte('a' + c.n)
		} else {
			b[i] = byte('0' + c.n)
		}
	}
	return string(b)
}

// addPins sums two sessions' pins; subPins is what a has beyond b (never below 0).
func addPins(a, b []catalogPin) []catalogPin {
	out := make([]catalogPin, max(len(a), len(b)))
	copy(out, a)
	for i, c := range b {
		out[i].n += c.n
		out[i].dirty = out[i].dirty || c.dirty
	}
	return out
}

func subPins(a, b []catalogPin) []catalogPin {
	out := make([]catalogPin, len(a))
	copy(out, a)
	for i := 0; i < len(out) && i < len(b); i++ {
		out[i].n = max(0, out[i].n-b[i].n)
		out[i].dirty = out[i].dirty && !b[i].dirty
	}
	return out
}

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
	pins := decodePins(prof.kinds[kind])
	if c.txn.active && kind != catalogWorker {
		if c.txn.started {
			// The block's session is open: only what this command adds to a plain session's.
			pins = subPins(pins, decodePins(prof.kinds[catalogSession]))
		}
		c.txn.started = true
	}
	first := false
	if c.initFileStale && kind != catalogWorker {
		c.initFileStale = false
		if f, ok := prof.kinds[catalogFirst]; ok {
			first = true
			// The first session's pins, plus what this statement adds to a plain session's.
			pins = addPins(decodePins(f), subPins(pins, decodePins(prof.kinds[catalogSession])))
		}
	}
	if c.catalogHinted == nil {
		c.catalogHinted = map[int]bool{}
	}
	for blk, p := range pins {
		tag := pg.BufferTag{Rel: pg.CatalogRel, Block: pg.BlockNumber(blk)}
		for k := 0; k < p.n || (k == 0 && p.dirty); k++ {
			b, _, err := c.pool.ReadBuffer(be, tag, nil)
			if err != nil {
				return err
			}
			if p.dirty && k == 0 {
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
	rowsPage := pg.BufferTag{Rel: pg.CatalogRel, Block: pg.BlockNumber(prof.pages)}
	switch {
	case kind == catalogTable:
		// The catalog pages this table's rows land on beyond the profile's.
		for i := 0; i < prof.tableGrowthPages && c.tablesCreated > 0; i++ {
			blk := pg.BlockNumber(prof.pages + 1 + (c.tablesCreated-1)*prof.tableGrowthPages + i)
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
	return c.windowPins(be, catalogVacuum, prof.vacuumWindowHits-1)
}

// indexInsertPins pins, inside the statement, the catalog pages of a
// session's first index insertion (the btree's support functions looked up).
func (c *Cluster) indexInsertPins(be *bufmgr.Backend) error {
	prof := catalogFor(c.S.Version)
	return c.windowPins(be, catalogInsert, prof.indexInsertHits)
}

// windowPins makes n catalog pins counted in the statement, on the most
// pinned pages of kind's profile.
func (c *Cluster) windowPins(be *bufmgr.Backend, kind catalogKind, n int) error {
	pins := decodePins(catalogFor(c.S.Version).kinds[kind])
	for blk := 0; blk < len(pins) && n > 0; blk++ {
		for k := 0; k < pins[blk].n && n > 0; k++ {
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
