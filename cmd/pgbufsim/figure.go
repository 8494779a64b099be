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
	switch {
	case file == "":
		return "", "", "", 0, usageError(stderr, cmd, "the scenario file (FILE.scn) is missing", usageLine)
	case fs.NArg() > 1 || (fs.NArg() == 1 && fs.Arg(0) != file):
		return "", "", "", 0, usageError(stderr, cmd, fmt.Sprintf("unexpected arguments %q after the flags (one scenario file)", fs.Args()), usageLine)
	case *o == "":
		return "", "", "", 0, usageError(stderr, cmd, "-o OUT is missing (the file to write)", usageLine)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintf(stderr, "pgbufsim %s: %v\n", cmd, err)
		return "", "", "", 0, 1
	}
	return file, string(b), *o, *sd, 0
}

// usageError prints what is wrong with a command line (naming the missing
// flag or argument), then the command's usage line; it returns exit status 2.
func usageError(stderr io.Writer, cmd, problem, usageLine string) int {
	fmt.Fprintf(stderr, "pgbufsim %s: %s\nusage: %s\n", cmd, problem, usageLine)
	return 2
}

// fileArgProblem says what is wrong with a command's positional arguments
// when it takes exactly one file ("" when there is one).
func fileArgProblem(what string, args []string) string {
	switch len(args) {
	case 1:
		return ""
	case 0:
		return "the " + what + " is missing"
	}
	return fmt.Sprintf("expected one %s, got %d arguments (%q); flags go before the file", what, len(args), args)
}
