package verify

import (
	"context"
	"strings"
	"testing"

	"github.com/pgbufsim/pgbufsim/scenario"
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
	// The step runs on the host's cores: its cluster line names them.
	on := hostScaleScenarioOn(2, 47_400)
	require.Equal(t, strings.Count(HostScaleScenario, "\n"), strings.Count(on, "\n"))
	require.Contains(t, strings.SplitN(on, "\n", 3)[1], "bgwriter_lru_maxpages=0 host_cpus=2 host_wakeup=0.047ms")
	g, err := scenario.Parse("host-scale.scn", on)
	require.NoError(t, err)
	require.Len(t, g.Steps, len(f.Steps))
	_, err = MeasureHostScale(context.Background(), "/nonexistent", 0, nil)
	require.EqualError(t, err, "runs=0: must be from 1 to 99")
}

// The host's slice joins the machine settings only when it is not the
// kernel's default for host_cpus CPUs: a server pinned to one CPU of a
// 2-CPU machine keeps the machine's 1.4 ms.
func TestHostScaleSlice(t *testing.T) {
	h := &HostScale{Scale: 2, CPUs: 2, Slice: 1_400_000}
	require.Equal(t, "host_time_scale=2 host_cpus=2", h.Settings())
	h.CPUs = 1
	require.Equal(t, "host_time_scale=2 host_cpus=1 host_sched_slice=1.4ms", h.Settings())
	// The wake-up, to the µs: 52.6 µs is 0.053ms; under 0.5 µs none.
	h.CPUs, h.Wakeup = 2, 52_600
	require.Equal(t, "host_time_scale=2 host_cpus=2 host_wakeup=0.053ms", h.Settings())
	h.Wakeup = 400
	require.Equal(t, "host_time_scale=2 host_cpus=2", h.Settings())
}
