package scenario

import (
	"time"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/pg"
)

// Example: sleep 1s
func (e *Env) cmdSleep(args []datadriven.CmdArg) (Output, error) {
	if len(args) != 1 || !positional(args[0]) {
		return Output{}, errorf("sleep: expected one duration, e.g. sleep 200ms (units us, ms, s, min, h, d)")
	}
	ns, err := pg.ParseDuration(args[0].Key, 1e9)
	if err != nil {
		return Output{}, errorf("sleep %s: %v", args[0].Key, err)
	}
	if ns < 0 {
		return Output{}, errorf("sleep %s: a duration cannot be negative (0 or more, e.g. sleep 200ms)", args[0].Key)
	}
	if err := e.C.Sleep(time.Duration(ns)); err != nil {
		return Output{}, errorf("sleep %s: %v", args[0].Key, err)
	}
	return ok(), nil
}
