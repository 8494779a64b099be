package engine

import (
	"fmt"
)

// IndexSpec describes a CREATE INDEX: a btree on the implicit unique id
// (Column "" or "id"), or on another int key with Distinct values whose
// rows' heap pages follow Correlation (1: together, 0: anywhere;
// pg_stats.correlation).
type IndexSpec struct {
	Name, Table string
	Column      string
	Distinct    int64
	Correlation *float64
}

// IndexInfo describes an existing index.
type IndexInfo struct {
	Name, Table string
	Column      string // "id" for the implicit unique key
	Distinct    int64  // the key's distinct values (0 for id)
	Pages       int    // the index's size, the metapage included
	TablePages  int    // its table's size
	Levels      []int  // pages per level, leaves first, the root last
}

// Index returns an index by name.
func (c *Cluster) Index(name string) (IndexInfo, bool) {
	ix, ok := c.indexes[name]
	if !ok {
		return IndexInfo{}, false
	}
	info := IndexInfo{Name: ix.name, Table: ix.rel.Name, Column: "id", Pages: ix.pages(), TablePages: ix.rel.NPages()}
	if ix.key != nil {
		info.Column, info.Distinct = ix.key.column, ix.key.distinct
	}
	for _, lv := range ix.levels {
		info.Levels = append(info.Levels, len(lv))
	}
	return info, true
}

// KeyLeaves returns the first and last leaf (0-based, left to right) that
// hold a key's entries, for an index on a key other than id.
func (c *Cluster) KeyLeaves(index string, key int64) (first, last int, ok bool) {
	ix, found := c.indexes[index]
	if !found || ix.key == nil || key < 1 || key > ix.key.distinct {
		return 0, 0, false
	}
	lo, hi := ix.key.keyRows(ix.rel.Rows, key)
	return ix.key.leafOfPos(lo), ix.key.leafOfPos(hi - 1), true
}

// CreateIndex is CREATE INDEX: built bottom-up from a loaded table, or
// maintained by each later insert and copy when the table is empty.
func (c *Cluster) CreateIndex(s IndexSpec) (*StmtResult, error) {
	name := s.Name
	if c.crash.down {
		return nil, c.Failed(fmt.Errorf("index: %w", ErrDown))
	}
	fail := func(format string, args ...any) (*StmtResult, error) {
		return nil, c.Failed(fmt.Errorf(format, args...))
	}
	if _, ok := c.indexes[name]; ok {
		return fail("index %s: relation %q already exists", name, name)
	}
	if _, ok := c.byName[name]; ok {
		return fail("index %s: relation %q already exists", name, name)
	}
	if s.Table == "" {
		return fail("index %s: give the table: on=TABLE", name)
	}
	rel, err := c.TableNamed(s.Table)
	if err != nil {
		return fail("index %s: %w", name, err)
	}
	column := s.Column
	if column == "" {
		column = "id"
	}
	if !validIdent(column) {
		return fail("index %s: key=%s: expected a column name", name, column)
	}
	var key *keyLayout
	if column == "id" {
		if s.Distinct != 0 || s.Correlation != nil {
			return fail("index %s: key=id is unique and in load order (distinct and correlation follow); they apply to another key", name)
		}
	} else {
		if s.Distinct <= 0 {
			return fail("index %s: key=%s: declare how many distinct values it has: distinct=N (the model's rows have only id)", name, column)
		}
		if rel.Rows > 0 && s.Distinct > rel.Rows {
			return fail("index %s: distinct=%d: more values than the table's %d rows", name, s.Distinct, rel.Rows)
		}
		corr := 0.0
		if s.Correlation != nil {
			corr = *s.Correlation
			if corr < -1 || corr > 1 {
				return fail("index %s: correlation=%g: expected a number from -1 to 1 (pg_stats.correlation)", name, corr)
			}
		}
		key = &keyLayout{column: column, distinct: s.Distinct, correlation: corr}
	}
	return c.Statement("index", func() (*StmtResult, error) { return c.createIndex(name, rel, key) })
}

// IndexQuery is an index scan's condition: keys From to To (both the key
// for one key). For an index on another key, Rows and Pages declare how
// many rows the range holds and on how many heap pages (0: as the
// layout has them), and Sorted makes it a Bitmap Heap Scan (each page once,
// in block order, prefetched) instead of an Index Scan in (key, TID) order.
type IndexQuery struct {
	From, To    int64
	Rows, Pages int64
	Sorted      bool
}

// IndexScan runs an index scan of the named index.
func (c *Cluster) IndexScan(name string, q IndexQuery) (*StmtResult, error) {
	if c.crash.down {
		return nil, c.Failed(fmt.Errorf("index_scan: %w", ErrDown))
	}
	fail := func(format string, args ...any) (*StmtResult, error) {
		return nil, c.Failed(fmt.Errorf(format, args...))
	}
	ix, ok := c.indexes[name]
	if !ok {
		return fail("index_scan %s: index %q does not exist", name, name)
	}
	from, to := q.From, q.To
	if from < 0 || to < 0 || to < from {
		return fail("index_scan %s: give key=K, or from=A to=B with A ≤ B", ix.name)
	}
	if ix.key == nil {
		if q.Rows != 0 || q.Pages != 0 {
			return fail("index_scan %s: rows=: the rows of an id index follow from the table's layout; rows= and pages= declare another key's", ix.name)
		}
		if q.Sorted {
			return fail("index_scan %s: order=sorted: an id index already fetches in heap order", ix.name)
		}
		return c.Statement("index_scan", func() (*StmtResult, error) { return c.indexScan(ix, from, to) })
	}
	rows, pages := q.Rows, q.Pages
	if rows == 0 {
		rows = -1
	}
	if pages == 0 {
		pages = -1
	}
	kl := ix.key
	if rows < -1 || pages < -1 {
		return fail("index_scan %s: rows and pages must be at least 1", ix.name)
	}
	if from < 1 || to > kl.distinct {
		return fail("index_scan %s: %s values are 1..%d (distinct=%d)", ix.name, kl.column, kl.distinct, kl.distinct)
	}
	if pages > 0 && rows > 0 && pages > rows {
		return fail("index_scan %s: pages=%d: more pages than rows=%d", ix.name, pages, rows)
	}
	if pages > int64(ix.rel.NPages()) {
		return fail("index_scan %s: pages=%d: the table has %d pages", ix.name, pages, ix.rel.NPages())
	}
	return c.Statement("index_scan", func() (*StmtResult, error) { return c.indexScanKey(ix, from, to, rows, pages, q.Sorted) })
}
