// Package cores shares the host's CPU cores among the simulated processes
// (the host_cpus machine setting).
package cores

import "sort"

// Pool is the host's CPU cores, on which the simulated processes' CPU work
// runs: what the operating system's scheduler does for PostgreSQL's
// processes (there is no PostgreSQL function for it). Without a pool
// (host_cpus=0, a nil *Pool) every process has a core of its own, as the
// model had before. With one, each burst of a process's CPU work — a
// backend's or parallel worker's handling of one page in its scan loop
// (heapgettup_pagemode's page loop: heap_prepare_pagescan, the tuples'
// visibility, the aggregate; with io_method=sync the read's system call,
// copies and PageIsVerified's checksum), an I/O worker's read
// (IoWorkerMain: the preadv, then buffer_readv_complete_one's checksum of
// each block), a parallel worker's start-up (the postmaster's fork,
// ParallelWorkerMain's attach and state restore) — takes the core on which
// it can start soonest, and waits when all are busy. A process waiting for
// I/O, for an I/O worker or for a latch holds no core: its waits are not
// bursts.
//
// Each core keeps the spans of time it is busy, in order. A burst that a
// process asks for at time at with work ns goes into the first gap, at or
// after at, long enough to hold it on any core (the earliest start; the
// lowest numbered core among equals), and runs to its end without being
// preempted: bursts are short (a page's handling is a microsecond or two,
// an I/O worker's read of 16 blocks with checksums some tens). Which
// process's burst comes next is the scheduler's (Schedule): a statement's
// backend and parallel workers each keep a core for a time slice, unless
// they block, as Linux runs them — the throughput is the same as bursts
// taken in turn, but a participant runs hundreds of pages in a row, which
// decides which blocks of a parallel scan each one reads.
// Gaps matter because the simulator does not hand out the bursts in time
// order: an I/O worker's read is placed when the backend submits it, ahead
// of the backend's own pages before its completion; placed after a
// holder's slice, it moves earlier when a core frees first (Wake).
//
// A sleeping process woken onto an idle core starts the wake-up latency
// later (host_wakeup, Wakeup): an I/O worker woken by a backend's
// pgaio_worker_submit on the other CPU, a backend whose read an I/O worker
// completed, asleep in WaitReadBuffers. The waker's interrupt to that CPU
// and the CPU's exit from its idle state (on a virtual machine a halted
// vCPU the hypervisor runs again) were 20–60 µs on the 2-vCPU VMs
// measured, against 3–4 µs between processes on one CPU, which switches
// from the waker to the woken without idling: the serial scan that a
// backend and its I/O worker take turns on ran two to three times as long
// on 2 CPUs as pinned to one (13.1–13.7 ms against 28.4–38.4). A
// core is idle when no task holds it and no burst runs on it, or has just
// ended there (Advance keeps the spans ending at the floor). A woken
// process that runs on a busy core, after its holder, pays none.
//
// Not yet on the cores: the background writer, checkpointer, WAL writer
// and autovacuum workers, and the backend of a statement that runs outside
// the participants' loop (INSERT, COPY, VACUUM, CREATE INDEX: their I/O
// workers' reads do take cores); nor the scheduler's own cost of a context
// switch.
//
// Spans that end before the floor (Advance: no process asks for a core
// before it any more) are dropped; a core keeps at most maxSpans (the
// oldest are forgotten), so the pool costs O(log n) a burst.
type Pool struct {
	cores [][]span
	floor int64
	work  int64
	slice int64 // the scheduler's time slice (Schedule); 0: none
	wake  int64 // a sleeping process's wake-up onto an idle core (host_wakeup)
	// held is, for each core, the task holding it under Schedule (nil: none)
	// and the CPU that task has run in its current slice.
	held  []*Task
	used  []int64
	queue []*Task // runnable tasks waiting for a core, in the order they became runnable
	cur   *Task   // the task whose step runs (Schedule), from curAt
	curAt int64
	// deferred are the bursts Wake put after a holder's slice that may
	// still move earlier (pull), in the order they were woken.
	deferred []*Burst
}

type span struct{ from, to int64 }

// maxSpans bounds each core's remembered spans.
const maxSpans = 512

// New is a pool of n cores whose scheduler gives a process slice ns of CPU
// before another runnable process may take its core (Schedule; negative:
// the kernel's default for n CPUs, DefaultSlice; 0: no slices, each burst
// placed on its own, Step) and on which a sleeping process woken onto an
// idle core runs wake ns later; n 0 is no pool (nil): unlimited cores.
func New(n int, slice, wake int64) *Pool {
	if n <= 0 {
		return nil
	}
	if slice < 0 {
		slice = DefaultSlice(n)
	}
	return &Pool{cores: make([][]span, n), slice: slice, wake: max(wake, 0), held: make([]*Task, n), used: make([]int64, n)}
}

// Wakeup is a sleeping process's wake-up latency onto an idle core (0:
// none, or no pool).
func (p *Pool) Wakeup() int64 {
	if p == nil {
		return 0
	}
	return p.wake
}

// Resume is when a process that is busy until free can take work handed to
// it at now: at free when it is still running then (it goes on without
// sleeping: an I/O worker taking the next queued read); asleep, once woken,
// a wake-up later (the core it is woken onto is idle, unless it has to
// wait for one: Wake).
func (p *Pool) Resume(free, now int64) int64 {
	if free > now {
		return free
	}
	return now + p.Wakeup()
}

// idle reports whether core c is idle at at: no task holds it and no burst
// runs on it, or ends there (its process has just run).
func (p *Pool) idle(c int, at int64) bool {
	if p.held[c] != nil {
		return false
	}
	spans := p.cores[c]
	i := sort.Search(len(spans), func(i int) bool { return spans[i].to >= at })
	return i == len(spans) || spans[i].from > at
}

// Slice is the scheduler's time slice (0: none, or no pool).
func (p *Pool) Slice() int64 {
	if p == nil {
		return 0
	}
	return p.slice
}

// Cores is the number of cores (0: unlimited).
func (p *Pool) Cores() int {
	if p == nil {
		return 0
	}
	return len(p.cores)
}

// Run places a burst of work ns of CPU that a process can start at at, and
// returns when it ends: at+work when a core is free for it then, later when
// every core is busy. Among cores where it starts as soon, one no task of
// Schedule holds is taken first (a woken process goes to an idle CPU,
// select_idle_sibling in kernel/sched/fair.c); on a held one it runs
// between the holder's bursts.
func (p *Pool) Run(at, work int64) int64 {
	if p == nil || work <= 0 {
		return at + work
	}
	best, begin, bheld := 0, int64(0), false
	for i := range p.cores {
		b, h := fit(p.cores[i], at, work), p.held[i] != nil
		if i == 0 || b < begin || b == begin && bheld && !h {
			best, begin, bheld = i, b, h
			if b == at && !h {
				break
			}
		}
	}
	return p.place(best, begin, work)
}

// place puts a burst of work ns on core c from begin (a gap's start) and
// returns its end.
func (p *Pool) place(c int, begin, work int64) int64 {
	p.insert(c, span{begin, begin + work})
	p.work += work
	return begin + work
}

// Work is the CPU time of every burst placed so far.
func (p *Pool) Work() int64 {
	if p == nil {
		return 0
	}
	return p.work
}

// fit is the earliest start at or after at of a gap of work ns in spans.
func fit(spans []span, at, work int64) int64 {
	i := sort.Search(len(spans), func(i int) bool { return spans[i].to > at })
	t := at
	for ; i < len(spans); i++ {
		if spans[i].from >= t+work {
			return t
		}
		t = max(t, spans[i].to)
	}
	return t
}

// insert adds s to core c's spans, merging it with a span it touches.
func (p *Pool) insert(c int, s span) {
	spans := p.cores[c]
	i := sort.Search(len(spans), func(i int) bool { return spans[i].from >= s.to })

	// spans[i-1], if any, ends at or before s.from (s went into a gap).
	switch {
	case i > 0 && spans[i-1].to == s.from && i < len(spans) && spans[i].from == s.to:
		spans[i-1].to = spans[i].to
		spans = append(spans[:i], spans[i+1:]...)
	case i > 0 && spans[i-1].to == s.from:
		spans[i-1].to = s.to
	case i < len(spans) && spans[i].from == s.to:
		spans[i].from = s.from
	default:
		spans = append(spans, span{})
		copy(spans[i+1:], spans[i:])
		spans[i] = s
	}
	if len(spans) > maxSpans {
		spans = spans[len(spans)-maxSpans:]
	}
	p.cores[c] = spans
}

// Advance says no process will ask for a core before t: the spans that end
// before then are dropped (one ending at t shows its core awake: idle).
func (p *Pool) Advance(t int64) {
	if p == nil || t <= p.floor {
		return
	}
	p.floor = t
	for c, spans := range p.cores {
		i := sort.Search(len(spans), func(i int) bool { return spans[i].to >= t })
		if i > 0 {
			p.cores[c] = append(spans[:0], spans[i:]...)
		}
	}
}

// Step runs one step of a process whose clock is *now (a page of its scan
// loop) and places the CPU it did on the cores: the step's time less what
// it spent waiting (*waited grew by it: I/O, an I/O worker's read, a WAL
// flush), as one burst starting after the waits. Without a pool the step
// runs as it is.
func (p *Pool) Step(now, waited *int64, step func() (bool, error)) (bool, error) {
	if p == nil {
		return step()
	}
	p.Advance(*now)
	t0, w0 := *now, *waited
	done, err := step()
	wait := *waited - w0
	if work := *now - t0 - wait; work > 0 {
		*now = p.Run(t0+wait, work)
	}
	return done, err
}
