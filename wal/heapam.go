package wal

import "github.com/pgbufsim/pgbufsim/pg"

// # Heap records (heapam_xlog.h)
//
// The sizes of the heap's records whose layout varies with what they
// carry: a multi-insert's tuples, a freeze's plans, as XLogRecordAssemble
// puts them together (a page image replaces the block data).

// sizeofHeapTupleHeader is SizeofHeapTupleHeader (htup_details.h): the part
// of a tuple a multi-insert record leaves out.
const sizeofHeapTupleHeader = 23

// MultiInsertLen is the XLOG_HEAP2_MULTI_INSERT record of n tuples of tlen
// bytes (heap_multi_insert): xl_heap_multi_insert (flags, ntuples; 4 bytes)
// plus the offsets unless the page is initialised by the record, as main
// data; as block data each tuple's 7-byte xl_multi_insert_tuple header and its
// data after the 23-byte tuple header, each entry starting 2-byte aligned.
func MultiInsertLen(n, tlen int, init, image bool, hole int) int {
	main := 4
	if !init {
		main += 2 * n
	}
	size := SizeOfXLogRecord + SizeOfBlockHeader + SizeOfRelFileLocator + SizeOfBlockNumber
	if main < 256 {
		size += SizeOfShortMainDataHdr
	} else {
		size += SizeOfLongMainDataHdr
	}
	size += main
	if image {
		return size + SizeOfBlockImageHeader + pg.BLCKSZ - hole
	}
	entry := 7 + tlen - sizeofHeapTupleHeader
	return size + (n-1)*pg.ShortAlign(entry) + entry
}

// FreezeRecord is the record that freezes n tuples with one plan: its main
// data and its block data (the part dropped when the page goes in as an image).
func FreezeRecord(v pg.Version, n int) (main, blockData int) {
	switch {
	case v >= 17:
		// XLOG_HEAP2_PRUNE_VACUUM_SCAN: xl_heap_prune (reason, flags) +
		// snapshotConflictHorizon; block data: nplans + one xlhp_freeze_plan (12) + n offsets.
		return 2 + 4, 2 + 12 + 2*n
	case v == 16:
		// xl_heap_freeze_page (horizon 4, nplans 2, isCatalogRel 1); plans + offsets as block data.
		return 7, 12 + 2*n
	default:
		// 15: xl_heap_freeze_page (cutoff 4, ntuples 2); xl_heap_freeze_tuple (12) per tuple as block data.
		return 6, 12 * n
	}
}

// FreezeRecordLen is the freeze record's length for a page of n tuples with
// the given hole, as an image when image is set (XLogRecordAssemble drops the
// block data then).
func FreezeRecordLen(v pg.Version, n int, image bool, hole int) int {
	main, data := FreezeRecord(v, n)
	blockRef := SizeOfBlockHeader + SizeOfRelFileLocator + SizeOfBlockNumber
	size := SizeOfXLogRecord + blockRef + SizeOfShortMainDataHdr + main
	if image {
		return size + SizeOfBlockImageHeader + pg.BLCKSZ - hole
	}
	return size + data
}
