package scenario_test

import (
	"fmt"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/cluster"
	"github.com/pgbufsim/pgbufsim/scenario"
)

// A Go program that runs scenario commands reads each one's figures from
// Output.Result, the engine's typed value, not from the JSON: here a
// 100-page table's first read after a checkpoint, each page hinted and
// logged with a full-page image.
func ExampleOutput_Result() {
	env := &scenario.Env{Seed: 1}
	var last scenario.Output
	for _, line := range []string{
		"cluster version=18 shared_buffers=16MB catalog_pins=off",
		"table t pages=100 tuples_per_page=4 autovacuum=off",
		"insert t", "checkpoint", "evict all",
		"scan t",
		"show buffercache t",
	} {
		cmd, args, err := datadriven.ParseLine(line)
		if err == nil {
			last, err = env.Exec(cmd, args)
		}
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		if r, ok := last.Stmt(); ok && r.Kind == "Seq Scan" {
			fmt.Printf("scan: read=%d fpi=%d wal_bytes=%d\n", r.Buf.Read, r.WAL.FPI, r.WAL.Bytes)
		}
	}
	bc := last.Result.(*cluster.Buffercache)
	fmt.Printf("t holds %d buffers, %d unused\n", bc.Row("t").Buffers, bc.Unused)
	// Output:
	// scan: read=100 fpi=100 wal_bytes=821700
	// t holds 100 buffers, 1948 unused
}
