package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/stretchr/testify/require"
)

// TestReadersAgree: the scenario package (what `pgbufsim run` uses) and
// datadriven read every golden file into the same commands.
func TestReadersAgree(t *testing.T) {
	files, err := filepath.Glob("testdata/scenarios/*")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, p := range files {
		src, err := os.ReadFile(p)
		require.NoError(t, err)
		f, err := Parse(p, string(src))
		require.NoError(t, err)
		var got []string
		datadriven.RunTest(t, p, func(t *testing.T, d *datadriven.TestData) string {
			got = append(got, d.Pos+" "+d.Cmd)
			return d.Expected
		})
		require.Len(t, got, len(f.Steps), p)
		for i, st := range f.Steps {
			require.True(t, strings.HasSuffix(got[i], " "+st.Cmd), "%s: step %d: %s vs %s", p, i, got[i], st.Cmd)
			require.NotNil(t, st.Expected, "%s:%d: golden files give every command a ---- block", p, st.Line)
		}
	}
}
