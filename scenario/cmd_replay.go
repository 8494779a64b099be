package scenario

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/replay"
	"github.com/pgbufsim/pgbufsim/trace"
)

// Example: replay zipf.oracleGeneral format=oraclegeneral relation=trace
func (e *Env) cmdReplay(args []datadriven.CmdArg) (Output, error) {
	if len(args) == 0 || !positional(args[0]) {
		return Output{}, errorf("replay: expected a trace file: replay FILE format=oraclegeneral|csv [relation=NAME]")
	}
	path := args[0].Key
	format, haveFormat := trace.OracleGeneral, false
	relName := ""
	for _, a := range args[1:] {
		val, err := argVal(a)
		if err != nil {
			return Output{}, errorf("replay %s: %w", path, err)
		}
		switch a.Key {
		case "format":
			if format, err = trace.ParseFormat(val); err != nil {
				return Output{}, errorf("replay %s: %w", path, err)
			}
			haveFormat = true
		case "relation":
			relName = val
		default:
			return Output{}, errorf("replay %s: unknown option %q (format, relation)", path, a.Key)
		}
	}
	if !haveFormat {
		return Output{}, errorf("replay %s: give the trace's format=oraclegeneral or format=csv", path)
	}
	if format == trace.CSV && relName != "" {
		return Output{}, errorf("replay %s: relation= is for oraclegeneral traces; CSV lines name their relation", path)
	}
	if e.C.InTransaction() {
		return Output{}, errorf("replay %s: not inside a transaction block (commit first)", path)
	}
	file := path
	if !filepath.IsAbs(file) && e.Dir != "" {
		file = filepath.Join(e.Dir, file)
	}
	f, err := openTrace(path, file, format)
	if err != nil {
		return Output{}, errorf("replay %w", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() == 0 {
		return Output{}, errorf("replay %s: the trace is empty (0 bytes): %s", path, traceShape(format))
	}
	res, err := replay.Replay(e.C, f, path, format, relName)
	if err != nil {
		return Output{}, err
	}
	if res.Requests == 0 {
		return Output{}, errorf("replay %s: the trace has no accesses: %s", path, traceShape(format))
	}
	ratio := res.HitRatio()
	on := "relation " + res.Relation
	if strings.Contains(res.Relation, ",") {
		on = "relations " + res.Relation
	}
	if format != trace.CSV && relName == "" {
		on += " (the default relation=)"
	}
	text := fmt.Sprintf("Replay of %s (%s) on %s: %d blocks\n  Requests: %d  hits=%d misses=%d evictions=%d\n  Hit ratio: %.4f",
		res.File, res.Format, on, res.Blocks, res.Requests, res.Hits, res.Misses, res.Evictions, ratio)
	if res.Written > 0 {
		text += fmt.Sprintf("\n  Buffers written: %d", res.Written)
	}
	text += fmt.Sprintf("\n  Execution Time: %.3f ms (simulated)", float64(res.TimeNs)/1e6)
	return Output{Text: text, JSON: map[string]any{
		"requests": res.Requests, "hits": res.Hits, "misses": res.Misses, "evictions": res.Evictions,
		"hit_ratio": ratio, "shared_written": res.Written, "blocks": res.Blocks, "time_ms": ms(res.TimeNs),
	}, Result: res}, nil
}

// openTrace opens a trace file, which must be a regular file.
func openTrace(name, file string, format trace.Format) (*os.File, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: not a regular file", name)
	}
	return f, nil
}

// traceShape says what a trace of the format holds, for an empty one.
func traceShape(f trace.Format) string {
	if f == trace.CSV {
		return "a CSV trace has one access a line, relation,block[,op]"
	}
	return "an oracleGeneral trace has one 24-byte record an access (libCacheSim)"
}
