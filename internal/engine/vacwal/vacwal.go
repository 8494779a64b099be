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
// heap_inplace_update logs (the tuple after its header), with no
// reloptions: 140 bytes on 15, as the 188-byte XLOG_HEAP_INPLACE records
// pg_waldump shows.
const PgClassRowData = 140

// PgClassRow is PgClassRowData for the version and the row's reloptions:
// 18 added relallfrozen (int4), 144 bytes (the 258-byte XLOG_HEAP_INPLACE of
// a TOAST relation's row on 19beta1); reloptions, a text[] stored after the
// fixed columns, add ReloptionsLen.
func PgClassRow(v pg.Version, reloptions ...string) int {
	n := PgClassRowData
	if v >= 18 {
		n += 4
	}
	if len(reloptions) > 0 {
		n += ReloptionsLen(reloptions)
	}
	return n
}

// ReloptionsLen is the bytes a reloptions array takes in a pg_class row: an
// ArrayType of one dimension (vl_len_, ndim, dataoffset, elemtype, then
// dims and lbound: 24 bytes, no null bitmap) with each "name=value" text
// element under a 4-byte header, padded to int alignment; heap_fill_tuple
// stores the array under a 1-byte header when it fits one (≤ 127 bytes),
// which needs no alignment. One "autovacuum_enabled=off": 24 + 28 = 52,
// stored as 49 (the 307-byte XLOG_HEAP_INPLACE of such a table's row on
// 19beta1 is 49 bytes longer than its TOAST relation's 258).
func ReloptionsLen(opts []string) int {
	n := 24
	for _, o := range opts {
		n += (4 + len(o) + 3) &^ 3
	}
	if n-4+1 <= 127 {
		return n - 4 + 1
	}
	return n
}

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

// InplaceLen is xl_tot_len of XLOG_HEAP_INPLACE for a pg_class row of
// rowData bytes (PgClassRow): the pg_class page as block 0 (REGBUF_STANDARD)
// carrying the row data, or its image (without the page's hole) when image;
// InplaceMainData as main data.
func InplaceLen(v pg.Version, image bool, rowData int) int {
	return InplaceLenHole(v, image, rowData, PgClassHole(v))
}

// InplaceLenHole is InplaceLen for a page whose hole is hole.
func InplaceLenHole(v pg.Version, image bool, rowData, hole int) int {
	size := wal.SizeOfXLogRecord + wal.SizeOfBlockHeader + wal.SizeOfRelFileLocator + wal.SizeOfBlockNumber +
		wal.SizeOfShortMainDataHdr + InplaceMainData(v)
	if image {
		return size + wal.SizeOfBlockImageHeader + pg.BLCKSZ - hole
	}
	return size + rowData
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

// StandbyLockLen is XLOG_STANDBY_LOCK for one AccessExclusiveLock
// (LogAccessExclusiveLock): xl_standby_locks' nlocks (4) and one
// xl_standby_lock (xid, dbOid, relOid: 12) as main data — 42 bytes.
const StandbyLockLen = wal.SizeOfXLogRecord + wal.SizeOfShortMainDataHdr + 4 + 12

// SmgrTruncateLen is XLOG_SMGR_TRUNCATE (RelationTruncate):
// xl_smgr_truncate (blkno 4, RelFileLocator 12, flags 4) as main data — 46.
const SmgrTruncateLen = wal.SizeOfXLogRecord + wal.SizeOfShortMainDataHdr + 4 + 12 + 4

// NewPageLen is XLOG_FPI from log_newpage_buffer: one block reference
// forced to an image of imageBytes (a whole page for a non-standard page
// such as an FSM or VM page), no data.
func NewPageLen(imageBytes int) int {
	return wal.SizeOfXLogRecord + wal.SizeOfBlockHeader + wal.SizeOfRelFileLocator + wal.SizeOfBlockNumber +
		wal.SizeOfBlockImageHeader + imageBytes
}

// CommitInvalsLen is XLOG_XACT_COMMIT of a transaction that sends nmsgs
// invalidation messages (xact.c XactLogCommitRecord): xact_time (8), xinfo
// (4), xl_xact_dbinfo (dbId, tsId: 8, present with messages), then
// xl_xact_invals' nmsgs (4) and 16 bytes a message.
func CommitInvalsLen(nmsgs int) int {
	main := 8 + 4 + 8 + 4 + 16*nmsgs
	if main > 255 { // XLogRecordDataHeaderLong: a uint32 length (CREATE TABLE's 65 messages: 1,093 bytes)
		return wal.SizeOfXLogRecord + 5 + main
	}
	return wal.SizeOfXLogRecord + wal.SizeOfShortMainDataHdr + main
}

// CommitLen is the commit record with nmsgs invalidation messages: a plain
// XLOG_XACT_COMMIT without any (wal.XactCommit), else CommitInvalsLen.
func CommitLen(nmsgs int) int {
	if nmsgs == 0 {
		return wal.XactCommit
	}
	return CommitInvalsLen(nmsgs)
}

// ShouldTruncate is should_attempt_truncation (vacuumlazy.c): the pages
// past the last one VACUUM found tuples on can go when there are at least
// REL_TRUNCATE_MINIMUM (1,000) of them or a REL_TRUNCATE_FRACTION (1/16)
// of the table.
func ShouldTruncate(relPages, nonemptyPages int) bool {
	freeable := relPages - nonemptyPages
	return freeable > 0 && (freeable >= 1000 || freeable >= relPages/16)
}
