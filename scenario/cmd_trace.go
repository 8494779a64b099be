package scenario

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/cluster"
	"github.com/pgbufsim/pgbufsim/pg"
)

// Teaching: `trace`, `plot` and the recording that `pgbufsim plot` and
// `pgbufsim animate` draw. All of it watches the pool through one
// bufmgr.Tracer, installed only while a trace is on or a recording is kept,
// so a scenario without them runs the untraced hot paths.

// teaching is an Env's trace and recording state.
type teaching struct {
	on     *cluster.Cluster // the cluster the observer is installed on
	trace  bool
	events [bufmgr.NumEventKinds]bool
	limit  int
	lines  []string
	more   int
	rec    Recording
	allocs int    // victims taken since the recording started
	cmd    string // the command running, as written (recording samples carry it)
}

// defaultTraceLimit is how many event lines one command prints at most.
const defaultTraceLimit = 400

// traceLegend explains each event, in bufmgr.EventKind order.
var traceLegend = [bufmgr.NumEventKinds]string{
	"reuse     GetBufferFromRing gave back the ring slot's buffer (unpinned, usage <= 1)",
	"escape    the ring slot's buffer was pinned or used again (usage > 1): it leaves the ring",
	"free      StrategyGetBuffer took the buffer at the head of the free list",
	"hand      ClockSweepTick: the clock hand passed a pinned buffer",
	"usage     ClockSweepTick: the hand took one usage count from an unpinned buffer",
	"victim    the hand stopped on an unpinned buffer at usage 0: its page is evicted",
	"reject    StrategyRejectBuffer: a dirty ring buffer would need a WAL flush; take another",
	"fpi       MarkBufferDirtyHint: first hint since the checkpoint logs XLOG_FPI_FOR_HINT",
	"walflush  FlushBuffer: XLogFlush up to the page LSN before writing (WAL before data)",
	"write     FlushBuffer wrote the page",
}

const traceHeader = "     time_ms process            event      buf page           u d detail"

// Example: trace on events=(victim,usage) limit=100
func (e *Env) cmdTrace(args []datadriven.CmdArg) (Output, error) {
	if len(args) == 0 || !positional(args[0]) || (args[0].Key != "on" && args[0].Key != "off") {
		return Output{}, fmt.Errorf("trace: expected on or off (trace on [events=(victim,usage,…)] [limit=N])")
	}
	t := &e.teach
	if args[0].Key == "off" {
		if len(args) > 1 {
			return Output{}, fmt.Errorf("trace off: takes no options")
		}
		t.trace = false
		e.syncTracer()
		return Output{Text: "ok", JSON: map[string]any{}}, nil
	}
	var names []string
	for k := bufmgr.EventKind(0); k < bufmgr.NumEventKinds; k++ {
		names = append(names, k.String())
	}
	var events [bufmgr.NumEventKinds]bool
	for i := range events {
		events[i] = true
	}
	limit := defaultTraceLimit
	for _, a := range args[1:] {
		switch a.Key {
		case "events":
			events = [bufmgr.NumEventKinds]bool{}
			for _, v := range a.Vals {
				k, ok := eventByName(strings.TrimSpace(v))
				if !ok {
					return Output{}, &pg.SettingError{Name: "events", Value: v, Allowed: "is not an event (" + strings.Join(names, ", ") + ")"}
				}
				events[k] = true
			}
			if len(a.Vals) == 0 {
				return Output{}, fmt.Errorf("trace on: events needs a list, e.g. events=(victim,usage)")
			}
		case "limit":
			v, err := argVal(a)
			if err != nil {
				return Output{}, err
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return Output{}, &pg.SettingError{Name: "limit", Value: v, Allowed: "must be a whole number of event lines a command, at least 1"}
			}
			limit = n
		default:
			return Output{}, fmt.Errorf("trace on: unknown option %q (events, limit)", a.Key)
		}
	}
	t.trace, t.events, t.limit = true, events, limit
	e.syncTracer()
	var on []string
	var b strings.Builder
	for k := bufmgr.EventKind(0); k < bufmgr.NumEventKinds; k++ {
		if events[k] {
			on = append(on, k.String())
		}
	}
	fmt.Fprintf(&b, "trace on: %s (at most %d lines a command)\n", strings.Join(on, ", "), limit)
	b.WriteString("columns: time_ms of the process's simulated clock, process, event, buffer, the page it holds\n")
	b.WriteString("(relation/block; - when none), u its usage count after the event, d * when dirty, detail\n")
	for k := bufmgr.EventKind(0); k < bufmgr.NumEventKinds; k++ {
		if events[k] {
			b.WriteString("  " + traceLegend[k] + "\n")
		}
	}
	return Output{Text: strings.TrimRight(b.String(), "\n"), JSON: map[string]any{"events": on, "limit": limit}}, nil
}

func eventByName(s string) (bufmgr.EventKind, bool) {
	for k := bufmgr.EventKind(0); k < bufmgr.NumEventKinds; k++ {
		if k.String() == s {
			return k, true
		}
	}
	return 0, false
}

// syncTracer installs the Env's tracer on the current pool when a trace is
// on or a recording is kept, and removes it otherwise.
func (e *Env) syncTracer() {
	t := &e.teach
	if e.C == nil {
		return
	}
	want := t.trace || e.Record
	switch {
	case want && t.on != e.C:
		if t.on != nil {
			t.on.SetObserver(nil)
		}
		t.on = e.C
		t.on.SetObserver(envObserver{e})
	case !want && t.on != nil:
		t.on.SetObserver(nil)
		t.on = nil
	}
}

// beforeCommand: a statement forgets the rings of the one before it (show
// pool marks the last statement's); the tracer follows the cluster.
func (e *Env) beforeCommand(cmd string, args []datadriven.CmdArg) {
	e.teach.lines, e.teach.more = nil, 0
	e.teach.cmd = cmd
	for _, a := range args {
		e.teach.cmd += " " + a.String()
	}
	if e.C != nil && cmd != "show" && cmd != "trace" && cmd != "plot" {
		e.C.Pool().ForgetRings()
	}
	e.syncTracer()
}

// afterCommand appends the command's trace lines to its output and takes a
// recording sample and frame.
func (e *Env) afterCommand(cmd string, args []datadriven.CmdArg, out *Output, err error) {
	t := &e.teach
	if cmd == "cluster" && err == nil {
		t.rec = Recording{walStart: e.C.WAL().InsertLSN()}
		t.allocs = 0
		e.syncTracer()
	}
	if e.Record && e.C != nil && err == nil {
		label := cmd
		for _, a := range args {
			label += " " + a.String()
		}
		e.sample(e.C.Now(), label, true)
	}
	if err == nil && len(t.lines) > 0 {
		var b strings.Builder
		b.WriteString(out.Text)
		b.WriteString("\ntrace:\n" + traceHeader + "\n")
		b.WriteString(strings.Join(t.lines, "\n"))
		if t.more > 0 {
			fmt.Fprintf(&b, "\n… %d more events (trace on limit=N shows more)", t.more)
		}
		out.Text = b.String()
	}
	t.lines, t.more = nil, 0
}

// envObserver is the Env as the cluster's observer.
type envObserver struct{ e *Env }

func (o envObserver) BufferEvent(ev bufmgr.Event) { o.e.onEvent(ev) }

// onEvent takes one buffer-manager step: a trace line, a recording sample.
func (e *Env) onEvent(ev bufmgr.Event) {
	t := &e.teach
	if t.trace && t.events[ev.Kind] {
		if len(t.lines) < t.limit {
			t.lines = append(t.lines, e.traceLine(ev))
		} else {
			t.more++
		}
	}
	if e.Record {
		switch ev.Kind {
		case bufmgr.EvFreeListPop, bufmgr.EvVictim, bufmgr.EvRingReuse:
			t.allocs++
			e.sampleDuring(ev)
		}
	}
}

// traceLine formats one event in fixed columns.
func (e *Env) traceLine(ev bufmgr.Event) string {
	page := "-"
	if ev.Valid {
		page = fmt.Sprintf("%s/%d", e.C.RelName(ev.Tag.Rel), ev.Tag.Block)
	}
	d := " "
	if ev.Dirty {
		d = "*"
	}
	var detail string
	forPage := fmt.Sprintf("for %s/%d", e.C.RelName(ev.For.Rel), ev.For.Block)
	switch ev.Kind {
	case bufmgr.EvFreeListPop, bufmgr.EvVictim:
		detail = forPage
		if ev.Slot >= 0 {
			detail += fmt.Sprintf(", into %s ring slot %d", ev.Ring, ev.Slot)
		}
	case bufmgr.EvRingReuse:
		detail = fmt.Sprintf("%s, %s ring slot %d", forPage, ev.Ring, ev.Slot)
	case bufmgr.EvRingEscape:
		why := "used again"
		if ev.Pinned {
			why = "pinned"
		}
		detail = fmt.Sprintf("%s ring slot %d: %s", ev.Ring, ev.Slot, why)
	case bufmgr.EvReject:
		detail = fmt.Sprintf("%s: page lsn %s > flushed %s", forPage, e.C.Pool().BufferLSN(ev.Buffer), e.C.WAL().FlushLSN())
	case bufmgr.EvFPIForHint:
		detail = fmt.Sprintf("%d bytes, lsn %s", ev.Bytes, ev.LSN)
	case bufmgr.EvWALFlush:
		detail = fmt.Sprintf("flushed %s, page lsn %s", ev.From, ev.LSN)
	case bufmgr.EvWrite:
		detail = "context " + ev.Ring.String()
	}
	if len(page) > 14 {
		page = page[:13] + "…"
	}
	line := fmt.Sprintf("%12s %-18s %-8s %5d %-14s %d %s %s", formatMs(ev.Now), ev.Backend, ev.Kind, ev.Buffer, page, ev.Usage, d, detail)
	return strings.TrimRight(line, " ")
}

// formatMs prints nanoseconds as milliseconds with all six decimals.
func formatMs(ns int64) string { return fmt.Sprintf("%d.%06d", ns/1e6, ns%1e6) }

// Example: show pool
func (e *Env) showPool(args []datadriven.CmdArg) (Output, error) {
	if len(args) > 0 {
		return Output{}, fmt.Errorf("show pool: takes no options")
	}
	m := PoolMapOf(e.C)
	return Output{Text: m.Text(), JSON: m, Result: m}, nil
}
