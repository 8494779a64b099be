package heap

import (
	"fmt"

	"github.com/pgbufsim/pgbufsim/pg"
)

// Page layout constants (bufpage.h, htup_details.h).
const (
	SizeOfPageHeaderData = 24
	SizeOfItemID         = 4
	SizeofHeapTupleHdr   = 23
	MaxHeapTuplesPerPage = 291
)

// Page flags kept per heap page.
const (
	PageHinted     uint8 = 1 << iota // every tuple has HEAP_XMIN_COMMITTED (or is frozen)
	PageAllVisible                   // PD_ALL_VISIBLE and the VM's all-visible bit
	PageAllFrozen                    // the VM's all-frozen bit
	// PagePrunable: pd_prune_xid is set. 19 sets it on every insert
	// (heap_insert, heap_multi_insert) and clears it when the page is pruned
	// or set all-visible; only 19's model reads it.
	PagePrunable
)

// A page's tuple count takes the low pageCountBits of its packed state
// (MaxHeapTuplesPerPage fits with room for versions being counted before
// pruning), the flags the bits above.
const (
	pageCountBits        = 10
	pageCountMask uint16 = 1<<pageCountBits - 1
)

// Shape is a table's row shape.
type Shape struct {
	TupleLen   int // heap tuple length with its header (pg_column_size of the row)
	Fillfactor int // 10..100
	// PlannerWidth is the width the planner assumes per row when the table has
	// no statistics (get_rel_data_width: a text column counts 32).
	PlannerWidth int
}

// TuplesPerPage is how many tuples INSERT puts on one page: a tuple goes on
// the page while MAXALIGN(len) plus a new line pointer fits in the free space
// left above the fillfactor reserve (RelationGetBufferForTuple, PageGetHeapFreeSpace).
func (s Shape) TuplesPerPage() int {
	// The n-th tuple after the first (n ≥ 1 on the page) fits while
	// BLCKSZ − n·a − (header + n line pointers) − a new line pointer ≥
	// a + reserve, i.e. n·(a+4) ≤ BLCKSZ − header − 4 − a − reserve: a
	// division, not a loop (INSERT asks on every row; TestTuplesPerPage
	// checks it against the loop for every length and fillfactor).
	a := pg.MaxAlign(s.TupleLen)
	save := pg.BLCKSZ * (100 - s.Fillfactor) / 100
	room := pg.BLCKSZ - SizeOfPageHeaderData - SizeOfItemID - a - save
	n := 1 // an empty page always takes one tuple
	if room >= 0 {
		n += room / (a + SizeOfItemID)
	}
	return min(n, MaxHeapTuplesPerPage)
}

// Hole is pd_upper − pd_lower of a page holding n such tuples: what a
// full-page image of a standard page leaves out.
func (s Shape) Hole(n int) int {
	lower := SizeOfPageHeaderData + SizeOfItemID*n
	upper := pg.BLCKSZ - pg.MaxAlign(s.TupleLen)*n
	if upper <= lower {
		return 0
	}
	return upper - lower
}

// Validate checks the shape.
func (s Shape) Validate() error {
	if s.TupleLen < SizeofHeapTupleHdr+1 || pg.MaxAlign(s.TupleLen) > pg.BLCKSZ-SizeOfPageHeaderData-SizeOfItemID {
		return &pg.SettingError{Name: "tuple_bytes", Value: fmt.Sprint(s.TupleLen),
			Allowed: fmt.Sprintf("must be between %d and %d (a heap tuple must fit on an 8kB page)", SizeofHeapTupleHdr+1, pg.BLCKSZ-SizeOfPageHeaderData-SizeOfItemID)}
	}
	if s.Fillfactor < 10 || s.Fillfactor > 100 {
		return &pg.SettingError{Name: "fillfactor", Value: fmt.Sprint(s.Fillfactor), Allowed: "must be between 10 and 100"}
	}
	return nil
}

// Relation is a heap table's logical state.
type Relation struct {
	ID    pg.RelID
	Name  string
	Shape Shape
	// HasToast: the table has a varlena column, so CREATE TABLE made a TOAST
	// relation that VACUUM processes after it.
	HasToast bool
	// Content is the pad column's content model: "x" (repeated) or "md5".
	Content string
	// Columns are the declared column types (columns=...), or nil for the
	// (id int4, pad text) shape given by the tuple length.
	Columns []string
	// NCols, when not 0, is the user columns of a table whose Columns do not
	// say (pgbench's), for its catalog rows; ColNames their names (nil:
	// verify's c1, c2, …), whose lengths size their pg_attribute entries.
	NCols    int
	ColNames []string
	// Rows is the number of live rows (all committed).
	Rows int64
	// RelTuples is pg_class.reltuples: -1 until the first VACUUM or ANALYZE.
	RelTuples float64
	RelPages  int
	// RelAllVisible is pg_class.relallvisible: the all-visible pages VACUUM,
	// ANALYZE or CREATE INDEX last counted in the visibility map.
	RelAllVisible int
	// Analyzed: ANALYZE has run, so pg_statistic has the columns' statistics
	// (their correlation, for the planner's index costs). TRUNCATE keeps them.
	Analyzed bool
	// StatsUnmodelled: the pg_statistic rows ANALYZE writes for this
	// relation's columns are not modelled (pgbench's tables, whose columns
	// the simulator does not declare).
	StatsUnmodelled bool
	// Autovacuum records autovacuum_enabled (autovacuum is not simulated yet).
	Autovacuum bool
	// Reloptions is pg_class.reloptions as CREATE TABLE … WITH stored it
	// ("fillfactor=90", "autovacuum_enabled=off"): its length is part of the
	// row VACUUM and ANALYZE update in place.
	Reloptions []string
	// Declared is the number of rows the scenario declared for the table (what insert loads).
	Declared int64
	// FrozenAt is when pg_class.relfrozenxid was last set, as the cluster's
	// count of transactions that had an XID (engine: xids); ToastFrozenAt the
	// same for the table's TOAST relation, once ToastVacuumed.
	FrozenAt, ToastFrozenAt uint64
	ToastVacuumed           bool
	// UnfrozenXid is the oldest transaction (in FrozenAt's count, 1-based)
	// whose tuples may still be unfrozen, 0 if none: what VACUUM's
	// NewRelfrozenXid stops at. Xids is the cluster's count it takes the
	// inserting transaction's from (nil: not tracked).
	UnfrozenXid uint64
	Xids        *uint64
	// Inserted counts the rows ever inserted (pg_stat_user_tables.n_tup_ins: TRUNCATE keeps it).
	Inserted int64
	// TargetBlock is rd_targblock, where the next insert tries first.
	TargetBlock pg.BlockNumber

	// page is each page's tuple count (low pageCountBits) and flags (the
	// bits above), packed in 2 bytes; fsm its value in the free space map
	// (a free-space category; 0 until recorded). Both are kept a chunk of
	// pages at a time, a chunk whose pages are alike as one value (uniform).
	page uniform[uint16]
	fsm  uniform[uint8]

	// tpp is Shape.TuplesPerPage() for tppShape: Fits asks on every row
	// inserted, and Shape may be replaced at any time (so it is compared).
	tppShape Shape
	tpp      int
}

// FSMValue is page blk's value in the free space map.
func (r *Relation) FSMValue(blk pg.BlockNumber) uint8 { return r.fsm.get(int(blk)) }

// SetFSMValue records page blk's value in the free space map.
func (r *Relation) SetFSMValue(blk pg.BlockNumber, v uint8) { r.fsm.set(int(blk), v) }

// NewRelation returns an empty relation.
func NewRelation(id pg.RelID, name string, s Shape) *Relation {
	return &Relation{ID: id, Name: name, Shape: s, RelTuples: -1, TargetBlock: pg.InvalidBlockNumber, Autovacuum: true}
}

// NPages is the number of heap pages.
func (r *Relation) NPages() int { return r.page.len() }

// Tuples is the number of tuples on page blk.
func (r *Relation) Tuples(blk pg.BlockNumber) int { return int(r.page.get(int(blk)) & pageCountMask) }

// Flags returns page blk's flags.
func (r *Relation) Flags(blk pg.BlockNumber) uint8 {
	return uint8(r.page.get(int(blk)) >> pageCountBits)
}

// SetFlags ors f into page blk's flags.
func (r *Relation) SetFlags(blk pg.BlockNumber, f uint8) {
	r.page.update(int(blk), 0, uint16(f)<<pageCountBits, 0)
}

// ClearFlags clears f on page blk.
func (r *Relation) ClearFlags(blk pg.BlockNumber, f uint8) {
	r.page.update(int(blk), 0, 0, uint16(f)<<pageCountBits)
}

// AddPage appends an empty page (after the buffer manager extended the relation).
func (r *Relation) AddPage() pg.BlockNumber {
	r.page.grow(0)
	r.fsm.grow(0)
	return pg.BlockNumber(r.page.len() - 1)
}

// AddPages is AddPage n times.
func (r *Relation) AddPages(n int) {
	r.page.growN(0, n)
	r.fsm.growN(0, n)
}

// AddTuple records one more tuple on page blk. An unhinted tuple clears the page's hinted state.
func (r *Relation) AddTuple(blk pg.BlockNumber, frozen bool) {
	r.AddTuples(blk, 1, frozen)
}

// Fits reports whether one more tuple fits on page blk.
func (r *Relation) Fits(blk pg.BlockNumber) bool {
	if r.Shape != r.tppShape || r.tpp == 0 {
		r.tppShape, r.tpp = r.Shape, r.Shape.TuplesPerPage()
	}
	return r.Tuples(blk) < r.tpp
}

// Room is how many more tuples fit on page blk (Fits for each of them).
func (r *Relation) Room(blk pg.BlockNumber) int {
	r.Fits(blk)
	return max(r.tpp-r.Tuples(blk), 0)
}

// AddTuples is AddTuple k times.
func (r *Relation) AddTuples(blk pg.BlockNumber, k int64, frozen bool) {
	var clear uint16
	if !frozen {
		clear = uint16(PageHinted|PageAllVisible|PageAllFrozen) << pageCountBits
		r.noteUnfrozen()
	}
	if p := r.page.direct(int(blk)); p != nil { // update, inlined: INSERT and COPY call this per row
		*p = (*p + uint16(k) | uint16(PagePrunable)<<pageCountBits) &^ clear
	} else {
		r.page.update(int(blk), uint16(k), uint16(PagePrunable)<<pageCountBits, clear)
	}
	r.Rows += k
	r.Inserted += k
}

// Hole is the FPI hole of page blk as it is now.
func (r *Relation) Hole(blk pg.BlockNumber) int {
	// Shape.Hole, written out so that the call inlines (INSERT asks it of every row).
	n := int(r.page.get(int(blk)) & pageCountMask)
	return max(pg.BLCKSZ-pg.MaxAlign(r.Shape.TupleLen)*n-SizeOfPageHeaderData-SizeOfItemID*n, 0)
}

// PadLen is the length of the pad text of an (id int4, pad text) row of the
// relation's tuple length: 24-byte header + int4, then a varlena with a 1-byte
// header up to 126 bytes of text, else a 4-byte one at int alignment. -1 when
// the row is the bare int (28 bytes), or no such row has that length.
func (r *Relation) PadLen() int {
	switch pad := r.Shape.TupleLen - 28; {
	case pad >= 1 && pad <= 127:
		return pad - 1
	case pad >= 4+127:
		return pad - 4
	}
	return -1
}

// ReservePages makes room for the relation to grow to n pages without
// reallocating its per-page state (a load that knows its size calls it, so
// a terabyte table is not copied again and again as it grows).
func (r *Relation) ReservePages(n int) {
	r.page.reserve(n)
	r.fsm.reserve(n)
}

// Truncate empties the relation (TRUNCATE: a new relfilenode).
func (r *Relation) Truncate() {
	r.page.shrink(0)
	r.fsm.shrink(0)
	r.Rows, r.UnfrozenXid = 0, 0
	r.TargetBlock = pg.InvalidBlockNumber
	// The new relfilenode has no statistics: pg_class.relpages 0, reltuples -1.
	r.RelTuples, r.RelPages, r.RelAllVisible = -1, 0, 0
}

// SettleHints marks as hinted the pages whose every tuple an index scan
// checked (hinted counts the tuples checked per page).
func (r *Relation) SettleHints(hinted map[pg.BlockNumber]int) {
	for blk, n := range hinted {
		if n == r.Tuples(blk) {
			r.SetFlags(blk, PageHinted)
		}
	}
}

// CountVisibility is pg_visibility_map_summary(): all-visible and all-frozen pages.
func (r *Relation) CountVisibility() (allVisible, allFrozen int) {
	allVisible = r.page.count(uint16(PageAllVisible) << pageCountBits)
	allFrozen = r.page.count(uint16(PageAllFrozen) << pageCountBits)
	return
}

// RemoveTuples records that n tuples left page blk's storage (pruning freed
// them); Rows is unchanged, since the tuples removed were dead.
func (r *Relation) RemoveTuples(blk pg.BlockNumber, n int) {
	r.page.update(int(blk), -uint16(n), 0, 0)
}

// AddVersion records a new tuple version on page blk that is not a new row
// (an UPDATE's): the page's storage grows, the live rows stay.
func (r *Relation) AddVersion(blk pg.BlockNumber) {
	r.page.update(int(blk), 1, 0, uint16(PageHinted|PageAllVisible|PageAllFrozen)<<pageCountBits)
	r.noteUnfrozen()
}

// noteUnfrozen records that the running transaction (the one after the
// last counted) left an unfrozen tuple, if no older one is left.
func (r *Relation) noteUnfrozen() {
	if r.UnfrozenXid == 0 && r.Xids != nil {
		r.UnfrozenXid = *r.Xids + 1
	}
}

// UpdateRelstats is vac_update_relstats' update of the row (vacuum.c): the
// new relpages, reltuples and relallvisible, relallfrozen (hasAllFrozen:
// 18+) and, after a VACUUM that may advance it, relfrozenxid, when xids
// transactions have been counted. It reports whether any of them changed:
// only then is the row written.
func (r *Relation) UpdateRelstats(nblocks int, tuples float64, advance bool, xids uint64, hasAllFrozen bool, relAllFrozen *int) bool {
	av, af := r.CountVisibility()
	dirty := r.RelTuples != tuples || r.RelPages != nblocks || r.RelAllVisible != av || hasAllFrozen && *relAllFrozen != af
	*relAllFrozen = af
	if f := r.FrozenAt; advance {
		r.FrozenAt = max(f, r.VacuumedFrozenAt(xids, af))
		dirty = dirty || r.FrozenAt != f
	}
	r.RelTuples, r.RelPages, r.RelAllVisible = tuples, nblocks, av
	return dirty
}

// VacuumedFrozenAt is relfrozenxid, in FrozenAt's terms, after a VACUUM
// that scanned every page not all-frozen, when xids transactions have been
// counted and allFrozen pages are all-frozen: the oldest XID left unfrozen
// (vacrel->NewRelfrozenXid, vacuumlazy.c, lowered by each tuple kept
// unfrozen: heap_prepare_freeze_tuple), or OldestXmin — every transaction
// counted — once every page is all-frozen.
func (r *Relation) VacuumedFrozenAt(xids uint64, allFrozen int) uint64 {
	if allFrozen == r.page.len() {
		r.UnfrozenXid = 0
	}
	if r.UnfrozenXid == 0 {
		return xids
	}
	return r.UnfrozenXid - 1
}
