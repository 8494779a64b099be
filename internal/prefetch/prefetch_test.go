package prefetch

import (
	"testing"
	"unsafe"
)

// Slice is make: n zeroed elements, length and capacity n, each its own
// (a write to one changes no other), below and above the size advised.
func TestSliceIsMake(t *testing.T) {
	for _, n := range []int{0, 1, 1000, 3 << 20} {
		s := Slice[int32](n)
		if len(s) != n || cap(s) != n {
			t.Fatalf("Slice(%d): len %d cap %d", n, len(s), cap(s))
		}
		for i := range s {
			if s[i] != 0 {
				t.Fatalf("Slice(%d)[%d] = %d, want 0", n, i, s[i])
			}
			s[i] = int32(i)
		}
		for i := range s {
			if s[i] != int32(i) {
				t.Fatalf("Slice(%d)[%d] = %d after the writes, want %d", n, i, s[i], i)
			}
		}
	}
}

// Line is only a hint: the memory it names keeps its value.
func TestLineChangesNothing(t *testing.T) {
	s := []uint64{1, 2, 3}
	for i := range s {
		Line(unsafe.Pointer(&s[i]))
	}
	if s[0] != 1 || s[1] != 2 || s[2] != 3 {
		t.Fatalf("after Line: %v", s)
	}
}
