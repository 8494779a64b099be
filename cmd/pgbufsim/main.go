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
//	pgbufsim diagnose PLAN.json [--buffercache FILE.csv] [--settings FILE] [--format text|json] [--scenarios DIR] [--no-simulate]
//	pgbufsim catalog-profile --pgbin DIR [--append catalog/pgNN.go | --prunes]
//	pgbufsim host-scale --pgbin DIR [--runs N] | --print-scenario
//	pgbufsim help [settings | devices | commands]
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

	"github.com/pgbufsim/pgbufsim/guc"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/scenario"
	"github.com/pgbufsim/pgbufsim/storage"
	"github.com/pgbufsim/pgbufsim/verify"
	"github.com/pgbufsim/pgbufsim/verify/catprof"
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
		return help(stdout, stderr, args[1:])
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
	case "host-scale":
		return hostScaleCmd(ctx, args[1:], stdout, stderr)
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
		"       pgbufsim catalog-profile --pgbin DIR [--append catalog/pgNN.go | --prunes]\n"+
		"       pgbufsim host-scale --pgbin DIR [--runs N] | --print-scenario\n"+
		"       pgbufsim help [settings | devices | commands]\n"+
		"Before the command: --cpuprofile=DIR or --memprofile=DIR (writes DIR/cpu.pprof or DIR/mem.pprof)")
}

// helpTopics are the topics `pgbufsim help TOPIC` knows.
var helpTopics = []string{"settings", "devices", "commands"}

func help(w, stderr io.Writer, args []string) int {
	topic := ""
	if len(args) > 0 {
		topic = args[0]
	}
	if len(args) > 1 {
		fmt.Fprintf(stderr, "pgbufsim help: one topic at a time (%s), got %q\n", strings.Join(helpTopics, ", "), args)
		return 2
	}
	switch topic {
	case "settings":
		helpSettings(w)
	case "devices":
		fmt.Fprintln(w, "Device profiles (cluster device=NAME; the machine's OS page cache is os_cache=SIZE, its readahead read_ahead_kb=N):")
		for _, n := range storage.DeviceNames() {
			fmt.Fprintf(w, "  %-10s %s\n", n, storage.Devices[n].Doc)
		}
	case "commands":
		helpCommands(w)
	case "":
		usage(w)
		fmt.Fprintln(w)
		helpCommands(w)
		fmt.Fprintln(w, "\nMore: pgbufsim help settings (every setting: default, allowed values, what it does), pgbufsim help devices.")
	default:
		fmt.Fprintf(stderr, "pgbufsim help: no help topic %q (topics: %s)\n", topic, strings.Join(helpTopics, ", "))
		return 2
	}
	return 0
}

// helpCommands lists every scenario command with every form.
func helpCommands(w io.Writer) {
	fmt.Fprintln(w, "Scenario commands (one a line; # starts a comment):")
	for _, c := range scenario.Commands {
		fmt.Fprintf(w, "  %s\n      %s\n", c.Usage, c.Help)
	}
}

// helpSettings lists every setting with its default, its allowed values or
// range with the unit, and what it does.
func helpSettings(w io.Writer) {
	fmt.Fprintln(w, "Settings, given on the cluster line (cluster version=N NAME=VALUE ...) or with set NAME=VALUE.")
	fmt.Fprintln(w, "PostgreSQL's names and units; defaults are version 18's unless marked; [restart]: cluster line only;")
	fmt.Fprintln(w, "[not simulated]: accepted with a notice and ignored; [machine]/[what-if]: the simulator's, not PostgreSQL's.")
	for _, n := range guc.Names() {
		g := guc.Lookup(n)
		v := pg.DefaultVersion
		if !g.In(v) {
			v = g.FirstVersion()
		}
		def := g.Default(v)
		if v != pg.DefaultVersion {
			def += fmt.Sprintf(" (in %d)", v)
		} else if d15 := g.Default(pg.MinVersion); g.In(pg.MinVersion) && d15 != def {
			def += fmt.Sprintf(" (%s in %d)", d15, pg.MinVersion)
		}
		var tags []string
		if vs := g.Versions(); vs != "" {
			tags = append(tags, vs)
		}
		if g.Restart() {
			tags = append(tags, "restart")
		}
		if !g.Modelled() {
			tags = append(tags, "not simulated")
		}
		if g.IsMachine() {
			if g.IsWhatIf() {
				tags = append(tags, "what-if")
			} else {
				tags = append(tags, "machine")
			}
		}
		tag := ""
		if len(tags) > 0 {
			tag = " [" + strings.Join(tags, ", ") + "]"
		}
		fmt.Fprintf(w, "  %s = %s%s\n      allowed: %s\n      %s\n", n, def, tag, g.Allowed(), g.Doc())
	}
	fmt.Fprintln(w, "Other PostgreSQL settings (work_mem, ...) are refused: the simulator does not model them.")
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
	if p := fileArgProblem("scenario file (FILE.scn)", fs.Args()); p != "" {
		return usageError(stderr, "run", p, "pgbufsim run [--format=json] [-rewrite] [--seed=N] FILE.scn")
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
		o, err := env.ExecStep(st)
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
	if err := env.Finish(path); err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return 1
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
	const verifyUsage = "pgbufsim verify --pgbin DIR [--keep] [--format=json] [--seed=N] [--save-plans DIR] FILE.scn"
	if *pgbin == "" {
		return usageError(stderr, "verify", "--pgbin DIR is missing (PostgreSQL's bin directory: pg_config --bindir)", verifyUsage)
	}
	if p := fileArgProblem("scenario file (FILE.scn)", fs.Args()); p != "" {
		return usageError(stderr, "verify", p, verifyUsage)
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

// hostScaleCmd measures host_time_scale on a real server's host: the
// calibration step's execution time there over the simulator's.
func hostScaleCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("host-scale", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pgbin := fs.String("pgbin", "", "PostgreSQL's bin directory (pg_config --bindir)")
	runs := fs.Int("runs", 3, "how many times to run the step on the server (each on a fresh cluster; the median is taken)")
	printScn := fs.Bool("print-scenario", false, "print the calibration scenario instead of running it")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	const use = "pgbufsim host-scale --pgbin DIR [--runs N] | --print-scenario"
	if fs.NArg() != 0 {
		return usageError(stderr, "host-scale", fmt.Sprintf("takes no arguments, got %q", fs.Args()), use)
	}
	if *printScn {
		fmt.Fprint(stdout, verify.HostScaleScenario)
		return 0
	}
	if *runs < 1 || *runs > 99 {
		return usageError(stderr, "host-scale", fmt.Sprintf("--runs=%d: must be from 1 to 99", *runs), use)
	}
	if *pgbin == "" {
		return usageError(stderr, "host-scale", "--pgbin DIR is missing (PostgreSQL's bin directory: pg_config --bindir)", use)
	}
	var progress io.Writer
	if !*quiet {
		progress = stderr
	}
	hs, err := verify.MeasureHostScale(ctx, *pgbin, *runs, progress)
	if err != nil {
		fmt.Fprintf(stderr, "pgbufsim host-scale: %v\n", err)
		return 1
	}
	fmt.Fprint(stdout, hs.String())
	return 0
}

// catalogCmd measures which catalog pages sessions and statements pin on a
// real server and prints them as the simulator's Go table (catalog/pgNN.go).
func catalogCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("catalog-profile", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pgbin := fs.String("pgbin", "", "PostgreSQL's bin directory (pg_config --bindir)")
	appendTo := fs.String("append", "", "a profile file (catalog/pgNN.go, or with --prunes catalog/prunesNN.go): measure only the kinds it lacks and print it with them added")
	prunes := fs.Bool("prunes", false, "measure instead the catalog pages each kind of session prunes after verify's setup (catalog/prunesNN.go)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *pgbin == "" {
		return usageError(stderr, "catalog-profile", "--pgbin DIR is missing (PostgreSQL's bin directory: pg_config --bindir)", "pgbufsim catalog-profile --pgbin DIR")
	}
	if fs.NArg() != 0 {
		return usageError(stderr, "catalog-profile", fmt.Sprintf("takes no arguments, got %q", fs.Args()), "pgbufsim catalog-profile --pgbin DIR")
	}
	srv, err := verify.NewServer(*pgbin)
	if err != nil {
		fmt.Fprintf(stderr, "pgbufsim catalog-profile: %v\n", err)
		return 1
	}
	var old []byte
	if *appendTo != "" {
		if old, err = os.ReadFile(*appendTo); err != nil {
			fmt.Fprintf(stderr, "pgbufsim catalog-profile: --append: %v\n", err)
			return 1
		}
	}
	if *prunes {
		// The first hints' pages are indexed into the profile beside the file (catalog/pgNN.go).
		profPath := filepath.Join("catalog", fmt.Sprintf("pg%d.go", srv.Major))
		if *appendTo != "" {
			profPath = filepath.Join(filepath.Dir(*appendTo), fmt.Sprintf("pg%d.go", srv.Major))
		}
		src, err := os.ReadFile(profPath)
		var pages []string
		if err == nil {
			pages, err = catprof.ProfilePages(src)
		}
		if err != nil {
			fmt.Fprintf(stderr, "pgbufsim catalog-profile: --prunes indexes pgbench's first hints into the profile %s: %v\n", profPath, err)
			return 1
		}
		// With --append catalog/prunesNN.go: only the kinds it lacks, printed with its own.
		had, hadHints := catprof.ReadPrunesGo(old), catprof.ReadHintsGo(old)
		p, hints, err := catprof.MeasurePrunes(ctx, *pgbin, had)
		if err != nil {
			fmt.Fprintf(stderr, "pgbufsim catalog-profile: %v\n", err)
			return 1
		}
		for k, r := range had {
			p[k] = r
		}
		for k, h := range hadHints {
			hints[k] = h
		}
		catprof.WritePrunesGo(stdout, srv.Version, srv.Major, p)
		catprof.WriteHintsGo(stdout, srv.Major, hints, p, pages)
		return 0
	}
	prof, err := catprof.MeasureCatalog(ctx, *pgbin, catprof.OldKinds(old))
	if err != nil {
		fmt.Fprintf(stderr, "pgbufsim catalog-profile: %v\n", err)
		return 1
	}
	if old == nil {
		prof.WriteGo(stdout, srv.Major)
		return 0
	}
	merged, err := prof.AppendGo(old)
	if err != nil {
		fmt.Fprintf(stderr, "pgbufsim catalog-profile: --append %s: %v\n", *appendTo, err)
		return 1
	}
	stdout.Write(merged)
	return 0
}
