package cores

import "sort"

// Task is one process of a statement (a backend or parallel worker running
// its scan loop) that Schedule runs on the cores: its clock, the time it
// has spent waiting without a core (I/O, an I/O worker's read, a WAL
// flush), and its step (one page of its loop; done when it has finished).
type Task struct {
	Now, Waited *int64
	Step        func() (done bool, err error)

	state taskState
	core  int   // the core it holds (running)
	at    int64 // waking: when it becomes runnable
	work  int64 // waking or queued: the CPU it runs first when it gets a core
	last  bool  // that CPU is its last step's: it finishes after it
	slept bool  // waking: it blocked in a step (not a start), asleep on its last core
}

type taskState uint8

const (
	waking   taskState = iota // blocked until at (or not started), then runnable
	running                   // holds a core; its next step starts at *Now
	queued                    // runnable, waiting for a core
	finished                  // done
)

// DefaultSlice is Linux's base slice on a host of ncpus CPUs, the CPU a
// process runs before the scheduler may give its core to another runnable
// process: sysctl_sched_base_slice (kernel/sched/fair.c), 0.70 ms since
// 6.15 (0.75 ms from 6.6, EEVDF's first release), scaled at boot by
// update_sysctl's SCHED_TUNABLESCALING_LOG factor, 1 + ilog2 of the online
// CPUs, at most 8: 0.7 ms on one CPU, 1.4 on 2 or 3, 2.1 on 4 to 7, 2.8
// from 8.
func DefaultSlice(ncpus int) int64 {
	f := int64(1)
	for n := min(ncpus, 8); n > 1; n >>= 1 {
		f++
	}
	return 700_000 * f
}

// Schedule runs ts on the cores until every one is done, as the kernel's
// scheduler (EEVDF, kernel/sched/fair.c) runs runnable processes on a
// machine with fewer cores than processes:
//
//   - a runnable task takes a core no task holds (the one on which its CPU
//     can start soonest, between the bursts Run placed there), or waits in
//     the run queue when every core is held: no core idles while a task is
//     runnable;
//   - a task holding a core keeps it from step to step until it blocks (a
//     step that waits: it gives the core up when its wait starts, and is
//     runnable again when the wait ends) or its slice ends: once it has run
//     the slice's CPU on the core, the next task of the run queue takes the
//     core and it joins the queue's tail. With nobody queued it starts a
//     new slice and keeps the core. RUN_TO_PARITY (pick_eevdf with
//     protect_slice) is why a task woken meanwhile does not take the core
//     earlier: equal-weight tasks each with a base slice take turns a slice
//     at a time, the queue's order;
//   - a task that finishes gives its core to the queue's first.
//
// The bursts placed with Run (a parallel worker's start-up) and Wake (an
// I/O worker's read) are not tasks. A parallel worker's start-up runs in
// the earliest gap of any core, held or not. A woken I/O worker does not
// preempt a holder inside its slice: since EEVDF's "curb wakeup-preemption"
// (RUN_TO_PARITY, Linux 6.6) pick_eevdf keeps the current task until its
// slice is used even when the woken one has the earlier deadline, so the
// read runs on a core no task holds, or after the holder's slice, or as
// soon as a holder blocks or finishes and frees its core (Wake, Await and
// the pull at each release below) — the woken worker waiting on a busy
// CPU is pulled by the one that goes idle (newidle_balance). The holder's
// slice counts only its own CPU, as vruntime does.
//
// A slice's end is seen at the first step that starts after it (a step is a
// page, a microsecond or two; the kernel sees it at its next update_curr: a
// tick or a wake-up on that CPU). Not modelled: the run queues being per
// CPU (a global queue stands for the load balancer's idle pulls), a
// woken task's lag placing it ahead of tasks already queued, and the
// processes outside ts (the background writer, checkpointer, WAL writer,
// autovacuum) — they take no core.
//
// Each event is taken in time order (ties: the lower index first): a
// running task's next step at its clock, a waking task's wake-up. before(t)
// runs whatever else is due by the next event's time t and reports whether
// it ran something (the next event is then chosen again).
func (p *Pool) Schedule(ts []*Task, before func(t int64) bool) error {
	if p.Slice() == 0 {
		return p.interleave(ts, before)
	}
	for _, t := range ts {
		t.state, t.at, t.work, t.last, t.slept = waking, *t.Now, 0, false, false
	}
	p.queue = p.queue[:0]
	for {
		var next *Task
		var at int64
		for _, t := range ts {
			var e int64
			switch t.state {
			case running:
				e = *t.Now
			case waking:
				e = t.at
			default:
				continue
			}
			if next == nil || e < at {
				next, at = t, e
			}
		}
		if next == nil {
			return nil
		}
		if before(at) {
			continue
		}
		p.Advance(at)
		if next.state == waking {
			c := p.freeCore(at)
			if next.slept && p.held[next.core] == nil && fit(p.cores[next.core], at, 1) == at {
				c = next.core // woken where it slept (select_task_rq_fair keeps an idle prev CPU)
			}
			if c >= 0 {
				if next.slept && p.idle(c, at) {
					// The core idled while it slept: it runs a wake-up later.
					*next.Waited += p.wake
					at += p.wake
				}
				p.give(c, next, at)
			} else {
				next.state = queued
				p.queue = append(p.queue, next)
			}
			continue
		}
		c := next.core
		if p.used[c] >= p.slice {
			if len(p.queue) > 0 { // its slice is over: the queue's first takes the core
				next.state, next.work, next.last = queued, 0, false
				p.queue = append(p.queue, next)
				p.release(c, at)
				continue
			}
			p.used[c] = 0 // nobody waits: a new slice
		}
		t0, w0 := *next.Now, *next.Waited
		p.cur, p.curAt = next, t0
		done, err := next.Step()
		p.cur = nil
		if err != nil {
			return err
		}
		wait := *next.Waited - w0
		work := *next.Now - t0 - wait
		if wait > 0 { // it blocked at the step's start: the core goes to the queue's first
			next.state, next.at, next.work, next.last, next.slept = waking, t0+wait, max(work, 0), done, true
			p.release(c, t0)
			continue
		}
		if work > 0 {
			*next.Now = p.burst(next, t0, work)
		}
		if done {
			next.state = finished
			p.release(next.core, *next.Now)
		}
	}
}

// burst runs work ns of the running task t from at on its core, in its
// gaps around the bursts Run placed there (a woken process preempts it and
// runs, then it resumes), and returns when it ends. Preempted, it moves to a
// free core that can run it sooner (an idle CPU pulls it: newidle_balance).
func (p *Pool) burst(t *Task, at, work int64) int64 {
	p.used[t.core] += work
	for {
		c := t.core
		spans := p.cores[c]
		i := sort.Search(len(spans), func(i int) bool { return spans[i].to > at })
		if i < len(spans) && spans[i].from <= at { // busy at at: elsewhere, or from the span's end
			if !p.migrate(t, at, spans[i].to) {
				at = spans[i].to
				i++
			}
			if t.core != c {
				continue
			}
		}
		if i == len(spans) || spans[i].from-at >= work {
			return p.place(c, at, work)
		}
		next := spans[i].from // (place may merge the piece into that span)
		p.place(c, at, next-at)
		at, work = next, work-(next-at)
	}
}

// migrate moves running task t to a core no task holds that is free before
// until (its own core's next free instant), if there is one.
func (p *Pool) migrate(t *Task, at, until int64) bool {
	o := p.freeCore(at)
	if o < 0 || fit(p.cores[o], at, 1) >= until {
		return false
	}
	c := t.core
	p.held[c], p.held[o], p.used[o] = nil, t, p.used[c]
	t.core = o
	return true
}

// freeCore is the core no task holds that is free soonest at or after at
// (the lowest numbered among equals), or -1 when every core is held.
func (p *Pool) freeCore(at int64) int {
	best, begin := -1, int64(0)
	for c, h := range p.held {
		if h != nil {
			continue
		}
		if b := fit(p.cores[c], at, 1); best < 0 || b < begin {
			best, begin = c, b
		}
	}
	return best
}

// give hands core c to t at time at: t runs the CPU it was waiting to run,
// its slice starting.
func (p *Pool) give(c int, t *Task, at int64) {
	p.held[c], p.used[c] = t, 0
	t.state, t.core, t.slept = running, c, false
	*t.Now = at
	if t.work > 0 {
		*t.Now = p.burst(t, at, t.work)
	}
	if t.last {
		t.state = finished
		p.release(t.core, *t.Now)
	}
}

// release frees core c at time at: the run queue's first task takes it, or
// it is free.
func (p *Pool) release(c int, at int64) {
	p.held[c] = nil
	p.pull(c, at)
	if len(p.queue) == 0 {
		return
	}
	t := p.queue[0]
	n := copy(p.queue, p.queue[1:])
	p.queue = p.queue[:n]
	p.give(c, t, at)
}

// interleave runs ts without time slices (no pool, or host_sched_slice=0):
// the task whose clock is earliest steps next (ties: the lower index), each
// step's CPU a burst of its own (Step).
func (p *Pool) interleave(ts []*Task, before func(t int64) bool) error {
	for _, t := range ts {
		t.state = running
	}
	for {
		var next *Task
		for _, t := range ts {
			if t.state == running && (next == nil || *t.Now < *next.Now) {
				next = t
			}
		}
		if next == nil {
			return nil
		}
		if before(*next.Now) {
			continue
		}
		var done bool
		var err error
		if p == nil {
			done, err = next.Step()
		} else {
			done, err = p.Step(next.Now, next.Waited, next.Step)
		}
		if err != nil {
			return err
		}
		if done {
			next.state = finished
		}
	}
}
