package scenario

import (
	"strconv"
	"strings"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/cluster"
)

// Example: crash after=writes:100
func (e *Env) cmdCrash(args []datadriven.CmdArg) (Output, error) {
	if e.C.InTransaction() {
		return Output{}, errorf("crash: a transaction block is open (commit first)")
	}
	var after int64
	for _, a := range args {
		switch {
		case a.Key == "after" && len(a.Vals) == 1:
			v, ok := strings.CutPrefix(a.Vals[0], "writes:")
			n, err := strconv.ParseInt(v, 10, 64)
			if !ok || err != nil || n < 1 {
				return Output{}, errorf("crash: after=%s: expected after=writes:N with N ≥ 1 (the N-th data page written to the device)", a.Vals[0])
			}
			after = n
		default:
			return Output{}, errorf("crash: unknown argument %q (expected: crash [after=writes:N])", a.String())
		}
	}
	if after > 0 {
		if err := e.C.CrashAfterWrites(after); err != nil {
			return Output{}, err
		}
		return Output{Text: "ok: the power fails as the " + strconv.FormatInt(after, 10) + ordinal(after) + " data page written to the device from now on starts its write",
			JSON: map[string]any{"armed_writes": after}}, nil
	}
	r, err := e.C.Crash()
	if err != nil {
		return Output{}, err
	}
	return Output{Text: r.String(), JSON: crashJSON(r), Result: r}, nil
}

func crashJSON(r cluster.CrashReport) map[string]any {
	return map[string]any{"at_ms": float64(r.AtNs) / 1e6, "wal_end": r.WALEnd.String(), "wal_lost": r.WALLost,
		"dirty_buffers_lost": r.DirtyBuffersLost, "dirty_os_pages_lost": r.DirtyOSPagesLost, "torn": len(r.Torn)}
}

// powerFailure completes the output of a command during which an armed
// crash fired: the command ran to its end in the simulator, but nothing it
// did after the moment of the crash survives.
func (e *Env) powerFailure(out *Output) {
	if e.C == nil {
		return
	}
	r, fired := e.C.PowerFailure()
	if !fired {
		return
	}
	if m, ok := out.JSON.(map[string]any); ok {
		m["crash"] = crashJSON(r)
	}
	out.PowerFailure = &r
	out.Text = strings.TrimRight(out.Text, "\n") + "\n" +
		"power failed during this command: what it did after that moment is void\n" + r.String()
}

// crashGate refuses commands between a crash and recover, and recover
// without a crash.
func (e *Env) crashGate(cmd string, args []datadriven.CmdArg) error {
	if e.C == nil {
		return nil
	}
	down := e.C.Down()
	switch {
	case cmd == "recover" && !down:
		return errorf("recover: the cluster has not crashed (crash first)")
	case down && cmd != "recover" && cmd != "cluster" && !(cmd == "show" && len(args) > 0 && args[0].Key == "corruption"):
		return errorf("%s: the server is down after the crash (run recover first)", cmd)
	}
	return nil
}
func ordinal(n int64) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return "th"
	case n%10 == 1:
		return "st"
	case n%10 == 2:
		return "nd"
	case n%10 == 3:
		return "rd"
	}
	return "th"
}
