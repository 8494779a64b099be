package scenario

import (
	"time"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/pg"
)

// Example: sleep 1s
func (e *Env) cmdSleep(args []datadriven.CmdArg) (Output, error) {
	if len(args) != 1 || !positional(args[0]) {
		return Output{}, errorf("sleep: expected one duration, e.g. sleep 200ms")
	}
	ns, err := pg.ParseDuration(args[0].Key, 1e9)
	if err != nil || ns < 0 {
		return Output{}, errorf("sleep %s: %v", args[0].Key, err)
	}
	if err := e.C.Sleep(time.Duration(ns)); err != nil {
		return Output{}, err
	}
	return ok(), nil
}
