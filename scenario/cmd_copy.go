package scenario

import "github.com/cockroachdb/datadriven"

// Example: copy big freeze
func (e *Env) cmdCopy(args []datadriven.CmdArg) (Output, error) {
	t, rest, err := e.oneTable("copy", args)
	if err != nil {
		return Output{}, err
	}
	var n int64
	freeze := false
	for _, a := range rest {
		switch {
		case a.Key == "freeze" && positional(a):
			freeze = true
		case a.Key == "rows":
			if n, err = rowsArg("copy", t, a); err != nil {
				return Output{}, err
			}
		default:
			return Output{}, errorf("copy %s: unknown option %q (freeze, rows)", t, a.Key)
		}
	}
	return stmt(e.C.Copy(t, n, freeze))
}
