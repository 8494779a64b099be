package diagnose

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// # EXPLAIN's text format
//
// A plan copied from a terminal is text more often than JSON. The text
// format prints the same figures (ExplainNode, show_buffer_usage,
// show_wal_usage), but a "Buffers:" or "WAL:" line only when one of its
// counters is non-zero, so a missing line reads as zeros, and whether the
// options were given cannot be told from it (the JSON form can): a text
// plan without a single "Buffers:" line is refused, and one without "WAL:"
// lines is read as a statement that wrote none, with a note.

var (
	reActual  = regexp.MustCompile(`\(actual time=[0-9.]+\.\.([0-9.]+) rows=([0-9.]+) loops=([0-9]+)\)|\(actual rows=([0-9.]+) loops=([0-9]+)\)`)
	reNum     = regexp.MustCompile(`([a-z]+(?: [a-z]+)?)=([0-9.]+)`)
	reExecMs  = regexp.MustCompile(`^Execution Time: ([0-9.]+) ms`)
	reWorkers = regexp.MustCompile(`^Workers (Planned|Launched): ([0-9]+)`)
)

// textLine is a plan line without psql's frame, with its indentation.
type textLine struct {
	indent int
	text   string
}

// isTextPlan reports whether data looks like EXPLAIN ANALYZE's text output.
func isTextPlan(data []byte) bool {
	s := string(data)
	return strings.Contains(s, "(actual ") || strings.Contains(s, "Execution Time:") || strings.Contains(s, "(cost=")
}

// parseTextPlan reads EXPLAIN (ANALYZE, BUFFERS, WAL)'s text format.
func parseTextPlan(file string, data []byte) (*Plan, error) {
	var lines []textLine
	for _, raw := range strings.Split(string(data), "\n") {
		l := strings.TrimRight(raw, " \r")
		l = strings.TrimSuffix(l, "+") // psql's continuation mark
		l = strings.TrimRight(l, " ")
		t := strings.TrimLeft(l, " ")
		if t == "" || t == "QUERY PLAN" || strings.Trim(t, "-+") == "" || (strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")") && strings.Contains(t, "row")) {
			continue
		}
		lines = append(lines, textLine{indent: len(l) - len(t), text: t})
	}
	if len(lines) == 0 {
		return nil, &InputError{file, "empty plan; " + explainHint}
	}
	p := &Plan{VersionLow: 13, VersionHigh: 19, Settings: map[string]string{}}
	type frame struct {
		n      *Node
		indent int // the indentation of the node's properties
	}
	var stack []frame
	sawBuffers, sawWAL, sawActual := false, false, false
	inPlanning := false
	// EXPLAIN VERBOSE's "Worker N:" block: the lines indented under it are
	// that worker's figures, not the node's.
	workerIndent, workerN := -1, (*Node)(nil)
	for i, l := range lines {
		t := l.text
		isNode := i == 0 || strings.HasPrefix(t, "->")
		if isNode {
			inPlanning = false
			name := strings.TrimSpace(strings.TrimPrefix(t, "->"))
			n := parseTextNodeLine(name)
			if m := reActual.FindStringSubmatch(name); m != nil {
				sawActual = true
				if m[1] != "" {
					n.TotalMs, _ = strconv.ParseFloat(m[1], 64)
					n.ActualRows, _ = strconv.ParseFloat(m[2], 64)
					n.Loops, _ = strconv.ParseFloat(m[3], 64)
				} else {
					n.ActualRows, _ = strconv.ParseFloat(m[4], 64)
					n.Loops, _ = strconv.ParseFloat(m[5], 64)
				}
			}
			// The node's properties are indented past its "->" marker (or, for
			// the top node, past its own start).
			propIndent := l.indent + 2
			if strings.HasPrefix(t, "->") {
				propIndent = l.indent + 4
			}
			for len(stack) > 0 && stack[len(stack)-1].indent > l.indent {
				stack = stack[:len(stack)-1]
			}
			if len(stack) == 0 {
				if p.Root != nil {
					return nil, &InputError{fmt.Sprintf("%s:%d", file, i+1), "a second top-level plan node: give one statement's plan"}
				}
				p.Root = n
			} else {
				parent := stack[len(stack)-1].n
				parent.Children = append(parent.Children, n)
			}
			stack = append(stack, frame{n, propIndent})
			continue
		}
		if l.indent <= lines[0].indent {
			// Top-level lines: Planning:, Planning Time, Execution Time, Settings.
			inPlanning = strings.HasPrefix(t, "Planning:")
			if m := reExecMs.FindStringSubmatch(t); m != nil {
				p.ExecutionMs, _ = strconv.ParseFloat(m[1], 64)
			}
			if s, ok := strings.CutPrefix(t, "Settings: "); ok {
				for _, kv := range strings.Split(s, ", ") {
					k, v, ok := strings.Cut(kv, " = ")
					if ok {
						p.Settings[strings.TrimSpace(k)] = strings.Trim(strings.TrimSpace(v), "'")
					}
				}
			}
			continue
		}
		if inPlanning || len(stack) == 0 {
			continue
		}
		// A property line belongs to the innermost node whose property
		// indentation it reaches.
		for len(stack) > 1 && l.indent < stack[len(stack)-1].indent {
			stack = stack[:len(stack)-1]
		}
		n := stack[len(stack)-1].n
		target := &n.Counters
		if workerN == n && l.indent > workerIndent {
			target = &n.Workers[len(n.Workers)-1]
		} else {
			workerN = nil
		}
		switch {
		case strings.HasPrefix(t, "Worker ") && strings.Contains(t, ":"):
			n.Workers = append(n.Workers, Counters{})
			workerN, workerIndent = n, l.indent
		case strings.HasPrefix(t, "Buffers:"):
			sawBuffers = true
			parseTextBuffers(t, target)
		case strings.HasPrefix(t, "WAL:"):
			sawWAL = true
			parseTextWAL(t, target, p)
		case strings.HasPrefix(t, "I/O Timings:"):
			p.HasIOTiming = true
			parseTextIOTimings(t, target, p)
		case strings.HasPrefix(t, "Rows Removed by Filter:"):
			n.RemovedByFilter, _ = strconv.ParseFloat(strings.TrimSpace(strings.TrimPrefix(t, "Rows Removed by Filter:")), 64)
		case strings.HasPrefix(t, "Heap Fetches:"):
			v, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimPrefix(t, "Heap Fetches:")), 10, 64)
			n.HeapFetches = v
		default:
			if m := reWorkers.FindStringSubmatch(t); m != nil {
				v, _ := strconv.Atoi(m[2])
				if m[1] == "Planned" {
					n.WorkersPlanned = v
				} else {
					n.WorkersLaunched = v
				}
			}
		}
	}
	if p.Root == nil {
		return nil, &InputError{file, "no plan node found; " + explainHint}
	}
	if !sawActual {
		return nil, &InputError{file, "EXPLAIN without ANALYZE: the plan has estimates only; add ANALYZE (EXPLAIN (ANALYZE, BUFFERS, WAL))"}
	}
	if !sawBuffers {
		return nil, &InputError{file, "no \"Buffers:\" line: add BUFFERS (EXPLAIN (ANALYZE, BUFFERS, WAL)); BUFFERS is on by default with ANALYZE only from PostgreSQL 18"}
	}
	if !sawWAL {
		p.TextNoWAL = true
	}
	return p, nil
}

// parseTextNodeLine reads "Parallel Seq Scan on big b  (cost=…) (actual …)".
func parseTextNodeLine(s string) *Node {
	if i := strings.Index(s, "  ("); i >= 0 {
		s = s[:i]
	} else if i := strings.Index(s, " (cost="); i >= 0 {
		s = s[:i]
	} else if i := strings.Index(s, " (actual"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	n := &Node{Loops: 1}
	if rest, ok := strings.CutPrefix(s, "Parallel "); ok {
		n.ParallelAware, s = true, rest
	}
	for _, pre := range []string{"Finalize ", "Partial ", "Simple "} {
		s = strings.TrimPrefix(s, pre)
	}
	for _, op := range []string{"Insert", "Update", "Delete", "Merge"} {
		if rel, ok := strings.CutPrefix(s, op+" on "); ok {
			n.Type, n.Operation, n.Relation = "ModifyTable", op, relName(rel)
			return n
		}
	}
	head, rel, hasOn := strings.Cut(s, " on ")
	if idx, ok := strings.CutPrefix(head, "Index Only Scan using "); ok {
		n.Type, n.Index = "Index Only Scan", idx
	} else if idx, ok := strings.CutPrefix(head, "Index Scan using "); ok {
		n.Type, n.Index = "Index Scan", idx
	} else if idx, ok := strings.CutPrefix(head, "Index Scan Backward using "); ok {
		n.Type, n.Index = "Index Scan", idx
	} else {
		n.Type = head
	}
	if hasOn {
		n.Relation = relName(rel)
	}
	// Aggregate's strategies print as "HashAggregate", "GroupAggregate".
	if strings.HasSuffix(n.Type, "Aggregate") {
		n.Type = "Aggregate"
	}
	return n
}

// relName is the relation of "big b" or "public.big": big.
func relName(s string) string {
	s = strings.Fields(s)[0]
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		s = s[i+1:]
	}
	return strings.Trim(s, `"`)
}

// parseTextBuffers reads "Buffers: shared hit=1 read=2 dirtied=3 written=4, local …, temp …".
func parseTextBuffers(t string, c *Counters) {
	for _, seg := range strings.Split(strings.TrimPrefix(t, "Buffers:"), ",") {
		seg = strings.TrimSpace(seg)
		if !strings.HasPrefix(seg, "shared") {
			continue
		}
		for _, m := range reNum.FindAllStringSubmatch(seg, -1) {
			v, _ := strconv.ParseInt(m[2], 10, 64)
			switch m[1] {
			case "hit", "shared hit":
				c.SharedHit = v
			case "read", "shared read":
				c.SharedRead = v
			case "dirtied":
				c.SharedDirtied = v
			case "written":
				c.SharedWritten = v
			}
		}
	}
}

// parseTextWAL reads "WAL: records=1 fpi=1 bytes=8241 [fpi bytes=8192] [buffers full=3]".
func parseTextWAL(t string, c *Counters, p *Plan) {
	for _, m := range reNum.FindAllStringSubmatch(strings.TrimPrefix(t, "WAL:"), -1) {
		v, _ := strconv.ParseInt(m[2], 10, 64)
		switch m[1] {
		case "records":
			c.WALRecords = v
		case "fpi":
			c.WALFPI = v
		case "bytes":
			c.WALBytes = v
		case "fpi bytes":
			c.WALFPIBytes = v
			p.VersionLow = max(p.VersionLow, 19)
		case "buffers full":
			c.WALBuffersFull = v
			p.VersionLow = max(p.VersionLow, 18)
		}
	}
}

// parseTextIOTimings reads "I/O Timings: shared read=2.024 write=0.1, temp …"
// ("shared/local read=…" or "read=…" in some releases: the wording changed
// in minor releases too, so it says nothing of the version).
func parseTextIOTimings(t string, c *Counters, p *Plan) {
	for _, seg := range strings.Split(strings.TrimPrefix(t, "I/O Timings:"), ",") {
		seg = strings.TrimSpace(seg)
		if strings.HasPrefix(seg, "temp") || strings.HasPrefix(seg, "local ") {
			continue
		}
		for _, m := range reNum.FindAllStringSubmatch(seg, -1) {
			v, _ := strconv.ParseFloat(m[2], 64)
			switch m[1] {
			case "read", "shared read", "local read":
				c.ReadMs = v
			case "write", "shared write", "local write":
				c.WriteMs = v
			}
		}
	}
}
