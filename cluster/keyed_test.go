package cluster_test

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/cluster"
	"github.com/stretchr/testify/require"
)

// TestRandomKeyIndexAgainstPostgreSQL is verify/testdata/suite/30's first
// table: 100,000 rows of (int4, int4, text:20), CREATE INDEX on the second
// column holding hashint4(id), a checkpoint, 100,000 more rows, another
// checkpoint, 20,000 more. The wanted figures are PostgreSQL 18beta1's
// (pgbufsim verify on that file, the same on 15.18 and 19beta1): the
// index's size after each load (pg_relation_size), the loads' EXPLAIN
// (ANALYZE, BUFFERS, WAL) counters.
func TestRandomKeyIndexAgainstPostgreSQL(t *testing.T) {
	c, err := cluster.Open(cluster.Options{Version: 18, SharedBuffers: "128MB",
		Settings: []cluster.Setting{{Name: "max_wal_size", Value: "8GB"}, {Name: "checkpoint_timeout", Value: "1h"}, {Name: "autovacuum", Value: "off"}}})
	require.NoError(t, err)
	_, err = c.CreateTable(cluster.TableSpec{Name: "t", Rows: 100000, Columns: []string{"int4", "int4", "text:20"}})
	require.NoError(t, err)
	_, err = c.Insert("t", 0)
	require.NoError(t, err)
	_, err = c.CreateIndex(cluster.IndexSpec{Name: "t_k", Table: "t", Column: "c2", Values: "hashint4"})
	require.NoError(t, err)
	pages := func() int { ix, _ := c.Index("t_k"); return ix.Pages }
	require.Equal(t, 276, pages())
	type figures struct{ hit, read, records, fpi, bytes int64 }
	for _, want := range []struct {
		rows  int64
		pages int
		figures
	}{
		{100000, 561, figures{390792, 276, 200285, 276, 17786671}},
		{20000, 774, figures{80774, 0, 40216, 561, 7723214}},
	} {
		_, err = c.Checkpoint()
		require.NoError(t, err)
		res, err := c.Insert("t", want.rows)
		require.NoError(t, err)
		require.Equal(t, want.figures, figures{res.Buf.Hit, res.Buf.Read, res.WAL.Records, res.WAL.FPI, res.WAL.Bytes}, "insert of %d rows", want.rows)
		require.Equal(t, want.pages, pages(), "after %d rows", want.rows)
	}
}

// hashint4(13362) = hashint4(41950) = -178094052 (the first equal pair of
// ids; SELECT hashint4(13362), hashint4(41950) on the server): a unique
// index on the first 41,950 rows cannot be built, and on the first 41,949
// the next row's insert is a duplicate key.
func TestRandomKeyUniqueIndex(t *testing.T) {
	open := func(rows int64) *cluster.Cluster {
		c, err := cluster.Open(cluster.Options{Version: 18, SharedBuffers: "16MB"})
		require.NoError(t, err)
		_, err = c.CreateTable(cluster.TableSpec{Name: "t", Rows: rows, Columns: []string{"int4", "int4"}})
		require.NoError(t, err)
		_, err = c.Insert("t", 0)
		require.NoError(t, err)
		return c
	}
	_, err := open(41950).CreateIndex(cluster.IndexSpec{Name: "t_k", Table: "t", Column: "c2", Values: "hashint4", Unique: true})
	require.EqualError(t, err, `index t_k: could not create unique index "t_k": rows 13362 and 41950 have the same hashint4 key`)
	c := open(41949)
	_, err = c.CreateIndex(cluster.IndexSpec{Name: "t_k", Table: "t", Column: "c2", Values: "hashint4", Unique: true})
	require.NoError(t, err)
	_, err = c.Insert("t", 1)
	require.ErrorContains(t, err, `duplicate key value violates unique constraint "t_k": row 41950's hashint4 key -178094052 is already in the index`)
}
