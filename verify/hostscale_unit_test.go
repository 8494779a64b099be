package verify

import (
	"context"
	"strings"
	"testing"

	"github.com/pgbufsim/pgbufsim/scenario"
	"github.com/pgbufsim/pgbufsim/storage"
	"github.com/stretchr/testify/require"
)

// MeasureHostScale takes the execution time of the calibration scenario's
// last line, which must be its one `scan big` (the line count is its
// number), and refuses a run count outside 1–99 before starting anything.
func TestHostScaleScenario(t *testing.T) {
	f, err := scenario.Parse("host-scale.scn", HostScaleScenario)
	require.NoError(t, err)
	last := f.Steps[len(f.Steps)-1]
	require.Equal(t, "scan big", strings.TrimSpace(last.Text))
	require.Equal(t, strings.Count(HostScaleScenario, "\n"), last.Line)
	scans := 0
	for _, st := range f.Steps {
		if strings.TrimSpace(st.Text) == "scan big" {
			scans++
		}
	}
	require.Equal(t, 1, scans)
	_, err = MeasureHostScale(context.Background(), "/nonexistent", 0, nil)
	require.EqualError(t, err, "runs=0: must be from 1 to 99")
}

// The device's line through the sizes' medians: points on t = 2.5 ms +
// bytes / 500 MB/s (2e-6 ms a byte) give back the flush and the slope; the
// settings print the flush less the profile's access time (nvme: 72.3 µs)
// and the slope as MB/s (1e-3 / 2e-6 = 500).
func TestDeviceSyncFit(t *testing.T) {
	var ys []float64
	for _, x := range deviceSyncSizes {
		ys = append(ys, 2.5+float64(x)*2e-6)
	}
	b, a := fitLine(deviceSyncSizes, ys)
	require.InDelta(t, 2e-6, b, 1e-15)
	require.InDelta(t, 2.5, a, 1e-9)
	ds := deviceSyncFrom(deviceSyncSizes, ys, storage.Devices["nvme"])
	require.Equal(t, "device_flush=2.428ms device_write_mbps=500", ds.Settings())
	_, err := MeasureDeviceSync(0, storage.Devices["nvme"])
	require.EqualError(t, err, "runs=0: must be from 1 to 99")
}
