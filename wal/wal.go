package wal

import (
	"errors"
	"fmt"

	"github.com/pgbufsim/pgbufsim/pg"
)

// Sizes of WAL page headers (xlog_internal.h).
const (
	SizeOfShortPHD = 24 // MAXALIGN(sizeof(XLogPageHeaderData))
	SizeOfLongPHD  = 40 // MAXALIGN(sizeof(XLogLongPageHeaderData))
)

// Record header sizes (xlogrecord.h).
const (
	SizeOfXLogRecord       = 24
	SizeOfBlockHeader      = 4
	SizeOfBlockImageHeader = 5
	SizeOfRelFileLocator   = 12
	SizeOfBlockNumber      = 4
	SizeOfShortMainDataHdr = 2
	SizeOfLongMainDataHdr  = 5
)

// FPIForHint is xl_tot_len of an XLOG_FPI_FOR_HINT record for a standard page
// with the given hole (pd_upper − pd_lower): header, one block reference with
// an image, no main data (XLogSaveBufferForHint, XLogRecordAssemble).
func FPIForHint(hole int) int { return FPIForHintBytes(pg.BLCKSZ - hole) }

// FPIForHintBytes is FPIForHint for an image of imageBytes (compressed, with
// its compress header, under wal_compression).
func FPIForHintBytes(imageBytes int) int {
	return SizeOfXLogRecord + SizeOfBlockHeader + SizeOfBlockImageHeader +
		SizeOfRelFileLocator + SizeOfBlockNumber + imageBytes
}

// HeapInsert is xl_tot_len of XLOG_HEAP_INSERT for a tuple of tlen bytes
// (header included): block reference with the tuple as block data
// (xl_heap_header 5 bytes + tuple minus its 23-byte header), main data
// xl_heap_insert (3 bytes). With an image the block data is replaced by the
// page image (heap_insert, XLogRecordAssemble).
func HeapInsert(tlen int, image bool, hole int) int {
	const mainData = 3 // SizeOfHeapInsert
	n := SizeOfXLogRecord + SizeOfBlockHeader + SizeOfRelFileLocator + SizeOfBlockNumber +
		SizeOfShortMainDataHdr + mainData
	if image {
		return n + SizeOfBlockImageHeader + pg.BLCKSZ - hole
	}
	return n + 5 + tlen - 23
}

// CheckpointRedo is XLOG_CHECKPOINT_REDO (17+): 4 bytes of main data (17:
// a dummy int, 18: wal_level), 8 in 19 (xl_checkpoint_redo: wal_level and
// data_checksum_version, CreateCheckPoint); 0 where the version has none.
func CheckpointRedo(v pg.Version) int {
	switch {
	case v < 17:
		return 0
	case v >= 19:
		return SizeOfXLogRecord + SizeOfShortMainDataHdr + 8
	}
	return SizeOfXLogRecord + SizeOfShortMainDataHdr + 4
}

// RunningXacts is XLOG_RUNNING_XACTS with nothing running (LogStandbySnapshot).
const RunningXacts = SizeOfXLogRecord + SizeOfShortMainDataHdr + 24

// RunningXactsWith is XLOG_RUNNING_XACTS listing xcnt running transactions
// (LogCurrentRunningXacts: MinSizeOfXactRunningXacts, then 4 bytes an XID;
// no subtransactions are modelled).
func RunningXactsWith(xcnt int) int { return RunningXacts + 4*xcnt }

// CheckpointOnline is XLOG_CHECKPOINT_ONLINE (and _SHUTDOWN) with the
// 88-byte CheckPoint of 15–18: 114 bytes.
const CheckpointOnline = SizeOfXLogRecord + SizeOfShortMainDataHdr + 88

// CheckpointRecord is the checkpoint record of version v: 19's CheckPoint
// (pg_control.h) adds logicalDecodingEnabled after wal_level, widens
// nextMultiOffset to 64 bits and appends dataChecksumState, 96 bytes with
// alignment: 122.
func CheckpointRecord(v pg.Version) int {
	if v >= 19 {
		return SizeOfXLogRecord + SizeOfShortMainDataHdr + 96
	}
	return CheckpointOnline
}

// XactCommit is a plain XLOG_XACT_COMMIT (xact_time only, no xinfo).
const XactCommit = SizeOfXLogRecord + SizeOfShortMainDataHdr + 8

// Usage is WAL activity attributed to one backend (pgWalUsage plus the
// backend's pg_stat_io rows for object wal).
type Usage struct {
	Records     int64
	FPI         int64
	Bytes       int64 // Σ xl_tot_len, as EXPLAIN's "WAL: bytes=" and pg_stat_wal count
	BuffersFull int64
	Writes      int64 // write calls (pg_stat_io object=wal, writes)
	Fsyncs      int64
	WriteBytes  int64 // bytes those calls wrote (18's write_bytes)
	// InitWrites, InitFsyncs and InitBytes are the segments this process
	// created (pg_stat_io object=wal, context init): one zero-fill write
	// and one fsync each, 16 MB (or 1 byte without wal_init_zero).
	InitWrites, InitFsyncs, InitBytes int64
}

// Add accumulates o into u.
func (u *Usage) Add(o Usage) {
	u.Records += o.Records
	u.FPI += o.FPI
	u.Bytes += o.Bytes
	u.BuffersFull += o.BuffersFull
	u.Writes += o.Writes
	u.Fsyncs += o.Fsyncs
	u.WriteBytes += o.WriteBytes
	u.InitWrites += o.InitWrites
	u.InitFsyncs += o.InitFsyncs
	u.InitBytes += o.InitBytes
}

// Zero reports whether u counts nothing (adding it would change nothing).
func (u *Usage) Zero() bool {
	return u.Records|u.FPI|u.Bytes|u.BuffersFull|u.Writes|u.Fsyncs|u.WriteBytes|u.InitWrites|u.InitFsyncs|u.InitBytes == 0
}

// Sub returns u − o (for "since MARK").
func (u Usage) Sub(o Usage) Usage {
	return Usage{u.Records - o.Records, u.FPI - o.FPI, u.Bytes - o.Bytes,
		u.BuffersFull - o.BuffersFull, u.Writes - o.Writes, u.Fsyncs - o.Fsyncs, u.WriteBytes - o.WriteBytes,
		u.InitWrites - o.InitWrites, u.InitFsyncs - o.InitFsyncs, u.InitBytes - o.InitBytes}
}

// Costs are the simulated durations of WAL I/O, in nanoseconds.
type Costs struct {
	InsertNs       int64 // reserving space and assembling one record
	CopyPsPerByte  int64 // copying and CRC-ing record bytes, picoseconds per byte
	WriteCallNs    int64 // one pwrite call
	WritePageNs    int64 // per 8 kB page written
	FsyncNs        int64 // one fdatasync, when no Config.Sync is given
	WriterDelayNs  int64 // wal_writer_delay
	WriterFlushAft int64 // wal_writer_flush_after, in WAL pages
}

// Config describes one cluster's WAL.
type Config struct {
	Version    pg.Version
	Checksums  bool // data_checksums: initdb's WAL is longer (InitialRedo)
	WalBuffers int  // pages (XLOGbuffers)
	Costs      Costs
	// Sync, when set, is the machine's fdatasync of a segment with n bytes
	// written since its last one, returning when it is done (the storage
	// model's SyncWAL); otherwise each costs Costs.FsyncNs.
	Sync func(now, n int64) int64
}

// WAL is the log of one simulated cluster. Single-threaded; the simulator's
// scheduler interleaves its callers.
type WAL struct {
	cfg Config

	currBytePos uint64 // Insert->CurrBytePos
	err         error  // ErrWALExhausted once the log has reached its end
	write       pg.LSN // LogwrtResult.Write
	flush       pg.LSN // LogwrtResult.Flush
	rqstWrite   pg.LSN // XLogCtl->LogwrtRqst.Write
	asyncLSN    pg.LSN // XLogCtl->asyncXactLSN
	redo        pg.LSN // RedoRecPtr
	initPage    uint64 // highest WAL page index initialised (AdvanceXLInsertBuffer)
	lockFreeAt  int64  // WALWriteLock is free from this simulated time on
	// flushBefore is the flush pointer other processes see until
	// flushShownAt: XLogWrite publishes its LogwrtResult in shared memory
	// (XLogCtl->LogwrtResult; 17+ logFlushResult) only as it returns, after
	// its fsyncs, while flush is set as the simulator runs the call.
	flushBefore  pg.LSN
	flushShownAt int64
	lastFlushNs  int64 // the WAL writer's static lastflush (0 = never)

	// ckptSegments is CheckPointSegments (0: no WAL-triggered checkpoints);
	// onCkptNeeded is RequestCheckpoint(CHECKPOINT_CAUSE_XLOG), called with
	// the simulated time at which a finished segment found it needed.
	ckptSegments int
	onCkptNeeded func(at int64)
	// ckptLSN is the start of the last checkpoint record (ControlFile->checkPoint).
	ckptLSN pg.LSN
	// lastImportant is where the last record not marked
	// XLOG_MARK_UNIMPORTANT starts (GetLastImportantRecPtr).
	lastImportant pg.LSN

	// segLo … segHi are the segment files in pg_wal (segments.go);
	// noInitZero and noRecycle are wal_init_zero=off and wal_recycle=off.
	segLo, segHi          uint64
	noInitZero, noRecycle bool
	// ckptEnd is where the last checkpoint record ends (CreateCheckPoint's recptr).
	ckptEnd pg.LSN

	// Total is pg_stat_wal: everything inserted since the cluster started.
	Total Usage
}

const (
	usableBytesInPage = pg.XLogBlcksz - SizeOfShortPHD
	usableBytesInSeg  = (pg.WalSegSize/pg.XLogBlcksz)*usableBytesInPage - (SizeOfLongPHD - SizeOfShortPHD)
)

// New returns the WAL of a freshly started cluster: everything before the
// start is written and flushed, and the redo pointer is that of initdb's
// last (shutdown) checkpoint, whose record ends where the start is — so a
// page logged at the start (by the DDL the model does not log) counts as
// logged after the redo pointer, as it is on a server.
func New(cfg Config) (*WAL, error) {
	if cfg.WalBuffers < 4 {
		return nil, &pg.SettingError{Name: "wal_buffers", Value: fmt.Sprint(cfg.WalBuffers), Allowed: "at least 4 pages (32kB)"}
	}
	w := &WAL{cfg: cfg}
	// Start just past initdb's shutdown checkpoint record.
	w.redo = InitialRedo(cfg.Version, cfg.Checksums)
	w.currBytePos = recPtrToBytePos(w.redo) + pg.MaxAlign(uint64(CheckpointRecord(cfg.Version)))
	start := w.InsertLSN()
	w.write, w.flush, w.rqstWrite = start, start, start
	w.ckptLSN = w.redo // initdb's shutdown checkpoint record is at its own redo pointer
	w.initPage = uint64(start) / pg.XLogBlcksz
	// initdb created the first segment (BootStrapXLOG) and no other: its
	// WAL ends in the first half of it, short of PreallocXlogFiles' 75%.
	w.segLo = uint64(start) / pg.WalSegSize
	w.segHi = w.segLo
	w.ckptEnd = start
	return w, nil
}

// bytePosToRecPtr is XLogBytePosToRecPtr: a position at a page start lands after the header.
func bytePosToRecPtr(bytepos uint64) pg.LSN {
	fullsegs := bytepos / usableBytesInSeg
	left := bytepos % usableBytesInSeg
	var off uint64
	if left < pg.XLogBlcksz-SizeOfLongPHD {
		off = left + SizeOfLongPHD
	} else {
		left -= pg.XLogBlcksz - SizeOfLongPHD
		off = pg.XLogBlcksz + (left/usableBytesInPage)*pg.XLogBlcksz + left%usableBytesInPage + SizeOfShortPHD
	}
	return pg.LSN(fullsegs*pg.WalSegSize + off)
}

// bytePosToEndRecPtr is XLogBytePosToEndRecPtr: a position at a page start stays at the boundary.
func bytePosToEndRecPtr(bytepos uint64) pg.LSN {
	fullsegs := bytepos / usableBytesInSeg
	left := bytepos % usableBytesInSeg
	var off uint64
	if left < pg.XLogBlcksz-SizeOfLongPHD {
		if left == 0 {
			off = 0
		} else {
			off = left + SizeOfLongPHD
		}
	} else {
		left -= pg.XLogBlcksz - SizeOfLongPHD
		off = pg.XLogBlcksz + (left/usableBytesInPage)*pg.XLogBlcksz + left%usableBytesInPage
		if left%usableBytesInPage > 0 {
			off += SizeOfShortPHD
		}
	}
	return pg.LSN(fullsegs*pg.WalSegSize + off)
}

// SetCheckpointSegments installs WAL-triggered checkpoint requests: fn is
// called (with the simulated time) whenever a finished segment is
// CheckPointSegments − 1 or more segments past the redo pointer's. segs < 1
// or fn nil turns them off.
func (w *WAL) SetCheckpointSegments(segs int, fn func(at int64)) {
	w.ckptSegments, w.onCkptNeeded = segs, fn
	if segs < 1 {
		w.onCkptNeeded = nil
	}
}

// CheckpointNeeded is XLogCheckpointNeeded: segment newSeg (just finished) is
// at least CheckPointSegments − 1 segments past the redo pointer's segment.
func (w *WAL) CheckpointNeeded(newSeg uint64) bool {
	oldSeg := uint64(w.redo) / pg.WalSegSize
	return w.ckptSegments > 0 && newSeg >= oldSeg+uint64(w.ckptSegments-1)
}

// CheckpointSegments is CalculateCheckpointSegments (xlog.c, the same in 15
// to 19): max_wal_size in 16 MB segments divided by 1 +
// checkpoint_completion_target, rounded down, at least 1 — the WAL one
// checkpoint cycle may use while the next spread checkpoint is under way.
func CheckpointSegments(maxWALSizeMB int64, completionTarget float64) int {
	n := int(float64(maxWALSizeMB/(pg.WalSegSize>>20)) / (1.0 + completionTarget))
	return max(n, 1)
}

// InsertLSN is pg_current_wal_insert_lsn().
func (w *WAL) InsertLSN() pg.LSN { return bytePosToRecPtr(w.currBytePos) }

// ErrWALExhausted: the 64-bit WAL address space (16 EB) is used up. No real
// server gets there; the simulator refuses to wrap rather than go on wrongly.
var ErrWALExhausted = errors.New("WAL position overflow: the 64-bit WAL address space (16EB) is exhausted")

// maxBytePos is the last usable byte position: the end of the last whole
// segment below 2^64.
const maxBytePos = (1<<64/pg.WalSegSize - 1) * usableBytesInSeg

// Err is ErrWALExhausted once an insert found no room, nil otherwise.
func (w *WAL) Err() error { return w.err }

// insertEnd is the end of the last record inserted (WaitXLogInsertionsToFinish's reservedUpto).
func (w *WAL) insertEnd() pg.LSN { return bytePosToEndRecPtr(w.currBytePos) }

// WriteLSN is pg_current_wal_lsn() (LogwrtResult.Write).
func (w *WAL) WriteLSN() pg.LSN { return w.write }

// FlushLSN is pg_current_wal_flush_lsn().
func (w *WAL) FlushLSN() pg.LSN { return w.flush }

// RedoRecPtr is the current checkpoint's redo pointer.
func (w *WAL) RedoRecPtr() pg.LSN { return w.redo }

// NeedsFlush is XLogNeedsFlush: lsn is beyond what has been flushed.
func (w *WAL) NeedsFlush(lsn pg.LSN) bool { return lsn > w.flush }

// NeedsFlushAt is XLogNeedsFlush asked by a process at simulated time now:
// lsn is beyond the flush pointer published by then (an XLogWrite still
// writing or syncing at now has not published its flush).
func (w *WAL) NeedsFlushAt(now int64, lsn pg.LSN) bool { return lsn > w.flushSeen(now) }

func (w *WAL) flushSeen(now int64) pg.LSN {
	if now < w.flushShownAt {
		return w.flushBefore
	}
	return w.flush
}

// Buffers is wal_buffers in pages.
func (w *WAL) Buffers() int { return w.cfg.WalBuffers }

// Insert reserves and copies one record of totLen bytes carrying nfpi page
// images (XLogInsertRecord), initialising any new WAL pages first
// (AdvanceXLInsertBuffer, which may write an old page: "WAL buffers full").
// It returns the record's end LSN (what PageSetLSN stores) and the caller's
// new simulated time.
func (w *WAL) Insert(now int64, u *Usage, totLen, nfpi int) (pg.LSN, int64) {
	if w.err == nil {
		w.lastImportant = w.InsertLSN()
	}
	return w.insert(now, u, totLen, nfpi)
}

// InsertUnimportant is XLogInsert of a record flagged XLOG_MARK_UNIMPORTANT
// (a standby snapshot): it does not move GetLastImportantRecPtr, so it
// neither makes an idle system's next checkpoint happen nor the background
// writer's next snapshot.
func (w *WAL) InsertUnimportant(now int64, u *Usage, totLen int) (pg.LSN, int64) {
	return w.insert(now, u, totLen, 0)
}

// Started is the server's start on this log: new shared memory, so no
// record is important yet (WALInsertLocks' lastImportantAt).
func (w *WAL) Started() { w.lastImportant = 0 }

// LastImportantRecPtr is GetLastImportantRecPtr: the start of the last
// record inserted without XLOG_MARK_UNIMPORTANT (0 before any).
func (w *WAL) LastImportantRecPtr() pg.LSN { return w.lastImportant }

func (w *WAL) insert(now int64, u *Usage, totLen, nfpi int) (pg.LSN, int64) {
	// ReserveXLogInsertLocation reserves MAXALIGN(xl_tot_len) usable bytes.
	size := pg.MaxAlign(uint64(totLen))
	if w.currBytePos+size > maxBytePos || w.err != nil {
		w.err = ErrWALExhausted // the log stays where it is; the caller reports Err
		return w.InsertLSN(), now
	}
	start := bytePosToRecPtr(w.currBytePos)
	w.currBytePos += size
	end := bytePosToEndRecPtr(w.currBytePos)
	now += w.cfg.Costs.InsertNs + int64(totLen)*w.cfg.Costs.CopyPsPerByte/1000
	// Pages the record touches beyond those already initialised.
	lastPage := (uint64(end) - 1) / pg.XLogBlcksz
	for p := w.initPage + 1; p <= lastPage; p++ {
		now = w.advanceInsertBuffer(now, u, p)
	}
	if lastPage > w.initPage {
		w.initPage = lastPage
	}
	if uint64(start)/pg.XLogBlcksz != uint64(end)/pg.XLogBlcksz && w.rqstWrite < end {
		w.rqstWrite = end
	}
	u.Records++
	u.FPI += int64(nfpi)
	u.Bytes += int64(totLen)
	w.Total.Records++
	w.Total.FPI += int64(nfpi)
	w.Total.Bytes += int64(totLen)
	return end, now
}

// advanceInsertBuffer initialises WAL page p; its slot last held page p−nbuf,
// which must be written first (AdvanceXLInsertBuffer, PG15–19: 19 went back
// to WALBufMappingLock, with the same rule for writing the old page).
func (w *WAL) advanceInsertBuffer(now int64, u *Usage, p uint64) int64 {
	nbuf := uint64(w.cfg.WalBuffers)
	if p < nbuf {
		return now
	}
	oldPageEnd := pg.LSN((p - nbuf + 1) * pg.XLogBlcksz)
	if w.write >= oldPageEnd {
		return now
	}
	if w.rqstWrite < oldPageEnd {
		w.rqstWrite = oldPageEnd
	}
	now = w.acquireLock(now)
	if w.write >= oldPageEnd { // someone wrote it while we waited
		return now
	}
	now = w.xlogWrite(now, u, oldPageEnd, 0, false)
	u.BuffersFull++
	w.Total.BuffersFull++
	return now
}

func (w *WAL) acquireLock(now int64) int64 {
	if w.lockFreeAt > now {
		return w.lockFreeAt
	}
	return now
}

// fsync is issue_xlog_fsync of the segment being written: what was written
// of it since the flush point goes to the device (every earlier segment was
// synced when it was finished).
func (w *WAL) fsync(now int64) int64 {
	if w.cfg.Sync == nil {
		return now + w.cfg.Costs.FsyncNs
	}
	segStart := pg.LSN((uint64(w.write) - 1) / pg.WalSegSize * pg.WalSegSize)
	return w.cfg.Sync(now, int64(w.write-max(w.flush, segStart)))
}

// xlogWrite is XLogWrite: write pages from the write pointer up to target in
// contiguous groups (a group ends at the ring's last slot, at a segment end,
// or at the target), fsync each finished segment, and in flexible mode stop
// after the first group. Then flush up to what was written if asked.
// The caller holds WALWriteLock from now on; the lock is held until the return.
func (w *WAL) xlogWrite(now int64, u *Usage, target, flushTo pg.LSN, flexible bool) int64 {
	c := &w.cfg.Costs
	before := w.flush
	nbuf := uint64(w.cfg.WalBuffers)
	npages := int64(0)
	startOff := uint64(0)
	for w.write < target {
		page := uint64(w.write) / pg.XLogBlcksz // the page being written (write is at its start or inside it)
		pageEnd := pg.LSN((page + 1) * pg.XLogBlcksz)
		w.write = pageEnd
		partial := target < pageEnd
		if npages == 0 {
			startOff = (uint64(pageEnd) - pg.XLogBlcksz) % pg.WalSegSize
		}
		if npages == 0 {
			// XLogWrite opens the segment it is about to write into,
			// creating it if no file has its name (XLogFileInit).
			if seg := uint64(pageEnd-1) / pg.WalSegSize; seg > w.segHi {
				now = w.initSegment(now, u, seg)
			}
		}
		npages++
		last := target <= w.write
		finishingSeg := !partial && startOff+uint64(npages)*pg.XLogBlcksz >= pg.WalSegSize
		if last || page%nbuf == nbuf-1 || finishingSeg {
			now += c.WriteCallNs + npages*c.WritePageNs
			u.Writes++
			u.WriteBytes += npages * pg.XLogBlcksz
			npages = 0
			if finishingSeg {
				now = w.fsync(now)
				u.Fsyncs++
				w.flush = w.write
				// XLogWrite: request a checkpoint if too much WAL has been used
				// since the redo pointer (XLogCheckpointNeeded on the segment just finished).
				if w.onCkptNeeded != nil && w.CheckpointNeeded(uint64(w.write-1)/pg.WalSegSize) {
					w.onCkptNeeded(now)
				}
			}
		}
		if partial {
			w.write = target
			break
		}
		if flexible && npages == 0 {
			break
		}
	}
	if w.flush < flushTo && w.flush < w.write {
		now = w.fsync(now)
		u.Fsyncs++
		w.flush = w.write
	}
	if w.rqstWrite < w.write {
		w.rqstWrite = w.write
	}
	if w.flush != before {
		w.flushBefore, w.flushShownAt = before, now
	}
	w.lockFreeAt = now
	return now
}

// Flush is XLogFlush(lsn): if lsn is not yet flushed, write and flush
// everything inserted so far (the request grows to the insert position).
func (w *WAL) Flush(now int64, u *Usage, lsn pg.LSN) int64 {
	if lsn <= w.flushSeen(now) {
		return now
	}
	now = w.acquireLock(now)
	if lsn <= w.flush {
		return now
	}
	end := w.insertEnd()
	return w.xlogWrite(now, u, end, end, false)
}

// SetAsyncXactLSN is XLogSetAsyncXactLSN: a transaction that wrote WAL but
// need not wait for it (no xid, or synchronous_commit=off) asks the WAL writer
// to flush up to lsn. It reports whether the WAL writer should be woken now
// (a full wal_writer_flush_after of unflushed pages).
func (w *WAL) SetAsyncXactLSN(lsn pg.LSN) bool {
	if lsn > w.asyncLSN {
		w.asyncLSN = lsn
	}
	flushBlocks := int64(uint64(lsn)/pg.XLogBlcksz) - int64(uint64(w.flush)/pg.XLogBlcksz)
	return w.cfg.Costs.WriterFlushAft == 0 || flushBlocks >= w.cfg.Costs.WriterFlushAft
}

// BackgroundFlush is one round of the WAL writer (XLogBackgroundFlush): write
// complete pages up to the shared write request in flexible mode, flushing if
// wal_writer_delay passed since its last flush or wal_writer_flush_after pages
// are pending; if everything complete is flushed, flush the async commit LSN.
// It reports whether there was work, and the WAL writer's new time.
func (w *WAL) BackgroundFlush(now int64, u *Usage) (bool, int64) {
	target := w.rqstWrite - w.rqstWrite%pg.XLogBlcksz
	flexible := true
	if target <= w.flush {
		target = w.asyncLSN
		flexible = false
	}
	if target <= w.flush {
		return false, now
	}
	var flushTo pg.LSN
	flushBlocks := int64(uint64(target)/pg.XLogBlcksz) - int64(uint64(w.flush)/pg.XLogBlcksz)
	c := &w.cfg.Costs
	if c.WriterFlushAft == 0 || w.lastFlushNs == 0 || now-w.lastFlushNs >= c.WriterDelayNs || flushBlocks >= c.WriterFlushAft {
		flushTo = target
		w.lastFlushNs = now
		if w.lastFlushNs == 0 {
			w.lastFlushNs = 1
		}
	}
	now = w.acquireLock(now)
	if target > w.write || flushTo > w.flush {
		now = w.xlogWrite(now, u, target, flushTo, flexible)
	}
	return true, now
}

// Checkpoint starts an online checkpoint's WAL part: the REDO record (17+)
// whose start becomes RedoRecPtr (before 17, the insert position itself).
// The caller writes the dirty buffers, then calls FinishCheckpoint.
func (w *WAL) Checkpoint(now int64, u *Usage, v pg.Version) int64 {
	if n := CheckpointRedo(v); n > 0 {
		w.redo = bytePosToRecPtr(w.currBytePos)
		_, now = w.Insert(now, u, n, 0)
	} else {
		w.redo = bytePosToRecPtr(w.currBytePos)
	}
	return now
}

// FinishCheckpoint writes RUNNING_XACTS (listing xcnt running
// transactions: LogStandbySnapshot) and CHECKPOINT_ONLINE and flushes them
// (CreateCheckPoint).
func (w *WAL) FinishCheckpoint(now int64, u *Usage, xcnt int) int64 {
	_, now = w.InsertUnimportant(now, u, RunningXactsWith(xcnt))
	var end pg.LSN
	w.ckptLSN = w.InsertLSN()
	end, now = w.Insert(now, u, CheckpointRecord(w.cfg.Version), 0)
	w.ckptEnd = end
	return w.Flush(now, u, end)
}

// LastCheckpointLSN is where the last online checkpoint's record starts (its lsn= in the log).
func (w *WAL) LastCheckpointLSN() pg.LSN { return w.ckptLSN }

// ShutdownCheckpoint is CreateCheckPoint(CHECKPOINT_IS_SHUTDOWN) after the
// buffers are written: no REDO record and no standby snapshot; the redo
// pointer is the checkpoint record's own position; the record is flushed.
func (w *WAL) ShutdownCheckpoint(now int64, u *Usage) int64 {
	w.redo = bytePosToRecPtr(w.currBytePos)
	w.ckptLSN = w.redo
	var end pg.LSN
	end, now = w.Insert(now, u, CheckpointRecord(w.cfg.Version), 0)
	w.ckptEnd = end
	return w.Flush(now, u, end)
}

// FlushAll writes and flushes everything (shutdown checkpoint, idle WAL writer catch-up).
func (w *WAL) FlushAll(now int64, u *Usage) int64 {
	return w.Flush(now, u, w.insertEnd())
}
