package cluster

import (
	"fmt"
	"strings"

	"github.com/pgbufsim/pgbufsim/pg"
)

// CrashReport is what a power loss destroyed.
type CrashReport struct {
	AtNs             int64  // the simulated moment of the power loss
	WALEnd           pg.LSN // the WAL is durable up to here
	WALLost          uint64 // bytes inserted but not flushed
	DirtyBuffersLost int
	DirtyOSPagesLost int
	Torn             []string // relation/block of each page write in flight, torn
}

func (r CrashReport) String() string {
	return fmt.Sprintf("power lost at %s ms: WAL durable up to %s (%d bytes not flushed lost); %d dirty buffers and %d dirty OS-cache pages lost; page writes in flight, torn: %d%s",
		formatMs(r.AtNs), r.WALEnd, r.WALLost, r.DirtyBuffersLost, r.DirtyOSPagesLost, len(r.Torn), tornList(r.Torn))
}

// formatMs prints nanoseconds as milliseconds with all six decimals.
func formatMs(ns int64) string { return fmt.Sprintf("%d.%06d", ns/1e6, ns%1e6) }

// tornList names the first torn pages, for the reports.
func tornList(torn []string) string {
	const show = 8
	var names []string
	for i, w := range torn {
		if i == show {
			names = append(names, fmt.Sprintf("… (%d more)", len(torn)-show))
			break
		}
		names = append(names, w)
	}
	if len(names) == 0 {
		return ""
	}
	return " (" + strings.Join(names, " ") + ")"
}

// RecoveryReport is what crash recovery did.
type RecoveryReport struct {
	RedoFrom, RedoTo pg.LSN // the last completed checkpoint's redo pointer, the end of the WAL
	ReplayedBytes    uint64
	Torn             []string // the torn pages
	Untouched        int      // torn pages none of whose sectors were new
	Whole            int      // all 16 sectors new: a whole version
	Images           int      // restored from a full-page image
	Rebuilt          int      // initialised by a record after the redo pointer
	HintOnly         int      // differing in hint bits only
	Corrupted        []string // sectors of two versions and no image
	Checksums        bool     // data_checksums: the corrupted pages fail their checksum
	RedoLSN          pg.LSN   // the end-of-recovery checkpoint's redo pointer
}

// CorruptionReport is what pg_checksums --check finds after recovery.
type CorruptionReport struct {
	Pages    []string // relation/block of each corrupted page
	Detected bool     // data_checksums: they fail their checksum
}

// Crash is a power loss now: unflushed WAL, shared buffers and the OS page
// cache lost, page writes in flight torn (16 sectors of 512 bytes, a seeded
// subset written).
func (c *Cluster) Crash() (CrashReport, error) {
	r, err := c.e.Crash()
	return CrashReport(r), err
}

// CrashAfterWrites arms a power loss for the moment the n-th data page
// written to the device from now on starts its write. The call during
// which it fires runs to its end, but nothing it did after that moment
// survives: PowerFailure then reports it.
func (c *Cluster) CrashAfterWrites(n int64) error { return c.e.CrashAfterWrites(n) }

// PowerFailure reports, once, a crash armed by CrashAfterWrites that fired
// during the last call.
func (c *Cluster) PowerFailure() (CrashReport, bool) {
	r, ok := c.e.PowerFailure()
	return CrashReport(r), ok
}

// LastCrash reports the last crash, if there was one.
func (c *Cluster) LastCrash() (CrashReport, bool) {
	r, ok := c.e.LastCrash()
	return CrashReport(r), ok
}

// Down reports whether the server is down after a crash (until Recover).
func (c *Cluster) Down() bool { return c.e.Down() }

// Recover is crash recovery (StartupXLOG): redo from the last completed
// checkpoint's redo pointer, torn pages restored from full-page images
// where the WAL has one, then the end-of-recovery checkpoint.
func (c *Cluster) Recover() (*RecoveryReport, error) {
	r, err := c.e.Recover()
	return (*RecoveryReport)(r), err
}

// Corruption reports the pages recovery left corrupt.
func (c *Cluster) Corruption() (CorruptionReport, error) {
	r, err := c.e.Corruption()
	return CorruptionReport(r), err
}
