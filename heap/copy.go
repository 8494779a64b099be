package heap

import (
	"strconv"
	"strings"
)

// # COPY's input (copyfrom.c, copyfromparse.c)
//
// How long a row's line of COPY's text format is: what COPY reads into its
// 64 kB input buffer before it forms the tuples, and so how many rows one
// multi-insert batch holds.

// COPY FROM buffers rows and flushes them with heap_multi_insert when 1,000
// are buffered or their input lines add up to 64 kB (copyfrom.c:
// MAX_BUFFERED_TUPLES, MAX_BUFFERED_BYTES, counted on line_buf.len).
const (
	CopyMaxBufferedTuples = 1000
	CopyMaxBufferedBytes  = 65535
)

// ErrCopyFreeze is PostgreSQL's error text for COPY FREEZE on a table not
// created or truncated in the current transaction.
const ErrCopyFreeze = "cannot perform COPY FREEZE because the table was not created or truncated in the current subtransaction"

// CopyLineLen is the length of row id's line in COPY's text format (without
// its newline): the fields separated by tabs. Rows are the same shape as
// verify loads: the id, then a pad of 'x' (or the declared columns).
func (rel *Relation) CopyLineLen(id int64) int {
	digits := len(strconv.FormatInt(id, 10))
	if len(rel.Columns) == 0 {
		if pad := rel.PadLen(); pad >= 0 {
			return digits + 1 + pad
		}
		return digits
	}
	n, idDone := 0, false
	for i, col := range rel.Columns {
		if i > 0 {
			n++ // tab
		}
		typ, ln, _ := strings.Cut(strings.TrimSpace(col), ":")
		switch typ {
		case "int2", "int4", "int", "integer", "int8", "bigint":
			if !idDone {
				n, idDone = n+digits, true
			} else {
				n++ // 0
			}
		case "float8":
			n++
		case "bool", "boolean":
			n++ // t
		case "date":
			n += len("2000-01-01")
		case "timestamp", "timestamptz":
			n += len("2000-01-01 00:00:00")
		case "uuid":
			n += 36
		default: // text:N, varchar:N; bytea:N in hex, its backslash escaped
			l, _ := strconv.Atoi(ln)
			if typ == "bytea" {
				l = 3 + 2*l // \\x and two hex digits a byte
			}
			n += l
		}
	}
	return n
}
