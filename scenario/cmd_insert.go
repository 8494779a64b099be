package scenario

import "github.com/cockroachdb/datadriven"

// Example: insert big
func (e *Env) cmdInsert(args []datadriven.CmdArg) (Output, error) {
	t, rest, err := e.oneTable("insert", args)
	if err != nil {
		return Output{}, err
	}
	var n int64
	for _, a := range rest {
		if a.Key != "rows" {
			return Output{}, errorf("insert %s: unknown option %q (rows)", t, a.Key)
		}
		if n, err = rowsArg("insert", t, a); err != nil {
			return Output{}, err
		}
	}
	return stmt(e.C.Insert(t, n))
}
