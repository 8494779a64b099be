package scenario

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/cluster"
)

// errorf makes an error of the scenario layer (printed as "error: ..." in scenario output).
func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// stmt prints a statement's result as text and JSON.
func stmt(r *cluster.StmtResult, err error) (Output, error) {
	if err != nil {
		return Output{}, err
	}
	return Output{Text: r.String(), JSON: stmtJSON(r), Result: r}, nil
}

// stmtJSON is the result object of the scenario language's machine-readable output.
func stmtJSON(r *cluster.StmtResult) map[string]any {
	js := map[string]any{
		"shared_hit": r.Buf.Hit, "shared_read": r.Buf.Read, "shared_dirtied": r.Buf.Dirtied,
		"shared_written": r.Buf.Written, "wal_records": r.WAL.Records, "wal_fpi": r.WAL.FPI,
		"wal_bytes": r.WAL.Bytes, "wal_buffers_full": r.WAL.BuffersFull, "strategy": r.Strategy.String(),
		"ring_buffers": r.RingBuffers, "ring_rejected": r.Rejects, "workers": r.Workers, "time_ms": ms(r.TimeNs), "io_read_ms": ms(r.IOReadNs),
	}
	if strings.HasPrefix(r.Kind, "Index Scan") {
		js["from"], js["to"] = r.From, r.To
	}
	if r.IndexPages > 0 {
		js["index_pages"] = r.IndexPages
	}
	if r.Kind == "Analyze" {
		js["scanned_pages"], js["rel_pages"] = r.Scanned, r.RelPages
	}
	return js
}

// ms is nanoseconds as milliseconds, to the microsecond.
func ms(ns int64) float64 { return float64(ns/1000) / 1000 }

// oneTable takes a command's first argument as an existing table's name.
func (e *Env) oneTable(cmd string, args []datadriven.CmdArg) (string, []datadriven.CmdArg, error) {
	if len(args) == 0 || !positional(args[0]) {
		return "", nil, errorf("%s: expected a table name", cmd)
	}
	if _, ok := e.C.Table(args[0].Key); !ok {
		return "", nil, errorf("%s %s: relation %q does not exist", cmd, args[0].Key, args[0].Key)
	}
	return args[0].Key, args[1:], nil
}

// rowsArg parses rows=N, at least 1.
func rowsArg(cmd, table string, a datadriven.CmdArg) (int64, error) {
	v, err := argVal(a)
	if err != nil {
		return 0, err
	}
	n, perr := parseInt(v)
	if ne, isNum := perr.(*strconv.NumError); isNum && ne.Err == strconv.ErrRange && !strings.HasPrefix(v, "-") {
		return 0, errorf("%s %s: rows=%s: out of range: at most %d (a 64-bit integer); must be a whole number of rows, at least 1", cmd, table, v, int64(math.MaxInt64))
	}
	if perr != nil || n < 1 {
		return 0, errorf("%s %s: rows=%s: must be a whole number of rows in digits, at least 1", cmd, table, v)
	}
	return n, nil
}

// parseInt parses a decimal int64.
func parseInt(v string) (int64, error) { return strconv.ParseInt(v, 10, 64) }
