package prefetch

import (
	"syscall"
	"unsafe"
)

// adviseHuge is madvise(MADV_HUGEPAGE) of [p, p+n) (an error — a kernel
// without transparent huge pages — leaves the memory as it is).
func adviseHuge(p unsafe.Pointer, n uintptr) {
	_ = syscall.Madvise(unsafe.Slice((*byte)(p), n), syscall.MADV_HUGEPAGE)
}
