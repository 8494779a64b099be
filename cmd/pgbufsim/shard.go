package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/pgbufsim/pgbufsim/scenario"
)

// Sweeps on a cluster
//
//	pgbufsim sweep|compare --shard K/N [--out SHARD.json] [--vary ...]... FILE.scn
//	pgbufsim sweep|compare --merge [--csv FILE] [--step LINE] SHARD.json...
//
// --shard K/N runs only the points whose index (0-based, in the order an
// unsharded run lists them) is K modulo N, K from 0 to N−1 — a deterministic
// split that needs no coordination, so shard K can be a Kubernetes Indexed
// Job's JOB_COMPLETION_INDEX or a Slurm array's SLURM_ARRAY_TASK_ID — and
// writes their figures to a shard file (default FILE.shard-K-of-N.json)
// instead of the table. Round robin rather than contiguous ranges, so the
// slow end of a varied setting (the largest pools, say) is spread over all
// shards. --merge reads every shard of one sweep (any order) and prints the
// table and writes the CSV an unsharded run prints and writes, byte for byte:
// the shard files carry the scenario's text, the --vary lists and the seed,
// and the merge refuses shards of different sweeps, a missing shard or one
// given twice.

// shardFormat names the shard file's layout.
const shardFormat = "pgbufsim-shard/1"

// shardSpec is --shard K/N.
type shardSpec struct{ k, n int }

func (s *shardSpec) String() string {
	if s.n == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.k, s.n)
}

func (s *shardSpec) Set(v string) error {
	ks, ns, ok := strings.Cut(v, "/")
	k, err1 := strconv.Atoi(ks)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 0 || k >= n {
		return fmt.Errorf("--shard %s: expected K/N with 0 ≤ K < N (K is the shard's index, from 0)", v)
	}
	s.k, s.n = k, n
	return nil
}

// shardFlags are the flags sweep and compare share for sharding.
type shardFlags struct {
	shard shardSpec
	out   string
	merge bool
}

func (sf *shardFlags) register(fs *flag.FlagSet) {
	fs.Var(&sf.shard, "shard", "K/N: run only the points whose index is K modulo N (0 ≤ K < N) and write them to a shard file")
	fs.StringVar(&sf.out, "out", "", "with --shard: the shard file (default FILE.shard-K-of-N.json)")
	fs.BoolVar(&sf.merge, "merge", false, "the arguments are shard files: merge them into the unsharded run's output")
}

type shardVary struct {
	Name   string   `json:"name"`
	Values []string `json:"values"`
}

type shardPoint struct {
	Index  int                 `json:"index"`
	Values []string            `json:"values"`
	Fields []map[string]string `json:"fields,omitempty"`
	End    map[string]string   `json:"end,omitempty"`
	Err    string              `json:"error,omitempty"`
}

// shardFile is what one shard writes.
type shardFile struct {
	Format  string       `json:"format"`
	Command string       `json:"command"`
	Path    string       `json:"path"`
	Source  string       `json:"source"`
	Seed    uint64       `json:"seed"`
	Vary    []shardVary  `json:"vary"`
	Shard   int          `json:"shard"`
	Shards  int          `json:"shards"`
	Points  []shardPoint `json:"points"`
}

// shardPoints is the shard's share of points (every one if spec is unset).
func shardPoints(points []*sweepPoint, spec shardSpec) (mine []*sweepPoint, index []int) {
	for i, p := range points {
		if spec.n == 0 || i%spec.n == spec.k {
			mine, index = append(mine, p), append(index, i)
		}
	}
	return mine, index
}

// writeShard writes the shard's points after they ran.
func writeShard(cmd, path string, f *scenario.File, src string, seed uint64, varies []vary, sf *shardFlags, mine []*sweepPoint, index []int, total int, stderr io.Writer) error {
	out := sf.out
	if out == "" {
		out = fmt.Sprintf("%s.shard-%d-of-%d.json", strings.TrimSuffix(path, filepath.Ext(path)), sf.shard.k, sf.shard.n)
	}
	sh := shardFile{Format: shardFormat, Command: cmd, Path: path, Source: src, Seed: seed, Shard: sf.shard.k, Shards: sf.shard.n, Points: []shardPoint{}}
	for _, v := range varies {
		sh.Vary = append(sh.Vary, shardVary{v.name, v.values})
	}
	for j, p := range mine {
		sp := shardPoint{Index: index[j], Values: p.values, Fields: p.fields, End: p.end}
		if p.err != nil {
			sp.Err = p.err.Error()
		}
		sh.Points = append(sh.Points, sp)
	}
	b, err := json.MarshalIndent(sh, "", " ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, append(b, '\n'), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "pgbufsim %s: shard %d/%d: %d of %d points written to %s\n", cmd, sf.shard.k, sf.shard.n, len(mine), total, out)
	return nil
}

// mergeShards reads the shard files of one sweep and rebuilds what the
// unsharded run had: the scenario, the --vary lists and every point.
func mergeShards(cmd string, files []string) (path string, f *scenario.File, varies []vary, points []*sweepPoint, err error) {
	if len(files) == 0 {
		return "", nil, nil, nil, errors.New("--merge: no shard files")
	}
	var first *shardFile
	var filled []bool
	seen := map[int]string{}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			return "", nil, nil, nil, err
		}
		var sh shardFile
		if err := json.Unmarshal(b, &sh); err != nil || sh.Format != shardFormat {
			return "", nil, nil, nil, fmt.Errorf("%s: not a %s shard file", name, shardFormat)
		}
		if sh.Command != cmd {
			return "", nil, nil, nil, fmt.Errorf("%s: a shard of %s, not of %s", name, sh.Command, cmd)
		}
		if first == nil {
			first = &sh
			varies = make([]vary, len(sh.Vary))
			for i, v := range sh.Vary {
				varies[i] = vary{v.Name, v.Values}
			}
			points = crossProduct(varies)
			filled = make([]bool, len(points))
		} else if sh.Path != first.Path || sh.Source != first.Source || sh.Seed != first.Seed || sh.Shards != first.Shards || !sameVary(sh.Vary, first.Vary) {
			return "", nil, nil, nil, fmt.Errorf("%s and %s: shards of different sweeps (scenario, --vary, --seed or N differ)", files[0], name)
		}
		if sh.Shard < 0 || sh.Shard >= sh.Shards {
			return "", nil, nil, nil, fmt.Errorf("%s: shard %d/%d out of range", name, sh.Shard, sh.Shards)
		}
		if prev, dup := seen[sh.Shard]; dup {
			return "", nil, nil, nil, fmt.Errorf("%s and %s: both shard %d/%d", prev, name, sh.Shard, sh.Shards)
		}
		seen[sh.Shard] = name
		for _, sp := range sh.Points {
			if sp.Index < 0 || sp.Index >= len(points) || sp.Index%sh.Shards != sh.Shard || !slices.Equal(sp.Values, points[sp.Index].values) {
				return "", nil, nil, nil, fmt.Errorf("%s: point %d is not one of shard %d/%d's", name, sp.Index, sh.Shard, sh.Shards)
			}
			if filled[sp.Index] {
				return "", nil, nil, nil, fmt.Errorf("%s: point %d given twice", name, sp.Index)
			}
			filled[sp.Index] = true
			p := points[sp.Index]
			p.fields, p.end = sp.Fields, sp.End
			if sp.Err != "" {
				p.err = errors.New(sp.Err)
			}
		}
		if want := (len(points) - sh.Shard + sh.Shards - 1) / sh.Shards; len(sh.Points) != want {
			return "", nil, nil, nil, fmt.Errorf("%s: shard %d/%d holds %d points, not its %d", name, sh.Shard, sh.Shards, len(sh.Points), want)
		}
	}
	var missing []string
	for k := 0; k < first.Shards; k++ {
		if _, ok := seen[k]; !ok {
			missing = append(missing, fmt.Sprintf("%d/%d", k, first.Shards))
		}
	}
	if len(missing) > 0 {
		return "", nil, nil, nil, fmt.Errorf("--merge: missing shard %s", strings.Join(missing, ", "))
	}
	f, err = scenario.Parse(first.Path, first.Source)
	if err != nil {
		return "", nil, nil, nil, err
	}
	for _, p := range points {
		if p.err == nil && len(p.fields) != len(f.Steps) {
			p.fields = append(p.fields, make([]map[string]string, len(f.Steps)-len(p.fields))...)
		}
	}
	return first.Path, f, varies, points, nil
}

// flagSet reports whether the command line set flag name.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func sameVary(a, b []shardVary) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || !slices.Equal(a[i].Values, b[i].Values) {
			return false
		}
	}
	return true
}

// pointsJob is what sweep and compare share: the points of one run (all of
// them, or one shard's, written to its shard file), or those of a merge of
// shard files.
type pointsJob struct {
	cmd, noun            string // "sweep", "point"
	mergeUsage, runUsage string
	// end, if set, reads each point's cluster after its last step (compare).
	end func(*scenario.Env) map[string]string
}

// collect runs or merges the points. done: the command is over with
// status (a usage error, a failure, or a shard written); otherwise the
// caller prints the points.
func (j pointsJob) collect(fs *flag.FlagSet, varies varyFlags, sf *shardFlags, jobs int, seed uint64, stderr io.Writer) (path string, f *scenario.File, vs varyFlags, points []*sweepPoint, status int, done bool) {
	if sf.merge {
		if fs.NArg() == 0 || len(varies) > 0 || sf.shard.n > 0 {
			fmt.Fprintln(stderr, "usage: "+j.mergeUsage)
			return "", nil, nil, nil, 2, true
		}
		var err error
		if path, f, varies, points, err = mergeShards(j.cmd, fs.Args()); err != nil {
			fmt.Fprintf(stderr, "pgbufsim %s: %v\n", j.cmd, err)
			return "", nil, nil, nil, 1, true
		}
		return path, f, varies, points, pointErrors(j.cmd, j.noun, varies, points, stderr), false
	}
	if sf.out != "" && sf.shard.n == 0 {
		fmt.Fprintf(stderr, "pgbufsim %s: --out names a shard file: it goes with --shard K/N\n", j.cmd)
		return "", nil, nil, nil, 2, true
	}
	if p := pointsProblem(fs.Args(), varies, jobs); p != "" {
		return "", nil, nil, nil, usageError(stderr, j.cmd, p, j.runUsage), true
	}
	path = fs.Arg(0)
	f, src, status := readVaried(j.cmd, path, varies, stderr)
	if f == nil {
		return "", nil, nil, nil, status, true
	}
	points = crossProduct(varies)
	mine, index := shardPoints(points, sf.shard)
	runPoints(mine, f, varies, seed, filepath.Dir(path), jobs, stderr, j.end)
	status = pointErrors(j.cmd, j.noun, varies, points, stderr)
	if sf.shard.n > 0 {
		if err := writeShard(j.cmd, path, f, src, seed, varies, sf, mine, index, len(points), stderr); err != nil {
			fmt.Fprintf(stderr, "pgbufsim %s: %v\n", j.cmd, err)
			return "", nil, nil, nil, 1, true
		}
		return path, f, varies, points, status, true
	}
	return path, f, varies, points, status, false
}
