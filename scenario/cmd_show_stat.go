package scenario

import (
	"fmt"
	"strings"

	"github.com/cockroachdb/datadriven"
)

// Example: show stat bgwriter since=load
func (e *Env) showStatBgwriter(args []datadriven.CmdArg) (Output, error) {
	since, _, err := sinceArgs(args[1:])
	if err != nil {
		return Output{}, errorf("show stat bgwriter: %w", err)
	}
	r, err := e.C.StatBgwriterSince(since)
	if err != nil {
		return Output{}, err
	}
	ms := func(f float64) string { return fmt.Sprintf("%.3f", f) }
	var b strings.Builder
	if r.Version >= 17 {
		fmt.Fprintf(&b, "pg_stat_checkpointer: num_timed=%d num_requested=%d", r.CheckpointsTimed, r.CheckpointsReq)
		if r.Version >= 18 {
			fmt.Fprintf(&b, " num_done=%d", r.CheckpointsDone)
		}
		fmt.Fprintf(&b, " write_time=%s sync_time=%s buffers_written=%d\n", ms(r.WriteTimeMs), ms(r.SyncTimeMs), r.BuffersCheckpoint)
		fmt.Fprintf(&b, "pg_stat_bgwriter: buffers_clean=%d maxwritten_clean=%d buffers_alloc=%d", r.BuffersClean, r.MaxwrittenClean, r.BuffersAlloc)
	} else {
		fmt.Fprintf(&b, "pg_stat_bgwriter: checkpoints_timed=%d checkpoints_req=%d checkpoint_write_time=%s checkpoint_sync_time=%s buffers_checkpoint=%d\n",
			r.CheckpointsTimed, r.CheckpointsReq, ms(r.WriteTimeMs), ms(r.SyncTimeMs), r.BuffersCheckpoint)
		fmt.Fprintf(&b, "  buffers_clean=%d maxwritten_clean=%d buffers_backend=%d buffers_alloc=%d", r.BuffersClean, r.MaxwrittenClean, r.BuffersBackend, r.BuffersAlloc)
	}
	return Output{Text: b.String(), JSON: map[string]any{
		"checkpoints_timed": r.CheckpointsTimed, "checkpoints_req": r.CheckpointsReq, "checkpoints_done": r.CheckpointsDone,
		"buffers_checkpoint": r.BuffersCheckpoint, "buffers_clean": r.BuffersClean, "maxwritten_clean": r.MaxwrittenClean,
		"buffers_backend": r.BuffersBackend, "buffers_alloc": r.BuffersAlloc,
		"write_time_ms": r.WriteTimeMs, "sync_time_ms": r.SyncTimeMs}, Result: r}, nil
}

// serverLog appends the server log lines the background processes wrote
// during the command (log_checkpoints), in the JSON as "log".
func (e *Env) serverLog(out *Output) {
	if e.C == nil {
		return
	}
	lines := e.C.ServerLog()
	if len(lines) == 0 {
		return
	}
	if m, ok := out.JSON.(map[string]any); ok {
		m["log"] = lines
	}
	if out.Text == "ok" || out.Text == "" {
		out.Text = strings.Join(lines, "\n")
		return
	}
	out.Text = strings.TrimRight(out.Text, "\n") + "\n" + strings.Join(lines, "\n")
}
