package oltp

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/freespace"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/planner"
	"github.com/pgbufsim/pgbufsim/wal"
)

// session is the benchmark's one client backend running transactions.
type session struct {
	b  *Bench
	be *bufmgr.Backend
	// xid is the running transaction's number (transactions are numbered
	// from 1 in the order they start; read-only ones too, as their
	// snapshots order them); wrote is set once it has an XID.
	xid   uint32
	wrote bool
	buf   [2][128]byte
	// meta: the indexes whose metapage the session has cached (rd_amcache);
	// targ: its rd_targblock per table.
	meta map[*Table]bool
	targ map[*Table]pg.BlockNumber
	// readOnly: the running statement only reads (a SELECT: 19's scans
	// then ask heap_page_prune_opt to set the VM, SO_HINT_REL_READ_ONLY).
	readOnly bool
	// items is a scan's copy of a key's entries; costs the planner's settings.
	items [8]entry
	costs *planner.Costs
}

// read is ReadBuffer of block blk of storage id (the table, one of its
// forks, or with idx its index) for t's statement.
func (s *session) read(t *Table, id pg.RelID, blk pg.BlockNumber, idx bool) (pg.Buffer, error) {
	b, _, err := s.b.c.Pool().ReadBuffer(s.be, pg.BufferTag{Rel: id, Block: blk}, nil)
	return b, err
}

func (s *session) unpin(b pg.Buffer) { s.b.c.Pool().Unpin(s.be, b) }

// logChange inserts a record of size bytes changing buffer b (an image
// counted when image), makes b dirty and sets its page LSN.
func (s *session) logChange(b pg.Buffer, size int, image bool) {
	nfpi := 0
	if image {
		nfpi = 1
	}
	pool := s.b.c.Pool()
	pool.MarkBufferDirty(s.be, b)
	lsn, now := s.b.c.WAL().Insert(s.be.Now, &s.be.WAL, size, nfpi)
	s.be.Now = now
	pool.SetPageLSN(b, lsn)
}

// needsImage is XLogCheckBufferNeedsBackup for buffer b.
func (s *session) needsImage(b pg.Buffer) bool { return s.b.c.NeedsImage(s.b.c.Pool().BufferLSN(b)) }

// imageHole is the hole of b's image with the page hole given (under wal_compression, what compression saves).
func (s *session) imageHole(b pg.Buffer, hole int) int { return s.b.c.ImageHole(s.be, true, b, hole) }

// assignXid is the running transaction's first write: it gets an XID.
func (s *session) assignXid() { s.wrote = true }

// pruneOpt is heap_page_prune_opt (pruneheap.c) on heap page blk of t held
// in b: nothing unless pd_prune_xid is older than every snapshot and the
// page is full (PD_PAGE_FULL) or has less free space than
// max(fillfactor reserve, BLCKSZ/10); then heap_page_prune removes the dead
// tuples, logs what it changed (an image if the page was last logged
// before the redo pointer) and clears PD_PAGE_FULL. The cleanup lock is
// always had: one client. From 19 a page that gets that far first has its
// VM page pinned into the scan's vmbuffer (visibilitymap_pin: one access,
// unless the scan holds that VM page already), whatever the statement.
func (s *session) pruneOpt(t *Table, b pg.Buffer, blk pg.BlockNumber, vm *vmPins) error {
	p := &t.pages[blk]
	minfree := max(pg.BLCKSZ*(100-t.Rel.Shape.Fillfactor)/100, pg.BLCKSZ/10)
	v19 := s.b.c.S.Version >= 19
	if v19 && p.pruneXid == 0 && t.Rel.Flags(blk)&heap.PagePrunable != 0 && p.heapFreeSpace(t.width) < minfree {
		if err := vm.pin(s, t, blk); err != nil {
			return err
		}
		s.pruneCopyMark(t, b, blk)
	}
	if !p.prunable(s.xid) {
		return nil
	}
	if !p.full && p.heapFreeSpace(t.width) >= minfree {
		return nil
	}
	if v19 {
		if err := vm.pin(s, t, blk); err != nil {
			return err
		}
	}
	// heap_prune_satisfies_vacuum first sets the hint bits of the tuples
	// committed transactions left: with checksums, an XLOG_FPI_FOR_HINT when
	// the page was last logged before the redo pointer (the prune record then needs none).
	s.hintPage(t, b, blk)
	freed := int(p.dead)
	o := p.prune()
	if o.empty() {
		return nil
	}
	t.Rel.RemoveTuples(blk, freed)
	t.stat.Prunes++
	// The page is compacted (PageRepairFragmentation) before it is logged, so an image has the new hole.
	image := s.needsImage(b)
	hole := 0
	if image {
		hole = s.imageHole(b, t.hole(blk))
	}
	s.logChange(b, wal.PruneLen(s.b.c.S.Version, o.redirected, o.dead, o.unused, image, hole), image)
	return nil
}

// pruneCopyMark is 19's heap_page_prune_opt on a full page whose
// pd_prune_xid a COPY set ("Set pd_prune_xid on insert", 378a216187) on a
// page two batches share: the first batch made it all-visible and
// all-frozen, so VACUUM skipped it and the mark stayed. Nothing is pruned
// (the caller pinned the VM page; a read-only statement's would set the
// bits, already set: nothing logged), and the mark is cleared as a hint
// (MarkBufferDirtyHint: with checksums an image when the page was last
// logged before the redo pointer).
func (s *session) pruneCopyMark(t *Table, b pg.Buffer, blk pg.BlockNumber) {
	t.Rel.ClearFlags(blk, heap.PagePrunable)
	s.b.c.Pool().MarkBufferDirtyHint(s.be, b, t.hole(blk))
}

// hintRow sets the hint bits a reader sets on row k's chain on heap page
// blk in b (HeapTupleSatisfiesMVCC: HEAP_XMIN_COMMITTED on the version a
// committed transaction made): MarkBufferDirtyHint, an image with
// checksums when the page was last logged before the redo pointer.
func (s *session) hintRow(t *Table, r *row, b pg.Buffer, blk pg.BlockNumber) {
	if r.hinted || r.upd >= s.xid {
		return
	}
	r.hinted = true
	s.b.c.Pool().MarkBufferDirtyHint(s.be, b, t.hole(blk))
}

// hintPage is the same for a page a seq scan checks whole.
func (s *session) hintPage(t *Table, b pg.Buffer, blk pg.BlockNumber) {
	p := &t.pages[blk]
	if p.unhinted == 0 || p.unhinted >= s.xid {
		return
	}
	p.unhinted = 0
	s.b.c.Pool().MarkBufferDirtyHint(s.be, b, t.hole(blk))
}

// getBufferForTuple is RelationGetBufferForTuple (hio.c) for a tuple of
// t's width, other being the page the caller already holds (an UPDATE's
// old page, else InvalidBlockNumber): rd_targblock first; without one, the
// FSM, then the last page; a page without room is recorded in the FSM
// (RecordAndGetPageWithFreeSpace) and, the FSM knowing no page with room
// (every page it has was recorded full), the relation is extended by one
// page, which becomes the target. It returns the page, pinned (a pin of
// other when it is chosen), and whether it is new.
func (s *session) getBufferForTuple(t *Table, other pg.BlockNumber, otherBuf pg.Buffer) (pg.Buffer, pg.BlockNumber, bool, error) {
	c := s.b.c
	need := t.width + pg.BLCKSZ*(100-t.Rel.Shape.Fillfactor)/100
	target, ok := s.targ[t]
	if !ok {
		target = pg.InvalidBlockNumber
	}
	if target == pg.InvalidBlockNumber {
		if err := c.FSMSearchRoot(s.be, t.Rel); err != nil {
			return 0, 0, false, err
		}
		if n := t.Rel.NPages(); n > 0 {
			target = pg.BlockNumber(n - 1)
		}
	}
	if target != pg.InvalidBlockNumber {
		var b pg.Buffer
		if target == other {
			b = otherBuf
			c.Pool().Pin(s.be, b, nil)
		} else {
			var err error
			if b, err = s.read(t, t.Rel.ID, target, false); err != nil {
				return 0, 0, false, err
			}
		}
		if t.pages[target].heapFreeSpace(t.width) >= need {
			s.targ[t] = target
			return b, target, false, nil
		}
		s.unpin(b)
		if err := c.RecordFreeSpace(s.be, t.Rel, target); err != nil {
			return 0, 0, false, err
		}
		if err := c.FSMSearchRoot(s.be, t.Rel); err != nil {
			return 0, 0, false, err
		}
	}
	b, blk, err := c.Pool().Extend(s.be, t.Rel.ID, nil)
	if err != nil {
		return 0, 0, false, err
	}
	t.Rel.AddPage()
	t.pages = append(t.pages, page{})
	s.targ[t] = blk
	return b, blk, true, nil
}

// fetchRowVersion is table_tuple_fetch_row_version (heap_fetch): the
// executor rereads the old tuple of an UPDATE (ExecModifyTable).
func (s *session) fetchRowVersion(t *Table, blk pg.BlockNumber) error {
	b, err := s.read(t, t.Rel.ID, blk, false)
	if err != nil {
		return err
	}
	s.unpin(b)
	return nil
}

// update is heap_update (heapam.c) of row k with the balance changed by
// delta: the old page is read; if the page is all-visible its VM page is
// pinned and the bit cleared; the new version goes on the same page when
// PageGetHeapFreeSpace has room for it — a HOT update, since no indexed
// column changes — else on the page RelationGetBufferForTuple gives, the
// old page marked PD_PAGE_FULL, and the key gets a new index entry
// (ExecInsertIndexTuples). Either way the old page becomes prunable and
// one XLOG_HEAP_(HOT_)UPDATE is logged (log_heap_update).
func (s *session) update(t *Table, k int64, delta int32) error {
	c := s.b.c
	s.assignXid()
	r := &t.rows[k-1]
	old := pg.BlockNumber(r.cur)
	ob, err := s.read(t, t.Rel.ID, old, false)
	if err != nil {
		return err
	}
	defer s.unpin(ob)
	vm := newVMPins()
	defer vm.release(s)
	if t.Rel.Flags(old)&heap.PageAllVisible != 0 {
		if err := vm.pin(s, t, old); err != nil {
			return err
		}
	}
	op := &t.pages[old]
	newBal := r.balance + delta
	t.stat.Upd++
	if t.width <= op.heapFreeSpace(t.width) {
		// HOT: the new version on the same page.
		oldData := t.rowData(s.buf[0][:], r.balance)
		newData := t.rowData(s.buf[1][:], newBal)
		image := s.needsImage(ob)
		prefix, suffix := 0, 0
		if !image {
			prefix, suffix = wal.UpdateAffix(oldData, newData)
		}
		op.addItem()
		op.live-- // the old version dies: live count unchanged, one more dead
		op.dead++
		if !r.hot {
			r.hot, r.rootGen = true, op.gen
			op.rootsToRedirect++
		} else if r.rootGen < op.gen && r.staleGen != op.gen+1 {
			r.staleGen = op.gen + 1
			op.staleRedirects++
		}
		vm.clear(s, t, old)
		t.Rel.AddVersion(old)
		hole := 0
		if image {
			hole = s.imageHole(ob, t.hole(old))
		}
		s.logChange(ob, wal.HeapUpdate(t.Rel.Shape.TupleLen, prefix, suffix, true, image, false, hole, 0), image)
		op.pruneXid = s.xid
		op.unhinted = s.xid
		r.balance, r.upd, r.hinted = newBal, s.xid, false
		t.stat.HotUpd++
		return nil
	}
	// Not on this page: PD_PAGE_FULL, a hint for the next heap_page_prune_opt.
	op.full = true
	// Before it lets the page go to find room elsewhere, heap_update locks the
	// old tuple with a temporary xmax and logs it (XLOG_HEAP_LOCK; the image
	// of the old page, when one is due, goes with it), clearing the page's
	// all-frozen bit.
	{
		image := s.needsImage(ob)
		hole := 0
		if image {
			hole = s.imageHole(ob, t.hole(old))
		}
		s.logChange(ob, wal.HeapLockLen(image, hole), image)
	}
	nb, nblk, fresh, err := s.getBufferForTuple(t, old, ob)
	if err != nil {
		return err
	}
	np := &t.pages[nblk]
	if t.Rel.Flags(nblk)&heap.PageAllVisible != 0 {
		if err := vm.pin(s, t, nblk); err != nil {
			s.unpin(nb)
			return err
		}
	}
	// The old version dies where it is; its chain leaves the page.
	op.live--
	op.dead++
	switch {
	case !r.hot:
		op.departNormal++
	case r.rootGen == op.gen:
		op.rootsToRedirect--
		op.departNormal++
	default:
		if r.staleGen == op.gen+1 {
			op.staleRedirects--
		}
		op.departRedirect++
	}
	op.pruneXid = s.xid
	op.unhinted = s.xid
	if t.Index != nil {
		ents := t.entries(k)
		for i := range ents {
			if pg.BlockNumber(ents[i].blk) == old && ents[i].gone == 0 {
				ents[i].gone = s.xid
			}
		}
		t.setEntries(k, ents)
	}
	vm.clear(s, t, old)
	vm.clear(s, t, nblk)
	t.Rel.ClearFlags(old, heap.PageHinted)
	np.addItem()
	t.Rel.AddVersion(nblk)
	// XLOG_HEAP_INIT_PAGE when the tuple is the first on a new page: no image of it.
	newImage := !fresh && s.needsImage(nb)
	oldImage := s.needsImage(ob)
	nh, oh := 0, 0
	if newImage {
		nh = s.imageHole(nb, t.hole(nblk))
	}
	if oldImage {
		oh = s.imageHole(ob, t.hole(old))
	}
	size := wal.HeapUpdate(t.Rel.Shape.TupleLen, 0, 0, false, newImage, oldImage, nh, oh)
	nfpi := 0
	if newImage {
		nfpi++
	}
	if oldImage {
		nfpi++
	}
	pool := c.Pool()
	pool.MarkBufferDirty(s.be, nb)
	pool.MarkBufferDirty(s.be, ob)
	lsn, now := c.WAL().Insert(s.be.Now, &s.be.WAL, size, nfpi)
	s.be.Now = now
	pool.SetPageLSN(nb, lsn)
	pool.SetPageLSN(ob, lsn)
	s.unpin(nb)
	r.cur, r.hot, r.balance, r.upd, r.hinted = uint32(nblk), false, newBal, s.xid, false
	np.unhinted = s.xid
	return s.indexInsert(t, k, nblk)
}

// insert is heap_insert (heapam.c) of one new row into t (pgbench_history):
// the page RelationGetBufferForTuple gives, one XLOG_HEAP_INSERT (with
// XLOG_HEAP_INIT_PAGE on a new page, no image).
func (s *session) insert(t *Table) error {
	s.assignXid()
	b, blk, fresh, err := s.getBufferForTuple(t, pg.InvalidBlockNumber, pg.InvalidBuffer)
	if err != nil {
		return err
	}
	defer s.unpin(b)
	image := !fresh && s.needsImage(b)
	hole := 0
	if image {
		hole = s.imageHole(b, t.hole(blk))
	}
	t.pages[blk].addItem()
	t.Rel.AddTuple(blk, false)
	s.logChange(b, wal.HeapInsert(t.Rel.Shape.TupleLen, image, hole), image)
	t.stat.Ins++
	return nil
}

// vmPins is heap_update's vmbuffer and vmbuffer_new: the VM pages pinned
// for the old and the new page.
type vmPins struct{ pins [2]vmPin }

type vmPin struct {
	buf pg.Buffer
	blk pg.BlockNumber // the VM page
}

func newVMPins() *vmPins { return &vmPins{} }

// heapBlocksPerVMPage is HEAPBLOCKS_PER_PAGE (visibilitymap.c).
const heapBlocksPerVMPage = freespace.HeapBlocksPerVMPage

// pin is visibilitymap_pin for heap block heapBlk (a pin already held for
// its VM page is kept): vm_readbuf with extend, so a VM page not there yet
// is added first (the fork extended with zeroed pages).
func (v *vmPins) pin(s *session, t *Table, heapBlk pg.BlockNumber) error {
	want := heapBlk / heapBlocksPerVMPage
	for _, p := range v.pins {
		if p.buf != pg.InvalidBuffer && p.blk == want {
			return nil
		}
	}
	b, err := s.b.c.ReadForkExtend(s.be, t.Rel, pg.VMFork, want)
	if err != nil {
		return err
	}
	for i := range v.pins {
		if v.pins[i].buf == pg.InvalidBuffer {
			v.pins[i] = vmPin{b, want}
			return nil
		}
	}
	s.unpin(b)
	return nil
}

// clear is visibilitymap_clear: the page's all-visible and all-frozen bits
// off and PD_ALL_VISIBLE cleared; the VM page is dirtied (no WAL of its own:
// the heap record says so) and not given a new LSN.
func (v *vmPins) clear(s *session, t *Table, heapBlk pg.BlockNumber) {
	if t.Rel.Flags(heapBlk)&heap.PageAllVisible == 0 {
		return
	}
	t.Rel.ClearFlags(heapBlk, heap.PageAllVisible|heap.PageAllFrozen)
	want := heapBlk / heapBlocksPerVMPage
	for _, p := range v.pins {
		if p.buf != pg.InvalidBuffer && p.blk == want {
			s.b.c.Pool().MarkBufferDirty(s.be, p.buf)
		}
	}
}

func (v *vmPins) release(s *session) {
	for i := range v.pins {
		if v.pins[i].buf != pg.InvalidBuffer {
			s.unpin(v.pins[i].buf)
			v.pins[i].buf = pg.InvalidBuffer
		}
	}
}
