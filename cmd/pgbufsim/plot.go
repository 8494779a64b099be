package main

import (
	"fmt"
	"io"

	"github.com/pgbufsim/pgbufsim/viz"
)

// plotCmd is `pgbufsim plot FILE.scn -o out.svg|.png`: one file per plot
// command of the scenario (out.svg, out-2.svg, …).
func plotCmd(args []string, stdout, stderr io.Writer) int {
	file, src, out, seed, status := figureArgs("plot", "pgbufsim plot FILE.scn -o out.svg|out.png [--seed=N]", args, stderr)
	if status != 0 {
		return status
	}
	paths, err := viz.PlotFile(file, src, out, seed)
	if err != nil {
		fmt.Fprintf(stderr, "pgbufsim plot: %v\n", err)
		return 1
	}
	for _, p := range paths {
		fmt.Fprintln(stdout, p)
	}
	return 0
}
