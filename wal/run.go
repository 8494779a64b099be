package wal

import "github.com/pgbufsim/pgbufsim/pg"

// InsertRun is a run of up to limit Insert calls of the same totLen-byte
// record without images, each preceded by before and followed by after
// nanoseconds of the caller's work, taken while the caller's time at the
// start of a record is below deadline — exactly what the loop
//
//	for n < limit && now < deadline {
//		now += before
//		lsn, now = w.Insert(now, u, totLen, 0)
//		now += after
//		n++
//	}
//
// does, computed in one step. Each XLogInsertRecord of the run reserves the
// same MAXALIGNed size (ReserveXLogInsertLocation), so the run's positions,
// times and counters are arithmetic, as long as no record has to initialise
// a WAL page whose buffer slot still holds an unwritten page
// (AdvanceXLInsertBuffer's write, "WAL buffers full", which takes time and
// may request a checkpoint): the run stops before such a record, and the
// caller inserts it with Insert. It returns the records inserted, the end
// LSN of the last one (0 if none) and the new time.
func (w *WAL) InsertRun(now int64, u *Usage, totLen int, limit, before, after, deadline int64) (int64, pg.LSN, int64) {
	if limit <= 0 || now >= deadline || w.err != nil {
		return 0, 0, now
	}
	size := pg.MaxAlign(uint64(totLen))
	step := before + w.cfg.Costs.InsertNs + int64(totLen)*w.cfg.Costs.CopyPsPerByte/1000 + after
	n := limit
	if step > 0 { // records starting below the deadline: now + j·step < deadline
		d := deadline - now
		n = min(n, d/step+min(d%step, 1))
	}
	// The last WAL page a record may end on without a write: page p's slot
	// last held page p − nbuf, written once write ≥ (p − nbuf + 1) · XLOG_BLCKSZ
	// (advanceInsertBuffer's early returns), or a page already initialised.
	nbuf := uint64(w.cfg.WalBuffers)
	last := max(w.initPage, nbuf-1, uint64(w.write)/pg.XLogBlcksz+nbuf-1)
	pos0 := w.currBytePos
	if n = min(n, int64((maxBytePos-pos0)/size)); n <= 0 { // the log's end (Insert's ErrWALExhausted)
		return 0, 0, now
	}
	endPos := pos0 + uint64(n)*size
	end := bytePosToEndRecPtr(endPos)
	if (uint64(end)-1)/pg.XLogBlcksz > last {
		// Fewer: a record ends on a page ≤ last while its end byte position
		// is at most that of the boundary after it (XLogBytePosToEndRecPtr
		// keeps a page start).
		endLimit := uint64(maxBytePos) // a boundary past the address space: no limit but the log's end
		if last < (1<<64-1)/pg.XLogBlcksz {
			endLimit = min(recPtrToBytePos(pg.LSN((last+1)*pg.XLogBlcksz)), maxBytePos)
		}
		if endLimit < pos0+size {
			return 0, 0, now
		}
		n = min(n, int64((endLimit-pos0)/size))
		endPos = pos0 + uint64(n)*size
		end = bytePosToEndRecPtr(endPos)
	}
	// The run's last record that crosses a page boundary sets LogwrtRqst.Write
	// to its end (XLogInsertRecord): the last record itself if it starts on
	// an earlier page than it ends, else the one starting before the
	// boundary at the start of that page and ending at or after it.
	lastStart := bytePosToRecPtr(endPos - size)
	if uint64(lastStart)/pg.XLogBlcksz != uint64(end)/pg.XLogBlcksz {
		w.rqstWrite = max(w.rqstWrite, end)
	} else if b := recPtrToBytePos(pg.LSN(uint64(end) / pg.XLogBlcksz * pg.XLogBlcksz)); b > pos0 {
		j := (b - pos0 + size - 1) / size // records up to and including the crossing one
		w.rqstWrite = max(w.rqstWrite, bytePosToEndRecPtr(pos0+j*size))
	}
	if lp := (uint64(end) - 1) / pg.XLogBlcksz; lp > w.initPage {
		w.initPage = lp
	}
	w.lastImportant = lastStart
	w.currBytePos = endPos
	u.Records += n
	u.Bytes += n * int64(totLen)
	w.Total.Records += n
	w.Total.Bytes += n * int64(totLen)
	return n, end, now + n*step
}
