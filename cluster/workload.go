package cluster

import (
	"fmt"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/pg"
)

// # Workloads
//
// A workload is one client command made of raw buffer accesses that the
// caller drives: a block-access trace replayed (package replay), or any
// access pattern a Go program wants to put through the pool. Each access is
// what a query's page access is — ReadBuffer (ReadBufferExtended,
// RBM_NORMAL, no strategy), perhaps MarkBufferDirty, ReleaseBuffer — by one
// client backend that the scheduler interleaves with the WAL writer.

// Workload is the handle RunWorkload passes to its function.
type Workload struct {
	c  *Cluster
	be *bufmgr.Backend
}

// RunWorkload runs fn as one client command: after the client's pause,
// outside any transaction block, with no session start and no catalog pins
// (only the workload's own accesses).
func (c *Cluster) RunWorkload(name string, fn func(w *Workload) error) error {
	return c.e.Command(name, 0, false, func() error {
		if c.e.InTransaction() {
			return fmt.Errorf("%s: not inside a transaction block (commit first)", name)
		}
		c.e.Pause()
		return fn(&Workload{c: c, be: bufmgr.NewBackend(bufmgr.ClientBackend, c.e.Now())})
	})
}

// Pool is the buffer pool the workload's accesses go to.
func (w *Workload) Pool() *bufmgr.Pool { return w.c.e.Pool() }

// Relation returns the table name's storage and size, creating it when it
// does not exist as CREATE TABLE over a data file that already holds
// nblocks empty pages (on disk, in no cache).
func (w *Workload) Relation(name string, nblocks int) (id pg.RelID, pages int, created bool, err error) {
	e := w.c.e
	if r, ok := e.Relation(name); ok {
		return r.ID, e.Pool().NBlocks(r.ID), false, nil
	}
	if err := validTableName(name); err != nil {
		return 0, 0, false, err
	}
	r := e.AttachTable(name, nblocks)
	return r.ID, nblocks, true, nil
}

// ValidTableName checks a relation name a workload would create.
func ValidTableName(name string) error { return validTableName(name) }

func validTableName(name string) error {
	for _, ch := range name {
		if !(ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9') {
			return &pg.SettingError{Name: "relation", Value: name, Allowed: "a relation name is letters, digits and _"}
		}
	}
	return nil
}

// WorkloadRun is what a workload's client backend did.
type WorkloadRun struct {
	Evictions int64 // victims taken from the clock sweep (pg_stat_io, client backend, normal)
	Written   int64 // dirty buffers it wrote out to take their place
	TimeNs    int64 // its simulated time
}

// Backend is the workload's client backend, which its accesses pass to the pool.
func (w *Workload) Backend() *bufmgr.Backend { return w.be }

// Run drives step on the scheduler until it reports done: step makes one
// access (or a few) with the workload's Backend each call.
func (w *Workload) Run(step func() (done bool, err error)) (WorkloadRun, error) {
	e := w.c.e
	be := w.be
	be.Now = max(be.Now, e.Now())
	start := be.Now
	ev := e.ClientEvictions()
	err := e.RunClient(be, step)
	return WorkloadRun{Evictions: e.ClientEvictions() - ev, Written: be.Buf.Written, TimeNs: be.Now - start}, err
}

// NextBackground is when the scheduler must next run a background process
// (math.MinInt64: before every step): a step may make further accesses
// while its backend's time is before it, as the scheduler would have run
// them one step each with nothing in between.
func (w *Workload) NextBackground() int64 { return w.c.e.NextBackground() }
