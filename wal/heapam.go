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
		// snapshotConflictHorizon; block data: the xlhp_freeze_plans header
		// (offsetof(plans) = 4: nplans and the padding before the 4-aligned
		// plans, as log_heap_prune_and_freeze registers it) + one
		// xlhp_freeze_plan (12) + n offsets.
		return 2 + 4, 4 + 12 + 2*n
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

// sizeOfHeapUpdate is SizeOfHeapUpdate (heapam_xlog.h): old_xmax, old_offnum,
// old_infobits_set, flags, new_xmax, new_offnum.
const sizeOfHeapUpdate = 14

// sizeOfHeapHeader is SizeOfHeapHeader: the xl_heap_header before a logged tuple.
const sizeOfHeapHeader = 5

// HeapUpdate is xl_tot_len of XLOG_HEAP_UPDATE or XLOG_HEAP_HOT_UPDATE
// (log_heap_update): the new page as block 0 carrying the new tuple after
// its header less the prefix and suffix it shares with the old version
// (each stored as a uint16 when it is counted), the old page as a second
// block reference of the same relation when the tuple moved, and
// xl_heap_update as main data. A block with an image carries no data.
func HeapUpdate(tlen, prefix, suffix int, samePage, newImage, oldImage bool, newHole, oldHole int) int {
	n := SizeOfXLogRecord + SizeOfBlockHeader + SizeOfRelFileLocator + SizeOfBlockNumber +
		SizeOfShortMainDataHdr + sizeOfHeapUpdate
	if newImage {
		n += SizeOfBlockImageHeader + pg.BLCKSZ - newHole
	} else {
		if prefix > 0 {
			n += 2
		}
		if suffix > 0 {
			n += 2
		}
		n += sizeOfHeapHeader + tlen - sizeofHeapTupleHeader - prefix - suffix
	}
	if !samePage {
		n += SizeOfBlockHeader + SizeOfBlockNumber
		if oldImage {
			n += SizeOfBlockImageHeader + pg.BLCKSZ - oldHole
		}
	}
	return n
}

// UpdateAffix is the prefix and suffix log_heap_update leaves out of a tuple
// updated on its own page: the bytes the old and new data (after t_hoff)
// share at the start and at the end, each dropped when under 3 (storing its
// length takes 2 bytes).
func UpdateAffix(oldData, newData []byte) (prefix, suffix int) {
	m := min(len(oldData), len(newData))
	for prefix < m && oldData[prefix] == newData[prefix] {
		prefix++
	}
	if prefix < 3 {
		prefix = 0
	}
	for suffix < m-prefix && oldData[len(oldData)-1-suffix] == newData[len(newData)-1-suffix] {
		suffix++
	}
	if suffix < 3 {
		suffix = 0
	}
	return prefix, suffix
}

// PruneLen is xl_tot_len of the record on-access pruning logs for a page
// (heap_page_prune; 17+ heap_page_prune_and_freeze's
// XLOG_HEAP2_PRUNE_ON_ACCESS), with nredirected redirects, ndead line
// pointers set dead and nunused set unused, as a page image when image:
//   - 15: xl_heap_prune (latestRemovedXid, nredirected, ndead: 8 bytes); the
//     redirect pairs, dead and unused offsets (2 bytes each) as block data;
//   - 16: the same with isCatalogRel (9 bytes);
//   - 17+: xl_heap_prune (reason, flags: 2 bytes) and the snapshot conflict
//     horizon (4); block data: for each non-empty array an xlhp_prune_items
//     count (2) and its offsets.
func PruneLen(v pg.Version, nredirected, ndead, nunused int, image bool, hole int) int {
	return PruneLenHorizon(v, nredirected, ndead, nunused, image, hole, true)
}

// PruneLenHorizon is PruneLen with or without 17+'s snapshot conflict
// horizon, which log_heap_prune_and_freeze writes only when valid
// (XLHP_HAS_CONFLICT_HORIZON): HeapTupleHeaderAdvanceConflictHorizon
// skips a tuple its inserting transaction deleted, so pruning only such
// tuples (a row created and altered in one transaction) logs none: a
// 52-byte PRUNE_ON_ACCESS for one dead line pointer on 18beta1, 56 with a
// horizon. 15 and 16 always carry latestRemovedXid.
func PruneLenHorizon(v pg.Version, nredirected, ndead, nunused int, image bool, hole int, horizon bool) int {
	var main, data int
	switch {
	case v >= 17:
		main = 2
		if horizon {
			main += 4
		}
		for _, k := range []int{2 * nredirected, ndead, nunused} {
			if k > 0 {
				data += 2 + 2*k
			}
		}
	case v == 16:
		main, data = 9, 4*nredirected+2*ndead+2*nunused
	default:
		main, data = 8, 4*nredirected+2*ndead+2*nunused
	}
	n := SizeOfXLogRecord + SizeOfBlockHeader + SizeOfRelFileLocator + SizeOfBlockNumber + SizeOfShortMainDataHdr + main
	if image {
		return n + SizeOfBlockImageHeader + pg.BLCKSZ - hole
	}
	return n + data
}

// HeapLockLen is xl_tot_len of XLOG_HEAP_LOCK (heap_lock_tuple, and
// heap_update before it leaves the old page to find room elsewhere): the
// page as a block reference, xl_heap_lock (locking_xid, offnum,
// infobits_set, flags: 8 bytes) as main data, an image when needed.
func HeapLockLen(image bool, hole int) int {
	const sizeOfHeapLock = 8
	n := SizeOfXLogRecord + SizeOfBlockHeader + SizeOfRelFileLocator + SizeOfBlockNumber + SizeOfShortMainDataHdr + sizeOfHeapLock
	if image {
		n += SizeOfBlockImageHeader + pg.BLCKSZ - hole
	}
	return n
}
