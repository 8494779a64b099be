package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/pgbufsim/pgbufsim/viz"
)

// animateCmd is `pgbufsim animate FILE.scn -o out.html`: one self-contained
// page that steps through the pool maps the scenario recorded.
func animateCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("animate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "output file, .html")
	seed := fs.Uint64("seed", 1, "PRNG seed")
	// The file may come before the flags: pgbufsim animate FILE.scn -o out.html.
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
	if file == "" || *out == "" || fs.NArg() > 1 || (fs.NArg() == 1 && fs.Arg(0) != file) {
		fmt.Fprintln(stderr, "usage: pgbufsim animate FILE.scn -o out.html [--seed=N]")
		return 2
	}
	src, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintf(stderr, "pgbufsim animate: %v\n", err)
		return 1
	}
	n, err := viz.AnimateFile(file, string(src), *out, *seed)
	if err != nil {
		fmt.Fprintf(stderr, "pgbufsim animate: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: %d frames\n", *out, n)
	return 0
}
