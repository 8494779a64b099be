package engine

import (
	"fmt"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/catalog"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/internal/bgproc"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/strategy"
	"github.com/pgbufsim/pgbufsim/wal"
)

// # The state the public API works on
//
// Package cluster (the typed API) validates a command's arguments, calls the
// executor below and shapes its results; what it needs of the cluster's
// state is here: the client's pause, the transaction block, the relation
// registry, the marks, and the statements themselves.

// SetNotices keeps what opening the cluster said about its settings.
func (c *Cluster) SetNotices(n []string) { c.notices = n }

// Notices are what opening the cluster said about settings accepted but not simulated.
func (c *Cluster) Notices() []string { return append([]string(nil), c.notices...) }

// AfterCommand is the bookkeeping after every command (see afterCommand).
func (c *Cluster) AfterCommand() { c.afterCommand() }

// AdvanceTo lets background processes run up to time t, then sets the clock there.
func (c *Cluster) AdvanceTo(t int64) { c.advanceTo(t) }

// Pause is the client's pause before a command (c.costs.InterCommandNs).
func (c *Cluster) Pause() { c.advanceTo(c.now + c.costs.InterCommandNs) }

// SetSettings puts new run-time settings in force (SET).
func (c *Cluster) SetSettings(s *Settings) error {
	c.S = s
	c.pool.TrackIOTiming, c.pool.FlushAfter = s.Bool("track_io_timing"), bgproc.FlushAfter(s)
	c.ckpt.Configure(c.now)
	c.av.Configure(c.now)
	return c.applyWALCompression()
}

// InTransaction reports whether a transaction block is open.
func (c *Cluster) InTransaction() bool { return c.txn.active }

// BeginBlock is BEGIN.
func (c *Cluster) BeginBlock() error {
	if c.txn.active {
		return fmt.Errorf("begin: there is already a transaction in progress")
	}
	c.txn = transaction{active: true, created: map[pg.RelID]bool{}}
	return nil
}

// CommitBlock is COMMIT: a commit record if the transaction wrote.
func (c *Cluster) CommitBlock() error {
	if !c.txn.active {
		return fmt.Errorf("commit: there is no transaction in progress")
	}
	wrote, xid := c.txn.wrote, c.txn.xid
	c.txn = transaction{}
	be := bufmgr.NewBackend(bufmgr.ClientBackend, c.now)
	c.endStatement(be, wrote)
	if xid && !wrote {
		c.xids++ // DDL alone: its XID is consumed (its commit record is not modelled)
	}
	c.finish([]*participant{{be: be}})
	c.foldWAL(be)
	return nil
}

// Restart is a fast shutdown and start: the shutdown checkpoint writes every
// dirty buffer and logs XLOG_CHECKPOINT_SHUTDOWN (no REDO record, no standby
// snapshot); the pool comes back empty, on the free list in 15 to 18.
func (c *Cluster) Restart() error {
	if c.txn.active {
		return fmt.Errorf("restart: a transaction block is open (commit first)")
	}
	// Shutdown: a spread checkpoint under way ends without pausing.
	c.ckpt.Drain(c.now, c.runOthersUntil, func(t int64) int64 { c.advanceTo(t); return c.now })
	be := bufmgr.NewBackend(bufmgr.Checkpointer, c.now)
	written := c.pool.BufferSync(be, true)
	be.Now, _ = c.storage.SyncAll(be.Now)
	be.Now = c.wal.ShutdownCheckpoint(be.Now, &be.WAL)
	c.ckpt.RemoveOldSegments(be, true)
	c.checkpointDone(c.wal.RedoRecPtr(), c.pool.RelSizes())
	c.finish([]*participant{{be: be}})
	c.foldWAL(be)
	c.ckpt.Stats.BuffersWritten += int64(written)
	c.wal.Started()
	c.ckpt.Start(c.now) // a new checkpointer: its estimate and schedule start over
	c.allocBase += int64(c.pool.Control().NumBufferAllocs)
	c.pool.Reset()
	c.bgw.Start(c.now)
	c.av.Reset(c.now)
	c.sync = heap.SyncScans{}
	c.cat.InitFileStale = true
	c.cat.Restart()
	return nil
}

// AddTable registers a new table of the shape (CREATE TABLE): its storage in
// the pool, empty; in a transaction block, a relfilenode of this transaction.
func (c *Cluster) AddTable(name string, shape heap.Shape) *heap.Relation {
	id := pg.RelID(len(c.rels))
	r := heap.NewRelation(id, name, shape)
	c.rels = append(c.rels, r)
	c.byName[name] = r
	// CREATE TABLE sets relfrozenxid to RecentXmin: no later transaction is behind it.
	r.FrozenAt, r.Xids = c.xids, &c.xids
	c.ddlXid()
	if c.txn.active {
		c.txn.created[id] = true
	}
	c.pool.CreateRel(id, 0, true)
	return r
}

// AttachTable registers a table over a data file that already holds nblocks
// empty pages (on disk, in no cache), as a replayed trace's relation is.
func (c *Cluster) AttachTable(name string, nblocks int) *heap.Relation {
	id := pg.RelID(len(c.rels))
	r := heap.NewRelation(id, name, heap.Shape{TupleLen: 28, Fillfactor: 100, PlannerWidth: 4})
	r.ReservePages(nblocks)
	r.AddPages(nblocks - r.NPages())
	c.rels = append(c.rels, r)
	c.byName[name] = r
	c.pool.CreateRel(id, nblocks, true)
	return r
}

// Truncate is TRUNCATE: the table's buffers and its forks' are invalidated
// (DropRelationBuffers → InvalidateBuffer: onto the free list in 15 to 18, in
// 19 left for the clock hand); the new relfilenode has no FSM and no VM.
func (c *Cluster) Truncate(r *heap.Relation) error {
	if c.hasIndex(r) {
		return fmt.Errorf("truncate %s: truncating an indexed table is not modelled yet", r.Name)
	}
	c.pool.DropRelBuffers(r.ID)
	c.ddlXid()
	if c.txn.active {
		c.txn.created[r.ID] = true // a new relfilenode in this transaction
	}
	r.Truncate()
	for _, f := range []pg.ForkNumber{pg.FSMFork, pg.VMFork} {
		c.pool.DropRelBuffers(c.fork(r, f))
	}
	c.fsmUpper.Forget(r.ID)
	return nil
}

// KeyIndexesMaintainable refuses a load into a table whose indexes on a key
// other than id the model cannot maintain.
func (c *Cluster) KeyIndexesMaintainable(r *heap.Relation) error { return c.keyIndexesMaintainable(r) }

// InsertSelect is INSERT INTO r SELECT … of n rows.
func (c *Cluster) InsertSelect(r *heap.Relation, n int64) (*StmtResult, error) {
	return c.insertSelect(r, n)
}

// CopyFrom is COPY r FROM STDIN [(FREEZE)] of n rows.
func (c *Cluster) CopyFrom(r *heap.Relation, n int64, freeze bool) (*StmtResult, error) {
	return c.copyFrom(r, n, freeze)
}

// AnalyzeTable is ANALYZE r.
func (c *Cluster) AnalyzeTable(r *heap.Relation) (*StmtResult, error) { return c.analyze(r) }

// SeqScan is SELECT count(*) FROM r, as the planner chooses to run it.
func (c *Cluster) SeqScan(r *heap.Relation) (*StmtResult, error) { return c.seqScan(r) }

// VacuumTable is VACUUM [FREEZE] r.
func (c *Cluster) VacuumTable(r *heap.Relation, freeze bool) (*StmtResult, error) {
	return c.vacuum(r, freeze)
}

// RunCheckpoint is CHECKPOINT.
func (c *Cluster) RunCheckpoint() (*StmtResult, error) { return c.checkpoint() }

// EvictRelation is pg_buffercache_evict_relation(r), or with nil _evict_all().
func (c *Cluster) EvictRelation(r *heap.Relation) (*StmtResult, error) { return c.evict(r) }

// Session is a client session that only pins its catalog pages.
func (c *Cluster) Session(kind CatalogKind) error { return c.session(kind) }

// CatalogKind is what a session does, for its catalog pins.
type CatalogKind = catalog.Kind

// Sessions whose catalog pins the public commands make.
const (
	SessionPlain       = catalog.Session
	SessionCheckpoint  = catalog.Checkpoint
	SessionTable       = catalog.Table
	SessionBuffercache = catalog.Buffercache
)

// QuerySession runs a query's session: its catalog pins as a statement of
// kind (pg_buffercache's query), the clock at its end.
func (c *Cluster) QuerySession(kind CatalogKind) error {
	be := bufmgr.NewBackend(bufmgr.ClientBackend, c.now)
	if err := c.touchCatalog(be, kind); err != nil {
		return err
	}
	c.finish([]*participant{{be: be}})
	return nil
}

// Mark is a remembered WAL position and the counters then.
type Mark struct {
	LSN     pg.LSN
	Changes int64 // logical changes (rows inserted) so far
	IO      bufmgr.IOStats
	WAL     wal.Usage
	StatWAL wal.Usage
	TimeNs  int64
	Bg      bgproc.Counters // pg_stat_bgwriter / pg_stat_checkpointer
}

// SetMark remembers the WAL position and every counter under name.
func (c *Cluster) SetMark(name string) {
	c.marks[name] = mark{lsn: c.wal.InsertLSN(), io: c.pool.Stats, wal: c.wal.Total, statWAL: c.statWAL(), time: c.now, changes: c.rowChanges, bg: c.BgwriterStats()}
}

// GetMark returns a mark by name.
func (c *Cluster) GetMark(name string) (Mark, bool) {
	m, ok := c.marks[name]
	return Mark{LSN: m.lsn, Changes: m.changes, IO: m.io, WAL: m.wal, StatWAL: m.statWAL, TimeNs: m.time, Bg: m.bg}, ok
}

// StatWAL is pg_stat_wal as the server reports it (parallel workers' WAL twice).
func (c *Cluster) StatWAL() wal.Usage { return c.statWAL() }

// RowChanges counts the row changes logical decoding would emit so far.
func (c *Cluster) RowChanges() int64 { return c.rowChanges }

// Tables lists the user tables in creation order.
func (c *Cluster) Tables() []*heap.Relation { return c.sortedRels() }

// ForkID is the pool storage of one of r's forks, if it exists.
func (c *Cluster) ForkID(r *heap.Relation, f pg.ForkNumber) (pg.RelID, bool) {
	id, ok := c.forks[[2]int{int(r.ID), int(f)}]
	return id, ok
}

// IndexRef names one of a table's indexes.
type IndexRef struct {
	ID   pg.RelID
	Name string
}

// TableIndexes lists r's indexes by name.
func (c *Cluster) TableIndexes(r *heap.Relation) []IndexRef {
	var out []IndexRef
	for _, ix := range c.sortedIndexes(r) {
		out = append(out, IndexRef{ix.ID, ix.Name})
	}
	return out
}

// IsIndex reports whether name is an index.
func (c *Cluster) IsIndex(name string) bool {
	_, ok := c.indexes[name]
	return ok
}

// RunClient drives step for be on the scheduler, interleaved with the WAL
// writer, until it reports done; then the clock moves to be's end and its
// WAL I/O counts in pg_stat_io.
func (c *Cluster) RunClient(be *bufmgr.Backend, step func() (bool, error)) error {
	err := c.run([]*participant{{be: be, step: step}})
	c.finish([]*participant{{be: be}})
	c.foldWAL(be)
	return err
}

// ClientEvictions is pg_stat_io's evictions by client backends in the normal context.
func (c *Cluster) ClientEvictions() int64 {
	return c.pool.Stats.Rel[bufmgr.ClientBackend][strategy.Normal][bufmgr.OpEvictions]
}

// # What the index scans (package indexscan) use

// Seed is the cluster's seed, which seeds a key index's heap-page draw.
func (c *Cluster) Seed() uint64 { return c.seed }

// SessionScan is a SELECT's session.
const SessionScan = catalog.Scan

// TouchCatalog pins a session's catalog pages for be (see touchCatalog).
func (c *Cluster) TouchCatalog(be *bufmgr.Backend, kind CatalogKind) error {
	return c.touchCatalog(be, kind)
}

// BeginStatement starts a statement in a new client session (see beginStatement).
func (c *Cluster) BeginStatement(kind CatalogKind) (*bufmgr.Backend, error) {
	return c.beginStatement(kind)
}

// ReadRelease reads page t into the pool for be and releases it.
func (c *Cluster) ReadRelease(be *bufmgr.Backend, t pg.BufferTag) error { return c.readRelease(be, t) }

// NewStream is a read stream of rel's pages for be (see newStream).
func (c *Cluster) NewStream(be *bufmgr.Backend, ring *strategy.Ring, rel *heap.Relation, maintenance, sequential bool, next func() (pg.BlockNumber, bool)) *bufmgr.ReadStream {
	return c.newStream(be, ring, rel, maintenance, sequential, next)
}

// VMPin is a scan's pinned visibility-map page (rs_vmbuffer).
type VMPin = vmPin

// NewVMPin is a scan's VM pin, holding nothing yet.
func NewVMPin() *VMPin { return &vmPin{} }

// Release unpins the VM page at the end of the scan.
func (v *vmPin) Release(c *Cluster, be *bufmgr.Backend) { v.release(c, be) }

// PruneOnAccess is heap_page_prune_opt for a read-only scan (19; nothing before).
func (c *Cluster) PruneOnAccess(be *bufmgr.Backend, b pg.Buffer, rel *heap.Relation, blk pg.BlockNumber, vm *VMPin) error {
	return c.pruneOnAccess(be, b, rel, blk, vm)
}

// WakeWalWriter sets the WAL writer's latch at time t (an async commit's XLogSetAsyncXactLSN).
func (c *Cluster) WakeWalWriter(t int64) { c.wakeWalWriter(t) }

// FoldWAL moves a backend's WAL I/O counters into pg_stat_io.
func (c *Cluster) FoldWAL(be *bufmgr.Backend) { c.foldWAL(be) }

// FinishBackend ends a one-process statement at be's time.
func (c *Cluster) FinishBackend(be *bufmgr.Backend) { c.finish([]*participant{{be: be}}) }

// # What the OLTP executor (package oltp) uses

// NeedsImage reports whether a change to a page last logged at pageLSN must
// carry a full-page image (XLogCheckBufferNeedsBackup: at or before the redo
// pointer, with full_page_writes on).
func (c *Cluster) NeedsImage(pageLSN pg.LSN) bool { return c.needsImage(pageLSN) }

// ImageHole is the hole a record's image of buffer b leaves out: the page's
// own hole, or under wal_compression what the compressed image does not take.
func (c *Cluster) ImageHole(be *bufmgr.Backend, image bool, b pg.Buffer, hole int) int {
	return c.imageHole(be, image, b, hole)
}

// FSMSearchRoot is fsm_search when no page has room: the FSM root is read.
func (c *Cluster) FSMSearchRoot(be *bufmgr.Backend, rel *heap.Relation) error {
	return c.fsmSearchRoot(be, rel)
}

// RecordFreeSpace is RecordPageWithFreeSpace for heap block blk.
func (c *Cluster) RecordFreeSpace(be *bufmgr.Backend, rel *heap.Relation, blk pg.BlockNumber) error {
	return c.recordPageWithFreeSpace(be, rel, blk)
}

// ReadForkExtend is vm_readbuf / fsm_readbuf with extend: page blk of one
// of rel's forks, pinned, the fork first extended with zeroed pages to hold it.
func (c *Cluster) ReadForkExtend(be *bufmgr.Backend, rel *heap.Relation, f pg.ForkNumber, blk pg.BlockNumber) (pg.Buffer, error) {
	b, _, err := c.forkReadBuf(be, rel, f, blk, true)
	return b, err
}

// ForkRelID is the pool storage of one of rel's forks, created on first use.
func (c *Cluster) ForkRelID(rel *heap.Relation, f pg.ForkNumber) pg.RelID { return c.fork(rel, f) }

// TableIO is pg_statio_user_tables for r: heap_blks_* over the table and
// its forks, idx_blks_* summed over its indexes.
type TableIO struct{ HeapHit, HeapRead, IdxHit, IdxRead int64 }

// StatIOTable counts r's buffer accesses since the cluster started.
func (c *Cluster) StatIOTable(r *heap.Relation) TableIO {
	var io TableIO
	io.HeapHit, io.HeapRead = c.pool.Accesses(r.ID)
	for _, f := range []pg.ForkNumber{pg.FSMFork, pg.VMFork} {
		if id, ok := c.forks[[2]int{int(r.ID), int(f)}]; ok {
			h, rd := c.pool.Accesses(id)
			io.HeapHit += h
			io.HeapRead += rd
		}
	}
	for _, ix := range c.sortedIndexes(r) {
		h, rd := c.pool.Accesses(ix.ID)
		io.IdxHit += h
		io.IdxRead += rd
	}
	return io
}

// RunClients drives several client backends, each step of each on the
// scheduler in the order of their simulated clocks (the earliest first),
// with the WAL writer beside them; at the end the clock is at the last one's time.
func (c *Cluster) RunClients(bes []*bufmgr.Backend, steps []func() (bool, error)) error {
	ps := make([]*participant, len(bes))
	for i := range bes {
		ps[i] = &participant{be: bes[i], step: steps[i]}
	}
	err := c.run(ps)
	c.finish(ps)
	for _, be := range bes {
		c.foldWAL(be)
	}
	return err
}

// StatIODatabase is pg_stat_database's blks_hit and blks_read: every storage's accesses.
func (c *Cluster) StatIODatabase() (hit, read int64) {
	for id := range c.rels {
		h, r := c.pool.Accesses(pg.RelID(id))
		hit += h
		read += r
	}
	return hit, read
}

// ddlXid is a DDL statement's XID: its transaction block's, or its own.
func (c *Cluster) ddlXid() {
	if c.txn.active {
		c.txn.xid = true
	} else {
		c.xids++
	}
}
