package scenario_test

import (
	"path/filepath"
	"testing"

	"github.com/pgbufsim/pgbufsim/scenario/scenariotest"
	"github.com/stretchr/testify/require"
)

// TestScenarios runs every golden file under testdata/scenarios, as a user's
// suite would (scenariotest.RunDir): engine errors go into the output
// ("error: …"), so bad input is tested like any other command; the pool's
// invariants are checked after every command.
// Refresh with: go test ./scenario -run TestScenarios -rewrite
func TestScenarios(t *testing.T) {
	scenariotest.RunDir(t, "testdata/scenarios")
}

// TestLessons pins the output of the lessons in examples/lessons (show pool
// and trace included): each file is a golden file, every command with its
// block. Refresh with: go test ./scenario -run TestLessons -rewrite
func TestLessons(t *testing.T) {
	files, err := filepath.Glob("../examples/lessons/*.scn")
	require.NoError(t, err)
	require.Len(t, files, 6)
	scenariotest.RunDir(t, "../examples/lessons", scenariotest.Ext(".scn"))
}
