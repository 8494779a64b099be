package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
	dir := fs.String("scenarios", "", "directory for the rebuilt scenarios (default: PLAN.diagnose next to the plan)")
	noSim := fs.Bool("no-simulate", false, "findings and evidence only: do not rebuild and simulate the fixes")
	seed := fs.Uint64("seed", 1, "PRNG seed of the simulations")
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		args = append(append([]string(nil), args[1:]...), args[0])
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 || (*format != "text" && *format != "json") {
		fmt.Fprintln(stderr, "usage: pgbufsim diagnose PLAN.json [--buffercache FILE.csv] [--settings FILE] [--format text|json] [--scenarios DIR] [--no-simulate]")
		return 2
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
		in.Dir = *dir
		if in.Dir == "" {
			in.Dir = strings.TrimSuffix(planFile, filepath.Ext(planFile)) + ".diagnose"
		}
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
	return 0
}
