//go:build !linux

package verify

import "os"

// fdatasync: other systems' servers default to fsync (or open_datasync);
// fsync is what is portable here.
func fdatasync(f *os.File) error { return f.Sync() }
