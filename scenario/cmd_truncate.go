package scenario

import (
	"fmt"

	"github.com/cockroachdb/datadriven"
)

// Example: truncate big
func (e *Env) cmdTruncate(args []datadriven.CmdArg) (Output, error) {
	if len(args) == 0 || !positional(args[0]) {
		return Output{}, errorf("truncate: expected a table name")
	}
	if len(args) > 1 {
		return Output{}, errorf("truncate %s: takes no options", args[0].Key)
	}
	r, err := e.C.Truncate(args[0].Key)
	if err != nil {
		return Output{}, err
	}
	return Output{Text: fmt.Sprintf("ok: free list now %d buffers", r.FreeList),
		JSON: map[string]any{"free_list": r.FreeList}, Result: r}, nil
}
