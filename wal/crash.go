package wal

import "github.com/pgbufsim/pgbufsim/pg"

// InitialRedo is the redo pointer of a freshly initialised cluster of
// version v, with data checksums or without (New): the position of
// initdb's shutdown checkpoint record, which ends where the new cluster's
// WAL starts. initdb's bootstrap and its SQL scripts log 4.6–7.4 MB into
// the first segment, more with checksums (their hint-bit images):
// measured with pg_controldata's "Latest checkpoint's REDO location" after
// `initdb -E UTF8 --locale=C` (15.18; 16 and 17 at their branch points,
// 16beta2 and 17beta2; 18beta1; 19beta1). For another version (the
// package's tests use 0) the record is the first segment's last bytes, so
// the WAL starts at 0/1000028.
func InitialRedo(v pg.Version, checksums bool) pg.LSN {
	if r, ok := initdbRedo[initdbKey{v, checksums}]; ok {
		return r
	}
	return bytePosToRecPtr(usableBytesInSeg - pg.MaxAlign(uint64(CheckpointRecord(v))))
}

type initdbKey struct {
	v         pg.Version
	checksums bool
}

var initdbRedo = map[initdbKey]pg.LSN{
	{15, false}: 0x1500708, {15, true}: 0x17414D0,
	{16, false}: 0x1480400, {16, true}: 0x16C3628,
	{17, false}: 0x147A8E0, {17, true}: 0x16C37B0,
	{18, false}: 0x14A5FE0, {18, true}: 0x16ED3E0,
	{19, false}: 0x1493608, {19, true}: 0x170AA58,
}

// Payload is the WAL between two insert positions less the page headers in
// between (XLogPageHeaderData: SizeOfXLogShortPHD, MAXALIGNed to 24, or
// SizeOfXLogLongPHD, 40, on a segment's first page): the difference of
// their usable byte positions.
func Payload(start, end pg.LSN) int64 {
	return int64(recPtrToBytePos(end)) - int64(recPtrToBytePos(start))
}

// recPtrToBytePos is XLogRecPtrToBytePos, the inverse of bytePosToRecPtr
// and bytePosToEndRecPtr: the usable bytes before ptr.
func recPtrToBytePos(ptr pg.LSN) uint64 {
	fullsegs := uint64(ptr) / pg.WalSegSize
	off := uint64(ptr) % pg.WalSegSize
	fullpages := off / pg.XLogBlcksz
	off %= pg.XLogBlcksz
	var pos uint64
	if fullpages == 0 {
		pos = fullsegs * usableBytesInSeg
		if off > 0 {
			pos += off - SizeOfLongPHD
		}
	} else {
		pos = fullsegs*usableBytesInSeg + (pg.XLogBlcksz - SizeOfLongPHD) + (fullpages-1)*usableBytesInPage
		if off > 0 {
			pos += off - SizeOfShortPHD
		}
	}
	return pos
}

// Recovered is the WAL after crash recovery replayed it up to end, the end
// of what had been flushed (StartupXLOG: EndOfLog): the records inserted
// after end are lost, insertion goes on from end, everything before it
// counts as written and flushed. The redo pointer stays until the
// end-of-recovery checkpoint sets a new one.
func (w *WAL) Recovered(end pg.LSN) {
	pos := recPtrToBytePos(end)
	if pos > w.currBytePos {
		pos = w.currBytePos
	}
	w.currBytePos = pos
	e := bytePosToEndRecPtr(pos)
	w.write, w.flush, w.rqstWrite = e, e, e
	w.asyncLSN = min(w.asyncLSN, e)
	w.initPage = uint64(e) / pg.XLogBlcksz
	w.Started()
}
