package prefetch

import "unsafe"

// Line is PREFETCHT0 of the cache line holding p: a hint that never faults
// and changes no state a program can see.
//
//go:noescape
func Line(p unsafe.Pointer)
