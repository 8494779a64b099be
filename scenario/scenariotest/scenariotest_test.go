package scenariotest_test

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/scenario/scenariotest"
)

// TestRunDir runs testdata/golden: read.scn, more/errors.scn (a subfolder,
// a subtest of its own), and README.txt, which Ext skips. The blocks were
// checked by hand against the page layout and the WAL record formats:
//
//   - 2,032-byte tuples, 4 a page: (8192 − 24 page header)/4 − 4 item id,
//     MAXALIGNed down = 2,032; 4 × 2,036 = 8,144, leaving a 24-byte hole.
//   - insert: 400 heap-insert records of 2,063 bytes (24 record header + 4
//     block reference + 12 relfilelocator + 4 block + 2 data header + 3
//     xl_heap_insert + 5 xl_heap_header + the tuple's 2,009 bytes past its
//     23-byte header) = 825,200 bytes; written=103 are the extended pages
//     (EXPLAIN counts extensions as written from 16 on): 100 heap pages and
//     the free space map's 3.
//   - checkpoint: the 100 dirty heap pages; evict all: the 103 buffers.
//   - scan: 100 reads, each page hinted and logged with an image of 8,217
//     bytes (8,192 − the 24-byte hole + 24 + 4 + 5 image header + 12 + 4) =
//     821,700 bytes; 100 buffers left at usage 1, and 2,048 − 100 = 1,948
//     unused.
//   - errors: a command before any cluster, shared_buffers=64kB (8 buffers,
//     under the minimum of 16), and a table that does not exist, each as
//     "error: …".
//
// Refresh with: go test ./scenario/scenariotest -rewrite
func TestRunDir(t *testing.T) {
	scenariotest.RunDir(t, "testdata/golden", scenariotest.Ext(".scn"))
}

// TestRunFileSeed: one file, with a seed of its own (read.scn draws no
// random number, so its blocks hold under any seed).
func TestRunFileSeed(t *testing.T) {
	scenariotest.RunFile(t, "testdata/golden/read.scn", scenariotest.Seed(7))
}
