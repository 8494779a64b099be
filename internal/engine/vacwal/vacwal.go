// Package vacwal is the sizes of the records VACUUM writes beside its heap
// pages' own (the in-place update of a pg_class row, the standby
// invalidations after it, a relation's truncation) and the statistics
// VACUUM computes for pg_class (vac_estimate_reltuples): arithmetic from the
// record layouts and vacuum.c, with no buffer or WAL state of its own.
package vacwal

import (
	"math"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
)

// StandbyInvalidationsLen is XLOG_STANDBY_INVALIDATIONS with the three
// messages an inplace pg_class update sends (two catcache, one relcache), as
// pg_waldump shows it on 15: 90 bytes.
const StandbyInvalidationsLen = wal.SizeOfXLogRecord + wal.SizeOfShortMainDataHdr + 16 + 3*16

// PgClassRowData is the part of a user table's pg_class row that
// heap_inplace_update logs (the tuple after its header): 140 bytes on 15, as
// the 188-byte XLOG_HEAP_INPLACE records pg_waldump shows.
const PgClassRowData = 140

// PgClassPageHole is the free space (pd_upper − pd_lower) of the pg_class
// page holding the scenario's tables' rows, which an image of it leaves out:
// 2,384 bytes on a fresh PostgreSQL 15 cluster with a few tables (a
// 5,861-byte XLOG_HEAP_INPLACE with its image). A workload input, like the
// catalog pins.
const PgClassPageHole = 2384

// pgClassPageHole18 and pgClassPageHole19 are the same on PostgreSQL 18
// and 19: the hole of the image in the first VACUUM's XLOG_HEAP_INPLACE with
// one table, as pg_waldump shows it ("hole: offset: 212, length: 5116" on
// 18beta1, "length: 3516" on 19beta1, whose initdb fills that page more).
const (
	pgClassPageHole18 = 5116
	pgClassPageHole19 = 3516
)

// PgClassHole is PgClassPageHole for the version.
func PgClassHole(v pg.Version) int {
	switch {
	case v >= 19:
		return pgClassPageHole19
	case v >= 18:
		return pgClassPageHole18
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

// InplaceLen is xl_tot_len of XLOG_HEAP_INPLACE for a user table's pg_class
// row: the pg_class page as block 0 (REGBUF_STANDARD) carrying the row data,
// or its image (without the page's hole) when image; InplaceMainData as
// main data.
func InplaceLen(v pg.Version, image bool) int {
	size := wal.SizeOfXLogRecord + wal.SizeOfBlockHeader + wal.SizeOfRelFileLocator + wal.SizeOfBlockNumber +
		wal.SizeOfShortMainDataHdr + InplaceMainData(v)
	if image {
		return size + wal.SizeOfBlockImageHeader + pg.BLCKSZ - PgClassHole(v)
	}
	return size + PgClassRowData
}

// EstimateReltuples is vac_estimate_reltuples (vacuum.c): the live tuples
// VACUUM counted when it scanned every page; otherwise pg_class's old figure
// (oldPages, oldTuples) when it scanned at most one page (or under 2% of a
// table of unchanged size), else the scanned pages' tuples with the old
// density for the rest (scaled up when there is no old density).
func EstimateReltuples(oldPages int, oldTuples float64, total, scanned, scannedTuples int) float64 {
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
