package scenario

import (
	"fmt"

	"github.com/cockroachdb/datadriven"
)

// Example: drop caches
func (e *Env) cmdDropCaches(args []datadriven.CmdArg) (Output, error) {
	if len(args) != 1 || !positional(args[0]) || args[0].Key != "caches" {
		return Output{}, errorf("drop: expected: drop caches")
	}
	r, err := e.C.DropCaches()
	if err != nil {
		return Output{}, err
	}
	return Output{Text: fmt.Sprintf("ok: %d pages dropped from the OS page cache; %d dirty pages stay", r.Dropped, r.Cached),
		JSON: map[string]any{"dropped": r.Dropped, "cached": r.Cached}, Result: r}, nil
}
