// Package random runs random scenarios (package verify/gen) through verify
// on a real server and writes each disagreement as a ready-to-add scenario.
package random

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/pgbufsim/pgbufsim/verify"
	"github.com/pgbufsim/pgbufsim/verify/gen"
)

// Options configure a run of random scenarios on a real server.
type Options struct {
	PGBin     string
	Version   int      // the server's major version (checked against the server)
	N         int      // how many scenarios
	FirstSeed uint64   // seeds FirstSeed … FirstSeed+N−1
	Seeds     []uint64 // instead of N and FirstSeed: these seeds (a rerun of a run's disagreements)
	MaxPoolMB int      // gen.Options.MaxPoolMB
	OutDir    string   // where each disagreement is written as a scenario file ("" for none)
	Progress  io.Writer
	// SimulateHost runs each scenario on the server's host as measured
	// (verify.MeasureHostScale: host_time_scale, host_cpus, the device's fdatasync,
	// put on the scenario's cluster line) instead of the default machine of
	// unlimited cores at scale 1. The server's leader, parallel workers and
	// I/O workers share this host's few cores; in the simulator with a core
	// each, a parallel scan's workers start and read at their own pace, and
	// which participant reads which blocks — the I/O counts, and which ring
	// meets the hint-dirtied pages and writes them — follows from that
	// timing. The host is measured before the first scenario and again every
	// HostEvery scenarios (0: only once), as the host's load moves.
	SimulateHost bool
	HostEvery    int
}

// Summary counts what a random run found.
type Summary struct {
	Scenarios, Judged, Outside int
	Disagreeing                []uint64 // seeds whose scenario had a figure outside tolerance twice
	Failed                     []uint64 // seeds whose scenario did not run (an error on either side)
	Files                      []string // the scenario files written
}

// Run generates opts.N scenarios and verifies each on the server. A
// scenario with a figure outside tolerance runs once more (the server's
// parallel workers and WAL writer are timing); if it disagrees again, or
// fails to run, it is written to OutDir as a ready-to-add scenario whose
// comments give the seed and the figures that disagreed.
func Run(ctx context.Context, o Options) (Summary, error) {
	var sum Summary
	srv, err := verify.NewServer(o.PGBin)
	if err != nil {
		return sum, err
	}
	if srv.Major != o.Version {
		return sum, fmt.Errorf("%s is PostgreSQL %d, not %d", o.PGBin, srv.Major, o.Version)
	}
	if o.OutDir != "" {
		if err := os.MkdirAll(o.OutDir, 0o755); err != nil {
			return sum, err
		}
	}
	host := ""
	seeds := o.Seeds
	for i := 0; len(o.Seeds) == 0 && i < o.N; i++ {
		seeds = append(seeds, o.FirstSeed+uint64(i))
	}
	for i, seed := range seeds {
		if err := ctx.Err(); err != nil {
			return sum, err
		}
		if o.SimulateHost && (i == 0 || o.HostEvery > 0 && i%o.HostEvery == 0) {
			hs, err := verify.MeasureHostScale(ctx, o.PGBin, verify.HostScaleRuns, nil)
			if err != nil {
				return sum, fmt.Errorf("measuring the host: %w", err)
			}
			host = hs.Settings()
			if o.Progress != nil {
				fmt.Fprintf(o.Progress, "host: %s (calibration %v ms on the server, %.1f simulated)\n", host, hs.RealMs, hs.SimMs)
			}
		}
		name := fmt.Sprintf("random-pg%d-seed%d.scn", o.Version, seed)
		src := gen.Generate(seed, gen.Options{Version: o.Version, MaxPoolMB: o.MaxPoolMB, Host: host})
		sum.Scenarios++
		rep, err := verify.Run(ctx, name, src, verify.Options{PGBin: o.PGBin, Seed: 1})
		if err == nil && !rep.OK() {
			rep, err = verify.Run(ctx, name, src, verify.Options{PGBin: o.PGBin, Seed: 1})
		}
		var why []string
		switch {
		case err != nil:
			if ctx.Err() != nil {
				return sum, ctx.Err()
			}
			sum.Failed = append(sum.Failed, seed)
			why = append(why, "did not run: "+strings.ReplaceAll(err.Error(), "\n", "\n#   "))
		default:
			j, out := rep.Counts()
			sum.Judged += j
			sum.Outside += out
			if out > 0 {
				sum.Disagreeing = append(sum.Disagreeing, seed)
				for _, r := range rep.Failed() {
					why = append(why, fmt.Sprintf("line %d (%s): %s: pgbufsim %d, postgres %d (%s)", r.Line, r.Command, r.Figure, r.Sim, r.Real, r.Tolerance))
				}
			}
		}
		if o.Progress != nil {
			status := "agrees"
			if len(why) > 0 {
				status = fmt.Sprintf("DISAGREES (%d)", len(why))
			}
			fmt.Fprintf(o.Progress, "%s: %s\n", name, status)
		}
		if len(why) == 0 || o.OutDir == "" {
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, "# Found by scripts/verify-random -version %d (seed %d): outside tolerance twice on PostgreSQL %d.\n", o.Version, seed, o.Version)
		for _, w := range why {
			fmt.Fprintf(&b, "#   %s\n", w)
		}
		if host != "" {
			b.WriteString("# The cluster line ends in the host as measured for this run (host_time_scale and the device's fdatasync move with the host's load).\n")
		}
		b.WriteString("# Explain or fix each before adding this file to verify/testdata/suite.\n")
		b.WriteString(src)
		path := filepath.Join(o.OutDir, name)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			return sum, err
		}
		sum.Files = append(sum.Files, path)
	}
	return sum, nil
}

func (s Summary) String() string {
	return fmt.Sprintf("%d scenarios, %d figures judged, %d outside tolerance; %d scenarios disagreed %v, %d did not run %v",
		s.Scenarios, s.Judged, s.Outside, len(s.Disagreeing), s.Disagreeing, len(s.Failed), s.Failed)
}
