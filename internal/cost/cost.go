// Package cost is the simulator's cost model: the simulated duration of
// each kind of work, with where each figure comes from.
package cost

import (
	"math"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/wal"
)

// Cost model. Simulated time advances only by these durations (nanoseconds),
// charged to the process that does the work. They are kept here, in one place,
// each with where it comes from (measurements of the seeds or of the machine,
// never a scenario figure other than the timing they stand for).
//
//   - Reads from the OS page cache: ~4 µs per 8 kB read call (seed 003, F003-2:
//     504 reads in 2.024 ms); a vectored read adds a copy per further block,
//     ~1.9 µs: on the verify host (host_time_scale 0.559) reading a 64 MB
//     cached file in calls of 1, 2, 4, 8 and 16 blocks took 1.64, 2.88,
//     5.63, 10.17 and 17.81 µs a call (medians of 7 passes), 1.08 µs for
//     each block after the first, 1.93 µs at scale 1 (the kernel's copy out
//     of the page cache and its lookups of the two 4 kB pages, not the
//     call). It was 0.5 µs, not measured, which made an I/O worker's
//     16-block read cheaper than the backend's handling of its 16 pages, so
//     a parallel scan's participants took blocks from the shared counter in
//     strict turns and their reads combined to 2–5 blocks where the server's
//     combine to 10–13 (random seed 2011 on 18: 876 reads against 326–434).
//   - Writes of data pages and WAL pages into the OS page cache: a pwrite of
//     8 kB, of the same order as a read. An fdatasync of the WAL is the
//     device's (storage.SyncWAL: the segment's bytes since its last sync, then
//     the device's cache flush, ~1 ms on the SSD profiles); FsyncNs, a flat
//     ~1 ms, is only for a WAL run without a device (wal package tests).
//   - CPU per page and per tuple of a count(*) scan: seed 001's second
//     count(*) of 6,000,000 hinted tuples in 62,500 cached pages took 167 ms
//     on three participants: ~1 µs a page and ~80 ns a tuple. A tuple whose
//     inserter must be looked up (one cached pg_xact lookup, the hint set)
//     costs ~200 ns.
//   - A backend writing WAL itself because the WAL buffers are full: seed 001
//     puts most of its first read's extra 750 ms on 55,766 such writes, ~13 µs
//     each (a pwrite of 8 kB under WALWriteLock): 12 µs a call + 2 µs a page.
//     With these the first and second reads keep the seed's 5.5× ratio (F001-3).
//   - A heap fetch of one tuple by an index scan (lock, HOT-chain search,
//     unlock) ~0.75 µs: seed 003's warm index scan (F003-1) spends 0.534 ms on
//     504 buffers, ~1.06 µs each with the pin and the visibility check. That
//     figure calibrates it; F003-2 to -4 then follow from the storage model.
//   - posix_fadvise(WILLNEED): a system call that queues reads, ~2 µs;
//     sync_file_range(SYNC_FILE_RANGE_WRITE) (the *_flush_after write-backs)
//     likewise queues writes without waiting for them, ~2 µs a call.
//   - Checksum computation and WAL record copying+CRC at a few GB/s.
//   - Parallel worker start-up: fork + catalog cache warm-up, a few ms.
//     Kept at 3 ms: on the 2-core verify host (load average 1–11, so
//     noisy) a single-copy Gather's first row from a one-row table took
//     medians of 5.9–10.1 ms on 18beta1 and 7.0–9.5 on 15.18 (minima 3.2
//     and 3.4), worth 2,800–6,000 pages of a serial all-frozen hit scan
//     timed beside it (4.5–9.6 ms at the model's 1.6 µs a page), and
//     forced one-worker scans of 4,000 such pages left the worker 0–1,451
//     blocks (median 602 on 15, 64 on 18; the model's: 1,054); but random
//     seed 8 on 19beta1 (TestParallelWorkerSetsOnePageVisible19) has its
//     worker reach a page of a 1,740-page scan, which 5 ms in the model
//     does not. No version differs beyond that noise in start-up. The
//     leader's wait for the worker to exit after its last row
//     (DestroyParallelContext) does: medians 4.1–5.1 ms on 15, 1.3 on 18;
//     it is not modelled.
//   - Compressing a full-page image under wal_compression, per byte of the
//     page without its hole, as XLogCompressBackupBlock calls each method:
//     pglz_compress with PGLZ_strategy_default, LZ4_compress_default, and
//     ZSTD_compress at ZSTD_CLEVEL_DEFAULT (3). Measured by compressing the
//     6,252 images seed 001's (tenth-size) first read logs (TestF001_6's
//     md5-text pages, the simulator's own bytes) with PostgreSQL 15's
//     pg_lzcompress.c and the system's liblz4 1.9.4 and libzstd 1.5.4, one
//     call a page, on the verify host at load average 1: 27.9, 2.09 and 8.13
//     ns a byte, the best of 5 passes; that host's host_time_scale measured
//     1.075 beside it (pgbufsim host-scale on 15), so at scale 1: 26.0, 1.95
//     and 7.56 (38, 510 and 130 MB/s; the compressors' own outputs, 61%, 63%
//     and 37% of the input, match the simulator's within 2 points).
//
// Model is the simulated duration of each kind of work, in nanoseconds.
type Model struct {
	Buf            bufmgr.Costs
	WAL            wal.Costs
	PageNs         int64 // per heap page visited by a scan (page-at-a-time setup, aggregate)
	TupleNs        int64 // per tuple whose visibility is checked with its hint bit set
	TupleUnhintNs  int64 // per tuple whose xmin must be looked up in pg_xact and hinted
	TupleAllVisNs  int64 // per tuple on an all-visible page (no visibility check)
	FetchNs        int64 // heapam_index_fetch_tuple: lock the page, follow the HOT chain, unlock
	InsertTupleNs  int64 // forming and placing one tuple in INSERT … SELECT
	WorkerStartNs  int64
	StatementNs    int64 // parse, plan, executor start/end of one statement
	InterCommandNs int64 // the client's pause between two statements
	// Compressing a page image, picoseconds per input byte, by wal_compression method.
	PglzPsPerByte, LZ4PsPerByte, ZstdPsPerByte int64
}

// CompressPsPerByte is the compressing cost of a wal_compression method
// (pglz, lz4, zstd), picoseconds per input byte.
func (m *Model) CompressPsPerByte(method string) int64 {
	switch method {
	case "lz4":
		return m.LZ4PsPerByte
	case "zstd":
		return m.ZstdPsPerByte
	}
	return m.PglzPsPerByte
}

// Default is the cost model every cluster runs on.
var Default = Model{
	Buf: bufmgr.Costs{
		PinNs:       200,
		WritePageNs: 10_000,
		ChecksumNs:  2_000,
		ReadCallNs:  4_000,
		ReadPageNs:  1_900,
		AdviseNs:    2_000,
		WritebackNs: 2_000,
	},
	WAL: wal.Costs{
		InsertNs:      400,
		CopyPsPerByte: 250,
		WriteCallNs:   12_000,
		WritePageNs:   2_000,
		FsyncNs:       1_000_000,
	},
	PageNs:         1_000,
	TupleNs:        80,
	TupleUnhintNs:  200,
	TupleAllVisNs:  100,
	FetchNs:        750,
	InsertTupleNs:  3_000,
	WorkerStartNs:  3_000_000,
	StatementNs:    200_000,
	InterCommandNs: 500_000_000,
	PglzPsPerByte:  26_000,
	LZ4PsPerByte:   1_950,
	ZstdPsPerByte:  7_560,
}

// Scaled is m on a host whose CPU and memory work takes f times as long:
// every duration of work done by a process (pins, page and tuple handling,
// checksums, copies into and out of the OS page cache, WAL record copying,
// page-image compression and the WAL's writes into the page cache, system
// calls, worker start-up and a statement's parse/plan) is multiplied by f.
// Left alone are what the host's CPU does not decide: the device's
// fdatasync (FsyncNs; the device model has its own latencies, and
// device_flush and device_write_mbps set a host's) and the client's pause
// between statements.
// f is the host_time_scale setting; 1 is the host the figures above were
// measured on.
func (m Model) Scaled(f float64) Model {
	if f == 1 {
		return m
	}
	for _, v := range []*int64{&m.Buf.PinNs, &m.Buf.WritePageNs, &m.Buf.ChecksumNs, &m.Buf.ReadCallNs,
		&m.Buf.ReadPageNs, &m.Buf.AdviseNs, &m.Buf.WritebackNs, &m.WAL.InsertNs, &m.WAL.CopyPsPerByte,
		&m.WAL.WriteCallNs, &m.WAL.WritePageNs, &m.PageNs, &m.TupleNs, &m.TupleUnhintNs, &m.TupleAllVisNs,
		&m.FetchNs, &m.InsertTupleNs, &m.WorkerStartNs, &m.StatementNs,
		&m.PglzPsPerByte, &m.LZ4PsPerByte, &m.ZstdPsPerByte} {
		*v = int64(math.Round(float64(*v) * f))
	}
	return m
}
