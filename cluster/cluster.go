package cluster

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/internal/cost"
	"github.com/pgbufsim/pgbufsim/internal/engine"
	"github.com/pgbufsim/pgbufsim/internal/engine/oltp"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/storage"
	"github.com/pgbufsim/pgbufsim/strategy"
	"github.com/pgbufsim/pgbufsim/wal"
)

// Cluster is one simulated PostgreSQL cluster. Open makes one; its methods
// are the statements and views of package doc's list. A Cluster is not safe
// for concurrent use: the simulation is single-threaded by design.
type Cluster struct {
	e *engine.Cluster
	// S are the settings in force.
	S *Settings
	// bench is pgbench's tables, once PgbenchInit made them.
	bench *oltp.Bench
	// MarksReadIO: a mark (and show wal) also reads pg_stat_io after the WAL
	// position, as verify's sessions do in a scenario that shows io; its
	// catalog lookups then prune what a show io session would.
	MarksReadIO bool
}

// CostModel is the simulated duration of each kind of work, in nanoseconds.
type CostModel = engine.CostModel

// Costs returns the cost model a cluster runs on at host_time_scale=1 (the
// figures and their provenance are in package internal/cost).
func Costs() CostModel { return cost.Default }

// Costs returns the cost model this cluster runs on: Costs() with its host
// work scaled by host_time_scale.
func (c *Cluster) Costs() CostModel { return *c.e.Costs() }

// ErrDown is returned by every call between a crash and Recover.
var ErrDown = engine.ErrDown

// FreshCatalogs says the catalogs are as verify's setup leaves them: its
// CREATE EXTENSIONs' dead pg_proc tuples not pruned yet, so sessions prune
// them on access as they reach them (catpin.Pins.FreshSetup).
func (c *Cluster) FreshCatalogs() { c.e.CatalogPins().FreshSetup = true }

// StatementStart is the WAL insert position when the last command's
// statement began, after its session's catalog lookups (which may prune).
func (c *Cluster) StatementStart() pg.LSN { return c.e.StmtStart }

// Pool exposes the buffer pool (for tests and display).
func (c *Cluster) Pool() *bufmgr.Pool { return c.e.Pool() }

// WAL exposes the log.
func (c *Cluster) WAL() *wal.WAL { return c.e.WAL() }

// Storage exposes the machine below the server: the OS page cache and the device.
func (c *Cluster) Storage() *storage.Storage { return c.e.Storage() }

// Now is the cluster's simulated time in ns.
func (c *Cluster) Now() int64 { return c.e.Now() }

// RelName names a relation of the pool for output: a table, a fork
// ("big/fsm"), an index, or "(other)" for the catalogs.
func (c *Cluster) RelName(id pg.RelID) string { return c.e.RelName(id) }

// RingBuffers is the ring size of strategy k under the current settings.
func (c *Cluster) RingBuffers(k strategy.Kind) int { return c.e.RingBuffers(k) }

// CheckInvariants checks the pool between commands (no process holds pins
// then): pins balanced, one buffer per tag, rings inside the pool, usage ≤ 5.
func (c *Cluster) CheckInvariants() error { return c.e.CheckInvariants() }

// Relation returns a table's heap model by name: its pages' tuples, hint
// bits and visibility, for tests and for checking a run page by page.
func (c *Cluster) Relation(name string) (*heap.Relation, bool) { return c.e.Relation(name) }
