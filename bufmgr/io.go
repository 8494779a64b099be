package bufmgr

import (
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
type IOModel struct {
	costs   Costs
	st      *storage.Storage
	workers []ioWorker
}

type ioWorker struct {
	free  int64 // time the worker is free from
	files storage.Reader
}

func newIOModel(c Config, st *storage.Storage) *IOModel {
	return &IOModel{costs: c.Costs, st: st, workers: make([]ioWorker, c.IOWorkers)}
}

// Async reports whether reads are performed by I/O workers.
func (m *IOModel) Async() bool { return len(m.workers) > 0 }

// Storage is the machine below.
func (m *IOModel) Storage() *storage.Storage { return m.st }

func (m *IOModel) cpu(nblocks int) int64 {
	return m.costs.ReadCallNs + int64(nblocks-1)*m.costs.ReadPageNs
}

// read is mdreadv's preadv by a process whose files are r, at time now.
func (m *IOModel) read(now int64, r *storage.Reader, t pg.BufferTag, nblocks int) int64 {
	ready, _ := m.st.Read(now, r, t.Rel, t.Block, nblocks)
	return ready + m.cpu(nblocks)
}

// StartAsync submits a read of nblocks from t at time now to the I/O workers
// and returns when it completes.
func (m *IOModel) StartAsync(now int64, t pg.BufferTag, nblocks int) int64 {
	best := 0
	for i := range m.workers {
		if m.workers[i].free < m.workers[best].free {
			best = i
		}
	}
	w := &m.workers[best]
	done := m.read(max(now, w.free), &w.files, t, nblocks)
	w.free = done
	return done
}

// SyncRead performs a read of nblocks from t in the calling backend and returns its new time.
func (m *IOModel) SyncRead(be *Backend, t pg.BufferTag, nblocks int) int64 {
	return m.read(be.Now, &be.Files, t, nblocks)
}

// Advise is smgrprefetch (posix_fadvise WILLNEED) of nblocks from t by be.
func (m *IOModel) Advise(be *Backend, t pg.BufferTag, nblocks int) {
	be.Now += m.costs.AdviseNs
	m.st.Advise(be.Now, t.Rel, t.Block, nblocks)
}
