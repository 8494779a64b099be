package scenario

import "github.com/cockroachdb/datadriven"

// Example: checkpoint
func (e *Env) cmdCheckpoint(args []datadriven.CmdArg) (Output, error) {
	if len(args) > 0 {
		return Output{}, errorf("checkpoint: takes no arguments")
	}
	return stmt(e.C.Checkpoint())
}
