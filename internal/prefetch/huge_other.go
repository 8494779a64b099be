//go:build !linux

package prefetch

import "unsafe"

func adviseHuge(p unsafe.Pointer, n uintptr) {}
