package cores

import "sort"

// Burst is the CPU burst of a woken process (an I/O worker's read) that
// Wake could not start when it was woken (a holder's slice, other bursts in
// the way): it may still move earlier, when a core frees before it starts
// (Schedule's pull), until the process waiting for it has looked at its end
// (Await).
type Burst struct {
	ready, work int64 // runnable from ready; its CPU
	core        int
	from        int64 // where it is placed now
	observed    bool
	// prev is the same process's burst before it that may move, which it
	// waited for (an I/O worker busy with its last read), and lead how long
	// after prev's end it became runnable (the read's device time).
	prev *Burst
	lead int64
}

// End is when the burst ends where it is placed now.
func (b *Burst) End() int64 { return b.from + b.work }

// Wake places the burst of work ns of a process woken at at (an I/O worker
// taking a read: pgaio_worker_submit's SetLatch) and returns its end, and
// the burst when it may move: it starts after at (after a holder's slice,
// or behind other bursts) or follows prev (nil: it stays where it is). It
// runs on the core where it starts soonest: an idle core a wake-up after at
// (Wakeup; a process going on from prev without sleeping pays none); any
// other core no task holds from its first gap at or after at; a core a task
// of Schedule holds not before that holder's slice ends — Linux's EEVDF
// does not preempt a running task inside its slice for a woken one of equal
// weight (check_preempt_wakeup_fair preempts only when pick_eevdf picks the
// woken task, and pick_eevdf keeps the current task while protect_slice
// holds: RUN_TO_PARITY, kernel/sched/fair.c). The holder's slice is seen at
// the submission; when the holder blocks or finishes earlier, the burst
// moves to the freed core (pull). Without slices (Step: no task holds a
// core) it is Run. prev is the same process's burst before it (an I/O
// worker's last read; nil: none): if it ends after now, when the burst was
// asked for, this one waited for it, and moves when it moves.
func (p *Pool) Wake(now, at, work int64, prev *Burst) (int64, *Burst) {
	if p == nil || work <= 0 {
		return at + work, nil
	}
	if prev != nil && (prev.observed || prev.End() <= now) {
		prev = nil // it did not wait for it, or it stays where it is
	}
	best, begin, ready := 0, int64(0), at
	for i := range p.cores {
		s, r := at, at
		cont := prev != nil && prev.core == i && prev.End() == at // the worker goes on to its next read without sleeping
		switch {
		case cont:
		case p.held[i] != nil && p.slice > 0:
			s = max(at, p.sliceEnd(i, at))
		case p.wake > 0 && p.idle(i, at):
			s, r = at+p.wake, at+p.wake // asleep, woken onto an idle core
		}
		b := fit(p.cores[i], s, work)
		if i == 0 || b < begin {
			best, begin, ready = i, b, r
			if b == at {
				break
			}
		}
	}
	end := p.place(best, begin, work)
	if begin == ready && prev == nil {
		return end, nil
	}
	w := &Burst{ready: ready, work: work, core: best, from: begin, prev: prev}
	if prev != nil {
		w.lead = at - prev.End()
	}
	p.deferred = append(p.deferred, w)
	return end, w
}

// sliceEnd is the first end of a slice of core c's holder at or after at:
// its current slice ends when it has run the slice's CPU from its clock,
// and every slice after that a slice later.
func (p *Pool) sliceEnd(c int, at int64) int64 {
	e := *p.held[c].Now + max(0, p.slice-p.used[c])
	if at > e {
		e += (at - e + p.slice - 1) / p.slice * p.slice
	}
	return e
}

// Await is the end of burst b (Wake; nil: it ends at end, where it was
// placed) for the process waiting for it at now (the running task of
// Schedule, whose step waits: WaitReadBuffers). If it has not ended by then,
// that task blocks and its core frees for the bursts waiting for a
// slice's end (pull) before the end is read. After Await b no longer moves.
func (p *Pool) Await(b *Burst, end, now int64) int64 {
	if b == nil {
		return end
	}
	if !b.observed && b.End() > now && p.cur != nil && p.cur.state == running {
		// Schedule takes a step's wait to come first (its CPU after it), so
		// the core frees at the step's start.
		p.pull(p.cur.core, p.curAt)
	}
	b.observed, b.prev = true, nil
	return b.End()
}

// pull runs the bursts put after a holder's slice (Wake) on core c, which
// frees at t (its holder blocks or finishes): each that can start sooner
// there moves, in the order they were woken (an idle CPU runs the woken
// processes waiting on a busy one: newidle_balance). Bursts already
// looked at (Await) or started stay, and leave the list letting go of
// their predecessor (a worker's chain of reads is not kept alive).
func (p *Pool) pull(c int, t int64) {
	k := p.deferred[:0]
	for _, b := range p.deferred {
		if b.prev != nil {
			b.ready = min(b.ready, b.prev.End()+b.lead)
		}
		s := max(b.ready, t)
		if b.observed || b.from <= s || b.from < p.floor {
			b.prev = nil // it stays: seen, or it runs by then anyway
			continue
		}
		if !p.remove(b.core, span{b.from, b.End()}) {
			b.prev = nil // forgotten (maxSpans)
			continue
		}
		if p.held[b.core] == nil { // its own core, free: from its (earlier) start, not before the present
			b.from = fit(p.cores[b.core], max(b.ready, p.floor), b.work)
		}
		if nb := fit(p.cores[c], s, b.work); nb < b.from {
			b.core, b.from = c, nb
		}
		p.insert(b.core, span{b.from, b.End()})
		if b.from > s || b.prev != nil {
			k = append(k, b)
		}
	}
	clear(p.deferred[len(k):])
	p.deferred = k
}

// remove takes s out of core c's spans (s lies inside one of them:
// touching spans are merged), reporting whether it was there.
func (p *Pool) remove(c int, s span) bool {
	spans := p.cores[c]
	i := sort.Search(len(spans), func(i int) bool { return spans[i].to > s.from })
	if i == len(spans) || spans[i].from > s.from || spans[i].to < s.to {
		return false
	}
	o := spans[i]
	switch {
	case o.from == s.from && o.to == s.to:
		spans = append(spans[:i], spans[i+1:]...)
	case o.from == s.from:
		spans[i].from = s.to
	case o.to == s.to:
		spans[i].to = s.from
	default:
		spans = append(spans, span{})
		copy(spans[i+2:], spans[i+1:])
		spans[i].to = s.from
		spans[i+1] = span{s.to, o.to}
	}
	p.cores[c] = spans
	return true
}
