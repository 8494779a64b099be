package verify

import (
	"os"
	"syscall"
)

// fdatasync is wal_sync_method's default on Linux (issue_xlog_fsync).
func fdatasync(f *os.File) error { return syscall.Fdatasync(int(f.Fd())) }
