package nbtree_test

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/nbtree"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

// TestLogBuild: CREATE INDEX t2_id on 9,792 rows builds 29 pages (27
// leaves, the root, the metapage). PostgreSQL 15 logs each as its own
// XLOG_FPI (log_newpage: 29 records, the metapage's last); 18beta1 and
// 19beta1 log them in one record of 29 block references, "len (rec/tot):
// 413/198513" in pg_waldump: 24 + 12 + 29 × (4 + 5 + 4) = 413 bytes beside
// the images. 100,000 rows (⌈100,000/366⌉ = 274 leaves, a root and the
// metapage: 276 pages, pgbench_accounts_pkey's) take ⌈276/32⌉ = 9 records
// from 17, the bulk writer's queue of 32 flushed as it fills.
func TestLogBuild(t *testing.T) {
	count := func(v pg.Version, rows int64) (recs, fpi, overhead int, lastBlks []pg.BlockNumber) {
		ix := nbtree.New("t2_id", table(rows), 2)
		ix.LogBuild(v, func(_ pg.BlockNumber, hole int) int { return pg.BLCKSZ - hole }, func(recLen, nfpi int, blks []pg.BlockNumber) {
			recs++
			fpi += nfpi
			overhead += recLen
			lastBlks = append(lastBlks[:0], blks...)
		})
		for _, hole := range ix.BuildPages() {
			overhead -= pg.BLCKSZ - hole
		}
		return
	}
	recs, fpi, overhead, last := count(15, 9792)
	require.Equal(t, 29, recs)
	require.Equal(t, 29, fpi)
	require.Equal(t, 29*nbtree.NewPageRecordLen(0), overhead)
	require.Equal(t, []pg.BlockNumber{nbtree.MetaBlock}, last)
	recs, fpi, overhead, _ = count(18, 9792)
	require.Equal(t, 1, recs)
	require.Equal(t, 29, fpi)
	require.Equal(t, 413, overhead)
	recs, _, _, _ = count(19, 100000)
	require.Equal(t, 9, recs)
}
