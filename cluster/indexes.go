package cluster

import (
	"fmt"

	"github.com/pgbufsim/pgbufsim/internal/engine"
	"github.com/pgbufsim/pgbufsim/internal/engine/indexscan"
	"github.com/pgbufsim/pgbufsim/nbtree"
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
	// Unique makes it CREATE UNIQUE INDEX: refused when the key has
	// duplicates (Distinct below the table's rows); id is unique anyway.
	Unique bool
	// Values "hashint4" makes each row's key hashint4(id) (nbtree.RowKey):
	// random keys, kept by every later insert and copy with leaf splits.
	// Distinct and Correlation then follow from the values.
	Values string
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
	ix, ok := c.e.IndexNamed(name)
	if !ok {
		return IndexInfo{}, false
	}
	info := IndexInfo{Name: ix.Name, Table: ix.Rel.Name, Column: "id", Pages: ix.Pages(), TablePages: ix.Rel.NPages(), Levels: ix.Levels()}
	if k := ix.Key(); k != nil {
		info.Column, info.Distinct = k.Column, k.Distinct
	}
	return info, true
}

// KeyLeaves returns the first and last leaf (0-based, left to right) that
// hold a key's entries, for an index on a key other than id.
func (c *Cluster) KeyLeaves(index string, key int64) (first, last int, ok bool) {
	ix, found := c.e.IndexNamed(index)
	if !found || ix.Key() == nil || key < 1 || key > ix.Key().Distinct {
		return 0, 0, false
	}
	lo, hi := ix.Key().Entries(ix.Rel.Rows, key)
	return ix.LeafOfPos(lo), ix.LeafOfPos(hi - 1), true
}

// CreateIndex is CREATE INDEX: built bottom-up from a loaded table, or
// maintained by each later insert and copy when the table is empty.
func (c *Cluster) CreateIndex(s IndexSpec) (*StmtResult, error) {
	name := s.Name
	if c.e.Down() {
		return nil, c.e.Failed(fmt.Errorf("index: %w", ErrDown))
	}
	fail := func(format string, args ...any) (*StmtResult, error) {
		return nil, c.e.Failed(fmt.Errorf(format, args...))
	}
	if _, ok := c.e.IndexNamed(name); ok {
		return fail("index %s: relation %q already exists", name, name)
	}
	if _, ok := c.e.Relation(name); ok {
		return fail("index %s: relation %q already exists", name, name)
	}
	if s.Table == "" {
		return fail("index %s: give the table: on=TABLE", name)
	}
	rel, err := c.e.TableNamed(s.Table)
	if err != nil {
		return fail("index %s: %w", name, err)
	}
	if err := c.pgbenchOwns("index "+name+" on", rel.Name); err != nil {
		return nil, c.e.Failed(err)
	}
	column := s.Column
	if column == "" {
		column = "id"
	}
	if !validIdent(column) {
		return fail("index %s: key=%s: expected a column name", name, column)
	}
	var key *nbtree.Key
	if column == "id" {
		if s.Distinct != 0 || s.Correlation != nil {
			return fail("index %s: key=id is unique and in load order (distinct and correlation follow); they apply to another key", name)
		}
	} else if s.Values == "hashint4" {
		if s.Distinct != 0 || s.Correlation != nil {
			return fail("index %s: values=hashint4: the values give the distinct count and the correlation; distinct= and correlation= declare another key's", name)
		}
		if rel.Rows > nbtree.MaxHashedRows {
			return fail("index %s: values=hashint4: the model keeps every key: at most %d rows (the table has %d)", name, nbtree.MaxHashedRows, rel.Rows)
		}
		if s.Unique {
			if a, b, dup := nbtree.HashedDuplicate(rel.Rows); dup {
				// _bt_spool's sort finds the duplicate (comparetup_index_btree).
				return fail("index %s: could not create unique index %q: rows %d and %d have the same hashint4 key", name, name, a, b)
			}
		}
		key = &nbtree.Key{Column: column, Hashed: true, Unique: s.Unique}
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
		if s.Unique && s.Distinct < rel.Rows {
			// _bt_spool's sort finds the duplicate (comparetup_index_btree).
			return fail("index %s: could not create unique index %q: key=%s has %d distinct values for %d rows (a key is duplicated)",
				name, name, column, s.Distinct, rel.Rows)
		}
		key = &nbtree.Key{Column: column, Distinct: s.Distinct, Correlation: corr}
	}
	return stmt(c.e.BuildIndex(name, rel, key))
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
	if c.e.Down() {
		return nil, c.e.Failed(fmt.Errorf("index_scan: %w", ErrDown))
	}
	fail := func(format string, args ...any) (*StmtResult, error) {
		return nil, c.e.Failed(fmt.Errorf(format, args...))
	}
	ix, ok := c.e.IndexNamed(name)
	if !ok {
		return fail("index_scan %s: index %q does not exist", name, name)
	}
	if err := c.pgbenchOwns("index_scan", ix.Name); err != nil {
		return nil, c.e.Failed(err)
	}
	from, to := q.From, q.To
	if from < 0 || to < 0 || to < from {
		return fail("index_scan %s: give key=K, or from=A to=B with A ≤ B", ix.Name)
	}
	if ix.Key() == nil {
		if q.Rows != 0 || q.Pages != 0 {
			return fail("index_scan %s: rows=: the rows of an id index follow from the table's layout; rows= and pages= declare another key's", ix.Name)
		}
		if q.Sorted {
			return fail("index_scan %s: order=sorted: an id index already fetches in heap order", ix.Name)
		}
		return stmt(c.e.Statement("index_scan", func() (*engine.StmtResult, error) { return indexscan.Range(c.e, ix, from, to) }))
	}
	rows, pages := q.Rows, q.Pages
	if rows == 0 {
		rows = -1
	}
	if pages == 0 {
		pages = -1
	}
	kl := ix.Key()
	if kl.Hashed {
		return fail("index_scan %s: an index scan of hashint4 keys is not modelled (their rows' heap pages are not kept)", ix.Name)
	}
	if rows < -1 || pages < -1 {
		return fail("index_scan %s: rows and pages must be at least 1", ix.Name)
	}
	if from < 1 || to > kl.Distinct {
		return fail("index_scan %s: %s values are 1..%d (distinct=%d)", ix.Name, kl.Column, kl.Distinct, kl.Distinct)
	}
	if pages > 0 && rows > 0 && pages > rows {
		return fail("index_scan %s: pages=%d: more pages than rows=%d", ix.Name, pages, rows)
	}
	if pages > int64(ix.Rel.NPages()) {
		return fail("index_scan %s: pages=%d: the table has %d pages", ix.Name, pages, ix.Rel.NPages())
	}
	return stmt(c.e.Statement("index_scan", func() (*engine.StmtResult, error) {
		return indexscan.Key(c.e, ix, from, to, rows, pages, q.Sorted)
	}))
}

// validIdent reports whether s is a plain SQL identifier.
func validIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || (r >= 'a' && r <= 'z') || (i > 0 && r >= '0' && r <= '9') {
			continue
		}
		return false
	}
	return true
}
