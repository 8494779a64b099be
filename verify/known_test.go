package verify

import (
	"fmt"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"
)

// staleKnown lists the "# verify: known on" lines (knownOn's keys, "LINE
// FIGURE") that no longer describe a gap: agree, those whose figure agrees
// within its tolerance in this run (a gap that follows the server's timing
// may agree once: reported, to be looked at); missing, those naming no
// figure of the scenario (the line moved or the figure was renamed: always
// wrong). Each should be removed or renamed, so that the known gaps stay the
// open ones.
func staleKnown(rows []Row, known map[string]string) (agree, missing []string) {
	seen := map[string]bool{}
	for _, r := range rows {
		k := fmt.Sprintf("%d %s", r.Line, r.Figure)
		if _, ok := known[k]; !ok {
			continue
		}
		seen[k] = true
		if r.OK {
			agree = append(agree, fmt.Sprintf("line %d %s agrees (pgbufsim %d, postgres %d, %s)", r.Line, r.Figure, r.Sim, r.Real, r.Tolerance))
		}
	}
	for k := range known {
		if !seen[k] {
			missing = append(missing, "line "+k+": the scenario shows no such figure")
		}
	}
	sort.Strings(agree)
	sort.Strings(missing)
	return agree, missing
}

func TestStaleKnown(t *testing.T) {
	rows := []Row{
		{Line: 9, Figure: "shared dirtied", Sim: 2, Real: 2, Tolerance: "±2%", Judged: true, OK: true},
		{Line: 9, Figure: "WAL fpi", Sim: 0, Real: 1, Tolerance: "±2%", Judged: true, OK: false},
		{Line: 10, Figure: "t usage 0", Sim: 5, Real: 5, Judged: true, OK: true},
	}
	known := map[string]string{"9 shared dirtied": "why", "9 WAL fpi": "why", "12 t buffers": "why"}
	agree, missing := staleKnown(rows, known)
	require.Equal(t, []string{"line 9 shared dirtied agrees (pgbufsim 2, postgres 2, ±2%)"}, agree)
	require.Equal(t, []string{"line 12 t buffers: the scenario shows no such figure"}, missing)
	agree, missing = staleKnown(rows, map[string]string{"9 WAL fpi": "why"})
	require.Empty(t, agree)
	require.Empty(t, missing)
}
