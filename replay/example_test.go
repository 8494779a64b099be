package replay_test

import (
	"fmt"
	"strings"

	"github.com/pgbufsim/pgbufsim/cluster"
	"github.com/pgbufsim/pgbufsim/replay"
	"github.com/pgbufsim/pgbufsim/trace"
)

// check returns v, or panics on err: for short examples.
func check[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// A block-access trace replayed through a 16-buffer pool: the loop over 17
// blocks is the clock sweep's worst case (every access a miss once the pool
// is full: the hand always evicts the block needed next), the loop over 16
// all hits after the first pass.
func ExampleReplay() {
	c := check(cluster.Open(cluster.Options{SharedBuffers: "128kB", CatalogPins: cluster.Bool(false)}))
	for _, n := range []int{17, 16} {
		var csv strings.Builder
		for pass := 0; pass < 4; pass++ {
			for blk := 0; blk < n; blk++ {
				fmt.Fprintf(&csv, "loop%d,%d\n", n, blk)
			}
		}
		res := check(replay.Replay(c, strings.NewReader(csv.String()), "loop.csv", trace.CSV, ""))
		fmt.Printf("%d blocks: %d requests, %d hits, %d misses, hit ratio %.2f\n", res.Blocks, res.Requests, res.Hits, res.Misses, res.HitRatio())
	}
	// Output:
	// 17 blocks: 68 requests, 0 hits, 68 misses, hit ratio 0.00
	// 16 blocks: 64 requests, 48 hits, 16 misses, hit ratio 0.75
}
