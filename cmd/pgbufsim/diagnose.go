package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/pgbufsim/pgbufsim/diagnose"
)

// diagnoseCmd: pgbufsim diagnose PLAN.json [--buffercache FILE.csv]
// [--settings FILE] [--format text|json] [--scenarios DIR] [--no-simulate]
func diagnoseCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("diagnose", flag.ContinueOnError)
	fs.SetOutput(stderr)
	bcFile := fs.String("buffercache", "", "a pg_buffercache export: \\copy (SELECT * FROM pg_buffercache) TO 'f.csv' CSV HEADER")
	setFile := fs.String("settings", "", "the server's settings: SHOW ALL output, a pg_settings CSV, or postgresql.conf lines")
	format := fs.String("format", "text", "output format: text or json")
	dir := fs.String("scenarios", "", "directory to write the rebuilt scenarios to (default: none written)")
	noSim := fs.Bool("no-simulate", false, "findings and evidence only: do not rebuild and simulate the fixes")
	seed := fs.Uint64("seed", 1, "PRNG seed of the simulations")
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		args = append(append([]string(nil), args[1:]...), args[0])
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	const diagnoseUsage = "pgbufsim diagnose PLAN.json [--buffercache FILE.csv] [--settings FILE] [--format text|json] [--scenarios DIR] [--no-simulate]"
	if p := fileArgProblem("plan file (EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) output, PLAN.json)", fs.Args()); p != "" {
		return usageError(stderr, "diagnose", p, diagnoseUsage)
	}
	if *format != "text" && *format != "json" {
		return usageError(stderr, "diagnose", fmt.Sprintf("--format %s: must be text or json", *format), diagnoseUsage)
	}
	planFile := fs.Arg(0)
	in := &diagnose.Input{PlanFile: planFile, Seed: *seed, NoSimulate: *noSim}
	data, err := os.ReadFile(planFile)
	if err == nil {
		in.Plan, err = diagnose.ParsePlan(planFile, data)
	}
	if err == nil && *setFile != "" {
		var b []byte
		if b, err = os.ReadFile(*setFile); err == nil {
			in.Settings, err = diagnose.ParseSettings(*setFile, b)
		}
	}
	if err == nil && *bcFile != "" {
		var b []byte
		if b, err = os.ReadFile(*bcFile); err == nil {
			in.Buffercache, err = diagnose.ParseBuffercache(*bcFile, b)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "pgbufsim diagnose: %v\n", err)
		return 1
	}
	if !*noSim {
		// Nothing is written unless asked: a plan kept in a repository
		// (testdata) must not grow a folder beside it.
		in.Dir = *dir
	}
	rep, err := diagnose.Diagnose(in)
	if err != nil {
		fmt.Fprintf(stderr, "pgbufsim diagnose: %v\n", err)
		return 1
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintf(stderr, "pgbufsim diagnose: %v\n", err)
			return 1
		}
		return 0
	}
	rep.WriteText(stdout)
	if !*noSim && *dir == "" && len(rep.Findings) > 0 {
		fmt.Fprintln(stdout, "\n(The rebuilt scenarios were simulated but not written: give --scenarios DIR to keep them.)")
	}
	return 0
}
