package bufmgr

import (
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/strategy"
)

// EventKind is one step of the buffer manager a Tracer can watch. The first
// kinds are strategy.EventKind's, in the same order.
type EventKind uint8

// Traced steps.
const (
	EvRingReuse      = EventKind(strategy.EvRingReuse)      // GetBufferFromRing gave the slot's buffer back
	EvRingEscape     = EventKind(strategy.EvRingEscape)     // the slot's buffer was pinned or used: it left the ring
	EvFreeListPop    = EventKind(strategy.EvFreeListPop)    // a buffer from the free list
	EvHandPinned     = EventKind(strategy.EvHandPinned)     // the clock hand passed a pinned buffer
	EvUsageDecrement = EventKind(strategy.EvUsageDecrement) // the clock hand took one usage count
	EvVictim         = EventKind(strategy.EvVictim)         // the clock hand chose an unpinned buffer at usage 0
)

// Steps of bufmgr itself.
const (
	// EvReject: StrategyRejectBuffer dropped a dirty ring buffer whose write needed a WAL flush.
	EvReject = EventKind(strategy.NumEventKinds) + iota
	// EvFPIForHint: MarkBufferDirtyHint logged an XLOG_FPI_FOR_HINT (XLogSaveBufferForHint).
	EvFPIForHint
	// EvWALFlush: FlushBuffer had to XLogFlush up to the page's LSN before writing.
	EvWALFlush
	// EvWrite: FlushBuffer wrote the page.
	EvWrite
	// NumEventKinds counts the kinds.
	NumEventKinds
)

var eventNames = [NumEventKinds]string{"reuse", "escape", "free", "hand", "usage", "victim", "reject", "fpi", "walflush", "write"}

// String is the event's short name (the trace's event column and its events= filter).
func (k EventKind) String() string { return eventNames[k] }

// Event is one traced step: the process and its time, the buffer and the page
// it holds at that moment (Tag valid when Valid), its usage count after the
// step, the ring slot, and for WAL events the LSNs and bytes.
type Event struct {
	Kind    EventKind
	Backend BackendType
	Now     int64
	Buffer  pg.Buffer
	Valid   bool
	Tag     pg.BufferTag
	Usage   int
	Dirty   bool
	Pinned  bool
	Slot    int           // ring slot, or -1
	Ring    strategy.Kind // the caller's ring (Normal: none)
	LSN     pg.LSN        // fpi: the record's end; walflush: the page LSN flushed up to
	From    pg.LSN        // walflush: what was flushed before
	Bytes   int           // fpi: the record's length
	For     pg.BufferTag  // free, victim, reuse, escape, reject: the page the new buffer is for
}

// Tracer receives events; see SetTracer.
type Tracer func(Event)

// SetTracer installs t (nil: none). With no tracer the hot paths pay one nil
// test per victim search and per write; tracing is for small teaching pools.
func (p *Pool) SetTracer(t Tracer) {
	p.tracer = t
	p.installObserver()
}

// installObserver hooks the strategy's steps to the tracer (again after Reset).
func (p *Pool) installObserver() {
	if p.tracer == nil {
		p.ctl.Observer = nil
		return
	}
	p.ctl.Observer = func(e strategy.Event) {
		ev := p.event(EventKind(e.Kind), p.traceBE, e.Buffer)
		ev.Usage, ev.Slot, ev.For = e.Usage, e.Slot, p.traceFor
		p.tracer(ev)
	}
}

func (p *Pool) event(k EventKind, be *Backend, b pg.Buffer) Event {
	s := p.states[b]
	ev := Event{Kind: k, Buffer: b, Valid: s&pg.FlagTagValid != 0, Tag: p.tags[b], Usage: s.Usage(),
		Dirty: s&pg.FlagDirty != 0, Pinned: s.Refcount() > 0, Slot: -1, Ring: p.traceRing}
	if be != nil {
		ev.Backend, ev.Now = be.Type, be.Now
	}
	return ev
}

// traceWrite reports FlushBuffer's WAL flush (when the page LSN is past the
// flushed LSN) and its write, before they happen.
func (p *Pool) traceWrite(be *Backend, b pg.Buffer, ctx strategy.Kind) {
	if p.states[b]&pg.FlagPermanent != 0 && (be == nil && p.wal.NeedsFlush(p.bufLSN(b)) || be != nil && p.wal.NeedsFlushAt(be.Now, p.bufLSN(b))) {
		ev := p.event(EvWALFlush, be, b)
		ev.LSN, ev.From, ev.Ring = p.bufLSN(b), p.wal.FlushLSN(), ctx
		p.tracer(ev)
	}
	ev := p.event(EvWrite, be, b)
	ev.Ring = ctx
	p.tracer(ev)
}

// noteRing remembers the rings that took victims since ForgetRings, for
// display (show pool marks their members).
func (p *Pool) noteRing(r *strategy.Ring) {
	p.lastRing = r
	for _, x := range p.rings {
		if x == r {
			return
		}
	}
	p.rings = append(p.rings, r)
}

// Rings are the rings that took victims since ForgetRings, in first-use order.
func (p *Pool) Rings() []*strategy.Ring { return p.rings }

// ForgetRings clears Rings (a new statement starts).
func (p *Pool) ForgetRings() { p.rings, p.lastRing = nil, nil }
