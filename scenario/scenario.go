// Package scenario is the scenario language: the files (this file) and the
// commands (Env, one file per command), a thin layer over package cluster.
//
// # Files
//
// One command per line in datadriven's directive syntax (parsed with
// datadriven.ParseLine, so the CLI and the golden tests never disagree), '#'
// comment lines, blank lines, and optional "----" blocks of expected output
// after a command (golden files).
//
// # Commands
//
// Env.Exec runs one parsed command: each handler (cmd_NAME.go) only parses
// its arguments, naming the offending word and what is accepted, calls one
// engine method, and formats the result as a PostgreSQL user reads it
// (EXPLAIN lines, pg_buffercache and pg_stat_io tables) and as the JSON the
// language documents. Commands is the table `pgbufsim help` prints.
package scenario

import (
	"fmt"
	"strings"

	"github.com/cockroachdb/datadriven"
)

// Arg is one argument of a command line: a word, key=value or key=(a, b)
// (datadriven's CmdArg: the scenario language is datadriven's syntax).
type Arg = datadriven.CmdArg

// Step is one command of a scenario.
type Step struct {
	Line     int // 1-based line of the command
	Text     string
	Cmd      string
	Args     []datadriven.CmdArg
	Expected *string // the ---- block, if the file has one
	// blockStart/blockEnd are the line range (0-based, end exclusive) of the
	// expected block including its fences, for rewriting.
	blockStart, blockEnd int
}

// File is a parsed scenario.
type File struct {
	Name  string
	Lines []string
	Steps []Step
}

// Error is a scenario error with its position.
type Error struct {
	File string
	Line int
	Err  error
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err) }
func (e *Error) Unwrap() error { return e.Err }

// Parse reads a scenario. Every command line must parse as a datadriven directive.
func Parse(name, src string) (*File, error) {
	f := &File{Name: name, Lines: strings.Split(strings.TrimSuffix(src, "\n"), "\n")}
	for i := 0; i < len(f.Lines); i++ {
		line := strings.TrimSpace(f.Lines[i])
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if line == "----" {
			return nil, &Error{name, i + 1, fmt.Errorf("---- without a command before it")}
		}
		cmd, args, err := datadriven.ParseLine(line)
		if err != nil {
			return nil, &Error{name, i + 1, err}
		}
		st := Step{Line: i + 1, Text: line, Cmd: cmd, Args: args}
		// An expected-output block follows directly.
		if i+1 < len(f.Lines) && strings.TrimSpace(f.Lines[i+1]) == "----" {
			j := i + 2
			double := j < len(f.Lines) && strings.TrimSpace(f.Lines[j]) == "----"
			if double {
				j++
			}
			var out []string
			for ; j < len(f.Lines); j++ {
				l := f.Lines[j]
				if double {
					if l == "----" && j+1 < len(f.Lines) && f.Lines[j+1] == "----" {
						j += 2
						break
					}
				} else if strings.TrimSpace(l) == "" {
					break
				}
				out = append(out, l)
			}
			exp := strings.Join(out, "\n")
			st.Expected = &exp
			st.blockStart, st.blockEnd = i+1, j
			i = j - 1
		}
		f.Steps = append(f.Steps, st)
	}
	return f, nil
}

// Block formats output as datadriven writes it: a single ---- fence, or a
// doubled one when the output contains a blank line.
func Block(out string) []string {
	out = strings.TrimRight(out, "\n")
	hasBlank := false
	for _, l := range strings.Split(out, "\n") {
		if strings.TrimSpace(l) == "" {
			hasBlank = true
		}
	}
	if hasBlank {
		return append(append([]string{"----", "----"}, strings.Split(out, "\n")...), "----", "----")
	}
	return append([]string{"----"}, strings.Split(out, "\n")...)
}

// Rewrite returns the file with every step's block replaced by outputs[i]
// (a block is added after each command, as golden files need).
func (f *File) Rewrite(outputs []string) string {
	var b strings.Builder
	next := 0
	for i := 0; i < len(f.Lines); i++ {
		if next < len(f.Steps) && f.Steps[next].Line-1 == i {
			st := f.Steps[next]
			b.WriteString(f.Lines[i] + "\n")
			for _, l := range Block(outputs[next]) {
				b.WriteString(l + "\n")
			}
			if st.Expected != nil {
				i = st.blockEnd - 1
			}
			b.WriteString("\n")
			next++
			// Swallow the blank line that separated the old block.
			if i+1 < len(f.Lines) && strings.TrimSpace(f.Lines[i+1]) == "" {
				i++
			}
			continue
		}
		b.WriteString(f.Lines[i] + "\n")
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}
