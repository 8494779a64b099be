package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/cluster"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/scenario"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Sweeps
//
//	pgbufsim sweep [--vary GUC=v1,v2,...]... [--csv FILE] [--step LINE] [--jobs N] [--seed N] [--plot OUT --y SPEC...] FILE.scn
//
// runs the scenario once for every point of the cross product of the
// --vary lists (the first --vary varies slowest), each point's values added
// to every cluster command of the file. Points are independent clusters, so
// they run in parallel, one per core; the output is in point order whatever
// the order they finish in, and each point is as deterministic as `run`.

// varyAliases are the short names the sweep accepts for long GUC names.
var varyAliases = map[string]string{"eic": "effective_io_concurrency", "icl": "io_combine_limit"}

type vary struct {
	name   string
	values []string
}

type varyFlags []vary

func (v *varyFlags) String() string { return "" }

func (v *varyFlags) Set(s string) error {
	name, vals, ok := strings.Cut(s, "=")
	if !ok || name == "" || vals == "" {
		return fmt.Errorf("--vary %s: expected GUC=value1,value2,...", s)
	}
	if long, ok := varyAliases[name]; ok {
		name = long
	}
	for _, x := range *v {
		if x.name == name {
			return fmt.Errorf("--vary %s: %s is already varied", s, name)
		}
	}
	*v = append(*v, vary{name, strings.Split(vals, ",")})
	return nil
}

// sweepPoint is one point's settings and results.
type sweepPoint struct {
	values []string
	fields []map[string]string // per step: flattened JSON result
	end    map[string]string   // compare: the figures of the cluster at the end
	err    error
}

func sweepCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var varies varyFlags
	fs.Var(&varies, "vary", "GUC=v1,v2,... (repeatable; eic and icl are short for effective_io_concurrency and io_combine_limit)")
	csvPath := fs.String("csv", "", "write every figure of every step of every point here (default FILE.sweep.csv; - for none)")
	stepLine := fs.Int("step", 0, "line of the command whose figures the table shows (default: the last command with figures)")
	jobs := fs.Int("jobs", runtime.NumCPU(), "points run at once")
	seed := fs.Uint64("seed", 1, "PRNG seed (the same for every point)")
	plotOut := fs.String("plot", "", "draw the --y figures of the table's step against the one varied setting to this .svg or .png")
	var ys ySpecs
	fs.Var(&ys, "y", "with --plot: [LABEL=]FIELD, or [LABEL=]HIT:READ for the ratio HIT/(HIT+READ) (repeatable)")
	var sf shardFlags
	sf.register(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *plotOut != "" {
		if ext := filepath.Ext(*plotOut); ext != ".svg" && ext != ".png" {
			fmt.Fprintf(stderr, "pgbufsim sweep: --plot %s: the file must end in .svg or .png\n", *plotOut)
			return 2
		}
	}
	if !sf.merge && sf.shard.n > 0 && (flagSet(fs, "csv") || flagSet(fs, "step")) {
		fmt.Fprintln(stderr, "pgbufsim sweep: --csv and --step are the merge's (--merge) or an unsharded run's: a shard writes only its shard file")
		return 2
	}
	job := pointsJob{cmd: "sweep", noun: "point", mergeUsage: "pgbufsim sweep --merge [--csv FILE] [--step LINE] SHARD.json...",
		runUsage: "pgbufsim sweep --vary GUC=v1,v2,... [--vary ...] [--csv FILE] [--step LINE] [--jobs N] [--seed N] [--shard K/N [--out FILE]] FILE.scn"}
	path, f, varies, points, status, done := job.collect(fs, varies, &sf, *jobs, *seed, stderr)
	if done {
		return status
	}
	step, err := tableStep(f, points, *stepLine)
	if err != nil {
		fmt.Fprintf(stderr, "pgbufsim sweep: %v\n", err)
		return 2
	}
	writeSweepTable(stdout, f, varies, points, step)
	if *plotOut != "" {
		if err := writeSweepPlot(*plotOut, ys, f, varies, points, step); err != nil {
			fmt.Fprintf(stderr, "pgbufsim sweep: %v\n", err)
			return 2
		}
		fmt.Fprintf(stderr, "pgbufsim sweep: plot written to %s\n", *plotOut)
	} else if len(ys) > 0 {
		fmt.Fprintln(stderr, "pgbufsim sweep: --y goes with --plot OUT.svg|OUT.png")
		return 2
	}
	if *csvPath != "-" {
		out := *csvPath
		if out == "" {
			out = strings.TrimSuffix(path, filepath.Ext(path)) + ".sweep.csv"
		}
		if err := writeSweepCSV(out, f, varies, points); err != nil {
			fmt.Fprintf(stderr, "pgbufsim sweep: %v\n", err)
			return 1
		}
		fmt.Fprintf(stderr, "pgbufsim sweep: %d points × %d steps written to %s\n", len(points), len(f.Steps), out)
	}
	return status
}

// runPoints runs every point, jobs at a time, with a progress bar on a
// terminal; final (if set) reads each point's cluster after its last step.
func runPoints(points []*sweepPoint, f *scenario.File, varies []vary, seed uint64, dir string, jobs int, stderr io.Writer, final func(*scenario.Env) map[string]string) {
	bar := newProgress(stderr, len(points))
	var wg sync.WaitGroup
	next := make(chan int)
	var mu sync.Mutex
	for w := 0; w < min(jobs, len(points)); w++ {
		wg.Add(1)
		go sweepWorker(&wg, next, points, f, varies, seed, dir, final, func() {
			mu.Lock()
			defer mu.Unlock()
			if bar != nil {
				_ = bar.Add(1)
			}
		})
	}
	for i := range points {
		next <- i
	}
	close(next)
	wg.Wait()
	if bar != nil {
		_ = bar.Finish()
		fmt.Fprintln(stderr)
	}
}

// sweepWorker runs the points whose indexes arrive on next. Each point is
// its own cluster (scenario.Env): nothing is shared between goroutines but the
// parsed, read-only scenario.
func sweepWorker(wg *sync.WaitGroup, next <-chan int, points []*sweepPoint, f *scenario.File, varies []vary, seed uint64, dir string, final func(*scenario.Env) map[string]string, done func()) {
	defer wg.Done()
	for i := range next {
		runPoint(points[i], f, varies, seed, dir, final)
		done()
	}
}

func runPoint(p *sweepPoint, f *scenario.File, varies []vary, seed uint64, dir string, final func(*scenario.Env) map[string]string) {
	env := &scenario.Env{Seed: seed, Dir: dir}
	p.fields = make([]map[string]string, len(f.Steps))
	for i, st := range f.Steps {
		if st.Cmd == "cluster" {
			st.Args = withSettings(st.Args, varies, p.values)
		}
		o, err := env.ExecStep(st)
		if err != nil {
			p.err = fmt.Errorf("%s:%d: %w", f.Name, st.Line, err)
			return
		}
		p.fields[i] = flatten(o.JSON)
	}
	if err := env.Finish(f.Name); err != nil {
		p.err = err
		return
	}
	if final != nil {
		p.end = final(env)
	}
}

// withSettings returns a cluster command's arguments with the point's values
// replacing (or added after) the file's.
func withSettings(args []datadriven.CmdArg, varies []vary, values []string) []datadriven.CmdArg {
	out := make([]datadriven.CmdArg, 0, len(args)+len(varies))
	for _, a := range args {
		overridden := false
		for _, v := range varies {
			overridden = overridden || a.Key == v.name
		}
		if !overridden {
			out = append(out, a)
		}
	}
	for i, v := range varies {
		out = append(out, datadriven.CmdArg{Key: v.name, Vals: []string{values[i]}})
	}
	return out
}

// checkVaries refuses, before anything runs, a GUC the file's cluster
// versions do not have and a value outside its range.
func checkVaries(f *scenario.File, varies []vary) error {
	versions := map[pg.Version]bool{}
	for _, st := range f.Steps {
		if st.Cmd != "cluster" {
			continue
		}
		v := pg.DefaultVersion
		for _, a := range st.Args {
			if a.Key == "version" && len(a.Vals) == 1 {
				if n, err := strconv.Atoi(a.Vals[0]); err == nil {
					v = pg.Version(n)
				}
			}
		}
		versions[v] = true
	}
	if len(versions) == 0 {
		return fmt.Errorf("%s: no cluster command: nothing to apply --vary to", f.Name)
	}
	var sorted []pg.Version
	for v := range versions {
		sorted = append(sorted, v)
	}
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	var errs []string
	for _, vr := range varies {
		for _, val := range vr.values {
			if vr.name == "version" {
				if n, err := strconv.Atoi(val); err != nil || n < int(pg.MinVersion) || n > int(pg.MaxVersion) {
					errs = append(errs, fmt.Sprintf("--vary version=%s: supported versions are %d to %d", val, pg.MinVersion, pg.MaxVersion))
				}
				continue
			}
			for _, v := range sorted {
				s, err := cluster.DefaultSettings(v)
				if err != nil {
					return fmt.Errorf("%s: %w", f.Name, err)
				}
				if _, err := s.Set(vr.name, val); err != nil {
					errs = append(errs, "--vary "+err.Error())
				}
			}
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(dedup(errs), "\n"))
	}
	return nil
}

func dedup(xs []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// crossProduct lists the points, the first --vary varying slowest.
func crossProduct(varies []vary) []*sweepPoint {
	points := []*sweepPoint{{}}
	for _, v := range varies {
		var next []*sweepPoint
		for _, p := range points {
			for _, val := range v.values {
				next = append(next, &sweepPoint{values: append(append([]string(nil), p.values...), val)})
			}
		}
		points = next
	}
	return points
}

func pointName(varies []vary, p *sweepPoint) string {
	var parts []string
	for i, v := range varies {
		parts = append(parts, v.name+"="+p.values[i])
	}
	return strings.Join(parts, " ")
}

// flatten turns a step's JSON result into "path" → value text: objects by
// key, arrays of objects by their "name" (else index), other arrays by index.
//
// This is the one place outside the scenario layer that reads the JSON
// rather than scenario.Output.Result, on purpose: the CSV's contract is
// "every figure of every command" under the field names of `run
// --format=json`, whatever the command, so it walks the JSON generically and
// branches on no command's fields (the "name" keying is part of that
// contract: show buffercache's relations become relations.big.buffers).
// Code that wants a particular figure reads the typed result instead, as
// compare's endFigures does.
func flatten(v any) map[string]string {
	out := map[string]string{}
	raw, err := json.Marshal(v)
	if err != nil {
		return out
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	if dec.Decode(&doc) != nil {
		return out
	}
	var walk func(prefix string, x any)
	walk = func(prefix string, x any) {
		join := func(k string) string {
			if prefix == "" {
				return k
			}
			return prefix + "." + k
		}
		switch t := x.(type) {
		case map[string]any:
			for k, e := range t {
				walk(join(k), e)
			}
		case []any:
			for i, e := range t {
				key := strconv.Itoa(i)
				if m, ok := e.(map[string]any); ok {
					if n, ok := m["name"].(string); ok {
						key = n
					}
				}
				walk(join(key), e)
			}
		case json.Number:
			out[prefix] = t.String()
		case string:
			if !strings.HasSuffix(prefix, ".name") {
				out[prefix] = t
			}
		case bool:
			out[prefix] = strconv.FormatBool(t)
		}
	}
	walk("", doc)
	return out
}

// tableStep picks the step the table shows: the one at line, or the last
// step with figures.
func tableStep(f *scenario.File, points []*sweepPoint, line int) (int, error) {
	if line != 0 {
		for i, st := range f.Steps {
			if st.Line == line {
				return i, nil
			}
		}
		return 0, fmt.Errorf("--step %d: no command on line %d of %s", line, line, f.Name)
	}
	for i := len(f.Steps) - 1; i >= 0; i-- {
		for _, p := range points {
			if p.err == nil && len(p.fields[i]) > 0 {
				return i, nil
			}
		}
	}
	return len(f.Steps) - 1, nil
}

// writeSweepTable prints one row per point: the varied settings, then the
// chosen step's figures that differ between points (all of them for one point).
func writeSweepTable(w io.Writer, f *scenario.File, varies []vary, points []*sweepPoint, step int) {
	keySet := map[string]bool{}
	for _, p := range points {
		if p.err == nil {
			for k := range p.fields[step] {
				keySet[k] = true
			}
		}
	}
	var keys []string
	for k := range keySet {
		first, seen, differs := "", false, false
		for _, p := range points {
			if p.err != nil {
				continue
			}
			v, ok := p.fields[step][k]
			if !ok {
				v = "-"
			}
			if !seen {
				first, seen = v, true
			} else if v != first {
				differs = true
			}
		}
		if differs || len(points) == 1 {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	header := []string{}
	for _, v := range varies {
		header = append(header, v.name)
	}
	header = append(header, keys...)
	rows := [][]string{header}
	for _, p := range points {
		row := append([]string(nil), p.values...)
		for _, k := range keys {
			val := "-"
			if p.err == nil {
				if x, ok := p.fields[step][k]; ok {
					val = x
				}
			} else if k == keys[0] {
				val = "error"
			}
			row = append(row, val)
		}
		rows = append(rows, row)
	}
	fmt.Fprintf(w, "%s:%d: %s\n", f.Name, f.Steps[step].Line, f.Steps[step].Text)
	writeColumns(w, rows, len(varies))
	if len(keys) == 0 && len(points) > 1 {
		fmt.Fprintln(w, "(every figure of this command is the same at every point)")
	}
}

// writeSweepCSV writes every figure in long form: the varied settings,
// line, command, field, value; points, then steps, then fields sorted.
func writeSweepCSV(path string, f *scenario.File, varies []vary, points []*sweepPoint) error {
	var buf bytes.Buffer
	cw := csv.NewWriter(&buf)
	header := []string{}
	for _, v := range varies {
		header = append(header, v.name)
	}
	_ = cw.Write(append(header, "line", "command", "field", "value"))
	for _, p := range points {
		if p.err != nil {
			_ = cw.Write(append(append([]string(nil), p.values...), "", "", "error", p.err.Error()))
			continue
		}
		for i, st := range f.Steps {
			keys := make([]string, 0, len(p.fields[i]))
			for k := range p.fields[i] {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				_ = cw.Write(append(append([]string(nil), p.values...), strconv.Itoa(st.Line), st.Text, k, p.fields[i][k]))
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// newProgress is a progress bar on a terminal, nil (silence) otherwise.
func newProgress(w io.Writer, n int) *progressbar.ProgressBar {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) || n < 2 {
		return nil
	}
	return progressbar.NewOptions(n, progressbar.OptionSetWriter(f), progressbar.OptionSetDescription("sweep"),
		progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish())
}

// readVaried reads and parses the scenario a sweep or compare varies, and
// checks every --vary against it; on failure it returns nil and the exit
// status (1: the file, 2: a --vary).
func readVaried(cmd, path string, varies varyFlags, stderr io.Writer) (*scenario.File, string, int) {
	src, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "pgbufsim %s: %v\n", cmd, err)
		return nil, "", 1
	}
	f, err := scenario.Parse(path, string(src))
	if err != nil {
		fmt.Fprintf(stderr, "pgbufsim %s: %v\n", cmd, err)
		return nil, "", 1
	}
	if err := checkVaries(f, varies); err != nil {
		fmt.Fprintf(stderr, "pgbufsim %s: %v\n", cmd, err)
		return nil, "", 2
	}
	return f, string(src), 0
}

// pointErrors reports each point that failed; the status is 1 if any did.
func pointErrors(cmd, what string, varies varyFlags, points []*sweepPoint, stderr io.Writer) int {
	status := 0
	for i, p := range points {
		if p.err != nil {
			fmt.Fprintf(stderr, "pgbufsim %s: %s %d (%s): %v\n", cmd, what, i+1, pointName(varies, p), p.err)
			status = 1
		}
	}
	return status
}

// writeColumns prints rows as aligned columns two spaces apart: the first
// left columns (the varied settings) left-aligned, the figures right-aligned.
func writeColumns(w io.Writer, rows [][]string, left int) {
	var width []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], len(c))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r {
			if i > 0 {
				b.WriteString("  ")
			}
			if i < left {
				fmt.Fprintf(&b, "%-*s", width[i], c)
			} else {
				fmt.Fprintf(&b, "%*s", width[i], c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// pointsProblem says what is wrong with sweep's or compare's command line
// ("" when nothing is).
func pointsProblem(args []string, varies varyFlags, jobs int) string {
	switch {
	case len(varies) == 0:
		return "--vary NAME=v1,v2,... is missing (the setting to vary and its values)"
	case jobs < 1:
		return fmt.Sprintf("--jobs %d: must be at least 1 (points run at once)", jobs)
	}
	return fileArgProblem("scenario file (FILE.scn)", args)
}
