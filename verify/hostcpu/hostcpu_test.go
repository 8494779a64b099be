package hostcpu

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// A scenario's host_cpus pins the server to that many of this process's
// CPUs; 0 (unlimited) or as many as there are pins nothing.
func TestPinCPUs(t *testing.T) {
	one, err := Pin(1)
	require.NoError(t, err)
	if runtime.NumCPU() > 1 {
		require.Regexp(t, `^\d+$`, one)
	} else {
		require.Empty(t, one)
	}
	for _, n := range []int{0, runtime.NumCPU(), 1024} {
		s, err := Pin(n)
		require.NoError(t, err)
		require.Empty(t, s, "host_cpus=%d", n)
	}
}

// The kernel's CPU lists and releases as the slice's default reads them.
func TestKernelFormats(t *testing.T) {
	require.Equal(t, 3, countCPUList("0-1,4", 1))
	require.Equal(t, 7, countCPUList("x", 7))
	require.True(t, kernelAtLeast("6.18.44-fc", 6, 15))
	require.False(t, kernelAtLeast("6.12.1", 6, 15))
	require.True(t, kernelAtLeast("7.0", 6, 15))
}
