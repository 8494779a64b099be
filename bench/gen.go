// Package bench is pgbufsim's workload library and benchmarks: synthetic
// block-access traces (zipf, uniform, loop, scan-mix) from seeded PRNGs,
// written in libCacheSim's oracleGeneral format so that the simulator's
// replay and other cache simulators read the same requests; the benchmarks
// themselves live in the package's tests.
//
// The workloads are the classic tests of a replacement policy rather than
// anything PostgreSQL runs: a loop larger than shared_buffers is the case
// where the clock sweep of freelist.c (like LRU) misses on every access, a
// scan mixed into a skewed workload the case the BULKREAD ring
// (GetAccessStrategy) and the 8.0 era's 2Q and ARC were built for. The
// benchmarks time the real paths: ReadBuffer hits and misses through
// bufmgr.c's model, scenario commands such as seed 001's first read and
// ANALYZE, and trace replay.
package bench

import (
	"fmt"
	"io"
	"strings"

	"github.com/pgbufsim/pgbufsim/internal/rng"
	"github.com/pgbufsim/pgbufsim/trace"
)

// Kinds lists the workload kinds.
var Kinds = []string{"zipf", "uniform", "loop", "scan-mix"}

// Workload describes a synthetic trace of block requests over a key space
// of Blocks blocks numbered 0..Blocks−1.
//
//   - zipf: block popularity follows Zipf's law with exponent Alpha (rank k
//     drawn with probability ∝ 1/k^Alpha); ranks are scattered over the key
//     space by a fixed permutation so that hot blocks are not neighbours.
//   - uniform: every block equally likely.
//   - loop: blocks 0, 1, …, Blocks−1, 0, 1, … (a repeated sequential scan).
//   - scan-mix: zipf requests over the first Blocks blocks, and with
//     probability ScanFraction instead the next block of a sequential scan
//     that cycles through ScanBlocks further blocks (Blocks..Blocks+ScanBlocks−1).
type Workload struct {
	Kind         string
	Requests     int
	Blocks       uint64
	Alpha        float64 // zipf, scan-mix; default 0.99
	ScanFraction float64 // scan-mix; default 0.2
	ScanBlocks   uint64  // scan-mix; default Blocks
	Seed         uint64
}

// withDefaults fills the zero parameters.
func (w Workload) withDefaults() Workload {
	if w.Alpha == 0 {
		w.Alpha = 0.99
	}
	if w.Kind == "scan-mix" {
		if w.ScanFraction == 0 {
			w.ScanFraction = 0.2
		}
		if w.ScanBlocks == 0 {
			w.ScanBlocks = w.Blocks
		}
	}
	return w
}

// Validate reports every problem with w, one line each.
func (w Workload) Validate() error {
	w = w.withDefaults()
	var errs []string
	known := false
	for _, k := range Kinds {
		known = known || k == w.Kind
	}
	if !known {
		errs = append(errs, fmt.Sprintf("kind=%s: unknown workload (%s)", w.Kind, strings.Join(Kinds, ", ")))
	}
	if w.Requests < 0 {
		errs = append(errs, fmt.Sprintf("requests=%d: must be at least 0", w.Requests))
	}
	if w.Blocks < 1 || w.Blocks > 1<<31 {
		errs = append(errs, fmt.Sprintf("blocks=%d: must be between 1 and 2147483648", w.Blocks))
	}
	if !(w.Alpha > 0) || w.Alpha > 10 {
		errs = append(errs, fmt.Sprintf("alpha=%v: the Zipf exponent must be above 0 and at most 10", w.Alpha))
	}
	if w.ScanFraction < 0 || w.ScanFraction > 1 {
		errs = append(errs, fmt.Sprintf("scan_fraction=%v: must be between 0 and 1", w.ScanFraction))
	}
	if w.ScanBlocks > 1<<31 {
		errs = append(errs, fmt.Sprintf("scan_blocks=%d: must be at most 2147483648", w.ScanBlocks))
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return nil
}

// Generator produces a workload's requests one at a time.
type Generator struct {
	w       Workload
	p       *rng.PCG
	z       *rng.Zipf
	i, scan uint64
	mult    uint64
}

// scatter is an odd prime above 2^31, so rank·scatter mod Blocks is a
// permutation of 0..Blocks−1 for every Blocks ≤ 2^31 (it is coprime to them).
const scatter = 2654435761

// NewGenerator validates w and returns its generator, seeded with w.Seed.
func NewGenerator(w Workload) (*Generator, error) {
	if err := w.Validate(); err != nil {
		return nil, err
	}
	w = w.withDefaults()
	g := &Generator{w: w, p: rng.New(w.Seed), mult: scatter % w.Blocks}
	if w.Kind == "zipf" || w.Kind == "scan-mix" {
		g.z, _ = rng.NewZipf(g.p, w.Blocks, w.Alpha)
	}
	return g, nil
}

// Next returns the next requested block.
func (g *Generator) Next() uint64 {
	g.i++
	switch g.w.Kind {
	case "uniform":
		return g.p.Uint64n(g.w.Blocks)
	case "loop":
		return (g.i - 1) % g.w.Blocks
	case "scan-mix":
		if g.p.Float64() < g.w.ScanFraction {
			b := g.w.Blocks + g.scan
			if g.scan++; g.scan == g.w.ScanBlocks {
				g.scan = 0
			}
			return b
		}
	}
	// zipf: rank 1..Blocks scattered over 0..Blocks−1.
	return (g.z.Next() - 1) * g.mult % g.w.Blocks
}

// Records generates the whole trace as oracleGeneral records: time = request
// index, size = 8192 (one block), next access filled in.
func (w Workload) Records() ([]trace.Record, error) {
	g, err := NewGenerator(w)
	if err != nil {
		return nil, err
	}
	recs := make([]trace.Record, w.Requests)
	for i := range recs {
		recs[i] = trace.Record{Time: uint32(i), ObjID: g.Next(), Size: 8192}
	}
	trace.SetNextAccess(recs)
	return recs, nil
}

// WriteOracle writes the workload's trace in oracleGeneral format.
func (w Workload) WriteOracle(out io.Writer) error {
	recs, err := w.Records()
	if err != nil {
		return err
	}
	return trace.WriteOracle(out, recs)
}
