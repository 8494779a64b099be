package oltp

import (
	"fmt"
	"slices"

	"github.com/pgbufsim/pgbufsim/nbtree"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
)

// descend is _bt_search from the root to key k's leaf: each page above the
// leaf read and released (the metapage is in rd_amcache after the first
// planning); the leaf is returned pinned.
func (s *session) descend(t *Table, k int64) (pg.Buffer, int, error) {
	ix := t.Index
	leaf := t.leafOf(k)
	for _, blk := range t.path(leaf) {
		b, err := s.read(t, ix.ID, blk, true)
		if err != nil {
			return 0, 0, err
		}
		s.unpin(b)
	}
	b, err := s.read(t, ix.ID, ix.Block(0, leaf), true)
	return b, leaf, err
}

// lookup is an Index Scan of t's primary key for key k (nbtsearch.c
// _bt_first and _bt_readpage; heapam_index_fetch_tuple): the descent, the
// leaf's entries for k not marked LP_DEAD, each one's heap page pinned when
// it differs from the page held (and heap_page_prune_opt run on it), its
// HOT chain followed (heap_hot_search_buffer). A chain whose every member
// is dead to all (its row left the page in a transaction that has since
// ended) has its entry marked killed, and at the end of the scan
// _bt_killitems — which must read the leaf again, the scan having dropped
// its pin (MVCC scans do) — marks them LP_DEAD unless the leaf changed
// since (its LSN): MarkBufferDirtyHint, an image with checksums after a
// checkpoint. onLive runs when the live version is found, with the page
// held (the UPDATE's heap_update comes then; the scan goes on after).
func (s *session) lookup(t *Table, k int64, onLive func() error) error {
	lb, leaf, err := s.descend(t, k)
	if err != nil {
		return err
	}
	lsn := s.b.c.Pool().BufferLSN(lb)
	// _bt_readpage saves the matching items, then the pin is dropped.
	items := t.entriesInto(k, s.items[:])
	s.unpin(lb)
	t.stat.IdxScan++
	r := &t.rows[k-1]
	cur, curBlk := pg.InvalidBuffer, pg.InvalidBlockNumber
	vm := newVMPins() // the index fetch's vmbuffer, held to the scan's end
	defer vm.release(s)
	release := func() {
		if cur != pg.InvalidBuffer {
			s.unpin(cur)
			cur = pg.InvalidBuffer
		}
	}
	var kill []int
	for i, e := range items {
		if e.killed {
			continue
		}
		blk := pg.BlockNumber(e.blk)
		if blk != curBlk {
			release()
			if cur, err = s.read(t, t.Rel.ID, blk, false); err != nil {
				cur = pg.InvalidBuffer
				return err
			}
			curBlk = blk
			if err := s.pruneOpt(t, cur, blk, vm); err != nil {
				release()
				return err
			}
			s.be.Now += s.b.c.Costs().FetchNs
		}
		if e.gone == 0 { // the row's current chain
			s.hintRow(t, r, cur, blk)
			if onLive != nil {
				if err := onLive(); err != nil {
					release()
					return err
				}
				onLive = nil
			}
			continue
		}
		// A chain whose row moved on: dead to everyone once the transaction
		// that moved it is older than every snapshot.
		if deadToAll(e, s.xid) {
			kill = append(kill, i)
		}
	}
	release()
	if len(kill) == 0 {
		return nil
	}
	kb, err := s.read(t, t.Index.ID, t.Index.Block(0, leaf), true)
	if err != nil {
		return err
	}
	defer s.unpin(kb)
	if s.b.c.Pool().BufferLSN(kb) != lsn {
		return nil // the leaf changed since it was read: _bt_killitems gives up
	}
	ents := t.entries(k)
	for _, i := range kill {
		ents[i].killed = true
	}
	t.setEntries(k, ents)
	t.garbage[leaf] = true
	s.b.c.Pool().MarkBufferDirtyHint(s.be, kb, t.leafHole(leaf))
	return nil
}

// deadToAll reports whether entry e's chain is dead to every snapshot of
// transaction xid and after: its row moved off the page in an earlier transaction.
func deadToAll(e entry, xid uint32) bool { return e.gone != 0 && e.gone < xid }

// indexInsert is btinsert of row k's new entry pointing at page blk
// (_bt_doinsert): the descent to the leaf, _bt_check_unique fetching the
// heap tuple of every other live entry for k (table_index_fetch_tuple_check,
// a new fetch each: a pin and heap_page_prune_opt) and marking LP_DEAD those
// whose chain is dead to all; when the leaf has no room, the deletion pass
// removes the LP_DEAD items (_bt_delete_or_dedup_one_page, simple deletion:
// XLOG_BTREE_DELETE); then XLOG_BTREE_INSERT_LEAF.
func (s *session) indexInsert(t *Table, k int64, blk pg.BlockNumber) error {
	lb, leaf, err := s.descend(t, k)
	if err != nil {
		return err
	}
	defer s.unpin(lb)
	ents := t.entries(k)
	killedAny := false
	for i := range ents {
		e := &ents[i]
		if e.killed {
			continue
		}
		hb, err := s.read(t, t.Rel.ID, pg.BlockNumber(e.blk), false)
		if err != nil {
			return err
		}
		// table_index_fetch_tuple_check: a fetch of its own (and its own vmbuffer) per version.
		vm := newVMPins()
		err = s.pruneOpt(t, hb, pg.BlockNumber(e.blk), vm)
		vm.release(s)
		s.unpin(hb)
		if err != nil {
			return err
		}
		if deadToAll(*e, s.xid) {
			e.killed, killedAny = true, true
		}
	}
	if killedAny {
		t.garbage[leaf] = true
		s.b.c.Pool().MarkBufferDirtyHint(s.be, lb, t.leafHole(leaf))
	}
	ents = append(ents, entry{blk: uint32(blk)})
	t.setEntries(k, ents)
	if t.leafFree(leaf) < nbtree.ItemSize {
		if err := s.deleteKilled(t, leaf, lb); err != nil {
			return err
		}
	}
	if t.leafFree(leaf) < nbtree.ItemSize && s.b.c.S.Version >= 14 {
		if err := s.bottomUpDelete(t, leaf, lb); err != nil {
			return err
		}
	}
	if t.leafFree(leaf) < nbtree.ItemSize {
		return fmt.Errorf("pgbench: %s leaf %d is full of live entries: a leaf page split of a non-rightmost leaf is not modelled", t.Index.Name, leaf)
	}
	image := s.needsImage(lb)
	hole := 0
	if image {
		hole = s.imageHole(lb, t.leafHole(leaf))
	}
	t.leafItems[leaf]++
	size := nbtree.InsertLeafLen
	if image {
		size = wal.SizeOfXLogRecord + wal.SizeOfBlockHeader + wal.SizeOfRelFileLocator + wal.SizeOfBlockNumber +
			wal.SizeOfBlockImageHeader + pg.BLCKSZ - hole + wal.SizeOfShortMainDataHdr + 2
	}
	s.logChange(lb, size, image)
	return nil
}

// bottomUpDelete is _bt_bottomupdel_pass (14+), tried when an insert of
// an unchanged key (a non-HOT update) finds the leaf full after simple
// deletion: the leaf's duplicates' heap pages are visited
// (table_index_delete_tuples: each page read once, in block order) and
// every entry whose chain is dead to all goes, in one XLOG_BTREE_DELETE.
func (s *session) bottomUpDelete(t *Table, leaf int, lb pg.Buffer) error {
	lo, hi := t.Index.LeafEntries(leaf)
	var blocks []uint32
	n := 0
	for k, ents := range t.ents {
		if k-1 < lo || k-1 >= hi || len(ents) < 2 {
			continue
		}
		for _, e := range ents {
			blocks = append(blocks, e.blk)
			if deadToAll(e, s.xid) {
				n++
			}
		}
	}
	slices.Sort(blocks)
	for _, blk := range slices.Compact(blocks) {
		hb, err := s.read(t, t.Rel.ID, pg.BlockNumber(blk), false)
		if err != nil {
			return err
		}
		s.unpin(hb)
	}
	if n == 0 {
		return nil
	}
	for k, ents := range t.ents {
		if k-1 < lo || k-1 >= hi {
			continue
		}
		kept := ents[:0]
		for _, e := range ents {
			if !deadToAll(e, s.xid) {
				kept = append(kept, e)
			}
		}
		t.ents[k] = kept
	}
	s.logDelete(t, leaf, lb, n)
	return nil
}

// logDelete removes n items from the leaf and logs XLOG_BTREE_DELETE
// (xl_btree_delete: conflict horizon, ndeleted, nupdated, from 16
// isCatalogRel; the deleted offsets as block data).
func (s *session) logDelete(t *Table, leaf int, lb pg.Buffer, n int) {
	image := s.needsImage(lb)
	main := 8
	if s.b.c.S.Version >= 16 {
		main = 9
	}
	size := wal.SizeOfXLogRecord + wal.SizeOfBlockHeader + wal.SizeOfRelFileLocator + wal.SizeOfBlockNumber +
		wal.SizeOfShortMainDataHdr + main
	if image {
		size += wal.SizeOfBlockImageHeader + pg.BLCKSZ - s.imageHole(lb, t.leafHole(leaf))
	} else {
		size += 2 * n
	}
	t.leafItems[leaf] -= int16(n)
	s.logChange(lb, size, image)
}

// deleteKilled is _bt_simpledel_pass on a full leaf with BTP_HAS_GARBAGE:
// every LP_DEAD item goes, in one XLOG_BTREE_DELETE (xl_btree_delete:
// conflict horizon, ndeleted, nupdated, from 16 isCatalogRel; the deleted
// offsets as block data).
func (s *session) deleteKilled(t *Table, leaf int, lb pg.Buffer) error {
	if !t.garbage[leaf] {
		return nil
	}
	lo, hi := t.Index.LeafEntries(leaf)
	n := 0
	for k, ents := range t.ents {
		if k-1 < lo || k-1 >= hi {
			continue
		}
		kept := ents[:0]
		for _, e := range ents {
			if e.killed {
				n++
				continue
			}
			kept = append(kept, e)
		}
		t.ents[k] = kept
	}
	t.garbage[leaf] = false
	if n == 0 {
		return nil
	}
	s.logDelete(t, leaf, lb, n)
	return nil
}
