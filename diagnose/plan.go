package diagnose

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Counters are one plan node's BUFFERS, WAL and I/O timing figures, as
// EXPLAIN (ANALYZE, BUFFERS, WAL, FORMAT JSON) prints them. A node's figures
// include its children's and, under a Gather, its workers'
// (InstrAccumParallelQuery).
type Counters struct {
	SharedHit, SharedRead, SharedDirtied, SharedWritten int64
	WALRecords, WALFPI, WALBytes, WALBuffersFull        int64
	// WALFPIBytes is the images' own bytes ("WAL FPI Bytes", 19+: the sum of
	// their lengths without the hole, XLogRecordAssemble's bimg.length).
	WALFPIBytes int64
	// ReadMs and WriteMs are the shared-buffer I/O timings (track_io_timing):
	// "I/O Read Time" in 13–16, "Shared I/O Read Time" from 17.
	ReadMs, WriteMs float64
}

// Touched is the pages a node asked shared buffers for: hits plus reads.
func (c Counters) Touched() int64 { return c.SharedHit + c.SharedRead }

// Node is one plan node.
type Node struct {
	Type          string // "Seq Scan", "Index Scan", "ModifyTable", "Gather", …
	Operation     string // ModifyTable's "Insert", "Update", …
	Relation      string
	Index         string
	ParallelAware bool
	ActualRows    float64 // per loop, as EXPLAIN prints it
	// RemovedByFilter is "Rows Removed by Filter", per loop like ActualRows.
	RemovedByFilter float64
	// HeapFetches is an Index Only Scan's "Heap Fetches" (over all loops).
	HeapFetches int64
	Loops       float64
	TotalMs     float64
	// WorkersPlanned and WorkersLaunched are a Gather's.
	WorkersPlanned, WorkersLaunched int
	Counters
	// Workers are the parallel workers' own figures (EXPLAIN VERBOSE's
	// "Workers" list); the node's Counters include them.
	Workers  []Counters
	Children []*Node
}

// Rows is the node's rows over all its loops.
func (n *Node) Rows() int64 { return int64(n.ActualRows*n.Loops + 0.5) }

// RowsRead is the rows the node looked at: returned plus removed by its filter.
func (n *Node) RowsRead() int64 { return int64((n.ActualRows+n.RemovedByFilter)*n.Loops + 0.5) }

// Label is the node as EXPLAIN's text format names it: "Parallel Seq Scan on big".
func (n *Node) Label() string {
	s := n.Type
	if s == "ModifyTable" && n.Operation != "" {
		s = n.Operation // EXPLAIN's text format: "Insert on t"
	}
	if n.ParallelAware {
		s = "Parallel " + s
	}
	if n.Index != "" {
		s += " using " + n.Index
	}
	if n.Relation != "" {
		s += " on " + n.Relation
	}
	return s
}

// Plan is one statement's EXPLAIN (ANALYZE, BUFFERS, WAL, FORMAT JSON).
type Plan struct {
	Root        *Node
	ExecutionMs float64
	// Settings is EXPLAIN (SETTINGS)'s list of settings changed from their defaults.
	Settings map[string]string
	// VersionLow..VersionHigh is what the plan's field names allow (13..19).
	VersionLow, VersionHigh int
	HasIOTiming             bool
	// TextNoWAL: a text-format plan without a "WAL:" line (no WAL, or the
	// WAL option was not given: the text format cannot tell).
	TextNoWAL bool
}

// Walk calls fn for every node, parents first.
func (p *Plan) Walk(fn func(*Node)) {
	var walk func(*Node)
	walk = func(n *Node) {
		fn(n)
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(p.Root)
}

// ReadOnly reports whether the statement changes no table: no ModifyTable
// node (INSERT, UPDATE, DELETE, MERGE, also inside a CTE) and no LockRows
// (SELECT … FOR UPDATE/SHARE writes XLOG_HEAP_LOCK records, with images of
// pages first changed since the checkpoint: not hint bits).
func (p *Plan) ReadOnly() bool {
	ro := true
	p.Walk(func(n *Node) {
		if n.Type == "ModifyTable" || n.Type == "LockRows" {
			ro = false
		}
	})
	return ro
}

// InputError is a plan, settings or buffercache file pgbufsim cannot use, with what to do.
type InputError struct {
	File string
	Msg  string
}

func (e *InputError) Error() string { return e.File + ": " + e.Msg }

const explainHint = "run the statement under EXPLAIN (ANALYZE, BUFFERS, WAL, FORMAT JSON)"

// ParsePlan reads EXPLAIN's JSON output: the array psql prints (or its one
// element). PostgreSQL 13 to 19 field names are understood; a plan without
// ANALYZE, BUFFERS or WAL is refused, naming the option to add. The text
// format is read too (plantext.go).
func ParsePlan(file string, data []byte) (*Plan, error) {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] != '[' && data[0] != '{' && isTextPlan(data) {
		return parseTextPlan(file, data)
	}
	data = trimPsqlFrame(data)
	if len(data) == 0 {
		return nil, &InputError{file, "empty file; " + explainHint}
	}
	var raw any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return nil, &InputError{file, fmt.Sprintf("not JSON (%v); %s", err, explainHint)}
	}
	if arr, ok := raw.([]any); ok {
		if len(arr) != 1 {
			return nil, &InputError{file, fmt.Sprintf("a JSON array of %d elements; EXPLAIN (FORMAT JSON) prints an array of one statement", len(arr))}
		}
		raw = arr[0]
	}
	top, ok := raw.(map[string]any)
	if !ok {
		return nil, &InputError{file, "JSON that is not an EXPLAIN: expected an object with a \"Plan\" key; " + explainHint}
	}
	planObj, ok := top["Plan"].(map[string]any)
	if !ok {
		return nil, &InputError{file, "JSON that is not an EXPLAIN: no \"Plan\" object; " + explainHint}
	}
	p := &Plan{VersionLow: 13, VersionHigh: 19, Settings: map[string]string{}}
	if _, ok := planObj["Actual Total Time"]; !ok {
		if _, ok := planObj["Actual Rows"]; !ok {
			return nil, &InputError{file, "EXPLAIN without ANALYZE: the plan has estimates only; add ANALYZE (EXPLAIN (ANALYZE, BUFFERS, WAL, FORMAT JSON))"}
		}
	}
	if _, ok := planObj["Shared Hit Blocks"]; !ok {
		return nil, &InputError{file, "EXPLAIN without BUFFERS: no \"Shared Hit Blocks\"; add BUFFERS (EXPLAIN (ANALYZE, BUFFERS, WAL, FORMAT JSON)); BUFFERS is on by default with ANALYZE only from PostgreSQL 18"}
	}
	if _, ok := planObj["WAL Records"]; !ok {
		return nil, &InputError{file, "EXPLAIN without WAL: no \"WAL Records\"; add WAL (EXPLAIN (ANALYZE, BUFFERS, WAL, FORMAT JSON), PostgreSQL 13 or later)"}
	}
	p.Root = parseNode(p, planObj)
	p.ExecutionMs = num(top["Execution Time"])
	if s, ok := top["Settings"].(map[string]any); ok {
		for k, v := range s {
			p.Settings[k] = fmt.Sprint(v)
		}
	}
	if p.VersionLow > p.VersionHigh {
		return nil, &InputError{file, fmt.Sprintf("field names of PostgreSQL %d and later together with the absence of fields every version from %d has: not one server's EXPLAIN", p.VersionLow, p.VersionHigh+1)}
	}
	return p, nil
}

// trimPsqlFrame strips psql's aligned-output frame around a JSON plan
// (" QUERY PLAN", a dashed line, "+" continuation marks, "(1 row)"), so a
// plan copied from a psql terminal reads as well as one saved with \o.
func trimPsqlFrame(b []byte) []byte {
	if len(b) == 0 || b[0] == '[' || b[0] == '{' {
		return b
	}
	lines := strings.Split(string(b), "\n")
	var out []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "QUERY PLAN" || strings.Trim(t, "-") == "" || (strings.HasPrefix(t, "(") && strings.HasSuffix(t, "row)") || strings.HasSuffix(t, "rows)")) {
			continue
		}
		out = append(out, strings.TrimSuffix(strings.TrimRight(l, " "), "+"))
	}
	return []byte(strings.TrimSpace(strings.Join(out, "\n")))
}

func num(v any) float64 {
	switch x := v.(type) {
	case json.Number:
		f, _ := x.Float64()
		return f
	case float64:
		return x
	}
	return 0
}

func str(v any) string { s, _ := v.(string); return s }

// parseNode reads one node and its children, narrowing the version range by
// the fields EXPLAIN prints: "WAL Buffers Full" and "Disabled" appeared in
// 18, "Shared I/O Read Time" in 17 (before, "I/O Read Time"), "Async
// Capable" in 14.
func parseNode(p *Plan, m map[string]any) *Node {
	n := &Node{
		Type: str(m["Node Type"]), Operation: str(m["Operation"]), Relation: str(m["Relation Name"]),
		Index: str(m["Index Name"]), ActualRows: num(m["Actual Rows"]), Loops: num(m["Actual Loops"]),
		TotalMs: num(m["Actual Total Time"]), RemovedByFilter: num(m["Rows Removed by Filter"]),
		HeapFetches: int64(num(m["Heap Fetches"])),
	}
	n.ParallelAware, _ = m["Parallel Aware"].(bool)
	n.WorkersPlanned, n.WorkersLaunched = int(num(m["Workers Planned"])), int(num(m["Workers Launched"]))
	n.Counters = counters(m)
	if ws, ok := m["Workers"].([]any); ok {
		for _, w := range ws {
			if wm, ok := w.(map[string]any); ok {
				if _, ok := wm["Shared Hit Blocks"]; ok {
					n.Workers = append(n.Workers, counters(wm))
				}
			}
		}
	}
	has := func(k string) bool { _, ok := m[k]; return ok }
	if has("WAL FPI Bytes") {
		atLeast := 19
		p.VersionLow = max(p.VersionLow, atLeast)
	}
	atLeast := func(v int) { p.VersionLow = max(p.VersionLow, v) }
	below := func(v int) { p.VersionHigh = min(p.VersionHigh, v-1) }
	switch {
	case has("Shared I/O Read Time"):
		p.HasIOTiming = true
		atLeast(17)
	case has("I/O Read Time"):
		p.HasIOTiming = true
		below(17)
	}
	if has("WAL Records") {
		if has("WAL Buffers Full") {
			atLeast(18)
		} else {
			below(18)
		}
	}
	if has("Disabled") {
		atLeast(18)
	}
	if has("Async Capable") {
		atLeast(14)
	} else if n.Type != "" {
		below(14)
	}
	if kids, ok := m["Plans"].([]any); ok {
		for _, k := range kids {
			if km, ok := k.(map[string]any); ok {
				n.Children = append(n.Children, parseNode(p, km))
			}
		}
	}
	return n
}

// counters reads a node's (or a worker's) figures; I/O timings under their
// 17+ names or the 13–16 ones.
func counters(m map[string]any) Counters {
	i := func(k string) int64 { return int64(num(m[k])) }
	c := Counters{
		SharedHit: i("Shared Hit Blocks"), SharedRead: i("Shared Read Blocks"),
		SharedDirtied: i("Shared Dirtied Blocks"), SharedWritten: i("Shared Written Blocks"),
		WALRecords: i("WAL Records"), WALFPI: i("WAL FPI"), WALBytes: i("WAL Bytes"), WALBuffersFull: i("WAL Buffers Full"),
		WALFPIBytes: i("WAL FPI Bytes"),
	}
	if _, ok := m["Shared I/O Read Time"]; ok {
		c.ReadMs, c.WriteMs = num(m["Shared I/O Read Time"]), num(m["Shared I/O Write Time"])
	} else {
		c.ReadMs, c.WriteMs = num(m["I/O Read Time"]), num(m["I/O Write Time"])
	}
	return c
}

// scans are the plan's table scans, largest (pages touched) first.
func (p *Plan) scans() []*Node {
	var out []*Node
	p.Walk(func(n *Node) {
		switch n.Type {
		case "Seq Scan", "Index Scan", "Index Only Scan", "Bitmap Heap Scan", "Tid Scan", "Tid Range Scan", "Sample Scan":
			if n.Relation != "" {
				out = append(out, n)
			}
		}
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].Touched() > out[j].Touched() })
	return out
}

// gatherOf is the Gather (or Gather Merge) above n, or nil.
func (p *Plan) gatherOf(target *Node) *Node {
	var found *Node
	var walk func(n, g *Node)
	walk = func(n, g *Node) {
		if n == target {
			found = g
			return
		}
		if n.Type == "Gather" || n.Type == "Gather Merge" {
			g = n
		}
		for _, c := range n.Children {
			walk(c, g)
		}
	}
	walk(p.Root, nil)
	return found
}
