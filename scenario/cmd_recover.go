package scenario

import (
	"fmt"
	"strings"

	"github.com/cockroachdb/datadriven"
)

// Example: recover
func (e *Env) cmdRecover(args []datadriven.CmdArg) (Output, error) {
	if len(args) > 0 {
		return Output{}, errorf("recover: takes no arguments")
	}
	r, err := e.C.Recover()
	if err != nil {
		return Output{}, err
	}
	torn := ""
	if len(r.Torn) > 0 {
		names := r.Torn
		if len(names) > 8 {
			names = append(append([]string{}, names[:8]...), fmt.Sprintf("… (%d more)", len(r.Torn)-8))
		}
		torn = " (" + strings.Join(names, " ") + ")"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "redo from %s (last completed checkpoint) to %s: %d bytes of WAL replayed\n", r.RedoFrom, r.RedoTo, r.ReplayedBytes)
	fmt.Fprintf(&b, "torn pages: %d%s\n", len(r.Torn), torn)
	fmt.Fprintf(&b, "  no sector new / all 16 new (a whole version, redo brings it forward): %d / %d\n", r.Untouched, r.Whole)
	fmt.Fprintf(&b, "  restored from a full-page image: %d\n", r.Images)
	fmt.Fprintf(&b, "  rebuilt from the record that initialised them (added after the redo pointer): %d\n", r.Rebuilt)
	fmt.Fprintf(&b, "  hint bits only (no WAL needed): %d\n", r.HintOnly)
	fmt.Fprintf(&b, "  corrupted (sectors of two versions, no image to restore): %d\n", len(r.Corrupted))
	if len(r.Corrupted) > 0 {
		if r.Checksums {
			b.WriteString("  PostgreSQL's redo would stop at the first record touching one: ERROR invalid page (checksum mismatch), FATAL in the startup process\n")
		} else {
			b.WriteString("  data_checksums=off: redo applies its records to the torn pages and nothing notices\n")
		}
	}
	fmt.Fprintf(&b, "end-of-recovery checkpoint: redo lsn=%s", r.RedoLSN)
	return Output{Text: b.String(), JSON: map[string]any{
		"redo_from": r.RedoFrom.String(), "redo_to": r.RedoTo.String(), "replayed_bytes": r.ReplayedBytes,
		"torn": len(r.Torn), "untouched": r.Untouched, "whole": r.Whole, "images": r.Images, "rebuilt": r.Rebuilt,
		"hint_only": r.HintOnly, "corrupted": len(r.Corrupted)}, Result: r}, nil
}
