package wal

import "github.com/pgbufsim/pgbufsim/pg"

// InitialRedo is the redo pointer of a freshly initialised cluster of
// version v (New): the position of initdb's shutdown checkpoint record,
// which ends where the new cluster's WAL starts.
func InitialRedo(v pg.Version) pg.LSN {
	return bytePosToRecPtr(usableBytesInSeg - pg.MaxAlign(uint64(CheckpointRecord(v))))
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
