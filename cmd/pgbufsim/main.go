// Command pgbufsim runs pgbufsim scenarios: a deterministic simulation of
// PostgreSQL's shared buffer manager.
//
//	pgbufsim run [--format=json] [-rewrite] [--seed=N] FILE.scn
//	pgbufsim verify --pgbin DIR [--keep] [--format=json] FILE.scn
//	pgbufsim replay [--format=json] TRACE format=oraclegeneral|csv [relation=NAME] [version=N] [GUC=value ...]
//	pgbufsim gentrace kind=zipf|uniform|loop|scan-mix requests=N blocks=N [alpha=S] [seed=N] FILE
//	pgbufsim sweep --vary GUC=v1,v2,... [--vary ...] [--csv FILE] [--jobs N] FILE.scn
//	pgbufsim compare FILE.scn --vary NAME=v1,v2,... [--vary ...] [--jobs N] [--seed N]
//	pgbufsim sweep|compare --shard K/N [--out SHARD.json] ... FILE.scn; pgbufsim sweep|compare --merge SHARD.json...
//	pgbufsim plot FILE.scn -o out.svg|out.png
//	pgbufsim animate FILE.scn -o out.html
//	pgbufsim help [settings | devices]
//
// Before the command, --cpuprofile=DIR or --memprofile=DIR writes a CPU or
// heap profile of the run to DIR/cpu.pprof or DIR/mem.pprof (one at a time).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/pgbufsim/pgbufsim/cluster"
	"github.com/pgbufsim/pgbufsim/scenario"
	"github.com/pgbufsim/pgbufsim/storage"
	"github.com/pgbufsim/pgbufsim/verify"
)

func main() {
	// An interrupt cancels the context; verify then stops its server and removes its directory.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	if args[0] != "-h" && args[0] != "--help" && strings.HasPrefix(args[0], "-") {
		rest, stop, code := startProfile(args, stderr)
		if stop == nil {
			return code
		}
		defer stop()
		if len(rest) == 0 {
			usage(stderr)
			return 2
		}
		args = rest
	}
	switch args[0] {
	case "help", "-h", "--help":
		help(stdout, args[1:])
		return 0
	case "run":
		return runCmd(args[1:], stdout, stderr)
	case "verify":
		return verifyCmd(ctx, args[1:], stdout, stderr)
	case "plot":
		return plotCmd(args[1:], stdout, stderr)
	case "animate":
		return animateCmd(args[1:], stdout, stderr)
	case "catalog-profile":
		return catalogCmd(ctx, args[1:], stdout, stderr)
	case "replay":
		return replayCmd(args[1:], stdout, stderr)
	case "gentrace":
		return gentraceCmd(args[1:], stdout, stderr)
	case "sweep":
		return sweepCmd(args[1:], stdout, stderr)
	case "compare":
		return compareCmd(args[1:], stdout, stderr)
	case "diagnose":
		return diagnoseCmd(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "pgbufsim: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: pgbufsim run [--format=json] [-rewrite] [--seed=N] FILE.scn\n"+
		"       pgbufsim verify --pgbin DIR [--keep] [--format=json] [--seed=N] [--save-plans DIR] FILE.scn\n"+
		"       pgbufsim replay [--format=json] TRACE format=oraclegeneral|csv [relation=NAME] [version=N] [GUC=value ...]\n"+
		"       pgbufsim gentrace kind=zipf|uniform|loop|scan-mix requests=N blocks=N [alpha=S] [scan_fraction=F] [scan_blocks=N] [seed=N] FILE\n"+
		"       pgbufsim sweep --vary GUC=v1,v2,... [--vary ...] [--csv FILE] [--step LINE] [--jobs N] [--seed N] FILE.scn\n"+
		"       pgbufsim compare FILE.scn --vary NAME=v1,v2,... [--vary ...] [--jobs N] [--seed N]\n"+
		"       pgbufsim sweep|compare ... --shard K/N [--out SHARD.json] FILE.scn   (one shard of the points: index mod N = K)\n"+
		"       pgbufsim sweep|compare --merge [--csv FILE] [--step LINE] SHARD.json...   (the shards' output as one run's)\n"+
		"       pgbufsim diagnose PLAN.json [--buffercache FILE.csv] [--settings FILE] [--format text|json] [--scenarios DIR] [--no-simulate]\n"+
		"       pgbufsim plot FILE.scn -o out.svg|out.png [--seed=N]\n"+
		"       pgbufsim animate FILE.scn -o out.html [--seed=N]\n"+
		"       pgbufsim help [settings | devices]\n"+
		"Before the command: --cpuprofile=DIR or --memprofile=DIR (writes DIR/cpu.pprof or DIR/mem.pprof)")
}

func help(w io.Writer, args []string) {
	if len(args) > 0 && args[0] == "settings" {
		s, _ := cluster.DefaultSettings(18)
		fmt.Fprintln(w, "Settings (PostgreSQL names; defaults shown for version 18):")
		for _, n := range s.Names() {
			fmt.Fprintf(w, "  %-34s %s\n", n, s.Format(n))
		}
		return
	}
	if len(args) > 0 && args[0] == "devices" {
		fmt.Fprintln(w, "Device profiles (cluster device=NAME; the machine's OS page cache is os_cache=SIZE, its readahead read_ahead_kb=N):")
		for _, n := range storage.DeviceNames() {
			fmt.Fprintf(w, "  %-10s %s\n", n, storage.Devices[n].Doc)
		}
		return
	}
	usage(w)
	fmt.Fprintln(w, "\nScenario commands:")
	for _, c := range scenario.Commands {
		fmt.Fprintf(w, "  %s\n      %s\n", c.Usage, c.Help)
	}
}

func runCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output format: text or json")
	rewrite := fs.Bool("rewrite", false, "rewrite the file's ---- blocks with the output")
	seed := fs.Uint64("seed", 1, "PRNG seed")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		usage(stderr)
		return 2
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "pgbufsim: --format=%s: must be text or json\n", *format)
		return 2
	}
	path := fs.Arg(0)
	src, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "pgbufsim: %v\n", err)
		return 1
	}
	f, err := scenario.Parse(path, string(src))
	if err != nil {
		fmt.Fprintf(stderr, "pgbufsim: %v\n", err)
		return 1
	}
	env := &scenario.Env{Seed: *seed, Dir: filepath.Dir(path)}
	var outs []string
	var steps []map[string]any
	status := 0
	for _, st := range f.Steps {
		o, err := env.Exec(st.Cmd, st.Args)
		text := o.Text
		if err != nil {
			text = "error: " + err.Error()
			if st.Expected == nil && !*rewrite {
				fmt.Fprintf(stderr, "%s:%d: %v\n", path, st.Line, err)
				return 1
			}
		}
		outs = append(outs, text)
		if *format == "json" {
			steps = append(steps, map[string]any{"line": st.Line, "command": st.Text, "result": o.JSON})
		} else if !*rewrite {
			fmt.Fprintf(stdout, "> %s\n%s\n\n", st.Text, text)
		}
		if st.Expected != nil && !*rewrite && strings.TrimRight(*st.Expected, "\n") != strings.TrimRight(text, "\n") {
			fmt.Fprintf(stderr, "%s:%d: output differs from the file's block\n--- expected\n%s\n+++ got\n%s\n", path, st.Line, *st.Expected, text)
			status = 1
		}
	}
	if *rewrite {
		if err := os.WriteFile(path, []byte(f.Rewrite(outs)), 0o644); err != nil {
			fmt.Fprintf(stderr, "pgbufsim: %v\n", err)
			return 1
		}
		return 0
	}
	if *format == "json" {
		settings := map[string]any{}
		if env.C != nil {
			for _, n := range env.C.S.Names() {
				settings[n] = env.C.S.Format(n)
			}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(map[string]any{"settings": settings, "steps": steps}); err != nil {
			fmt.Fprintf(stderr, "pgbufsim: %v\n", err)
			return 1
		}
	}
	return status
}

// verifyCmd runs a scenario on a real server and on the simulator: exit 0
// when every judged figure is within tolerance, 1 otherwise or on error.
func verifyCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pgbin := fs.String("pgbin", "", "PostgreSQL's bin directory (pg_config --bindir)")
	keep := fs.Bool("keep", false, "keep the stopped cluster's data directory")
	format := fs.String("format", "text", "output format: text or json")
	seed := fs.Uint64("seed", 1, "PRNG seed")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	planDir := fs.String("save-plans", "", "keep each EXPLAIN (JSON), pg_buffercache after it (CSV) and pg_settings (CSV) in this directory, for pgbufsim diagnose")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 || *pgbin == "" {
		usage(stderr)
		return 2
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "pgbufsim: --format=%s: must be text or json\n", *format)
		return 2
	}
	path := fs.Arg(0)
	src, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "pgbufsim: %v\n", err)
		return 1
	}
	o := verify.Options{PGBin: *pgbin, Keep: *keep, Seed: *seed, PlanDir: *planDir}
	if !*quiet {
		o.Progress = stderr
	}
	rep, err := verify.Run(ctx, path, string(src), o)
	if err != nil {
		fmt.Fprintf(stderr, "pgbufsim verify: %v\n", err)
		return 1
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(map[string]any{"report": rep, "ok": rep.OK()}); err != nil {
			fmt.Fprintf(stderr, "pgbufsim: %v\n", err)
			return 1
		}
	} else {
		fmt.Fprint(stdout, rep.Text())
	}
	if !rep.OK() {
		return 1
	}
	return 0
}

// catalogCmd measures which catalog pages sessions and statements pin on a
// real server and prints them as the simulator's Go table (catalog/pgNN.go).
func catalogCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("catalog-profile", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pgbin := fs.String("pgbin", "", "PostgreSQL's bin directory (pg_config --bindir)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *pgbin == "" || fs.NArg() != 0 {
		fmt.Fprintln(stderr, "usage: pgbufsim catalog-profile --pgbin DIR")
		return 2
	}
	srv, err := verify.NewServer(*pgbin)
	if err != nil {
		fmt.Fprintf(stderr, "pgbufsim catalog-profile: %v\n", err)
		return 1
	}
	prof, err := verify.MeasureCatalog(ctx, *pgbin)
	if err != nil {
		fmt.Fprintf(stderr, "pgbufsim catalog-profile: %v\n", err)
		return 1
	}
	prof.WriteGo(stdout, srv.Major)
	return 0
}
