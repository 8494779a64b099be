package scenario

import "github.com/cockroachdb/datadriven"

// Example: begin
func (e *Env) cmdBegin(args []datadriven.CmdArg) (Output, error) {
	if len(args) > 0 {
		return Output{}, errorf("begin: takes no arguments")
	}
	if err := e.C.Begin(); err != nil {
		return Output{}, err
	}
	e.beginLine = e.line
	return Output{Text: "BEGIN", JSON: map[string]any{}}, nil
}
