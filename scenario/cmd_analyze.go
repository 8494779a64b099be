package scenario

import "github.com/cockroachdb/datadriven"

// Example: analyze big
func (e *Env) cmdAnalyze(args []datadriven.CmdArg) (Output, error) {
	t, rest, err := e.oneTable("analyze", args)
	if err != nil {
		return Output{}, err
	}
	if len(rest) > 0 {
		return Output{}, errorf("analyze %s: takes no options", t)
	}
	return stmt(e.C.Analyze(t))
}
