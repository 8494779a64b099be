// Package scenariotest runs folders of scenario files as golden tests, in a
// project's own `go test` suite: each file a subtest, each command's output
// checked against the "----" block under it, `-rewrite` writing the blocks
// anew, and the buffer pool's invariants checked after every command. It is
// how pgbufsim's own golden files (scenario/testdata/scenarios, the lessons
// in examples/lessons) are run.
//
// A golden file is a scenario file in which every command has its block
// (`ok` when there is nothing to show):
//
//	# A 100-page table read once through shared buffers.
//	cluster version=18 shared_buffers=16MB catalog_pins=off
//	----
//	ok
//
//	table t pages=100 tuples_per_page=4 autovacuum=off
//	----
//	ok: 2032 bytes a tuple, 4 tuples a page, hole 24 bytes
//
// and a test that runs a folder of them is one call:
//
//	package mydb_test
//
//	import (
//		"testing"
//
//		"github.com/pgbufsim/pgbufsim/scenario/scenariotest"
//	)
//
//	// TestScenarios runs every golden file under testdata/scenarios.
//	// Refresh with: go test -run TestScenarios -rewrite
//	func TestScenarios(t *testing.T) {
//		scenariotest.RunDir(t, "testdata/scenarios", scenariotest.Ext(".scn"))
//	}
//
// Write a new file with an empty block under each command ("----" and a
// blank line), run the test with -rewrite, and read the diff before
// committing it: the blocks are what the simulator printed, not what it
// should print.
//
// An error of the engine (a relation that does not exist, a setting out of
// range) is output like any other: "error: " and the message, so bad input
// is tested with golden blocks too. A line that does not parse as a command
// fails the test, as does a command without a block (datadriven would read
// the lines after it as its input). Each file runs on its own cluster, from
// the seed (1 unless Seed says otherwise), with relative file names (replay's
// traces) read from the file's directory.
package scenariotest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/scenario"
)

// An Option changes how RunDir and RunFile run the files.
type Option func(*config)

type config struct {
	seed uint64
	ext  string
}

// Seed sets the PRNG seed of every file's cluster (default 1).
func Seed(seed uint64) Option { return func(c *config) { c.seed = seed } }

// Ext runs only the files whose names end in ext (".scn"); the others under
// the folder (a README, trace files for replay) are skipped. Without it
// every file is run, as datadriven.Walk visits them (hidden and editor
// backup files are left out).
func Ext(ext string) Option { return func(c *config) { c.ext = ext } }

func configure(opts []Option) config {
	c := config{seed: 1}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// RunDir runs every scenario file under dir, recursively, each as a subtest
// named for its path below dir without the extension (see the package doc).
func RunDir(t *testing.T, dir string, opts ...Option) {
	t.Helper()
	c := configure(opts)
	datadriven.Walk(t, dir, func(t *testing.T, path string) {
		if c.ext != "" && !strings.HasSuffix(path, c.ext) {
			t.Skipf("%s: not a %s file", path, c.ext)
		}
		runFile(t, path, c)
	})
}

// RunFile runs one scenario file as a golden test (what RunDir does for
// each file).
func RunFile(t *testing.T, path string, opts ...Option) {
	t.Helper()
	runFile(t, path, configure(opts))
}

func runFile(t *testing.T, path string, c config) {
	t.Helper()
	if err := checkBlocks(path); err != nil {
		t.Fatal(err)
	}
	env := &scenario.Env{Seed: c.seed, CheckInvariants: true, Dir: filepath.Dir(path)}
	datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
		o, err := env.Exec(d.Cmd, d.CmdArgs)
		if err != nil {
			return "error: " + err.Error()
		}
		return o.Text
	})
}

// checkBlocks refuses a file with a command that has no "----" block: the
// scenario reader and datadriven would read it differently.
func checkBlocks(path string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	f, err := scenario.Parse(path, string(src))
	if err != nil {
		return err
	}
	for _, st := range f.Steps {
		if st.Expected == nil {
			return &scenario.Error{File: path, Line: st.Line,
				Err: fmt.Errorf("%s: a golden file gives every command a ---- block (add \"----\" and a blank line under it, then run with -rewrite)", st.Text)}
		}
	}
	return nil
}
