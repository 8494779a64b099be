package hostcpu

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// host_wakeup as measured here: half a cross-CPU pipe round trip, more
// than nothing and within the setting's range (at most 10 ms) on a host of
// two CPUs or more; 0 on one CPU, where nothing is woken onto another.
func TestWakeupMeasures(t *testing.T) {
	_, err := MeasureWakeup(0)
	require.EqualError(t, err, "rounds=0: at least 1")
	ns, err := MeasureWakeup(100)
	require.NoError(t, err)
	if runtime.NumCPU() < 2 {
		require.Zero(t, ns)
		return
	}
	require.Greater(t, ns, int64(0))
	require.Less(t, ns, int64(10_000_000))
	t.Logf("host_wakeup: %.1f µs", float64(ns)/1e3)
}
