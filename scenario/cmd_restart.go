package scenario

import "github.com/cockroachdb/datadriven"

// Example: restart
func (e *Env) cmdRestart(args []datadriven.CmdArg) (Output, error) {
	if len(args) > 0 {
		return Output{}, errorf("restart: takes no arguments")
	}
	if err := e.C.Restart(); err != nil {
		return Output{}, err
	}
	return ok(), nil
}

// ok is the output of a command with nothing to show.
func ok() Output { return Output{Text: "ok", JSON: map[string]any{}} }
