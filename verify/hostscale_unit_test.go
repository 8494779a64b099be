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
	on := hostScaleScenarioOn(2)
	require.Equal(t, strings.Count(HostScaleScenario, "\n"), strings.Count(on, "\n"))
	require.Contains(t, strings.SplitN(on, "\n", 3)[1], "bgwriter_lru_maxpages=0 host_cpus=2")
	g, err := scenario.Parse("host-scale.scn", on)
	require.NoError(t, err)
	require.Len(t, g.Steps, len(f.Steps))
	_, err = MeasureHostScale(context.Background(), "/nonexistent", 0, nil)
	require.EqualError(t, err, "runs=0: must be from 1 to 99")
}
