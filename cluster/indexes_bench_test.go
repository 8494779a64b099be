package cluster_test

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/cluster"
)

// BenchmarkIndexedLoad is INSERT … SELECT of 200,000 rows into a table whose
// btree on id was created while it was empty, so every row goes through the
// index insert path (_bt_doinsert: the fastpath to the rightmost leaf, a
// split every 41 rows, a new root now and then): the shape of
// verify/testdata/pg15/17-primary-key-load.scn, five times larger. The
// cluster is opened and the table and index created outside the timer.
func BenchmarkIndexedLoad(b *testing.B) {
	const rows = 200000
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		c, err := cluster.Open(cluster.Options{Version: 15, SharedBuffers: "16MB", DataChecksums: cluster.Bool(true), Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := c.CreateTable(cluster.TableSpec{Name: "pk", Rows: rows, TupleBytes: 1832, Autovacuum: cluster.Bool(false)}); err != nil {
			b.Fatal(err)
		}
		if _, err := c.CreateIndex(cluster.IndexSpec{Name: "pk_id", Table: "pk"}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		res, err := c.Insert("pk", 0)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		info, _ := c.Index("pk_id")
		b.ReportMetric(float64(info.Pages), "index-pages")
		b.ReportMetric(float64(res.WAL.Records), "wal-records")
		b.StartTimer()
	}
}
