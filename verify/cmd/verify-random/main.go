// Command verify-random runs random scenarios (package verify/gen) on a real
// PostgreSQL server beside the simulator and writes every disagreement as a
// ready-to-add scenario file. scripts/verify-random wraps it with the server
// from scripts/pgbin:
//
//	scripts/verify-random -n 200 -version 18 [-seed 1] [-max-pool 256] [-out DIR] [-host=false] [-host-every 25] [-seeds S1,S2,…]
//
// By default each scenario runs on the server's host as measured (see
// random.Options.SimulateHost).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"github.com/pgbufsim/pgbufsim/verify/random"
)

func main() {
	n := flag.Int("n", 20, "how many scenarios")
	version := flag.Int("version", 18, "the server's major version")
	pgbin := flag.String("pgbin", "", "the server's bin directory (scripts/pgbin VERSION)")
	seed := flag.Uint64("seed", 1, "the first seed (scenarios use seed … seed+n−1)")
	maxPool := flag.Int("max-pool", 256, "the largest shared_buffers in MB (16–256)")
	out := flag.String("out", "random-disagreements", "where each disagreement is written as a scenario file")
	host := flag.Bool("host", true, "simulate the server's host (host_time_scale, host_cpus, the device's fdatasync, measured); -host=false: unlimited cores at scale 1")
	hostEvery := flag.Int("host-every", 25, "measure the host again every N scenarios (0: once)")
	seedList := flag.String("seeds", "", "comma-separated seeds to run instead of -n and -seed (a rerun of a run's disagreements)")
	flag.Parse()
	var seeds []uint64
	for _, f := range strings.FieldsFunc(*seedList, func(r rune) bool { return r == ',' }) {
		s, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
		if err != nil {
			fmt.Fprintf(os.Stderr, "verify-random: -seeds %q: %q is not a seed (a whole number)\n", *seedList, f)
			os.Exit(2)
		}
		seeds = append(seeds, s)
	}
	if *pgbin == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: verify-random -pgbin DIR -version N [-n N] [-seed S] [-max-pool MB] [-out DIR] [-host=false] [-host-every N] [-seeds S1,S2,…]")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	sum, err := random.Run(ctx, random.Options{PGBin: *pgbin, Version: *version, N: *n, FirstSeed: *seed, Seeds: seeds,
		MaxPoolMB: *maxPool, OutDir: *out, Progress: os.Stdout, SimulateHost: *host, HostEvery: *hostEvery})
	fmt.Println(sum)
	for _, f := range sum.Files {
		fmt.Println("wrote", f)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "verify-random:", err)
		os.Exit(1)
	}
	if len(sum.Disagreeing)+len(sum.Failed) > 0 {
		os.Exit(1)
	}
}
