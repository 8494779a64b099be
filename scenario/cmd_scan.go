package scenario

import (
	"strconv"
	"strings"

	"github.com/cockroachdb/datadriven"
)

// Example: scan big repeat=6
func (e *Env) cmdScan(args []datadriven.CmdArg) (Output, error) {
	t, rest, err := e.oneTable("scan", args)
	if err != nil {
		return Output{}, err
	}
	repeat := 1
	for _, a := range rest {
		if a.Key != "repeat" {
			return Output{}, errorf("scan %s: unknown option %q (repeat)", t, a.Key)
		}
		v, err := argVal(a)
		if err != nil {
			return Output{}, err
		}
		if repeat, err = strconv.Atoi(v); err != nil || repeat < 1 || repeat > 1000 {
			return Output{}, errorf("scan %s: repeat=%s: must be between 1 and 1000", t, v)
		}
	}
	var texts []string
	var last Output
	for i := 0; i < repeat; i++ {
		o, err := stmt(e.C.Scan(t))
		if err != nil {
			return Output{}, err
		}
		texts = append(texts, o.Text)
		last = o
	}
	if repeat == 1 {
		return last, nil
	}
	return Output{Text: strings.Join(texts, "\n"), JSON: last.JSON, Result: last.Result}, nil
}
