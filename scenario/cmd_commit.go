package scenario

import "github.com/cockroachdb/datadriven"

// Example: commit
func (e *Env) cmdCommit(args []datadriven.CmdArg) (Output, error) {
	if len(args) > 0 {
		return Output{}, errorf("commit: takes no arguments")
	}
	if err := e.C.Commit(); err != nil {
		return Output{}, err
	}
	return Output{Text: "COMMIT", JSON: map[string]any{}}, nil
}
