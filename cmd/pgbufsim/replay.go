package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/pgbufsim/pgbufsim/bench"
	"github.com/pgbufsim/pgbufsim/scenario"
)

// replayCmd is the scenario pair "cluster [GUC=value …]" + "replay FILE
// format=… [relation=…]" from the command line:
//
//	pgbufsim replay [--format=json] FILE format=oraclegeneral [relation=NAME] [version=N] [GUC=value ...]
func replayCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output format: text or json")
	seed := fs.Uint64("seed", 1, "PRNG seed")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	const replayUsage = "pgbufsim replay [--format=json] TRACE format=oraclegeneral|csv [relation=NAME] [version=N] [GUC=value ...]"
	if fs.NArg() < 1 {
		return usageError(stderr, "replay", "the trace file (TRACE) is missing", replayUsage)
	}
	if *format != "text" && *format != "json" {
		return usageError(stderr, "replay", fmt.Sprintf("--format=%s: must be text or json", *format), replayUsage)
	}
	file := fs.Arg(0)
	cluster, replay := []string{"cluster"}, []string{"replay", file}
	for _, w := range fs.Args()[1:] {
		k, _, ok := strings.Cut(w, "=")
		if !ok {
			fmt.Fprintf(stderr, "pgbufsim replay: %q: expected key=value (format=, relation=, or a setting)\n", w)
			return 2
		}
		if k == "format" || k == "relation" {
			replay = append(replay, w)
		} else {
			cluster = append(cluster, w)
		}
	}
	src := strings.Join(cluster, " ") + "\n" + strings.Join(replay, " ") + "\n"
	f, err := scenario.Parse("command line", src)
	if err != nil {
		fmt.Fprintf(stderr, "pgbufsim replay: %v\n", err)
		return 2
	}
	env := &scenario.Env{Seed: *seed}
	var out scenario.Output
	for _, st := range f.Steps {
		if out, err = env.Exec(st.Cmd, st.Args); err != nil {
			fmt.Fprintf(stderr, "pgbufsim replay: %v\n", err)
			return 1
		}
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out.JSON); err != nil {
			fmt.Fprintf(stderr, "pgbufsim: %v\n", err)
			return 1
		}
		return 0
	}
	fmt.Fprintln(stdout, out.Text)
	return 0
}

// gentraceCmd writes a synthetic oracleGeneral trace (package bench):
//
//	pgbufsim gentrace kind=zipf|uniform|loop|scan-mix requests=N blocks=N [alpha=S] [scan_fraction=F] [scan_blocks=N] [seed=N] FILE
func gentraceCmd(args []string, stdout, stderr io.Writer) int {
	var w bench.Workload
	w.Seed = 1
	out := ""
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok {
			if out != "" {
				fmt.Fprintf(stderr, "pgbufsim gentrace: %q: one output file only\n", a)
				return 2
			}
			out = a
			continue
		}
		var err error
		switch k {
		case "kind":
			w.Kind = v
		case "requests":
			w.Requests, err = strconv.Atoi(v)
		case "blocks":
			w.Blocks, err = strconv.ParseUint(v, 10, 64)
		case "alpha":
			w.Alpha, err = strconv.ParseFloat(v, 64)
		case "scan_fraction":
			w.ScanFraction, err = strconv.ParseFloat(v, 64)
		case "scan_blocks":
			w.ScanBlocks, err = strconv.ParseUint(v, 10, 64)
		case "seed":
			w.Seed, err = strconv.ParseUint(v, 10, 64)
		default:
			fmt.Fprintf(stderr, "pgbufsim gentrace: %s: unknown parameter (kind, requests, blocks, alpha, scan_fraction, scan_blocks, seed)\n", k)
			return 2
		}
		if err != nil {
			fmt.Fprintf(stderr, "pgbufsim gentrace: %s=%s: not a number\n", k, v)
			return 2
		}
	}
	if out == "" {
		fmt.Fprintln(stderr, "pgbufsim gentrace: give the output file")
		return 2
	}
	if err := w.Validate(); err != nil {
		fmt.Fprintf(stderr, "pgbufsim gentrace: %v\n", err)
		return 2
	}
	f, err := os.Create(out)
	if err != nil {
		fmt.Fprintf(stderr, "pgbufsim gentrace: %v\n", err)
		return 1
	}
	if err := w.WriteOracle(f); err != nil {
		f.Close()
		fmt.Fprintf(stderr, "pgbufsim gentrace: %s: %v\n", out, err)
		return 1
	}
	if err := f.Close(); err != nil {
		fmt.Fprintf(stderr, "pgbufsim gentrace: %s: %v\n", out, err)
		return 1
	}
	return 0
}
