package heap

import (
	"math/bits"

	"github.com/pgbufsim/pgbufsim/pg"
)

// # Scan positions
//
// Where a sequential scan starts and, in a parallel scan, which pages each
// participant takes: syncscan.c and tableam.c's block allocation.

// SyncScans is syncscan.c's shared LRU of scan positions (SYNC_SCAN_NELEM =
// 20): a seq scan of a large table starts where another one of it is, so
// that they read its pages together. The zero value is empty.
type SyncScans struct {
	rels []pg.RelID
	locs []pg.BlockNumber
}

const syncScanNElem = 20
const syncScanReportInterval = 128 * 1024 / pg.BLCKSZ // SYNC_SCAN_REPORT_INTERVAL: 16 blocks

// search is ss_search: find rel's entry (adding it at location 0 if absent) and move it to the front.
func (t *SyncScans) search(rel pg.RelID, loc pg.BlockNumber, set bool) pg.BlockNumber {
	i := 0
	for ; i < len(t.rels); i++ {
		if t.rels[i] == rel {
			break
		}
	}
	if i == len(t.rels) {
		if len(t.rels) == syncScanNElem {
			i = len(t.rels) - 1 // reuse the least recently used entry
		} else {
			t.rels = append(t.rels, 0)
			t.locs = append(t.locs, 0)
		}
		t.rels[i], t.locs[i] = rel, 0
	}
	if set {
		t.locs[i] = loc
	}
	r, l := t.rels[i], t.locs[i]
	copy(t.rels[1:i+1], t.rels[:i])
	copy(t.locs[1:i+1], t.locs[:i])
	t.rels[0], t.locs[0] = r, l
	return l
}

// GetLocation is ss_get_location: where a new scan of rel starts.
func (t *SyncScans) GetLocation(rel pg.RelID, nblocks int) pg.BlockNumber {
	l := t.search(rel, 0, false)
	if int(l) >= nblocks {
		return 0
	}
	return l
}

// Report is ss_report_location: only every SYNC_SCAN_REPORT_INTERVAL blocks.
func (t *SyncScans) Report(rel pg.RelID, blk pg.BlockNumber) {
	if blk%syncScanReportInterval == 0 {
		t.search(rel, blk, true)
	}
}

// SerialScan is heapgettup_advance_block for a forward serial scan of
// nblocks: from start, wrapping, reporting each position to sync (when not
// nil) at look-ahead time (17+).
func SerialScan(sync *SyncScans, rel pg.RelID, nblocks int, start pg.BlockNumber) func() (pg.BlockNumber, bool) {
	first, cur := true, start
	return func() (pg.BlockNumber, bool) {
		if nblocks == 0 {
			return 0, false
		}
		if first {
			first = false
			return cur, true
		}
		cur++
		if int(cur) >= nblocks {
			cur = 0
		}
		if sync != nil {
			sync.Report(rel, cur)
		}
		if cur == start {
			return 0, false
		}
		return cur, true
	}
}

// ParallelScan is ParallelBlockTableScanDesc: the shared allocation counter
// of a parallel seq scan.
type ParallelScan struct {
	NBlocks   int
	Start     pg.BlockNumber // where the scan starts (a sync scan's location)
	SyncScan  bool           // report positions to the sync-scan table
	nalloc    int
	reportEnd bool
}

// ParallelWorker is ParallelBlockTableScanWorkerData: one participant's chunk.
type ParallelWorker struct {
	chunkSize, remaining, nallocated int
}

// NextPage is table_block_parallelscan_nextpage: chunks of
// nextpow2(nblocks/2048) blocks (at most 8192), halving over the last 64
// chunks, handed out from a shared counter; sync-scan positions reported per page.
func (ps *ParallelScan) NextPage(w *ParallelWorker, sync *SyncScans, rel pg.RelID) (pg.BlockNumber, bool) {
	if w.chunkSize == 0 {
		n := max(ps.NBlocks/2048, 1)
		w.chunkSize = min(1<<bits.Len(uint(n-1)), 8192)
		if n == 1 {
			w.chunkSize = 1
		}
	}
	var nalloc int
	if w.remaining > 0 {
		w.nallocated++
		nalloc = w.nallocated
		w.remaining--
	} else {
		if w.chunkSize > 1 && w.nallocated > ps.NBlocks-w.chunkSize*64 {
			w.chunkSize >>= 1
		}
		nalloc = ps.nalloc
		ps.nalloc += w.chunkSize
		w.nallocated = nalloc
		if nalloc < ps.NBlocks {
			w.remaining = w.chunkSize - 1
		}
	}
	if nalloc >= ps.NBlocks {
		if ps.SyncScan && nalloc == ps.NBlocks && !ps.reportEnd {
			ps.reportEnd = true
			sync.Report(rel, ps.Start)
		}
		return 0, false
	}
	page := pg.BlockNumber((nalloc + int(ps.Start)) % ps.NBlocks)
	if ps.SyncScan {
		sync.Report(rel, page)
	}
	return page, true
}
