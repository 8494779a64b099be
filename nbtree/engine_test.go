package nbtree_test

import (
	"github.com/pgbufsim/pgbufsim/nbtree"
	"github.com/pgbufsim/pgbufsim/pg"
)

// fakeEngine is an Engine without a buffer pool: buffer b is block b−1 of
// the one index, every pin is counted, and every record kept.
type fakeEngine struct {
	blocks   int // the index's pages, the metapage included
	pins     int // pins held
	reads    int
	dirtied  int
	records  []int // record sizes, in order
	fpi      int
	images   bool // every registered page needs an image (a checkpoint just ran)
	opened   int
	lsn      pg.LSN
	pageLSNs map[pg.Buffer]pg.LSN // the last record's LSN on each page it registered
}

var _ nbtree.Engine = (*fakeEngine)(nil)

func newFakeEngine(pages int) *fakeEngine {
	return &fakeEngine{blocks: pages, pageLSNs: map[pg.Buffer]pg.LSN{}}
}

func (e *fakeEngine) ReadBuffer(t pg.BufferTag) (pg.Buffer, error) {
	if int(t.Block) >= e.blocks {
		panic("fakeEngine: read beyond the end of the index")
	}
	e.reads++
	e.pins++
	return pg.Buffer(t.Block + 1), nil
}

func (e *fakeEngine) ReleaseBuffer(b pg.Buffer) {
	if e.pins == 0 {
		panic("fakeEngine: unpin without a pin")
	}
	e.pins--
}

func (e *fakeEngine) MarkBufferDirty(pg.Buffer) { e.dirtied++ }

func (e *fakeEngine) ExtendBufferedRel(pg.RelID) (pg.Buffer, pg.BlockNumber, error) {
	blk := pg.BlockNumber(e.blocks)
	e.blocks++
	e.pins++
	return pg.Buffer(blk + 1), blk, nil
}

func (e *fakeEngine) NeedsImage(b pg.Buffer) bool { return e.images }

func (e *fakeEngine) ImageLen(b pg.Buffer, hole int) int { return pg.BLCKSZ - hole }

func (e *fakeEngine) XLogInsert(size, fpi int, b, other pg.Buffer) {
	e.records = append(e.records, size)
	e.fpi += fpi
	e.lsn += pg.LSN(size)
	e.pageLSNs[b] = e.lsn
	if other != pg.InvalidBuffer {
		e.pageLSNs[other] = e.lsn
	}
}

func (e *fakeEngine) OpenIndex() error { e.opened++; return nil }

// held is the pins still held.
func (e *fakeEngine) held() int { return e.pins }
