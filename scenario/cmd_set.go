package scenario

import (
	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/cluster"
)

// Example: set effective_io_concurrency=32
func (e *Env) cmdSet(args []datadriven.CmdArg) (Output, error) {
	var settings []cluster.Setting
	for _, a := range args {
		val, err := argVal(a)
		if err != nil {
			return Output{}, err
		}
		settings = append(settings, cluster.Setting{Name: a.Key, Value: val})
	}
	notices, err := e.C.Set(settings...)
	if err != nil {
		return Output{}, err
	}
	return noticesOutput(notices), nil
}
