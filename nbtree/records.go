package nbtree

import (
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
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
func NewPageRecordLen(imageBytes int) int { return NewPagesRecordLen([]int{imageBytes}) }

// MaxBlocksPerRecord is XLR_MAX_BLOCK_ID (xlogrecord.h): the bulk writer's
// queue of pending pages (MAX_PENDING_WRITES, bulk_write.c, 17+) and the
// block references one XLOG_FPI of log_newpages carries.
const MaxBlocksPerRecord = 32

// NewPagesRecordLen is the XLOG_FPI record of log_newpages (xloginsert.c)
// for pages whose images are images bytes: one block reference each (the
// relation's locator in the first only, BKPBLOCK_SAME_REL after). One page
// is NewPageRecordLen.
func NewPagesRecordLen(images []int) int {
	n := wal.SizeOfXLogRecord + wal.SizeOfRelFileLocator
	for _, b := range images {
		n += wal.SizeOfBlockHeader + wal.SizeOfBlockImageHeader + wal.SizeOfBlockNumber + b
	}
	return n
}

// LogBuild is the WAL of a build's pages as _bt_blwritepage writes them
// (BuildPages, the metapage last): up to 16 one record a page
// (log_newpage); from 17 the bulk writer queues MaxBlocksPerRecord pages
// and logs them in one record (smgr_bulk_write, smgr_bulk_flush,
// log_newpages), the rest at smgr_bulk_finish. image is a page's image
// bytes; log gets each record's length, its images and its pages.
func (ix *Index) LogBuild(v pg.Version, image func(blk pg.BlockNumber, hole int) int, log func(recLen, nfpi int, blks []pg.BlockNumber)) {
	per := 1
	if v >= 17 {
		per = MaxBlocksPerRecord
	}
	var blks []pg.BlockNumber
	var images []int
	flush := func() {
		log(NewPagesRecordLen(images), len(images), blks)
		blks, images = blks[:0], images[:0]
	}
	for blk, hole := range ix.BuildPages() {
		blks, images = append(blks, blk), append(images, image(blk, hole))
		if len(blks) == per {
			flush()
		}
	}
	if len(blks) > 0 {
		flush()
	}
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
