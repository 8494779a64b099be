package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgbufsim/pgbufsim/guc"
	"github.com/pgbufsim/pgbufsim/scenario"
	"github.com/stretchr/testify/require"
)

// Every usage error names what is missing or wrong, then the usage line.
func TestUsageErrorsNameWhatIsMissing(t *testing.T) {
	dir := t.TempDir()
	scn := filepath.Join(dir, "a.scn")
	require.NoError(t, os.WriteFile(scn, []byte("cluster version=18 shared_buffers=1MB\n"), 0o644))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run"}, "pgbufsim run: the scenario file (FILE.scn) is missing\nusage: pgbufsim run "},
		{[]string{"run", scn, "x"}, `pgbufsim run: expected one scenario file (FILE.scn), got 2 arguments (["` + scn + `" "x"]); flags go before the file`},
		{[]string{"sweep", scn}, "pgbufsim sweep: --vary NAME=v1,v2,... is missing (the setting to vary and its values)\nusage: pgbufsim sweep "},
		{[]string{"sweep", "--vary", "eic=1,2", "--jobs", "0", scn}, "pgbufsim sweep: --jobs 0: must be at least 1 (points run at once)"},
		{[]string{"sweep", "--vary", "eic=1,2"}, "pgbufsim sweep: the scenario file (FILE.scn) is missing"},
		{[]string{"compare", scn}, "pgbufsim compare: --vary NAME=v1,v2,... is missing"},
		{[]string{"compare", scn, "--vary", "eic=1,2", "--jobs", "0"}, "pgbufsim compare: --jobs 0: must be at least 1"},
		{[]string{"verify", scn}, "pgbufsim verify: --pgbin DIR is missing (PostgreSQL's bin directory: pg_config --bindir)\nusage: pgbufsim verify "},
		{[]string{"verify", "--pgbin", dir}, "pgbufsim verify: the scenario file (FILE.scn) is missing"},
		{[]string{"plot", scn}, "pgbufsim plot: -o OUT is missing (the file to write)\nusage: pgbufsim plot "},
		{[]string{"plot"}, "pgbufsim plot: the scenario file (FILE.scn) is missing"},
		{[]string{"animate", scn}, "pgbufsim animate: -o OUT is missing (the file to write)"},
		{[]string{"replay"}, "pgbufsim replay: the trace file (TRACE) is missing"},
		{[]string{"replay", "--format=xml", "t.csv"}, "pgbufsim replay: --format=xml: must be text or json"},
		{[]string{"diagnose"}, "pgbufsim diagnose: the plan file (EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) output, PLAN.json) is missing"},
		{[]string{"diagnose", "p.json", "--format", "xml"}, "pgbufsim diagnose: --format xml: must be text or json"},
		{[]string{"catalog-profile"}, "pgbufsim catalog-profile: --pgbin DIR is missing"},
		{[]string{"help", "nosuchtopic"}, `pgbufsim help: no help topic "nosuchtopic" (topics: settings, devices, commands)`},
	} {
		var out, errb bytes.Buffer
		require.Equal(t, 2, run(context.Background(), c.args, &out, &errb), "%q", c.args)
		require.Contains(t, errb.String(), c.want, "%q", c.args)
	}
}

// help lists every CLI command and every scenario command with every
// form; help settings lists every setting with its default and what it
// allows.
func TestHelpIsTheReference(t *testing.T) {
	var out, errb bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"help"}, &out, &errb))
	h := out.String()
	for _, cmd := range []string{"run", "verify", "replay", "gentrace", "sweep", "compare", "diagnose", "plot", "animate", "catalog-profile", "help"} {
		require.Contains(t, h, "pgbufsim "+cmd+" ", cmd)
	}
	for _, c := range scenario.Commands {
		require.Contains(t, h, "  "+c.Usage+"\n", c.Name)
	}
	require.Contains(t, h, "index NAME on=TABLE key=COL distinct=N [correlation=C]")
	out.Reset()
	require.Equal(t, 0, run(context.Background(), []string{"help", "settings"}, &out, &errb))
	s := out.String()
	for _, n := range guc.Names() {
		require.Contains(t, s, "\n  "+n+" = ", n)
	}
	for _, want := range []string{
		"  shared_buffers = 128MB [restart]\n      allowed: 128kB to 256GB (the simulator's limit; PostgreSQL's is 8TB) (a bare number is in 8kB pages; units B, kB, MB, GB, TB)\n",
		"  replacement = clock [restart, what-if]\n      allowed: clock | lru | 2q | arc | clock-pro\n",
		"  wal_writer_delay = 200ms\n      allowed: 1ms to 10s (a bare number is in ms; units us, ms, s, min, h, d)\n",
		"  effective_io_concurrency = 16 (1 in 15)\n      allowed: an integer from 0 to 1000\n",
		"  io_min_workers = 2 (in 19) [19+]\n",
	} {
		require.Contains(t, s, want)
	}
	require.Equal(t, strings.Count(s, "\n      allowed: "), len(guc.Names()))
}
