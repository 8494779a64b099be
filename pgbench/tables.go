package pgbench

import "fmt"

// Column is one column of a pgbench table, as pg_attribute describes it.
type Column struct {
	Name  string
	Type  string // format_type: integer, bigint, character(84), timestamp without time zone
	Len   int    // attlen: 4, 8, or -1 for a varlena (character(n))
	Align int    // attalign in bytes: 4 (i) or 8 (d)
	Chars int    // n of character(n); 0 otherwise
	// Null is whether the rows pgbench writes leave it NULL: the fillers of
	// branches, tellers and history (accounts' filler is the blank-padded
	// empty string: n spaces).
	Null bool
}

// TableSpec is one of pgbench's four tables as `pgbench -i` leaves it.
type TableSpec struct {
	Name    string
	Columns []Column
	Key     string // the primary key's column ("" for history, which has none)
	Index   string // the primary key's index name
	Rows    int64  // rows loaded: accounts 100000 × scale, tellers 10 ×, branches 1 ×, history none
	// TupleLen is the heap tuple length (t_len, the line pointer's lp_len)
	// of each row pgbench writes, header included; history's is that of the
	// rows the run's INSERT adds.
	TupleLen   int
	Fillfactor int      // the table's fillfactor (history: 100, it declares none)
	Loader     StepKind // Copy, Insert (branches and tellers before 17), or NoLoad (history)
	// Frozen: the rows are loaded by COPY ... (freeze on) and frozen, so the
	// vacuum after the load marks every page all-visible and all-frozen;
	// rows loaded by INSERT end all-visible only.
	Frozen bool
}

const (
	blockSize       = 8192 // BLCKSZ
	pageHeaderSize  = 24   // SizeOfPageHeaderData
	itemIDSize      = 4    // sizeof(ItemIdData)
	tupleHeaderSize = 23   // SizeofHeapTupleHeader
	maxAlign        = 8    // MAXIMUM_ALIGNOF
	maxHeapTuples   = 291  // MaxHeapTuplesPerPage for 8 kB pages
)

func alignUp(n, a int) int { return (n + a - 1) / a * a }

// tupleLen models heap_form_tuple's length (heaptuple.c): the header,
// a null bitmap when a column is NULL, MAXALIGNed to t_hoff; then each
// non-null column at its alignment — except a varlena that fits a 1-byte
// header (VARATT_CAN_MAKE_SHORT: at most 126 bytes of data), which
// heap_fill_tuple packs unaligned.
func tupleLen(cols []Column) int {
	hdr := tupleHeaderSize
	for _, c := range cols {
		if c.Null {
			hdr += (len(cols) + 7) / 8 // BITMAPLEN
			break
		}
	}
	off := 0
	for _, c := range cols {
		switch {
		case c.Null:
		case c.Len > 0:
			off = alignUp(off, c.Align) + c.Len
		case c.Chars+1 <= 127:
			off += 1 + c.Chars
		default:
			off = alignUp(off, c.Align) + 4 + c.Chars
		}
	}
	return alignUp(hdr, maxAlign) + off
}

// RowsPerPage is how many of the loaded rows one heap page holds: a row
// goes on the page while PageGetHeapFreeSpace (free space less one line
// pointer) is at least its MAXALIGNed length plus the fillfactor's reserve
// BLCKSZ × (100 − fillfactor) / 100 (RelationGetBufferForTuple, and
// heap_multi_insert for COPY, heapam.c), so n rows fit while
// n × (MAXALIGN(t_len) + 4) ≤ BLCKSZ − 24 − reserve.
func (t TableSpec) RowsPerPage() int {
	reserve := blockSize * (100 - t.Fillfactor) / 100
	n := (blockSize - pageHeaderSize - reserve) / (alignUp(t.TupleLen, maxAlign) + itemIDSize)
	return max(1, min(n, maxHeapTuples))
}

// Pages is the heap's size in pages after `pgbench -i`: the loaded rows
// filled page after page (0 for history).
func (t TableSpec) Pages() int64 {
	per := int64(t.RowsPerPage())
	return (t.Rows + per - 1) / per
}

// Tables is the four tables `pgbench -i -s scale -F fillfactor` creates on
// that version, in initCreateTables' order (history, tellers, accounts,
// branches), with the rows it loads.
func Tables(version, scale, fillfactor int) ([]TableSpec, error) {
	if err := checkInit(version, scale, fillfactor); err != nil {
		return nil, err
	}
	i4 := func(name string) Column { return Column{Name: name, Type: "integer", Len: 4, Align: 4} }
	char := func(n int, null bool) Column {
		return Column{Name: "filler", Type: fmt.Sprintf("character(%d)", n), Len: -1, Align: 4, Chars: n, Null: null}
	}
	aid := i4("aid")
	if scale >= scale32BitThreshold {
		aid = Column{Name: "aid", Type: "bigint", Len: 8, Align: 8}
	}
	small := Insert
	if version >= 17 {
		small = Copy
	}
	sc := int64(scale)
	ts := []TableSpec{
		{Name: "pgbench_history", Fillfactor: 100, Loader: NoLoad, Columns: []Column{
			i4("tid"), i4("bid"), aid, i4("delta"),
			{Name: "mtime", Type: "timestamp without time zone", Len: 8, Align: 8},
			char(22, true)}},
		{Name: "pgbench_tellers", Key: "tid", Rows: TellersPerScale * sc, Loader: small, Columns: []Column{
			i4("tid"), i4("bid"), i4("tbalance"), char(84, true)}},
		{Name: "pgbench_accounts", Key: "aid", Rows: AccountsPerScale * sc, Loader: Copy, Columns: []Column{
			aid, i4("bid"), i4("abalance"), char(84, false)}},
		{Name: "pgbench_branches", Key: "bid", Rows: BranchesPerScale * sc, Loader: small, Columns: []Column{
			i4("bid"), i4("bbalance"), char(88, true)}},
	}
	for i := range ts {
		t := &ts[i]
		if t.Key != "" {
			t.Index = t.Name + "_pkey"
			t.Fillfactor = fillfactor
		}
		t.Frozen = t.Loader == Copy
		t.TupleLen = tupleLen(t.Columns)
	}
	return ts, nil
}
