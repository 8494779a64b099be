package main

import (
	"flag"
	"fmt"
	"io"
	"os"
)

// figureArgs reads the arguments of the commands that draw a scenario
// (`plot`, `animate`): FILE.scn -o OUT [--seed=N], the file before or after
// the flags. It returns the scenario's path and text, the output path and
// the seed, or the exit status to return (2: usage, 1: unreadable file).
func figureArgs(cmd, usageLine string, args []string, stderr io.Writer) (file, src, out string, seed uint64, status int) {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := fs.String("o", "", "output file")
	sd := fs.Uint64("seed", 1, "PRNG seed")
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		file, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return "", "", "", 0, 2
	}
	if file == "" && fs.NArg() == 1 {
		file = fs.Arg(0)
	}
	if file == "" || *o == "" || fs.NArg() > 1 || (fs.NArg() == 1 && fs.Arg(0) != file) {
		fmt.Fprintln(stderr, "usage: "+usageLine)
		return "", "", "", 0, 2
	}
	b, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintf(stderr, "pgbufsim %s: %v\n", cmd, err)
		return "", "", "", 0, 1
	}
	return file, string(b), *o, *sd, 0
}
