package bufmgr

// IOModel times data-file reads below shared buffers. Reads are served from
// the OS page cache (the reference runs never dropped it); each read system
// call costs ReadCallNs plus ReadPageNs per further block of a vectored read.
//
// With io_method=worker (PostgreSQL 18's default) reads are handed to a pool of
// I/O workers and complete asynchronously: a read starts when a worker is free.
// Otherwise (15–17, or io_workers=0) the backend performs the read itself when
// it needs the data.
type IOModel struct {
	costs   Costs
	workers []int64 // time each I/O worker is free from
}

func newIOModel(c Config) *IOModel {
	return &IOModel{costs: c.Costs, workers: make([]int64, c.IOWorkers)}
}

// Async reports whether reads are performed by I/O workers.
func (m *IOModel) Async() bool { return len(m.workers) > 0 }

func (m *IOModel) cost(nblocks int) int64 {
	return m.costs.ReadCallNs + int64(nblocks-1)*m.costs.ReadPageNs
}

// StartAsync submits a read of nblocks at time now and returns when it completes.
func (m *IOModel) StartAsync(now int64, nblocks int) int64 {
	best := 0
	for i, t := range m.workers {
		if t < m.workers[best] {
			best = i
		}
	}
	start := now
	if m.workers[best] > start {
		start = m.workers[best]
	}
	done := start + m.cost(nblocks)
	m.workers[best] = done
	return done
}

// SyncRead performs a read of nblocks in the calling backend and returns its new time.
func (m *IOModel) SyncRead(now int64, nblocks int) int64 { return now + m.cost(nblocks) }
