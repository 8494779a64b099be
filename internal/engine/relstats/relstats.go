// Package relstats holds the sizes and estimates of a VACUUM's pg_class
// update: vac_estimate_reltuples, the inplace update's record sizes and the
// measured pg_class page holes.
package relstats

import (
	"math"

	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
)

// StandbyInvalidationsLen is XLOG_STANDBY_INVALIDATIONS with the three messages
// an inplace pg_class update sends (two catcache, one relcache), as pg_waldump
// shows it on 15: 90 bytes.
const StandbyInvalidationsLen = wal.SizeOfXLogRecord + wal.SizeOfShortMainDataHdr + 16 + 3*16

// PgClassRowData is the part of a user table's pg_class row that
// heap_inplace_update logs (the tuple after its header): 140 bytes on 15, as
// the 188-byte XLOG_HEAP_INPLACE records pg_waldump shows.
const PgClassRowData = 140

// PgClassPageHole is the free space (pd_upper − pd_lower) of the pg_class page
// holding the scenario's tables' rows, which an image of it leaves out: 2,384
// bytes on a fresh PostgreSQL 15 cluster with a few tables (a 5,861-byte
// XLOG_HEAP_INPLACE with its image). A workload input, like the catalog pins.
const PgClassPageHole = 2384

// PgClassPageHole18 and PgClassPageHole19 are the same on PostgreSQL 18
// and 19: the hole of the image in the first VACUUM's XLOG_HEAP_INPLACE with
// one table, as pg_waldump shows it ("hole: offset: 212, length: 5116" on
// 18beta1, "length: 3516" on 19beta1, whose initdb fills that page more).
const (
	PgClassPageHole18 = 5116
	PgClassPageHole19 = 3516
)

// PgClassHole is PgClassPageHole for the version.
func PgClassHole(v pg.Version) int {
	switch {
	case v >= 19:
		return PgClassPageHole19
	case v >= 18:
		return PgClassPageHole18
	}
	return PgClassPageHole
}

// InplaceMainData is xl_heap_inplace's size: the offset number up to 17;
// from 18 on the record carries the update's invalidations too (dbId, tsId,
// relcacheInitFileInval, nmsgs: MinSizeOfHeapInplace = 20, then one 16-byte
// SharedInvalidationMessage each, three for a pg_class row: two catcache,
// one relcache) — models heap_inplace_update_and_unlock (heapam.c, 18).
func InplaceMainData(v pg.Version) int {
	if v >= 18 {
		return 20 + 3*16
	}
	return 2
}

// EstimateReltuples is vac_estimate_reltuples (vacuum.c): the live
// tuples VACUUM counted when it scanned every page; otherwise pg_class's
// old figure when it scanned at most one page (or under 2% of a table of
// unchanged size), else the scanned pages' tuples with the old density
// for the rest (scaled up when there is no old density).
func EstimateReltuples(rel *heap.Relation, total, scanned, scannedTuples int) float64 {
	oldPages, oldTuples := rel.RelPages, rel.RelTuples
	switch {
	case scanned >= total:
		return float64(scannedTuples)
	case oldPages == total && float64(scanned) < float64(total)*0.02, scanned <= 1:
		return oldTuples
	case oldTuples < 0 || oldPages == 0:
		return math.Floor(float64(scannedTuples)/float64(scanned)*float64(total) + 0.5)
	}
	density := oldTuples / float64(oldPages)
	return math.Floor(density*float64(total-scanned) + float64(scannedTuples) + 0.5)
}
