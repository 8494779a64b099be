package prefetch

import "unsafe"

// Slice is make([]T, n) for a large array read at random (a page cache's
// records, the index over them): the kernel is asked to back it with huge
// pages (madvise MADV_HUGEPAGE, where the system allows it, for the 2 MB
// stretches the array covers whole), so that a random access costs a cache
// miss but seldom also a TLB miss. A hint only: the slice holds the same
// zeroed values either way.
func Slice[T any](n int) []T {
	s := make([]T, n)
	var zero T
	if size := uintptr(n) * unsafe.Sizeof(zero); size >= 4<<20 {
		// madvise takes whole 4 kB pages: the ones inside the array.
		start := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
		from := (start + 4095) &^ 4095
		to := (start + size) &^ 4095
		adviseHuge(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), from-start), to-from)
	}
	return s
}
