package catpin

import (
	"strconv"
	"strings"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/catalog"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/internal/engine/pgclass"
	"github.com/pgbufsim/pgbufsim/internal/engine/vacwal"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
)

// StatColumn is what the pg_statistic row ANALYZE writes for one column
// depends on: the type's storage (typlen, typalign) and how its values are
// spread in the sample.
type StatColumn struct {
	Len   int  // typlen: the fixed length, or -1 for a varlena
	Align int  // typalign in bytes
	Width int  // a varlena value's data bytes (its header excluded)
	Dist  Dist // how the values are spread
}

// Dist is a column's values as compute_scalar_stats sees them.
type Dist uint8

const (
	Unique   Dist = iota // every value distinct (the id)
	Constant             // one value in every row
)

// statFixedLen is the pg_statistic row without its arrays: a 32-byte header
// (23 bytes and a 4-byte null bitmap for the 31 columns, MAXALIGNed), then
// starelid (oid), staattnum (int2), stainherit (bool), int-aligned
// stanullfrac, stawidth, stadistinct (4 bytes each), stakind1–5 (int2),
// int-aligned staop1–5 and stacoll1–5 (oid): 72 bytes of data, 104 in all
// (the 104-byte rows of a too-wide column on 15, 18 and 19).
const statFixedLen = 32 + 72

// widthThreshold is WIDTH_THRESHOLD (analyze.c): a wider value counts as
// too wide and stays out of the sample's sorted values.
const widthThreshold = 1024

// arrayLen is a one-dimensional array of n elements of typlen elemLen (or
// a varlena of elemLen data bytes when varlena) without nulls, as
// construct_array builds it: ARR_OVERHEAD_NONULLS(1) (24 bytes: vl_len_,
// ndim, dataoffset, elemtype, the dimension and its lower bound), then each
// element aligned to typalign (a varlena element detoasted: a 4-byte
// header, PG_DETOAST_DATUM in compute_scalar_stats).
func arrayLen(n, elemLen, align int, varlena bool) int {
	if varlena {
		elemLen += 4
	}
	return 24 + n*((elemLen+align-1)/align*align)
}

// varlenaInTuple adds a varlena of size bytes (header included) to a tuple
// whose data is off bytes long, as heap_fill_tuple does for an attribute of
// non-plain storage: packed to a 1-byte header, unaligned, when it would be
// at most 127 bytes (VARATT_CAN_MAKE_SHORT), else at the type's alignment.
func varlenaInTuple(off, size, align int) int {
	if size-4+1 <= 127 {
		return off + size - 4 + 1
	}
	return (off+align-1)/align*align + size
}

// StatRowLen is t_len of the pg_statistic row update_attstats (analyze.c)
// forms for column c from a sample of sampleRows rows (numrows) with a
// statistics target of target: compute_scalar_stats fills its slots in
// order — a most-common-values list (stanumbers: float4[] of the
// frequencies, stavalues: the values), a histogram (stavalues only), a
// correlation (stanumbers only) — then heap_form_tuple lays out the
// stanumbers1–5 (float4[], int-aligned) and stavalues1–5 (anyarray,
// double-aligned) columns after the fixed part, the empty slots null.
//   - Unique (the id): no value repeats, so stadistinct = −1 and no MCV
//     list; a histogram of min(sample, target+1) bounds when that is at
//     least 2; a correlation when the sample has more than one value.
//   - Constant: every value repeats (nmultiple = ndistinct = 1), so the
//     list keeps it (num_mcv = track_cnt = 1) and no value is left for a
//     histogram; a correlation when the sample has more than one value.
//     One row: no value repeats, as Unique with a one-value sample.
//   - A varlena wider than WIDTH_THRESHOLD: every value too wide, no slot
//     (the "all too wide" branch): the fixed part alone.
//
// Hand check (400-byte rows: id int4, pad text of 368 bytes, constant):
// pad's MCV frequencies float4[1] (28 bytes, packed to 25) at 72 → 97, the
// correlation's float4[1] → 122, the text[1] MCV values (24 + 372 = 396
// bytes, too long to pack) double-aligned at 128 → 524: t_len 556, as the
// 556-byte rows pg_waldump shows on 15 and 18.
func StatRowLen(c StatColumn, sampleRows, target int) int {
	type slot struct {
		numbers int // elements of stanumbers (0: null)
		values  int // elements of stavalues (0: null)
	}
	var slots []slot
	tooWide := c.Len < 0 && c.Width > widthThreshold
	switch {
	case tooWide || sampleRows == 0:
	case c.Dist == Constant && sampleRows > 1:
		slots = append(slots, slot{1, 1}, slot{1, 0})
	default:
		if h := min(sampleRows, target+1); h >= 2 {
			slots = append(slots, slot{0, h})
		}
		if sampleRows > 1 {
			slots = append(slots, slot{1, 0})
		}
	}
	off := statFixedLen - 32
	for _, s := range slots {
		if s.numbers > 0 {
			off = varlenaInTuple(off, arrayLen(s.numbers, 4, 4, false), 4)
		}
	}
	for _, s := range slots {
		if s.values > 0 {
			elem := c.Len
			if c.Len < 0 {
				elem = c.Width
			}
			off = varlenaInTuple(off, arrayLen(s.values, elem, c.Align, c.Len < 0), 8)
		}
	}
	return 32 + off
}

// Analyze is the catalog writes of ANALYZE after its sample of rel
// (nblocks pages): update_attstats (analyze.c), the pg_statistic row of
// each column (Statistics) from a sample of min(rows, 300 × target) rows
// (acquire_sample_rows' reservoir), random when the table has more, none
// when it is empty (do_analyze_rel computes statistics only for a
// non-empty sample); then vac_update_relstats' in-place update of the
// table's pg_class row when its figures changed (heap.UpdateRelstats, with
// xids and relAllFrozen), whose CacheInvalidateHeapTuple adds two catcache
// messages (RELOID, RELNAMENSP) and the table's relcache message. For a
// relation whose columns are not modelled (StatColumns) the session's
// profile pins and dirties the pages its measuring session wrote, without
// WAL (StatsModelled false). It returns the invalidation messages the
// commit record carries.
func (p *Pins) Analyze(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, rel *heap.Relation, nblocks, target int, xids uint64, relAllFrozen *int, needsImage func(pg.LSN) bool) (invals int, err error) {
	if cols, ok := StatColumns(rel); ok {
		sample := min(rel.Rows, int64(300*target))
		invals, err = p.Statistics(pool, w, be, rel.ID, cols, int(sample), target, rel.Rows > sample, needsImage)
	}
	if err != nil {
		return 0, err
	}
	if rel.UpdateRelstats(nblocks, float64(rel.Rows), false, xids, p.Version >= 18, relAllFrozen) {
		invals += 3
		err = p.Inplace(pool, w, be, pgclass.Key{Rel: rel.ID}, vacwal.PgClassRow(p.Version, rel.Reloptions...), needsImage)
	}
	return invals, err
}

// StatColumns is the columns of rel as ANALYZE sees them; ok is false when
// one of them is not modelled (distinct text values, whose histogram
// pg_statistic's TOAST table would take; a type without a translation; a
// relation whose columns the simulator does not declare).
func StatColumns(rel *heap.Relation) (cols []StatColumn, ok bool) {
	if rel.StatsUnmodelled {
		return nil, false
	}
	if rel.Columns == nil {
		cols = append(cols, StatColumn{Len: 4, Align: 4, Dist: Unique})
		if pad := rel.PadLen(); pad >= 0 {
			if rel.Content == "md5" && pad <= widthThreshold {
				return nil, false
			}
			cols = append(cols, StatColumn{Len: -1, Align: 4, Width: pad, Dist: Constant})
		}
		return cols, true
	}
	idDone := false
	for _, col := range rel.Columns {
		typ, n, _ := strings.Cut(strings.TrimSpace(col), ":")
		c := StatColumn{Dist: Constant}
		switch typ {
		case "int2":
			c.Len, c.Align = 2, 2
		case "int4", "int", "integer", "date":
			c.Len, c.Align = 4, 4
		case "int8", "bigint", "float8", "timestamp", "timestamptz":
			c.Len, c.Align = 8, 8
		case "bool", "boolean":
			c.Len, c.Align = 1, 1
		case "uuid":
			c.Len, c.Align = 16, 1
		case "text", "varchar", "bytea":
			w, err := strconv.Atoi(n)
			if err != nil {
				return nil, false
			}
			c.Len, c.Align, c.Width = -1, 4, w
		default:
			return nil, false
		}
		switch typ {
		case "int2", "int4", "int", "integer", "int8", "bigint":
			if !idDone {
				c.Dist, idDone = Unique, true // the first integer column is the id
			}
		}
		cols = append(cols, c)
	}
	return cols, true
}

// statKeyLen is a pg_statistic_relid_att_inh_index entry's key: starelid
// (oid), staattnum (int2), stainherit (bool).
const statKeyLen = 4 + 2 + 1

// StatIndex is the rightmost leaf of pg_statistic_relid_att_inh_index,
// where a new table's entries go.
type StatIndex struct {
	Free  int  // pd_upper − pd_lower
	Full  bool // an entry found no room (the split is not modelled)
	Items int  // its entries
	// Block is its catalog block: the setup's leaf, or after the root's
	// split (splitRoot) the new right page.
	Block int
}

// TakeNotes returns and forgets the notes of what the catalog model left
// out (a full pg_statistic index leaf).
func (p *Pins) TakeNotes() []string {
	n := p.Notes
	p.Notes = nil
	return n
}

// PgStatistic is pg_statistic's pages, built on first use.
func (p *Pins) PgStatistic() *pgclass.Class {
	if p.Statistic == nil {
		p.Statistic = pgclass.NewPages(catalog.PgStatisticPages(p.Version))
		leaf := catalog.PgStatisticIndex(p.Version)
		p.StatIdx = &StatIndex{Free: leaf.Free, Items: leaf.Items, Block: leaf.Profile}
	}
	return p.Statistic
}

// isPgStatistic: catalog page blk is one of pg_statistic's or its index's,
// which an ANALYZE's session writes as the model places its rows (the
// Analyze profile's dirtied ones were the measuring session's rows); other
// sessions' dirtied pg_statistic pages are hints (the planner reading
// pgbench's tables' rows), pinned as the profile says.
func (p *Pins) isPgStatistic(blk int) bool {
	for _, b := range p.PgStatistic().Profile {
		if b == blk {
			return true
		}
	}
	for _, b := range catalog.PgStatisticIndex(p.Version).Pages {
		if b == blk {
			return true
		}
	}
	return false
}

// pgStatisticBlock is the catalog block of pg_statistic's page k (as PgClassBlock).
func (p *Pins) pgStatisticBlock(k int) pg.BlockNumber {
	if x := p.PgStatistic(); k < len(x.Profile) && x.Profile[k] >= 0 {
		return pg.BlockNumber(x.Profile[k])
	}
	return pg.BlockNumber(catalog.For(p.Version).Pages)
}

// statKey is the pg_statistic row of rel's column attnum.
func statKey(rel pg.RelID, attnum int) pgclass.Key {
	return pgclass.Key{Rel: rel, Kind: pgclass.Kind(3 + attnum)}
}

// Statistics is update_attstats (analyze.c) for rel's columns: for each
// column in order, its pg_statistic row looked up (STATRELATTINH); a new
// one inserted (CatalogTupleInsert: heap_insert on the page
// RelationGetBufferForTuple gives, then its entry in
// pg_statistic_relid_att_inh_index, on the rightmost leaf: a new table's
// OID is the highest), an existing one replaced (CatalogTupleUpdate:
// heap_update, HOT on its page when the new version fits, the old and new
// tuples' common prefix and suffix left out of the record — all of it when
// the statistics are unchanged; otherwise on another page with a new index
// entry). Each record carries its page's image when needsImage says the
// page was last logged before the redo pointer. randomSample: the sample is
// a random subset of the rows (more rows than 300 × the target), so a
// repeat ANALYZE's histogram bounds differ from the last one's: the record
// then carries the data from the histogram's first bound on. It returns
// the invalidation messages the rows add to the commit record: one catcache
// message (STATRELATTINH) a row (CacheInvalidateHeapTuple).
func (p *Pins) Statistics(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, rel pg.RelID, cols []StatColumn, sampleRows, target int, randomSample bool, needsImage func(pg.LSN) bool) (int, error) {
	if !p.On || len(cols) == 0 || sampleRows == 0 || len(cols) > 250 {
		return 0, nil
	}
	st := p.PgStatistic()
	leaf := catalog.PgStatisticIndex(p.Version)
	for i, c := range cols {
		tlen := StatRowLen(c, sampleRows, target)
		k := statKey(rel, i+1)
		// SearchSysCache3 first: an index scan to the leaf, then the row's
		// page; the visibility checks hint the versions earlier
		// transactions wrote (MarkBufferDirtyHint: an image when hints are
		// WAL-logged and the page was last logged before the redo pointer,
		// so the update then needs none).
		if err := p.pin(pool, be, pg.BlockNumber(leaf.Profile), false, 0); err != nil {
			return 0, err
		}
		old, exists := st.Row(k)
		hint := len(st.LookUp(k)) > 0
		if exists {
			if err := p.pin(pool, be, p.pgStatisticBlock(old.Block), hint, st.Hole(old.Block)); err != nil {
				return 0, err
			}
		}
		if !exists {
			blk := st.Insert(k, tlen)
			p.fsmHints(pool, w, be, "pg_statistic", st, true)
			if err := p.logRow(pool, w, be, p.pgStatisticBlock(blk), tlen, st.Hole(blk), st.Extended, needsImage); err != nil {
				return 0, err
			}
			if err := p.statIndexInsert(pool, w, be, leaf, needsImage); err != nil {
				return 0, err
			}
			continue
		}
		blk, _ := st.Update(k, tlen)
		p.fsmHints(pool, w, be, "pg_statistic", st, true)
		prefix, suffix := tlen-32, 0 // unchanged statistics: all the data is common
		if randomSample && c.Dist == Unique {
			prefix = statHistogramStart()
		}
		if err := p.logUpdate(pool, w, be, old.Block, blk, tlen, prefix, suffix, needsImage); err != nil {
			return 0, err
		}
		if blk != old.Block {
			if err := p.statIndexInsert(pool, w, be, leaf, needsImage); err != nil {
				return 0, err
			}
		}
	}
	return len(cols), nil
}

// statHistogramStart is the offset in a Unique column's row data (after
// t_hoff) of its histogram's first bound: the fixed part, the
// correlation's packed float4[1] (stanumbers2), then the histogram array's
// 24-byte header at double alignment (StatRowLen's layout).
func statHistogramStart() int {
	off := varlenaInTuple(statFixedLen-32, arrayLen(1, 4, 4, false), 4)
	return (off+7)&^7 + 24
}

// logUpdate is log_heap_update for a pg_statistic row moved from page
// oldBlk to newBlk (the same page: a HOT update), the new tuple of tlen
// bytes sharing prefix and suffix bytes of its data with the old one (left
// out only on the same page without an image, as log_heap_update does).
func (p *Pins) logUpdate(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, oldBlk, newBlk int, tlen, prefix, suffix int, needsImage func(pg.LSN) bool) error {
	st := p.PgStatistic()
	nb, _, err := pool.ReadBuffer(be, pg.BufferTag{Rel: pg.CatalogRel, Block: p.pgStatisticBlock(newBlk)}, nil)
	if err != nil {
		return err
	}
	pool.MarkBufferDirty(be, nb)
	newImage := needsImage(pool.BufferLSN(nb))
	same, oldImage, nfpi := oldBlk == newBlk, false, 0
	var ob pg.Buffer
	if !same {
		if ob, _, err = pool.ReadBuffer(be, pg.BufferTag{Rel: pg.CatalogRel, Block: p.pgStatisticBlock(oldBlk)}, nil); err != nil {
			return err
		}
		pool.MarkBufferDirty(be, ob)
		oldImage = needsImage(pool.BufferLSN(ob))
	}
	if !same || newImage {
		prefix, suffix = 0, 0
	}
	for _, im := range []bool{newImage, oldImage} {
		if im {
			nfpi++
		}
	}
	lsn, now := w.Insert(be.Now, &be.WAL, wal.HeapUpdate(tlen, prefix, suffix, same, newImage, oldImage, st.Hole(newBlk), st.Hole(oldBlk)), nfpi)
	be.Now = now
	pool.SetPageLSN(nb, lsn)
	pool.Unpin(be, nb)
	if !same {
		pool.SetPageLSN(ob, lsn)
		pool.Unpin(be, ob)
	}
	return nil
}

// statIndexInsert is _bt_insertonpg of a row's entry on the index's
// rightmost leaf: XLOG_BTREE_INSERT_LEAF, with the leaf's image (its hole
// the free space left) when it was last logged before the redo pointer.
// A full leaf that is the root with a measured split point (15's, with
// room for three entries) splits (splitRoot); any other split is not
// modelled: the entry is logged as if it fitted.
func (p *Pins) statIndexInsert(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, leaf catalog.StatIndexLeaf, needsImage func(pg.LSN) bool) error {
	item := pg.MaxAlign(8 + statKeyLen)
	if p.StatIdx.Free < item+4 && leaf.FirstRight > 0 && p.StatIdx.Block == leaf.Profile {
		return p.splitRoot(pool, w, be, leaf, needsImage)
	}
	b, _, err := pool.ReadBuffer(be, pg.BufferTag{Rel: pg.CatalogRel, Block: pg.BlockNumber(p.StatIdx.Block)}, nil)
	if err != nil {
		return err
	}
	pool.MarkBufferDirty(be, b)
	p.StatIdx.Items++
	if p.StatIdx.Free < item+4 && !p.StatIdx.Full {
		p.StatIdx.Full = true
		p.Notes = append(p.Notes, "note: pg_statistic_relid_att_inh_index's rightmost leaf is full: its split (_bt_split, _bt_newroot) is not modelled; the entries are logged as if they fitted")
	}
	p.StatIdx.Free = max(0, p.StatIdx.Free-item-4)
	n, nfpi := btreeLeafLen(statKeyLen), 0
	if needsImage(pool.BufferLSN(b)) {
		n, nfpi = n-item+wal.SizeOfBlockImageHeader+pg.BLCKSZ-p.StatIdx.Free, 1
	}
	lsn, now := w.Insert(be.Now, &be.WAL, n, nfpi)
	be.Now = now
	pool.SetPageLSN(b, lsn)
	pool.Unpin(be, b)
	return nil
}

// splitRoot is _bt_split of the full root leaf for a new entry that sorts
// last, then _bt_newroot (nbtinsert.c), as 15 logs them:
//   - XLOG_BTREE_SPLIT_R: xl_btree_split (level, firstrightoff, newitemoff,
//     postingoff: 10 bytes); the left page as block 0 with its new high key
//     (a pivot truncated to the key columns that tell the halves apart:
//     MAXALIGN(8 + 4 or 6) = 16 bytes), or its image when it was last
//     logged before the redo pointer (its hole: the items left, the high
//     key, its special space); the new right page as block 1 (same
//     relation), its tuples (from FirstRight on, the new one included) as
//     data — 704 bytes for 39 of them, pg_waldump's on 15.18;
//   - XLOG_BTREE_NEWROOT: xl_btree_newroot (rootblk, level: 8); the new
//     root's two downlinks (an 8-byte minus-infinity item and the high
//     key) as block 0's data, the left page (block 1, no image: just
//     logged), the metapage with xl_btree_metadata (28 bytes) — 122 bytes.
//
// The right page (profile block Pages[2]) is the rightmost leaf after it.
func (p *Pins) splitRoot(pool *bufmgr.Pool, w *wal.WAL, be *bufmgr.Backend, leaf catalog.StatIndexLeaf, needsImage func(pg.LSN) bool) error {
	idx := p.StatIdx
	blocks := []int{leaf.Profile, leaf.Pages[2], leaf.Pages[3], leaf.Pages[0]} // left, right, root, metapage
	bufs := make([]pg.Buffer, len(blocks))
	for i, blk := range blocks {
		b, _, err := pool.ReadBuffer(be, pg.BufferTag{Rel: pg.CatalogRel, Block: pg.BlockNumber(blk)}, nil)
		if err != nil {
			return err
		}
		pool.MarkBufferDirty(be, b)
		bufs[i] = b
	}
	image, nfpi := needsImage(pool.BufferLSN(bufs[0])), 0
	if image {
		nfpi = 1
	}
	split, newroot, right, rightFree := rootSplitLens(idx.Items, leaf.FirstRight, image)
	lsn, now := w.Insert(be.Now, &be.WAL, split, nfpi)
	be.Now = now
	pool.SetPageLSN(bufs[0], lsn)
	pool.SetPageLSN(bufs[1], lsn)
	lsn, be.Now = w.Insert(be.Now, &be.WAL, newroot, 0)
	for _, b := range bufs {
		if b != bufs[1] {
			pool.SetPageLSN(b, lsn)
		}
		pool.Unpin(be, b)
	}
	idx.Block, idx.Items, idx.Free = leaf.Pages[2], right, rightFree
	return nil
}

// rootSplitLens is splitRoot's records for a leaf of items entries split
// at firstRight for a new last entry, with the left page's image or not,
// and the right page's entries and free space after.
func rootSplitLens(items, firstRight int, leftImage bool) (split, newroot, right, rightFree int) {
	const special, hikey, minusInf, metadata = 16, 16, 8, 28 // BTPageOpaqueData; the pivots; xl_btree_metadata
	item := pg.MaxAlign(8 + statKeyLen)
	left := firstRight - 1
	right = items + 1 - left // the new entry included
	leftHole := pg.BLCKSZ - special - left*item - hikey - (heap.SizeOfPageHeaderData + 4*(left+1))
	ref := wal.SizeOfBlockHeader + wal.SizeOfRelFileLocator + wal.SizeOfBlockNumber
	same := wal.SizeOfBlockHeader + wal.SizeOfBlockNumber // a later block of the same relation
	split = wal.SizeOfXLogRecord + ref + hikey
	if leftImage {
		split += wal.SizeOfBlockImageHeader + pg.BLCKSZ - leftHole - hikey
	}
	split += same + right*item + wal.SizeOfShortMainDataHdr + 10
	newroot = wal.SizeOfXLogRecord + ref + minusInf + hikey + same + same + metadata + wal.SizeOfShortMainDataHdr + 8
	return split, newroot, right, pg.BLCKSZ - heap.SizeOfPageHeaderData - special - right*(item+4)
}

// pin pins and releases catalog block blk, hinting it (MarkBufferDirtyHint
// with the page's hole) when hint.
func (p *Pins) pin(pool *bufmgr.Pool, be *bufmgr.Backend, blk pg.BlockNumber, hint bool, hole int) error {
	b, _, err := pool.ReadBuffer(be, pg.BufferTag{Rel: pg.CatalogRel, Block: blk}, nil)
	if err != nil {
		return err
	}
	if hint {
		pool.MarkBufferDirtyHint(be, b, hole)
	}
	pool.Unpin(be, b)
	return nil
}
