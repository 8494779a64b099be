package pg

import "golang.org/x/exp/constraints"

// Alignment of the platform PostgreSQL runs on (pg_config.h on 64-bit Linux).
const (
	MaximumAlignOf = 8 // MAXIMUM_ALIGNOF
	AlignOfShort   = 2 // ALIGNOF_SHORT
)

// The alignment macros of c.h, written once for every integer type so that a
// byte count held as an int (a tuple length), an int64 (a file offset) or a
// uint64 (a WAL byte position) is rounded without a conversion. Like the C
// macros they wrap around on overflow of T and expect n ≥ 0.

// TypeAlign is TYPEALIGN(alignval, n): n rounded up to a multiple of
// alignval, which must be a power of two.
func TypeAlign[T constraints.Integer](alignval, n T) T {
	return (n + alignval - 1) &^ (alignval - 1)
}

// MaxAlign is MAXALIGN(n): n rounded up to MaximumAlignOf (8). Tuples on a
// page and records in the WAL stream start at MAXALIGNed offsets.
func MaxAlign[T constraints.Integer](n T) T { return (n + MaximumAlignOf - 1) &^ (MaximumAlignOf - 1) }

// MaxAlignDown is MAXALIGN_DOWN(n): n rounded down to a multiple of 8.
func MaxAlignDown[T constraints.Integer](n T) T { return n &^ (MaximumAlignOf - 1) }

// ShortAlign is SHORTALIGN(n): n rounded up to AlignOfShort (2).
func ShortAlign[T constraints.Integer](n T) T { return (n + AlignOfShort - 1) &^ (AlignOfShort - 1) }

// DivCeil is ⌈n / d⌉ for n ≥ 0 and d > 0: how many d-sized pieces hold n
// (pages for a number of rows, I/Os for a number of bytes). Unlike
// (n + d − 1) / d it does not overflow when n is near T's maximum.
func DivCeil[T constraints.Integer](n, d T) T {
	q := n / d
	if n%d != 0 {
		q++
	}
	return q
}
