// Package bulk accounts the rows of a load that land on one heap page in the
// same way as one step: what heap_insert does row after row to the page an
// INSERT … SELECT is filling — the same buffer hits and usage counts, WAL
// records and positions, tuple counts, page LSN and simulated time — without
// going through the statement's scheduler once a row.
//
// It is exact, not an estimate: a row is taken into the step only while
// nothing the row-by-row path would interleave can happen before it (no
// background process due by the row's start, no other pin held, no index
// entry to insert, no image to take), so the step stops exactly where the
// row path would have let something else run, and the row path continues
// from there. RowByRow turns it off; the package's tests run both paths on
// random scenarios and compare every output.
package bulk

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
)

// RowByRow turns the per-page accounting off: every row then takes the
// row-by-row path (the reference the tests compare against).
var RowByRow bool

// Due is the cluster's scheduler as a load sees it.
type Due interface {
	// NextBackground is the earliest time at which a background process
	// (WAL writer, checkpointer, background writer) would run before the
	// load's next row; math.MinInt64 when it must be asked at every row.
	NextBackground() int64
}

// InsertSamePage is heap_insert of up to limit more rows of recLen-byte
// XLOG_HEAP_INSERT records onto page blk of rel, in buffer b, which the
// previous row has just logged (its record ending at lsn), dirtied and
// released, leaving the page LSN to this call — it sets it once, to lsn or
// to the last row's record end (nothing reads it in between): each row a
// ReadBuffer hit (PinForRead's cost, a usage count bump) and release, one
// record without an image, the page LSN set, then rowNs of executor time.
// It stops before a row that would not fit on the page, or at whose start a
// background process is due; it takes no row when the backend holds another
// pin (the release would not be its last) or b no longer holds the page.
// It returns the rows taken; the caller counts them as inserted.
func InsertSamePage(d Due, p *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, rel *heap.Relation, blk pg.BlockNumber, b pg.Buffer, lsn pg.LSN, limit int64, recLen int, rowNs int64) int64 {
	if RowByRow || be.PinCount() != 0 || p.Lookup(pg.BufferTag{Rel: rel.ID, Block: blk}) != b {
		p.SetPageLSN(b, lsn)
		return 0
	}
	m := min(limit, int64(rel.Room(blk)))
	pinNs := p.PinCost()
	var k int64
	for due := d.NextBackground(); k < m && be.Now < due; {
		// The rows whose records need no WAL page written first, in one
		// step (wal.InsertRun); then one row the exact way (its record
		// writes an old WAL page, which may request a checkpoint: the
		// scheduler is asked again).
		if n, end, now := w.InsertRun(be.Now, &be.WAL, recLen, m-k, pinNs, rowNs, due); n > 0 {
			if k, lsn, be.Now = k+n, end, now; k == m || be.Now >= due {
				break
			}
		}
		be.Now += pinNs // PinForRead
		lsn, be.Now = w.Insert(be.Now, &be.WAL, recLen, 0)
		be.Now += rowNs
		k++
		due = d.NextBackground()
	}
	if k > 0 {
		p.RepeatHits(be, b, k)
		rel.AddTuples(blk, k, false)
		p.MarkBufferDirty(be, b)
	}
	p.SetPageLSN(b, lsn)
	return k
}

// Start is an INSERT's start on rel of n rows: the last page, if any, as
// the target to try (RelationGetBufferForTuple, once the FSM found nothing),
// and room for the pages the rows will fill (up to 2 TB's worth at once) in
// the relation's per-page state and the pool's, so that a large load does
// not reallocate them page by page.
func Start(p *bufmgr.Pool, rel *heap.Relation, n int64) {
	rel.TargetBlock = pg.InvalidBlockNumber
	if np := rel.NPages(); np > 0 {
		rel.TargetBlock = pg.BlockNumber(np - 1)
	}
	want := int64(rel.NPages()) + min(pg.DivCeil(n, int64(rel.Shape.TuplesPerPage())), 1<<28)
	rel.ReservePages(int(want))
	p.ReserveBlocks(rel.ID, int(want))
}
