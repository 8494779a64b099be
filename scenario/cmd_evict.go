package scenario

import "github.com/cockroachdb/datadriven"

// Example: evict all
func (e *Env) cmdEvict(args []datadriven.CmdArg) (Output, error) {
	if len(args) != 1 || !positional(args[0]) {
		return Output{}, errorf("evict: expected 'evict all' or 'evict TABLE'")
	}
	if args[0].Key == "all" {
		return stmt(e.C.EvictAll())
	}
	return stmt(e.C.Evict(args[0].Key))
}
