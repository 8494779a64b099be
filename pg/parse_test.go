package pg

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// ParseSize and ParseDuration read values as parse_int and
// convert_to_base_unit (guc.c) do.
func TestParseSizeAndDuration(t *testing.T) {
	for _, c := range []struct {
		in   string
		unit Unit
		want int64
	}{
		{"128MB", UnitBlocks, 16384},
		{"1.5MB", UnitBlocks, 192},   // 1536kB
		{"0.1GB", UnitBlocks, 13056}, // 102.4MB rounded to the next smaller unit: 102MB
		{"1kB", UnitBlocks, 0},       // 0.125 pages: rint
		{"12kB", UnitBlocks, 2},      // 1.5 pages: rint, halves to even
		{"20kB", UnitBlocks, 2},      // 2.5 pages: halves to even
		{"16", UnitBlocks, 16},
		{"1.5", UnitBlocks, 2},
		{"-1", UnitBlocks, -1},
		{"2.5MB", UnitKB, 2560},
		{" 64 kB ", UnitKB, 64},
	} {
		got, err := ParseSize(c.in, c.unit)
		require.NoError(t, err, c.in)
		require.Equal(t, c.want, got, c.in)
	}
	for _, c := range []struct{ in, err string }{
		{"lots", "not a size (want a number with an optional unit B, kB, MB, GB, TB)"},
		{"1.5XB", `unknown unit "XB" (valid units are B, kB, MB, GB and TB)`},
		{"1mb", `unknown unit "mb" (valid units are B, kB, MB, GB and TB)`},
		{"99999999999TB", "out of range (at most 4194304TB)"},
	} {
		_, err := ParseSize(c.in, UnitBlocks)
		require.EqualError(t, err, c.err, c.in)
	}
	for _, c := range []struct {
		in   string
		bare int64
		want int64
	}{
		{"200ms", 1e9, 200e6},
		{"1.5s", 1e9, 1500e6},
		{"1.5min", 1e9, 90e9},
		{"0.5us", 1e6, 500}, // us is the smallest unit: kept to the ns (the GUC rounds to its own unit)
		{"2", 1e9, 2e9},
		{"2", 1e6, 2e6},
		{"106751d", 1e9, 106751 * 86400e9},
	} {
		got, err := ParseDuration(c.in, c.bare)
		require.NoError(t, err, c.in)
		require.Equal(t, c.want, got, c.in)
	}
	for _, c := range []struct{ in, err string }{
		{"106752d", "out of range (at most 106751d, the simulated clock's 292 years)"},
		{"1000000d", "out of range (at most 106751d, the simulated clock's 292 years)"},
		{"1e400s", "not a duration (want a number with an optional unit us, ms, s, min, h, d)"},
		{"5parsecs", `unknown unit "parsecs" (valid units are us, ms, s, min, h and d)`},
	} {
		_, err := ParseDuration(c.in, 1e9)
		require.EqualError(t, err, c.err, c.in)
	}
}
