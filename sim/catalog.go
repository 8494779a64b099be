package sim

import (
	"strings"

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
	catalogWorker                         // a parallel worker's own start-up (derived: scan1w − scan)
)

// catalogProfile gives, per kind, the pins on each catalog page as a string
// of digits (page i pinned s[i] times; a missing tail is 0).
type catalogProfile struct {
	pages int
	kinds map[catalogKind]string
}

// catalogPG18 is taken from the PostgreSQL 18 reference runs' usage counts
// right after pg_buffercache_evict_all() and the query that followed it:
// 225 pages pinned 43×1, 58×2, 19×3, 17×4, 88×5 (724 pins, against the 738
// hits+reads pg_stat_io counted for that query), the same for every
// statement; a parallel worker pins 50 of them 4 times and 15 of its own 5
// times (the reference workers counted 272–283 hits each; "(other)" grew to
// 240–242 once workers had run). No "first session" or utility profile was
// measured on 18.
var catalogPG18 = func() catalogProfile {
	leader := strings.Repeat("5", 88) + strings.Repeat("4", 17) + strings.Repeat("3", 19) + strings.Repeat("2", 58) + strings.Repeat("1", 43)
	worker := strings.Repeat("4", 50) + strings.Repeat("0", 175) + strings.Repeat("5", 15)
	return catalogProfile{pages: 240, kinds: map[catalogKind]string{
		catalogScan: leader, catalogInsert: leader, catalogVacuum: leader, catalogBuffercache: leader, catalogWorker: worker,
	}}
}()

// catalogFor picks the measured profile nearest the version: 15's for 15–17
// (16 and 17 have not been measured yet), 18's for 18.
func catalogFor(v pg.Version) *catalogProfile {
	if v >= 18 {
		return &catalogPG18
	}
	return &catalogPG15
}

func init() {
	// A worker's own pins: the one-worker scan less the serial scan.
	p := &catalogPG15
	one, serial := p.kinds[catalogScan1w], p.kinds[catalogScan]
	w := make([]byte, len(one))
	for i := range one {
		d := one[i]
		if i < len(serial) && serial[i] < d {
			d = '0' + (d - serial[i])
		} else if i < len(serial) {
			d = '0'
		}
		w[i] = d
	}
	p.kinds[catalogWorker] = strings.TrimRight(string(w), "0")
}

// touchCatalog pins and releases the catalog pages of a session doing kind.
// They count in pg_stat_io but not in the statement's EXPLAIN buffers (they
// belong to connection start, planning and executor start-up). The first
// session after the server starts also rebuilds the relcache init file.
func (c *Cluster) touchCatalog(be *bufmgr.Backend, kind catalogKind) error {
	saved := be.Buf
	defer func() { be.Buf = saved }()
	prof := catalogFor(c.S.Version)
	pins := prof.kinds[kind]
	if c.initFileStale && kind != catalogWorker {
		c.initFileStale = false
		if first, ok := prof.kinds[catalogFirst]; ok {
			// The first session's pins, plus what this statement adds to a plain session's.
			pins = addPins(first, subPins(pins, prof.kinds[catalogSession]))
		}
	}
	for blk := 0; blk < len(pins); blk++ {
		for k := byte('0'); k < pins[blk]; k++ {
			if err := c.readRelease(be, pg.BufferTag{Rel: pg.CatalogRel, Block: pg.BlockNumber(blk)}); err != nil {
				return err
			}
		}
	}
	return nil
}

func addPins(a, b string) string {
	out := []byte(a)
	for len(out) < len(b) {
		out = append(out, '0')
	}
	for i := 0; i < len(b); i++ {
		out[i] += b[i] - '0'
	}
	return string(out)
}

func subPins(a, b string) string {
	out := []byte(a)
	for i := 0; i < len(out) && i < len(b); i++ {
		if out[i] > b[i] {
			out[i] -= b[i] - '0'
		} else {
			out[i] = '0'
		}
	}
	return string(out)
}
