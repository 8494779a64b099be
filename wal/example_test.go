package wal_test

import (
	"fmt"

	"github.com/pgbufsim/pgbufsim/wal"
)

// A full-page image for a hint bit (XLOG_FPI_FOR_HINT) of a page holding
// four 1,832-byte tuples: pd_lower = 24 + 4 × 4 = 40, pd_upper = 8192 −
// 4 × 1,832 = 864, so the hole is 824 bytes and XLogRecordAssemble stores
// 8192 − 824 = 7,368 bytes of image behind a 24-byte XLogRecord, a 4-byte
// block header, a 5-byte image header, the 12-byte RelFileLocator and the
// 4-byte block number: xl_tot_len 7,417.
//
// In the stream each record takes MAXALIGN(7,417) = 7,424 bytes
// (ReserveXLogInsertLocation). A new cluster's WAL starts where initdb's
// shutdown checkpoint record ends: 18beta1's without checksums is at
// 0/14A5FE0, 120 bytes that cross into the next page and its 24-byte
// header, so insertion starts at 0/14A6070 (what the server's
// pg_current_wal_insert_lsn() says after its start), 112 bytes into a page.
// The first record fits in the 8,080 bytes left there and ends at
// 0x14A6070 + 7,424 = 0/14A7D70; the second uses the 656 bytes left on that
// page, then the next page's 24-byte short header, then 6,768 bytes: it
// ends at 0x14A8000 + 24 + 6,768 = 0/14A9A88, 7,448 bytes of LSN (7,424 +
// 24) for 7,417 of record.
func ExampleFPIForHint() {
	size := wal.FPIForHint(824)
	fmt.Println("xl_tot_len:", size)

	w, err := wal.New(wal.Config{Version: 18, WalBuffers: 64})
	if err != nil {
		panic(err)
	}
	var u wal.Usage
	start := w.InsertLSN()
	first, _ := w.Insert(0, &u, size, 1)
	second, _ := w.Insert(0, &u, size, 1)
	fmt.Println("records:", start, "→", first, "→", second)
	fmt.Println("LSN distance of the second:", uint64(second-first), "bytes; WAL bytes counted:", u.Bytes)
	// Output:
	// xl_tot_len: 7417
	// records: 0/14A6070 → 0/14A7D70 → 0/14A9A88
	// LSN distance of the second: 7448 bytes; WAL bytes counted: 14834
}
