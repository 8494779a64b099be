package oltp

import (
	"testing"
)

// benchRun measures transactions of script per second of host time at
// scale 100 (10,000,000 accounts, 1.3 GB of heap) in a 1GB pool, after
// pgbench -i (not timed): the shape for the speed goals.
func benchRun(b *testing.B, script Builtin) {
	c := newTestCluster(b, 18, "1GB")
	bench, _, err := Init(c, 100, 100)
	if err != nil {
		b.Fatal(err)
	}
	keys := []Keys{newTestKeys(b, 1, 100, script)}
	b.ResetTimer()
	res, err := bench.Run(script, b.N, keys)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(res.Transactions)/b.Elapsed().Seconds(), "txn/s")
}

func BenchmarkPgbenchSelectOnly(b *testing.B) { benchRun(b, SelectOnly) }
func BenchmarkPgbenchTPCB(b *testing.B)       { benchRun(b, TPCBLike) }
