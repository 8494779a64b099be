package nbtree

import (
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/wal"
)

// ImageHole is the hole of a standard btree page holding items line pointers
// and 16-byte tuples, which log_newpage and a record's full-page image leave
// out of the page's image.
func ImageHole(items int) int { return 8152 - ItemSize*items }

// MetaImageHole is the hole of the metapage's image: the page less its
// header and its 40-byte BTMetaPageData (and the special space).
const MetaImageHole = 8176 - (heap.SizeOfPageHeaderData + 40)

// NewPageRecordLen is the XLOG_FPI record of log_newpage (xloginsert.c) for
// an image of imageBytes, as _bt_blwritepage logs each page of a build.
func NewPageRecordLen(imageBytes int) int {
	return wal.SizeOfXLogRecord + wal.SizeOfBlockHeader + wal.SizeOfBlockImageHeader + wal.SizeOfRelFileLocator +
		wal.SizeOfBlockNumber + imageBytes
}

// Btree WAL records of ascending inserts (nbtxlog.h), as pg_waldump shows
// them on 15: INSERT_LEAF 64 bytes (the 16-byte tuple as block data, offnum
// as main data); INSERT_UPPER 72 (the downlink, and the child as a second
// block); NEWROOT 90 for the first root (the metapage's 28-byte
// xl_btree_metadata) and 122 above a split root (two downlinks, 8 + 16
// bytes, and the left child); SPLIT_R: xl_btree_split (10 bytes), the left
// page's new high key and the right page's tuples, 752 bytes for a leaf
// moving 42 tuples.
const (
	blockRef   = wal.SizeOfBlockHeader + wal.SizeOfRelFileLocator + wal.SizeOfBlockNumber // 20
	sameRelRef = wal.SizeOfBlockHeader + wal.SizeOfBlockNumber                            // 8
	// InsertLeafLen is XLOG_BTREE_INSERT_LEAF without an image (64).
	InsertLeafLen = wal.SizeOfXLogRecord + blockRef + wal.SizeOfShortMainDataHdr + 2 + 16
	// InsertUpperLen is XLOG_BTREE_INSERT_UPPER without an image (72).
	InsertUpperLen = InsertLeafLen + sameRelRef
	// NewRootLeafLen is XLOG_BTREE_NEWROOT for an empty index's first root, a leaf (90).
	NewRootLeafLen = wal.SizeOfXLogRecord + blockRef + sameRelRef + wal.SizeOfShortMainDataHdr + 8 + 28
	// NewRootLen is XLOG_BTREE_NEWROOT above a split root (122).
	NewRootLen = NewRootLeafLen + 8 + 16 + sameRelRef
)

// SplitLen is XLOG_BTREE_SPLIT_R without an image for a split that moves
// nright items (the new one included) to the new right page (_bt_split).
func SplitLen(nright int) int {
	return wal.SizeOfXLogRecord + blockRef + sameRelRef + wal.SizeOfShortMainDataHdr + 10 + 16 + 16*nright
}

// tupleBytes is a plain index tuple's block data in an insert record.
const tupleBytes = 16
