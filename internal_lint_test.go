package pgbufsim_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goStmt matches a go statement that calls a named function.
var goStmt = regexp.MustCompile(`(?m)^\s*go [A-Za-z_][A-Za-z_0-9.]*\(`)

// TestNoWallClockNoGlobalRand keeps the model deterministic: no non-test Go
// file may read the wall clock or use math/rand's global generator.
func TestNoWallClockNoGlobalRand(t *testing.T) {
	banned := []string{"time.Now(", "time.Since(", "\"math/rand\"", "\"math/rand/v2\"", "go func("}
	err := filepath.Walk(".", func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if info.IsDir() && strings.HasPrefix(info.Name(), ".") && path != "." {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, b := range banned {
			if strings.Contains(string(src), b) {
				t.Errorf("%s uses %s: the simulator must be deterministic (simulated time, seeded PRNGs, no goroutines in the model)", path, b)
			}
		}
		// A go statement starting a named function is a goroutine too. Only the
		// CLI may start them: sweep runs independent clusters, one per core.
		if !strings.HasPrefix(filepath.ToSlash(path), "cmd/") && goStmt.Match(src) {
			t.Errorf("%s starts a goroutine: only cmd/ may (the model runs in one thread on simulated time)", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestLayering keeps the architecture's promises: the scenario language's
// test library (datadriven) is imported only by the scenario layer and the
// CLI (and tests), and no package grows past ~3,000 lines of non-test code
// (one package, one idea).
func TestLayering(t *testing.T) {
	const maxPackageLines = 3200 // "~3,000": the engine, the executor of every statement, is just over
	datadrivenOK := map[string]bool{"scenario": true, "scenario/scenariotest": true, "cmd/pgbufsim": true}
	lines := map[string]int{}
	err := filepath.Walk(".", func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if info.IsDir() && (strings.HasPrefix(info.Name(), ".") && path != "." || info.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		lines[dir] += strings.Count(string(src), "\n")
		if strings.Contains(string(src), `"github.com/cockroachdb/datadriven"`) && !datadrivenOK[dir] {
			t.Errorf("%s imports datadriven: only the scenario layer and the CLI may (the engine's API is typed)", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for dir, n := range lines {
		if n > maxPackageLines {
			t.Errorf("package %s has %d lines of non-test code: split it (at most ~3,000 a package)", dir, n)
		}
	}
}
