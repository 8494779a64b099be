package scenario

import "github.com/cockroachdb/datadriven"

// Example: mark before
func (e *Env) cmdMark(args []datadriven.CmdArg) (Output, error) {
	if len(args) != 1 || !positional(args[0]) {
		return Output{}, errorf("mark: expected one name")
	}
	if err := e.C.Mark(args[0].Key); err != nil {
		return Output{}, err
	}
	return ok(), nil
}
