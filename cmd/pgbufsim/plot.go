package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/pgbufsim/pgbufsim/viz"
)

// plotCmd is `pgbufsim plot FILE.scn -o out.svg|.png`: one file per plot
// command of the scenario (out.svg, out-2.svg, …).
func plotCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("plot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "output file, .svg or .png")
	seed := fs.Uint64("seed", 1, "PRNG seed")
	// The file may come before the flags: pgbufsim plot FILE.scn -o out.svg.
	var file string
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		file, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if file == "" && fs.NArg() == 1 {
		file = fs.Arg(0)
	}
	if file == "" || *out == "" {
		fmt.Fprintln(stderr, "usage: pgbufsim plot FILE.scn -o out.svg|out.png [--seed=N]")
		return 2
	}
	src, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintf(stderr, "pgbufsim plot: %v\n", err)
		return 1
	}
	paths, err := viz.PlotFile(file, string(src), *out, *seed)
	if err != nil {
		fmt.Fprintf(stderr, "pgbufsim plot: %v\n", err)
		return 1
	}
	for _, p := range paths {
		fmt.Fprintln(stdout, p)
	}
	return 0
}
