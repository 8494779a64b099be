// Package catalog holds the catalog pages each kind of client session pins,
// measured on real servers per version with `pgbufsim catalog-profile`: a
// workload input, not a buffer-manager mechanism. A session connecting,
// planning and starting a statement looks up rows of pg_class, pg_attribute,
// pg_proc, pg_type and their indexes through the relcache and syscache
// (relcache.c, syscache.c, catcache.c); each lookup pins a page of shared
// buffers and bumps its usage count, so those pages sit at usage 5 beside
// the scenario's tables and take their share of the pool. The engine pins
// them as a profile says; "(other)" in pg_buffercache output is them.
package catalog

import (
	"strings"

	"github.com/pgbufsim/pgbufsim/pg"
)

// Kind is what a session does, for its catalog pins.
type Kind uint8

const (
	Session             Kind = iota // connect and run a trivial command (CHECKPOINT-like utilities)
	First                           // the first session after a start: it rebuilds the relcache init file
	Scan                            // SELECT count(*) FROM t, serial
	Scan1w                          // the same with one parallel worker (leader and worker)
	Insert                          // INSERT … SELECT generate_series
	Vacuum                          // VACUUM t
	Checkpoint                      // CHECKPOINT
	Buffercache                     // the pg_buffercache query of `show buffercache`
	Table                           // CREATE TABLE (catalog rows written: pages dirtied)
	Copy                            // COPY … FROM STDIN
	Worker                          // a parallel worker's own start-up (derived: scan1w − scan)
	StatTables                      // show stat tables: pg_statio_user_tables joined with pg_stat_user_tables
	StatDatabase                    // show stat database: pg_stat_database
	StatBgwriter                    // show stat bgwriter: a mark's queries and pg_stat_bgwriter (+ pg_stat_checkpointer)
	StatIO                          // show io: a mark's queries and pg_stat_io (16+)
	PgbenchSetup                    // pgbench's setup connection: GetTableInfo's queries
	PgbenchTPCB                     // a pgbench client's first tpcb-like transaction
	PgbenchSimpleUpdate             // the same, simple-update
	PgbenchSelectOnly               // the same, select-only
	Set                             // set: ALTER SYSTEM, pg_reload_conf and pg_conf_load_time
	Analyze                         // ANALYZE t (pg_statistic rows written: pages dirtied)
	Index                           // CREATE INDEX t_id ON t (id) (pg_class, pg_index, pg_attribute, pg_depend rows written)
	Index1w                         // the same with one maintenance worker (leader and worker)
	IndexWorker                     // a parallel index build's worker's own start-up and build (derived: index1w − index)
	PgbenchReading                  // the session reading a pgbench run's counters before it (pg_stat_database, pg_statio_*, pg_buffercache)
)

// Profile gives, per kind, the pins on each catalog page as a string:
// a digit is how often page i is pinned, a letter a–f the same 0–5 pins on a
// page the session also dirties; a missing tail is 0.
type Profile struct {
	Pages int // catalog pages in the profile
	// Names: each page's relation/fork/block as measured (pg_proc/0/66),
	// in the order the kinds' strings index them.
	Names []string
	Kinds map[Kind]string
	// vacuumWindowHits is how many catalog pins VACUUM makes inside the window
	// VACUUM VERBOSE counts (measured as an empty table's hits; one of them is
	// the pg_class page, which the model pins itself).
	VacuumWindowHits int
	// VacuumIndexWindowHits: the catalog pins the table's first btree adds
	// inside that window (vac_open_indexes building the index's relcache
	// entry in a fresh session; measured as an empty table's hits with one
	// index less without, less the two metapage pins the model makes
	// itself); VacuumNextIndexWindowHits the same for each further btree
	// (the access method's and operator class's entries then cached).
	VacuumIndexWindowHits, VacuumNextIndexWindowHits int
	// tableGrowthPages: each CREATE TABLE after the first dirties this many
	// catalog pages no earlier one did (the catalogs grow onto new pages).
	TableGrowthPages int
	// indexInsertHits: catalog pins a session's first index insertion makes
	// inside the statement (looking up the btree's support functions).
	IndexInsertHits int
	// Prunes: per kind, the catalog pages a session of that kind is the
	// first to prune on access (heap_page_prune_opt) after verify's setup
	// (CREATE EXTENSION left dead pg_proc tuples on nearly full pages);
	// First's are every first session's.
	Prunes map[Kind][]Prune
	// Hints: per pgbench kind, the catalog pages its session is the first
	// to hint after pgbench -i, in a run's order (measured beside Prunes);
	// they replace the profile's dirtied pages for the kind, which were
	// measured after the other kinds had hinted theirs.
	Hints map[Kind][]Hint
	// blocks: each main-fork page's index in Names by its Prune.Page name.
	blocks map[string]int
}

// Hint is a catalog page a session is the first to hint: its name and its
// index in the profile's pages (-1 for a page the profile lacks); Prune,
// when set, is the Prune.Page of the kind's prune that dirties it instead
// (heap_page_prune marks the buffer dirty; the prune's records are its).
type Hint struct {
	Page  string // relation/fork/block
	Index int
	Prune string
}

// Prune is one catalog page pruned on access and its measured WAL records:
// Image the prune record with the page's image (hint bits not WAL-logged),
// Hint the XLOG_FPI_FOR_HINT its visibility checks write first when they
// are (checksums or wal_log_hints), Plain the prune record without an image.
type Prune struct {
	Page               string // relation/block
	Image, Hint, Plain int
}

// Block is the index in the profile's pages (Names) of a pruned page
// (Prune.Page, relation/block: its main fork), false for a page the
// profile lacks.
func (p *Profile) Block(page string) (int, bool) {
	i, ok := p.blocks[page]
	return i, ok
}

// For picks the measured profile nearest the version: 15's for 15–17
// (16 and 17 have not been measured yet), 18's for 18 and 19's for 19
// (catalog_pins=off leaves the catalog out).
func For(v pg.Version) *Profile {
	switch {
	case v >= 19:
		return &PG19
	case v >= 18:
		return &PG18
	}
	return &PG15
}

// PrunesFor is the measured catalog prunes of version v (Profile.Prunes):
// none for a version not measured (16 and 17 share 15's profile, but their
// catalogs' pages differ).
func PrunesFor(v pg.Version) map[Kind][]Prune {
	if v == 15 || v == 18 || v == 19 {
		return For(v).Prunes
	}
	return nil
}

// HintsFor is the measured first hints of version v's pgbench sessions
// (Profile.Hints): none for a version not measured.
func HintsFor(v pg.Version) map[Kind][]Hint {
	if v == 15 || v == 18 || v == 19 {
		return For(v).Hints
	}
	return nil
}

func init() {
	PG15.Prunes, PG18.Prunes, PG19.Prunes = prunes15, prunes18, prunes19
	PG15.Hints, PG18.Hints, PG19.Hints = hints15, hints18, hints19
	// A worker's own pins: the one-worker scan less the serial scan; a
	// build worker's, the one-worker CREATE INDEX less the serial one.
	for _, p := range []*Profile{&PG15, &PG18, &PG19} {
		p.blocks = map[string]int{}
		for i, n := range p.Names {
			if f := strings.Split(n, "/"); len(f) == 3 && f[1] == "0" {
				p.blocks[f[0]+"/"+f[2]] = i
			}
		}
		p.Kinds[Worker] = Encode(Sub(Decode(p.Kinds[Scan1w]), Decode(p.Kinds[Scan])))
		// The pages the one-worker build dirtied and the serial one did not
		// are hinted first by whichever session reaches them first: with
		// --append that was index1w, measured after every other kind (18's
		// pg_proc/0/66, pinned and hinted by a plain session first in a
		// real run). A build worker dirties none of them.
		p.Kinds[IndexWorker] = Encode(clean(Sub(Decode(p.Kinds[Index1w]), Decode(p.Kinds[Index]))))
		if p.Prunes != nil {
			// A worker prunes what the one-worker scan prunes beyond the serial scan's.
			serial := map[string]bool{}
			for _, r := range p.Prunes[Scan] {
				serial[r.Page] = true
			}
			for _, r := range p.Prunes[Scan1w] {
				if !serial[r.Page] {
					p.Prunes[Worker] = append(p.Prunes[Worker], r)
				}
			}
		}
	}
}

// WithHints is pins with the dirtied pages hints names instead of its own
// (Profile.Hints): a hinted page the kind does not pin is pinned once; a
// pruned page only when pruned says its prune happens.
func WithHints(pins []Pin, hints []Hint, pruned func(Hint) bool) []Pin {
	out := append([]Pin(nil), pins...)
	for i := range out {
		out[i].Dirty = false
	}
	for _, h := range hints {
		if h.Index < 0 || h.Prune != "" && !pruned(h) {
			continue
		}
		for len(out) <= h.Index {
			out = append(out, Pin{})
		}
		out[h.Index].Dirty = true
	}
	return out
}

// ByPrunes is pins with each dirty mark on a page one of recs prunes
// resolved as that prune: the measuring session dirtied the page by
// pruning it (heap_page_prune_opt's prune marks the buffer dirty, pruneheap.c),
// so the page's WAL is the prune's records, never a separate hint image.
// When happens says the prune is this session's, the mark stays and the
// page is in byPrune (dirtied as the prune's); otherwise the mark is
// dropped, the page having been hinted when an earlier session pruned it
// (a mark on a page of no pins keeps the one pin it stood for). The pages
// (18's Session pg_proc/0/66, 19's StatTables pg_proc/0/34 and /49, set's
// pg_proc page on 18 and 19) are the pg_proc pages verify's setup left
// prunable. pins is not changed.
func (p *Profile) ByPrunes(pins []Pin, recs []Prune, happens func(Prune) bool) (out []Pin, byPrune map[int]bool) {
	out = append([]Pin(nil), pins...)
	for _, r := range recs {
		i, ok := p.Block(r.Page)
		if !ok || i >= len(out) || !out[i].Dirty {
			continue
		}
		if happens(r) {
			if byPrune == nil {
				byPrune = map[int]bool{}
			}
			byPrune[i] = true
			continue
		}
		out[i] = Pin{N: max(out[i].N, 1)}
	}
	return out, byPrune
}

// Pin is one page's pins in a session, and whether the session dirties it.
type Pin struct {
	N     int
	Dirty bool
}

// Decode reads a profile string.
func Decode(s string) []Pin {
	out := make([]Pin, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] >= 'a' {
			out[i] = Pin{int(s[i] - 'a'), true}
		} else {
			out[i] = Pin{int(s[i] - '0'), false}
		}
	}
	return out
}

// Encode writes a profile string.
func Encode(p []Pin) string {
	b := make([]byte, len(p))
	for i, c := range p {
		if c.Dirty {
			b[i] = byte('a' + c.N)
		} else {
			b[i] = byte('0' + c.N)
		}
	}
	return string(b)
}

// Add sums two sessions' pins.
func Add(a, b []Pin) []Pin {
	out := make([]Pin, max(len(a), len(b)))
	copy(out, a)
	for i, c := range b {
		out[i].N += c.N
		out[i].Dirty = out[i].Dirty || c.Dirty
	}
	return out
}

// clean is pins with no page dirtied.
func clean(pins []Pin) []Pin {
	for i := range pins {
		pins[i].Dirty = false
	}
	return pins
}

// Sub is what a has beyond b (never below 0).
func Sub(a, b []Pin) []Pin {
	out := make([]Pin, len(a))
	copy(out, a)
	for i := 0; i < len(out) && i < len(b); i++ {
		out[i].N = max(0, out[i].N-b[i].N)
		out[i].Dirty = out[i].Dirty && !b[i].Dirty
	}
	return out
}
