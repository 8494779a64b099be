package wal

import (
	"math"

	"github.com/pgbufsim/pgbufsim/pg"
)

// pg_wal's segment files. A segment is a file only once something has
// created it: initdb makes the first (BootStrapXLOG), XLogWrite makes each
// later one when it first writes into it and finds no file (XLogFileInit),
// and a checkpoint renames the segments it no longer needs to the names
// after the last, as long as the next cycle's estimated WAL needs them
// (RemoveOldXlogFiles, XLOGfileslop), or removes them. So the files are
// always the consecutive segments segLo … segHi: creation appends the next,
// recycling renames the oldest to the next free name.
//
// Creating a segment is costly and done by the process that needed it,
// holding WALWriteLock: with wal_init_zero (the default) it writes 16 MB of
// zeros and fsyncs the file, then durable_rename fsyncs the directory. A
// recycled segment is only opened. This is what pg_stat_io counts for
// object wal, context init (18+), and what log_checkpoints reports as
// "WAL file(s) added, removed, recycled".

// SegmentStats are the WAL files a checkpoint added, removed and recycled
// (CheckpointStats.ckpt_segs_*).
type SegmentStats struct {
	Added, Removed, Recycled int
}

// zeroIOV is how many XLOG_BLCKSZ blocks of zeros one write call of the
// zero-fill carries: 15's XLogFileInitInternal writes the file one 8 kB
// block a call; from 16 pg_pwrite_zeros hands PG_IOV_MAX iovecs of one
// zero block to each pwritev — Min(IOV_MAX, 32) in 16 and 17,
// Min(IOV_MAX, 128) from 18 (pg_iovec.h; Linux's IOV_MAX is 1,024).
func zeroIOV(v pg.Version) int64 {
	switch {
	case v >= 18:
		return 128
	case v >= 16:
		return 32
	}
	return 1
}

// Segments reports the segment files pg_wal holds: the first and the last.
func (w *WAL) Segments() (first, last uint64) { return w.segLo, w.segHi }

// SetInitZero sets wal_init_zero (on: a new segment is filled with zeros;
// off: one byte is written at its end) and wal_recycle (on: a checkpoint
// renames old segments for reuse; off: it removes them).
func (w *WAL) SetInitZero(initZero, recycle bool) { w.noInitZero, w.noRecycle = !initZero, !recycle }

// initSegment is XLogFileInit of segment seg, which does not exist yet, by
// the process whose counters are u, at time now: the zero-fill (or the one
// byte), its fsync, and durable_rename's fsync of pg_wal. It returns the
// time the file is in place. Models XLogFileInitInternal and
// InstallXLogFileSegment (xlog.c).
func (w *WAL) initSegment(now int64, u *Usage, seg uint64) int64 {
	c := &w.cfg.Costs
	if w.noInitZero {
		now += c.WriteCallNs
		u.InitBytes++
		now = w.syncFile(now, 0)
	} else {
		blocks := int64(pg.WalSegSize / pg.XLogBlcksz)
		calls := blocks / zeroIOV(w.cfg.Version)
		now += calls*c.WriteCallNs + blocks*c.WritePageNs
		u.InitBytes += pg.WalSegSize
		now = w.syncFile(now, pg.WalSegSize)
	}
	u.InitWrites++
	u.InitFsyncs++
	now = w.syncFile(now, 0) // durable_rename: fsync of the directory
	w.segHi = seg
	return now
}

// syncFile is an fsync that sends n bytes to the device and flushes its
// cache (the storage model's), or the flat fsync cost without one.
func (w *WAL) syncFile(now, n int64) int64 {
	if w.cfg.Sync == nil {
		return now + w.cfg.Costs.FsyncNs
	}
	return w.cfg.Sync(now, n)
}

// slop is XLOGfileslop(redo): the last segment worth keeping as a future
// one — enough for the next checkpoint cycle at the distance estimate
// (times 1 + checkpoint_completion_target, plus 10%), at least min_wal_size
// and at most max_wal_size past the redo pointer.
func slop(redo pg.LSN, estimate float64, minMB, maxMB int64, target float64) uint64 {
	segMB := int64(pg.WalSegSize >> 20)
	redoSeg := uint64(redo) / pg.WalSegSize
	minSeg := redoSeg + uint64(minMB/segMB) - 1
	maxSeg := redoSeg + uint64(maxMB/segMB) - 1
	distance := (1.0 + target) * estimate * 1.10
	recycle := uint64(math.Ceil((float64(redo) + distance) / pg.WalSegSize))
	return min(max(recycle, minSeg), maxSeg)
}

// SegmentSettings are the settings a checkpoint's removal of old segments
// reads.
type SegmentSettings struct {
	MinWALSizeMB, MaxWALSizeMB int64
	CompletionTarget           float64
	KeepSizeMB                 int64   // wal_keep_size
	Estimate                   float64 // CheckPointDistanceEstimate, already updated by this checkpoint
}

// RemoveOldSegments is the end of CreateCheckPoint after its record is
// flushed, by the checkpointer whose counters are u at time now: the
// segments before the redo pointer's (less wal_keep_size's, KeepLogSeg)
// are recycled as future segments up to XLOGfileslop, the rest removed
// (RemoveOldXlogFiles, RemoveXlogFile), each rename or unlink durable (an
// fsync of pg_wal); then, unless shutdown, if the checkpoint record ended
// in the last quarter of its segment, the next segment is created ahead
// (PreallocXlogFiles). Replication slots are not modelled.
func (w *WAL) RemoveOldSegments(now int64, u *Usage, s SegmentSettings, shutdown bool) (int64, SegmentStats) {
	var st SegmentStats
	segMB := int64(pg.WalSegSize >> 20)
	endSeg := uint64(w.ckptEnd) / pg.WalSegSize
	keep := uint64(w.redo) / pg.WalSegSize
	if s.KeepSizeMB > 0 { // KeepLogSeg
		if ks := uint64(s.KeepSizeMB / segMB); endSeg-keep < ks {
			keep = 1
			if endSeg > ks {
				keep = endSeg - ks
			}
		}
	}
	recycleSeg := slop(w.redo, s.Estimate, s.MinWALSizeMB, s.MaxWALSizeMB, s.CompletionTarget)
	endlog := endSeg
	for seg := w.segLo; seg < keep && seg <= w.segHi; seg++ {
		// InstallXLogFileSegment(&endlog, find_free, recycleSeg): the first
		// name from endlog on with no file, if it is not past recycleSeg.
		if !w.noRecycle && endlog <= recycleSeg {
			free := max(endlog, w.segHi+1)
			if free <= recycleSeg {
				w.segHi = free
				endlog = free + 1
				st.Recycled++
				now = w.syncFile(now, 0)
				continue
			}
		}
		st.Removed++
		now = w.syncFile(now, 0)
	}
	if keep > w.segLo {
		w.segLo = min(keep, w.segHi)
	}
	if !shutdown && (uint64(w.ckptEnd)-1)%pg.WalSegSize >= pg.WalSegSize*3/4 {
		if next := (uint64(w.ckptEnd)-1)/pg.WalSegSize + 1; next > w.segHi {
			now = w.initSegment(now, u, next)
			st.Added++
		}
	}
	return now, st
}
