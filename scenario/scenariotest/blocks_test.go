package scenariotest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCheckBlocks: a command without a ---- block is refused with its
// position and what to do; a file whose commands all have blocks passes.
func TestCheckBlocks(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.scn")
	require.NoError(t, os.WriteFile(p, []byte("cluster version=18\n----\nok\n\nscan t\ncheckpoint\n----\n"), 0o644))
	err := checkBlocks(p)
	require.EqualError(t, err, p+":5: scan t: a golden file gives every command a ---- block (add \"----\" and a blank line under it, then run with -rewrite)")
	require.NoError(t, checkBlocks("testdata/golden/read.scn"))
}
