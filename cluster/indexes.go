package cluster

import "github.com/pgbufsim/pgbufsim/internal/engine"

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

// IndexQuery is an index scan's condition: keys From to To (both the key
// for one key). For an index on another key, Rows and Pages declare how
// many rows the range holds and on how many heap pages (0: as the layout
// has them), and Sorted makes it a Bitmap Heap Scan (each page once, in
// block order, prefetched) instead of an Index Scan in (key, TID) order.
type IndexQuery struct {
	From, To    int64
	Rows, Pages int64
	Sorted      bool
}

// Index returns an index by name.
func (c *Cluster) Index(name string) (IndexInfo, bool) {
	info, ok := c.e.Index(name)
	return IndexInfo(info), ok
}

// KeyLeaves returns the first and last leaf (0-based, left to right) that
// hold a key's entries, for an index on a key other than id.
func (c *Cluster) KeyLeaves(index string, key int64) (first, last int, ok bool) {
	return c.e.KeyLeaves(index, key)
}

// CreateIndex is CREATE INDEX: built bottom-up from a loaded table, or
// maintained by each later insert and copy when the table is empty.
func (c *Cluster) CreateIndex(s IndexSpec) (*StmtResult, error) {
	return stmt(c.e.CreateIndex(engine.IndexSpec(s)))
}

// IndexScan runs an index scan of the named index.
func (c *Cluster) IndexScan(name string, q IndexQuery) (*StmtResult, error) {
	return stmt(c.e.IndexScan(name, engine.IndexQuery(q)))
}
