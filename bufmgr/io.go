package bufmgr

import (
	"github.com/pgbufsim/pgbufsim/internal/cores"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/storage"
)

// IOModel times data-file I/O below shared buffers (smgr/md.c) through the
// machine's storage: the OS page cache with its readahead, and the device.
// Each read system call costs ReadCallNs of CPU plus ReadPageNs per further
// block of a vectored read, after the data is in the page cache.
//
// With io_method=worker (PostgreSQL 18's default) reads are handed to a pool of
// I/O workers and complete asynchronously: a read starts when a worker is free,
// and the worker waits for the device. Otherwise (15–17, or io_method=sync)
// the backend performs the read itself when it needs the data. Each process
// has its own open files, hence its own readahead state.
//
// PostgreSQL 19's pool grows and shrinks (method_worker.c): from
// io_min_workers, a worker finding more reads queued than workers (none
// idle to wake) asks the postmaster for another (pgaio_worker_request_grow),
// started at most every io_worker_launch_interval, up to io_max_workers;
// one above the minimum idle for io_worker_idle_timeout exits. Here the
// queue is counted at each submission, a new worker takes reads once forked
// (WorkerStartNs), and idle ones above the minimum retire, highest first;
// the wakeup-propagation heuristic gating the request is not modelled.
type IOModel struct {
	costs     Costs
	checksums bool // data_checksums: each block read is verified
	st        *storage.Storage
	cores     *cores.Pool // the host's cores the workers' reads run on (nil: a core each)
	workers   []ioWorker
	pool      IOWorkerPool
	// queued are the start times of submitted reads still waiting for a worker.
	queued     []int64
	lastLaunch int64
}

// IOWorkerPool configures PostgreSQL 19's growing I/O worker pool; Max 0
// keeps the pool at its starting size (18's io_workers).
type IOWorkerPool struct {
	Min, Max                                 int
	LaunchIntervalNs, IdleTimeoutNs, StartNs int64 // StartNs: a new worker's fork and start-up
}

type ioWorker struct {
	free  int64        // time the worker is free from
	last  *cores.Burst // its last read's CPU while it may still move (cores.Wake)
	files storage.Reader
}

func newIOModel(c Config, st *storage.Storage) *IOModel {
	return &IOModel{cores: c.Cores, costs: c.Costs, checksums: c.Checksums, st: st, workers: make([]ioWorker, c.IOWorkers), pool: c.IOPool, lastLaunch: -1 << 62}
}

// Async reports whether reads are performed by I/O workers.
func (m *IOModel) Async() bool { return len(m.workers) > 0 }

// Storage is the machine below.
func (m *IOModel) Storage() *storage.Storage { return m.st }

// cpu is the work of a read of nblocks done by the process performing it:
// the system call, the further blocks' copies and, with data_checksums,
// each block's verification (PageIsVerified computes pg_checksum_page of
// every page read, bufpage.c: in the backend on 15–17 and with
// io_method=sync, in the I/O worker that completes the read on 18+ —
// buffer_readv_complete_one, bufmgr.c).
func (m *IOModel) cpu(nblocks int) int64 {
	ns := m.costs.ReadCallNs + int64(nblocks-1)*m.costs.ReadPageNs
	if m.checksums {
		ns += int64(nblocks) * m.costs.ChecksumNs
	}
	return ns
}

// read is mdreadv's preadv by a process whose files are r, at time now:
// when the data is in the page cache (the device's part of the read, which
// holds no core) and when the read ends.
func (m *IOModel) read(now int64, r *storage.Reader, t pg.BufferTag, nblocks int) (ready, done int64) {
	ready, _ = m.st.Read(now, r, t.Rel, t.Block, nblocks)
	return ready, ready + m.cpu(nblocks)
}

// StartAsync submits a read of nblocks from t at time now to the I/O workers
// and returns when it completes, and its burst if that may move (cores.Wake).
func (m *IOModel) StartAsync(now int64, t pg.BufferTag, nblocks int) (int64, *cores.Burst) {
	if m.pool.Max > 0 {
		m.resize(now)
	}
	best := m.earliest(now)
	start := max(now, m.workers[best].free)
	if m.pool.Max > 0 && start > now {
		// The read waits: with the reads already waiting, is the queue
		// deeper than the pool? Ask for a worker (one per launch interval).
		if len(m.queued)+1 > len(m.workers) && len(m.workers) < m.pool.Max && now >= m.lastLaunch+m.pool.LaunchIntervalNs {
			m.workers = append(m.workers, ioWorker{free: now + m.pool.StartNs})
			m.lastLaunch = now
			best = m.earliest(now)
			start = max(now, m.workers[best].free)
		}
		if start > now {
			m.queued = append(m.queued, start)
		}
	}
	w := &m.workers[best]
	// IoWorkerMain's preadv and buffer_readv_complete_one's checksums run
	// on a core of the host's, shared with the other processes.
	ready, _ := m.read(start, &w.files, t, nblocks)
	done, b := m.cores.Wake(now, ready, m.cpu(nblocks), w.last)
	w.free, w.last = done, b
	return done, b
}

// earliest is the worker that can take a read submitted at now soonest
// (cores.Resume: a busy one ending before a sleeping one wakes takes it
// without sleeping); of equals, the one free longest, the lowest numbered.
func (m *IOModel) earliest(now int64) int {
	best, bt := 0, int64(0)
	for i := range m.workers {
		w := &m.workers[i]
		if w.last != nil {
			w.free = w.last.End()
		}
		t := m.cores.Resume(w.free, now)
		if i == 0 || t < bt || t == bt && w.free < m.workers[best].free {
			best, bt = i, t
		}
	}
	return best
}

// resize forgets reads that have started by now and retires workers above
// io_min_workers idle for io_worker_idle_timeout, the highest numbered first.
func (m *IOModel) resize(now int64) {
	q := m.queued[:0]
	for _, s := range m.queued {
		if s > now {
			q = append(q, s)
		}
	}
	m.queued = q
	for len(m.workers) > m.pool.Min && m.workers[len(m.workers)-1].free+m.pool.IdleTimeoutNs <= now {
		m.workers = m.workers[:len(m.workers)-1]
	}
}

// Cores is the host's cores the processes share (host_cpus; nil: unlimited).
func (m *IOModel) Cores() *cores.Pool { return m.cores }

// Workers is the I/O worker pool's current size.
func (m *IOModel) Workers() int { return len(m.workers) }

// SyncRead performs a read of nblocks from t in the calling backend and returns its new time.
func (m *IOModel) SyncRead(be *Backend, t pg.BufferTag, nblocks int) int64 {
	ready, done := m.read(be.Now, &be.Files, t, nblocks)
	be.Waited += ready - be.Now
	return done
}

// Advise is smgrprefetch (posix_fadvise WILLNEED) of nblocks from t by be.
func (m *IOModel) Advise(be *Backend, t pg.BufferTag, nblocks int) {
	be.Now += m.costs.AdviseNs
	m.st.Advise(be.Now, t.Rel, t.Block, nblocks)
}
