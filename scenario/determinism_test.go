package scenario

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// runFile runs a shipped scenario and returns all its text and JSON output.
func runFile(t *testing.T, path string) string {
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	f, err := Parse(path, string(src))
	require.NoError(t, err)
	env := &Env{Seed: 1, CheckInvariants: true, Dir: filepath.Dir(path)}
	var out []byte
	for _, st := range f.Steps {
		o, err := env.Exec(st.Cmd, st.Args)
		require.NoError(t, err, "%s:%d", path, st.Line)
		js, err := json.Marshal(o.JSON)
		require.NoError(t, err)
		out = append(out, o.Text...)
		out = append(out, js...)
	}
	return string(out)
}

// TestDeterminism: every shipped example, run twice, gives byte-identical
// output (text and JSON), with invariants checked after every command.
func TestDeterminism(t *testing.T) {
	files, err := filepath.Glob("../examples/*.scn")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			a := runFile(t, f)
			b := runFile(t, f)
			require.Equal(t, a, b)
		})
	}
}
