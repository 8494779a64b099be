package engine

import (
	"fmt"

	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/nbtree"
	"github.com/pgbufsim/pgbufsim/pg"
)

// IndexNamed returns an index by name.
func (c *Cluster) IndexNamed(name string) (*nbtree.Index, bool) {
	ix, ok := c.indexes[name]
	return ix, ok
}

// BuildIndex is CREATE INDEX name ON rel (the key, or id when nil), as a statement.
func (c *Cluster) BuildIndex(name string, rel *heap.Relation, key *nbtree.Key) (*StmtResult, error) {
	return c.Statement("index", func() (*StmtResult, error) { return c.createIndex(name, rel, key, false) })
}

// BuildPrimaryKey is ALTER TABLE rel ADD PRIMARY KEY (id) (pgbench's), as a statement.
func (c *Cluster) BuildPrimaryKey(name string, rel *heap.Relation) (*StmtResult, error) {
	return c.Statement("index", func() (*StmtResult, error) { return c.createIndex(name, rel, nil, true) })
}

// sortedIndexes are rel's indexes in creation order.
func (c *Cluster) sortedIndexes(rel *heap.Relation) []*nbtree.Index {
	var out []*nbtree.Index
	for _, ix := range c.indexes {
		if ix.Rel == rel {
			out = append(out, ix)
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].ID < out[j-1].ID; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// hasIndex reports whether rel has an index (whose maintenance by inserts is not modelled yet).
func (c *Cluster) hasIndex(rel *heap.Relation) bool { return len(c.sortedIndexes(rel)) > 0 }

// indexOwner names an index's storage in pg_buffercache-style output.
func (c *Cluster) indexOwner(id pg.RelID, ix *nbtree.Index) {
	if c.indexByID == nil {
		c.indexByID = map[pg.RelID]*nbtree.Index{}
	}
	c.indexByID[id] = ix
}

// keyIndexesMaintainable refuses loads into a table with an index on a key
// other than id: where the new keys would go is not modelled.
func (c *Cluster) keyIndexesMaintainable(rel *heap.Relation) error {
	for _, ix := range c.sortedIndexes(rel) {
		if k := ix.Key(); k != nil && !k.Hashed { // a hashint4 key is kept by nbtree
			return fmt.Errorf("the table has an index on %s (%s): maintaining an index on a key other than id is not modelled; create it after loading", k.Column, ix.Name)
		}
	}
	return nil
}
