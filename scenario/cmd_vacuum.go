package scenario

import "github.com/cockroachdb/datadriven"

// Example: vacuum big freeze
func (e *Env) cmdVacuum(args []datadriven.CmdArg) (Output, error) {
	t, rest, err := e.oneTable("vacuum", args)
	if err != nil {
		return Output{}, err
	}
	freeze := false
	for _, a := range rest {
		if a.Key != "freeze" || !positional(a) {
			return Output{}, errorf("vacuum %s: unknown option %q (freeze)", t, a.Key)
		}
		freeze = true
	}
	return stmt(e.C.Vacuum(t, freeze))
}
