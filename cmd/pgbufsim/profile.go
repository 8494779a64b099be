package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/pkg/profile"
)

// startProfile parses the profiling flags that come before the command
// and starts the profile (github.com/pkg/profile, which runs one profile at
// a time). It returns the remaining arguments and the function that writes
// the profile; stop is nil on a bad flag, with the exit code to return.
func startProfile(args []string, stderr io.Writer) (rest []string, stop func(), code int) {
	fs := flag.NewFlagSet("pgbufsim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cpu := fs.String("cpuprofile", "", "write a CPU profile of the command to DIR/cpu.pprof")
	mem := fs.String("memprofile", "", "write a heap profile (at the command's end) to DIR/mem.pprof")
	if err := fs.Parse(args); err != nil {
		return nil, nil, 2
	}
	if *cpu != "" && *mem != "" {
		fmt.Fprintln(stderr, "pgbufsim: --cpuprofile and --memprofile: one profile at a time")
		return nil, nil, 2
	}
	dir, mode := *cpu, profile.CPUProfile
	if *mem != "" {
		dir, mode = *mem, profile.MemProfileHeap
	}
	if dir == "" {
		return fs.Args(), func() {}, 0
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintf(stderr, "pgbufsim: profile directory: %v\n", err)
		return nil, nil, 1
	}
	opts := []func(*profile.Profile){mode, profile.ProfilePath(dir), profile.Quiet, profile.NoShutdownHook}
	if *mem != "" {
		opts = append(opts, profile.MemProfileRate(4096))
	}
	p := profile.Start(opts...)
	return fs.Args(), p.Stop, 0
}
