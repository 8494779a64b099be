package devsync

import (
	"strings"
	"testing"

	"github.com/pgbufsim/pgbufsim/storage"
	"github.com/stretchr/testify/require"
)

// The device's line through the sizes' medians: points on t = 2.5 ms +
// bytes / 500 MB/s (2e-6 ms a byte) give back the flush and the slope; the
// settings print the flush less the profile's access time (nvme: 72.3 µs)
// and the slope as MB/s (1e-3 / 2e-6 = 500).
func TestFit(t *testing.T) {
	var ys []float64
	for _, x := range Sizes {
		ys = append(ys, 2.5+float64(x)*2e-6)
	}
	b, a := fitLine(Sizes, ys)
	require.InDelta(t, 2e-6, b, 1e-15)
	require.InDelta(t, 2.5, a, 1e-9)
	require.Equal(t, "device_flush=2.428ms device_write_mbps=500", FromMedians(Sizes, ys, storage.Devices["nvme"]).Settings())
	_, err := Measure(0, storage.Devices["nvme"])
	require.EqualError(t, err, "runs=0: must be from 1 to 99")
}

// dd's summary line (coreutils, LC_ALL=C) of a sync that copied nothing.
func TestParseDD(t *testing.T) {
	s, err := ParseDD("0+0 records in\n0+0 records out\n0 bytes copied, 0.0274638 s, 0.0 kB/s\n")
	require.NoError(t, err)
	require.InDelta(t, 0.0274638, s, 1e-12)
	_, err = ParseDD("dd: failed to open 'x': Permission denied\n")
	require.Error(t, err)
}

// A measurement on this machine's temporary directory: each median is a
// positive time and the 16 MB sync takes longer than the 8 kB one (a
// device writes more bytes in more time).
func TestMeasure(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and syncs 80 MB")
	}
	// A machine busy with other work can make one round too noisy to
	// measure (Measure says so): up to three rounds, then it fails.
	r, err := Measure(1, storage.Devices["nvme"])
	for try := 1; try < 3 && err != nil && strings.Contains(err.Error(), "too noisy"); try++ {
		r, err = Measure(1, storage.Devices["nvme"])
	}
	require.NoError(t, err)
	require.Len(t, r.MedianMs, 4)
	for _, m := range r.MedianMs {
		require.Greater(t, m, 0.0)
	}
	require.Greater(t, r.MedianMs[3], r.MedianMs[0])
}
