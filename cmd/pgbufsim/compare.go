package main

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/cluster"
	"github.com/pgbufsim/pgbufsim/scenario"
)

// What-if comparisons
//
//	pgbufsim compare FILE.scn --vary NAME=v1,v2,... [--vary ...] [--jobs N] [--seed N]
//
// runs the scenario once per variant, like sweep (the same runner: the cross
// product of the --vary lists, in parallel, results in variant order), and
// prints one table of what each variant leaves at the end of the scenario:
// the buffers each relation holds, WAL bytes and full-page images, the pool's
// evictions, ring reuses and buffer writes, and the simulated time. NAME is a
// PostgreSQL setting, version, or a what-if variant (replacement, usage_max,
// reject, ring).

// compareColumns are the fixed figures after the relations, in table order.
var compareColumns = []string{"unused", "wal_bytes", "wal_fpi", "evictions", "reuses", "writes", "time_ms"}

func compareCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var varies varyFlags
	fs.Var(&varies, "vary", "NAME=v1,v2,... (repeatable): a setting, version, replacement, usage_max, reject or ring")
	jobs := fs.Int("jobs", runtime.NumCPU(), "variants run at once")
	seed := fs.Uint64("seed", 1, "PRNG seed (the same for every variant)")
	var sf shardFlags
	sf.register(fs)
	// The file may come first: compare FILE.scn --vary ...
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		args = append(append([]string(nil), args[1:]...), args[0])
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	job := pointsJob{cmd: "compare", noun: "variant", mergeUsage: "pgbufsim compare --merge SHARD.json...",
		runUsage: "pgbufsim compare FILE.scn --vary NAME=v1,v2,... [--vary ...] [--jobs N] [--seed N] [--shard K/N [--out FILE]]", end: endFigures}
	_, f, varies, points, status, done := job.collect(fs, varies, &sf, *jobs, *seed, stderr)
	if done {
		return status
	}
	writeCompareTable(stdout, f, varies, points)
	return status
}

// endFigures reads the cluster a scenario leaves: show buffercache, show wal
// and show io since the cluster started, and its simulated clock. The shows
// run as scenario commands, as if appended to the file, and their typed
// results are read. A cluster left down by a crash refuses them: the table
// then shows "-" for what it could not read (the simulated clock still runs).
func endFigures(env *scenario.Env) map[string]string {
	out := map[string]string{}
	if env.C == nil {
		return out
	}
	show := func(what string) any {
		o, err := env.Exec("show", []datadriven.CmdArg{{Key: what}})
		if err != nil {
			return nil
		}
		return o.Result
	}
	if bc, ok := show("buffercache").(*cluster.Buffercache); ok {
		var rels []string
		for _, r := range bc.Rows {
			rels = append(rels, r.Relation)
			out["rel:"+r.Relation] = strconv.Itoa(r.Buffers)
		}
		out["rels"] = strings.Join(rels, "\x00")
		out["unused"] = strconv.Itoa(bc.Unused)
	}
	if w, ok := show("wal").(cluster.WALReport); ok {
		out["wal_bytes"], out["wal_fpi"] = strconv.FormatInt(w.Bytes, 10), strconv.FormatInt(w.Usage.FPI, 10)
	}
	if io, ok := show("io").([]cluster.IORow); ok {
		var ev, reu, wr int64
		for _, r := range io {
			if r.Object != "relation" {
				continue
			}
			ev += r.Evictions
			reu += r.Reuses
			wr += r.Writes
		}
		out["evictions"], out["reuses"], out["writes"] = fmt.Sprint(ev), fmt.Sprint(reu), fmt.Sprint(wr)
	}
	out["time_ms"] = fmt.Sprintf("%.3f", float64(env.C.Now())/1e6)
	return out
}

// writeCompareTable prints one row per variant: its values, the buffers of
// every relation any variant holds (in order of first appearance), then the
// fixed figures.
func writeCompareTable(w io.Writer, f *scenario.File, varies []vary, points []*sweepPoint) {
	var rels []string
	seen := map[string]bool{}
	for _, p := range points {
		if p.err != nil || p.end["rels"] == "" {
			continue
		}
		for _, r := range strings.Split(p.end["rels"], "\x00") {
			if !seen[r] {
				seen[r] = true
				rels = append(rels, r)
			}
		}
	}
	header := []string{}
	for _, v := range varies {
		header = append(header, v.name)
	}
	keys := []string{}
	for _, r := range rels {
		header = append(header, r)
		keys = append(keys, "rel:"+r)
	}
	header = append(header, compareColumns...)
	keys = append(keys, compareColumns...)
	rows := [][]string{header}
	for _, p := range points {
		row := append([]string(nil), p.values...)
		for i, k := range keys {
			val := "-"
			if p.err != nil {
				if i == 0 {
					val = "error"
				}
			} else if x, ok := p.end[k]; ok && x != "" {
				val = x
			} else if strings.HasPrefix(k, "rel:") {
				val = "0"
			}
			row = append(row, val)
		}
		rows = append(rows, row)
	}
	fmt.Fprintf(w, "%s: at the end (buffers per relation, then the cluster's totals)\n", f.Name)
	writeColumns(w, rows, len(varies))
}
