package main

import (
	"fmt"
	"io"

	"github.com/pgbufsim/pgbufsim/viz"
)

// animateCmd is `pgbufsim animate FILE.scn -o out.html`: one self-contained
// page that steps through the pool maps the scenario recorded.
func animateCmd(args []string, stdout, stderr io.Writer) int {
	file, src, out, seed, status := figureArgs("animate", "pgbufsim animate FILE.scn -o out.html [--seed=N]", args, stderr)
	if status != 0 {
		return status
	}
	n, err := viz.AnimateFile(file, src, out, seed)
	if err != nil {
		fmt.Fprintf(stderr, "pgbufsim animate: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: %d frames\n", out, n)
	return 0
}
