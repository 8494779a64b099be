package cluster_test

import (
	"errors"
	"fmt"

	"github.com/pgbufsim/pgbufsim/cluster"
	"github.com/pgbufsim/pgbufsim/pg"
)

// The checksum ring flood (seed 000) in a 16MB pool: a count(*) of a table
// twice the pool's size, right after a checkpoint, with data checksums on
// (18's default). Each page's first hint bit logs a full-page image of
// 8,192 − 824 (the hole of four 1,832-byte tuples) + 49 bytes of headers =
// 7,417 bytes: 4,096 × 7,417 = 30,380,032. The images move the pages' LSNs
// past the flushed WAL, StrategyRejectBuffer drops them from the 32-buffer
// ring, and the scan floods the cache, evicting every page of hot. (3,863
// rejections, each asking for the flush pointer published by its time;
// 3,855 when an XLogWrite's flush counted from the write's start; 3,857
// then 3,808 once the parallel workers' start-up hinted pg_class's rows,
// the tables' TOAST rows no lookup reaches: an image of that page logged
// by the first worker ahead of its share of the scan moves the WAL
// positions the rejections compare the pages' LSNs with; 3,883 once
// CREATE TABLE logged its catalog WAL, ~24 kB a table; 3,890 once the
// evicting session's mark on pg_proc/0/66 was taken as the prune it is,
// which a cluster not fresh from verify's setup does not make: no hint
// image of that page, 8 kB less WAL before the scan.)
func Example() {
	c := check(cluster.Open(cluster.Options{Version: 18, SharedBuffers: "16MB"}))
	for _, t := range []cluster.TableSpec{{Name: "big", Rows: 16384}, {Name: "hot", Rows: 1500},
		{Name: "fill1", Rows: 1600}, {Name: "fill2", Rows: 1600}, {Name: "fill3", Rows: 1600}, {Name: "fill4", Rows: 1600}} {
		t.TupleBytes = 1832 // (id int4, pad text): four rows a page
		check(c.CreateTable(t))
		check(c.Insert(t.Name, 0))
	}
	check(c.Checkpoint())
	check(c.EvictAll()) // pg_buffercache_evict_all()
	for _, name := range []string{"hot", "hot", "hot", "hot", "hot", "hot", "fill1", "fill2", "fill3", "fill4"} {
		check(c.Scan(name))
	}
	scan := check(c.Scan("big"))
	bc := check(c.Buffercache())
	fmt.Printf("%s: ring %d, images %d, WAL %d bytes, rejected %d\n", scan.Strategy, scan.RingBuffers, scan.WAL.FPI, scan.WAL.Bytes, scan.Rejects)
	fmt.Printf("big %d buffers, hot %d\n", bc.Row("big").Buffers, bc.Row("hot").Buffers)
	// Output:
	// bulkread: ring 32, images 4096, WAL 30380032 bytes, rejected 3890
	// big 1898 buffers, hot 0
}

// check returns v, or panics on err: for short examples.
func check[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// Validate reports every problem at once, each naming the setting, the value
// and what is allowed.
func ExampleOptions_Validate() {
	err := cluster.Options{SharedBuffers: "64kB", Replacement: "mru", UsageMax: 9}.Validate()
	fmt.Println(err)
	var se *pg.SettingError
	fmt.Println(errors.As(err, &se), se.Name)
	// Output:
	// shared_buffers=64kB: below the minimum of 16 buffers (128kB)
	// replacement=mru: must be one of clock, lru, 2q, arc, clock-pro
	// usage_max=9: outside the allowed range 1..5
	// true shared_buffers
}
