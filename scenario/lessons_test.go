package scenario

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/stretchr/testify/require"
)

// TestLessons pins the output of the lessons in examples/lessons (show pool
// and trace included): each file is a golden file, every command with its
// block. Refresh with: go test ./scenario -run TestLessons -rewrite
func TestLessons(t *testing.T) {
	files, err := filepath.Glob("../examples/lessons/*.scn")
	require.NoError(t, err)
	require.Len(t, files, 6)
	for _, p := range files {
		src, err := os.ReadFile(p)
		require.NoError(t, err)
		f, err := Parse(p, string(src))
		require.NoError(t, err)
		for _, st := range f.Steps {
			require.NotNil(t, st.Expected, "%s:%d: a lesson gives every command its ---- block", p, st.Line)
		}
		t.Run(filepath.Base(p), func(t *testing.T) {
			env := &Env{Seed: 1, CheckInvariants: true}
			datadriven.RunTest(t, p, func(t *testing.T, d *datadriven.TestData) string {
				o, err := env.Exec(d.Cmd, d.CmdArgs)
				if err != nil {
					return "error: " + err.Error()
				}
				return o.Text
			})
		})
	}
}
