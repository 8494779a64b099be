package engine

import (
	"fmt"
	"github.com/pgbufsim/pgbufsim/internal/cores"
	"sort"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/catalog"
	"github.com/pgbufsim/pgbufsim/freespace"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/internal/bgproc"
	"github.com/pgbufsim/pgbufsim/internal/engine/autovac"
	"github.com/pgbufsim/pgbufsim/internal/engine/catpin"
	"github.com/pgbufsim/pgbufsim/internal/engine/pgclass"
	"github.com/pgbufsim/pgbufsim/internal/engine/vacpage"
	"github.com/pgbufsim/pgbufsim/nbtree"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/storage"
	"github.com/pgbufsim/pgbufsim/strategy"
	"github.com/pgbufsim/pgbufsim/wal"
)

// Cluster is one simulated PostgreSQL cluster.
type Cluster struct {
	S         *Settings
	StmtStart pg.LSN // the insert position after the last client session's catalog lookups (its statement's start)
	pool      *bufmgr.Pool
	wal       *wal.WAL
	// storage is the machine below the server: the OS page cache and the device.
	storage *storage.Storage

	rels   []*heap.Relation // by RelID; [0] is nil (the catalogs)
	byName map[string]*heap.Relation

	now       int64
	walwriter *bgproc.WalWriter
	ckpt      *bgproc.Checkpointer // background.go
	bgw       *bgproc.BgWriter
	av        *autovac.Launcher // autovacuum.go
	// allocBase is buffers_alloc before the pool's last reset (the counter
	// lives in StrategyControl, the statistic survives a restart).
	allocBase int64
	sync      heap.SyncScans
	rng       *pcg
	seed      uint64
	costs     CostModel // the cost model at host_time_scale (costs.go)
	marks     map[string]mark
	notices   []string
	// forks maps (heap RelID, fork) to the fork's storage in the pool; forkOwner back.
	forks     map[[2]int]pg.RelID
	forkOwner map[pg.RelID]forkRef
	fsmUpper  freespace.Upper // the FSMs' upper-level slots
	vacEnv    *vacpage.Env    // vacPageEnv's
	// statWALTwice is WAL that pg_stat_wal counts a second time (parallel workers').
	statWALTwice wal.Usage
	// rowChanges counts row changes logical decoding would emit (rows inserted).
	rowChanges int64
	// indexes are the btree indexes by name; indexByID by their storage.
	indexes   map[string]*nbtree.Index
	indexByID map[pg.RelID]*nbtree.Index
	// comp is wal_compression's compressor (nil: off).
	comp wal.Compressor
	// txn is the open transaction block (begin … commit), if any.
	txn transaction
	// cat is the catalog pins' state (catpin).
	cat catpin.Pins
	// crash is the power-loss and recovery state (crash.go).
	crash crashState
	// xids counts the transactions that were assigned an XID (wrote):
	// VACUUM can advance relfrozenxid only past the ones since it last did.
	xids    uint64
	stmtXid bool // a writing statement outside a block is under way: its XID runs
	invals  int  // invalidation messages the next commit record carries (vacwal.CommitInvalsLen)
	// forkIDs caches forks by heap RelID and fork number, as id+1 (0: not
	// created yet): fork's fast path, the map's answers (fsm.go).
	forkIDs [][pg.VMFork + 1]pg.RelID
}

type mark struct {
	lsn     pg.LSN
	changes int64 // logical changes (rows inserted) so far
	io      bufmgr.IOStats
	wal     wal.Usage
	statWAL wal.Usage
	time    int64
	bg      bgproc.Counters
}

// NewCluster initdb's and starts a cluster with settings s. seed feeds the
// cluster's PRNG (ANALYZE's block sampler, later fuzzing); the same seed and
// commands give byte-identical results.
func NewCluster(s *Settings, seed uint64) (*Cluster, error) {
	if err := s.CheckModelled(); err != nil {
		return nil, err
	}
	costs := costsFor(s)
	st, err := storage.New(s.StorageConfig())
	if err != nil {
		return nil, err
	}
	w, err := wal.New(wal.Config{Version: s.Version, Checksums: s.Bool("data_checksums"), WalBuffers: s.WalBuffers(), Costs: walCosts(s, costs), Sync: st.SyncWAL})
	if err != nil {
		return nil, err
	}
	ioWorkers := 0
	var pool bufmgr.IOWorkerPool
	switch {
	case s.Version >= 19 && s.Enum("io_method") == "worker":
		ioWorkers = int(s.Int("io_min_workers"))
		pool = bufmgr.IOWorkerPool{Min: ioWorkers, Max: max(ioWorkers, int(s.Int("io_max_workers"))),
			LaunchIntervalNs: s.Int("io_worker_launch_interval"), IdleTimeoutNs: s.Int("io_worker_idle_timeout"),
			StartNs: costs.WorkerStartNs}
	case s.Version >= 18 && s.Enum("io_method") != "sync":
		ioWorkers = int(s.Int("io_workers"))
	}
	p, err := bufmgr.NewPool(bufmgr.Config{
		NBuffers: s.NBuffers(), Version: s.Version,
		Checksums: s.Bool("data_checksums"), WALLogHints: s.Bool("wal_log_hints"),
		IOWorkers: ioWorkers, IOPool: pool, Costs: costs.Buf, Storage: st, Cores: cores.New(int(s.Int("host_cpus")), s.Int("host_sched_slice"), s.Int("host_wakeup")),
		Replacement: s.Enum("replacement"), UsageMax: int(s.Int("usage_max")), Reject: s.Reject(),
		NoFreeList: !s.Bool("freelist"),
	}, w)
	if err != nil {
		return nil, err
	}
	c := &Cluster{S: s, pool: p, wal: w, storage: st, rels: []*heap.Relation{nil}, byName: map[string]*heap.Relation{},
		rng: newPCG(seed), seed: seed, marks: map[string]mark{}, costs: costs, indexes: map[string]*nbtree.Index{},
		cat: catpin.Pins{Version: s.Version, Hinted: map[int]bool{}, InitFileStale: true, PageHole: catalogPageHole, Class: pgclass.New(s.Version)}}
	// The pinned catalog pages, and one more for the pg_class rows of the scenario's tables.
	p.CreateRel(pg.CatalogRel, catalogFor(s.Version).Pages+1, true)
	// initdb wrote the catalog: its pages are in the page cache.
	st.Preload(pg.CatalogRel, catalogFor(s.Version).Pages+1)
	c.walwriter = bgproc.NewWalWriter(c.bgEnv())
	c.ckpt, c.bgw = bgproc.NewCheckpointer(c.bgEnv()), bgproc.NewBgWriter(c.bgEnv())
	c.av = autovac.NewLauncher(avHost{c}, 0)
	p.TrackIOTiming, p.FlushAfter = s.Bool("track_io_timing"), bgproc.FlushAfter(s)
	if err := c.applyWALCompression(); err != nil {
		return nil, err
	}
	return c, nil
}

func walCosts(s *Settings, costs CostModel) wal.Costs {
	wc := costs.WAL
	wc.WriterDelayNs = s.Int("wal_writer_delay")
	wc.WriterFlushAft = s.Int("wal_writer_flush_after")
	return wc
}

// Pool exposes the buffer pool (for tests and display).
func (c *Cluster) Pool() *bufmgr.Pool { return c.pool }

// Storage exposes the machine below the server: the OS page cache and the device.
func (c *Cluster) Storage() *storage.Storage { return c.storage }

// WAL exposes the log.
func (c *Cluster) WAL() *wal.WAL { return c.wal }

// Now is the cluster's simulated time in ns.
func (c *Cluster) Now() int64 { return c.now }

// Relation returns a table by name.
func (c *Cluster) Relation(name string) (*heap.Relation, bool) {
	r, ok := c.byName[name]
	return r, ok
}

// RelName names a relation of the pool for output: a table, a fork ("big/fsm"), an index, or "(other)" for the catalogs.
func (c *Cluster) RelName(id pg.RelID) string {
	if id == pg.CatalogRel {
		return "(other)"
	}
	if f, ok := c.forkOwner[id]; ok {
		return f.rel.Name + forkSuffix(f.fork)
	}
	if ix, ok := c.indexByID[id]; ok {
		return ix.Name
	}
	return c.rels[id].Name
}

// Ring sizes in force.
func (c *Cluster) ringSettings() strategy.Settings {
	return strategy.Settings{Version: c.S.Version, NBuffers: c.S.NBuffers(),
		EffectiveIOConcurrency: int(c.S.Int("effective_io_concurrency")), IOCombineLimit: c.S.IOCombineLimit(),
		PinLimit: c.S.PinLimit(), VacuumBufferUsageKB: int(c.S.Int("vacuum_buffer_usage_limit")),
		RingOverride: int(c.S.Int("ring"))}
}

// RingBuffers is the ring size of strategy k under the current settings.
func (c *Cluster) RingBuffers(k strategy.Kind) int { return strategy.RingBuffers(k, c.ringSettings()) }

// wakeWalWriter sets the WAL writer's latch at time t.
func (c *Cluster) wakeWalWriter(t int64) { c.walwriter.Wake(t) }

// foldWAL moves a backend's WAL I/O counters into pg_stat_io.
func (c *Cluster) foldWAL(be *bufmgr.Backend) {
	c.pool.Stats.WAL[be.Type].Add(be.WAL)
	be.WAL = wal.Usage{}
}

// advanceTo lets background processes run up to time t, then sets the clock there.
func (c *Cluster) advanceTo(t int64) {
	for c.runBackground(t) {
	}
	if t > c.now {
		c.now = t
	}
}

// NextBackground is when the scheduler next runs a background process (math.MinInt64: ask before every step).
func (c *Cluster) NextBackground() int64 { return (*bgDue)(c).NextBackground() }

// runBackground runs the background process due first at or before t, if
// any (ties: the WAL writer, the checkpointer, the background writer,
// autovacuum), again while one is due, and reports whether one ran. (Both
// callers would call it again with the same t, nothing else running in
// between: a spread checkpoint's buffers are written in one call.)
func (c *Cluster) runBackground(t int64) (ran bool) {
	for ; t >= (*bgDue)(c).NextBackground(); ran = true { // t below it: the common case, nothing due
		c.bgw.WakeOnAlloc(t) // a hibernating bgwriter's latch (nothing otherwise)
		ww, ck, bw, av := c.walwriter.Next, c.ckpt.Next, c.bgw.Next, c.av.Next()
		switch {
		case ww <= t && ww <= ck && ww <= bw && ww <= av:
			c.walwriter.Run()
		case ck <= t && ck <= bw && ck <= av:
			c.ckpt.Run()
		case bw <= t && bw <= av:
			c.bgw.Run()
		case av <= t:
			c.av.Run()
		default:
			return ran
		}
	}
	return ran
}

// participant is one process running a statement.
type participant struct {
	be   *bufmgr.Backend
	step func() (done bool, err error)
	ring *strategy.Ring
}

// run interleaves participants and the background processes until every
// participant is done: on the host's cores (host_cpus), as their scheduler
// would (cores.Pool.Schedule).
func (c *Cluster) run(ps []*participant) error {
	ts := make([]*cores.Task, len(ps))
	for i, p := range ps {
		ts[i] = &cores.Task{Now: &p.be.Now, Waited: &p.be.Waited, Step: p.step}
	}
	return c.pool.IO().Cores().Schedule(ts, c.runBackground)
}

// finish ends a statement at the latest participant's time.
func (c *Cluster) finish(ps []*participant) {
	end := c.now
	for _, p := range ps {
		if p.be.Now > end {
			end = p.be.Now
		}
	}
	c.advanceTo(end)
}

// transaction is a begin … commit block: which relfilenodes it created (CREATE
// TABLE, TRUNCATE: what COPY FREEZE needs) and whether it wrote (a commit record).
type transaction struct {
	active  bool
	xid     bool // it has an XID (DDL, a load): the commit consumes one
	created map[pg.RelID]bool
	wrote   bool
	started bool // a command has run in it (its session has started)
}

// applyWALCompression installs wal_compression's image sizing in the pool:
// a heap page is built from its rows (heap.PageBytes) and compressed for
// real; FSM and VM pages are mostly zeros; other pages stay uncompressed.
func (c *Cluster) applyWALCompression() error {
	m := c.S.Enum("wal_compression")
	if m == "off" {
		c.comp = nil
		c.pool.SetImageBytes(nil)
		return nil
	}
	comp, err := wal.NewCompressor(m)
	if err != nil {
		return &pg.SettingError{Name: "wal_compression", Value: m, Allowed: "off, on, pglz, lz4 or zstd"}
	}
	c.comp = comp
	c.pool.SetImageBytes(c.imageBytes)
	return nil
}

// imageBytes is what a full-page image of page t takes in a record: the page
// without its hole, compressed for real under wal_compression (heap pages
// built from their rows, btree pages from their keys, FSM and VM pages mostly
// zeros; catalog pages, whose bytes are not modelled, uncompressed), and the
// CPU time compressing took.
func (c *Cluster) imageBytes(t pg.BufferTag, hole int) (int, int64) {
	if c.comp == nil {
		return pg.BLCKSZ - hole, 0
	}
	var img []byte
	switch {
	case int(t.Rel) < len(c.rels) && c.rels[t.Rel] != nil:
		img, hole = heap.WithoutHole(c.rels[t.Rel].PageBytes(t.Block, 750, c.pool.PageLSN(t.Rel, t.Block)))
	case c.forkOwner[t.Rel].rel != nil:
		img, hole = make([]byte, pg.BLCKSZ), 0
	case c.indexByID[t.Rel] != nil:
		img, hole = heap.WithoutHole(c.indexByID[t.Rel].PageBytes(t.Block))
	default:
		return pg.BLCKSZ - hole, 0
	}
	n, _ := wal.CompressedImage(c.comp, img, hole)
	return n, int64(len(img)) * c.costs.CompressPsPerByte(c.comp.Method()) / 1000
}

// imageHole is the hole to give a record-size formula so that its
// BLCKSZ − hole is the image's bytes in the record (compressed under
// wal_compression); hole itself when no image is taken.
func (c *Cluster) imageHole(be *bufmgr.Backend, image bool, b pg.Buffer, hole int) int {
	if !image || c.comp == nil {
		return hole
	}
	return pg.BLCKSZ - c.imageLen(be, c.pool.Tag(b), hole)
}

// imageLen is imageBytes for the record-size formulas: the bytes, with the
// compression's CPU time charged to be.
func (c *Cluster) imageLen(be *bufmgr.Backend, t pg.BufferTag, hole int) int {
	n, ns := c.imageBytes(t, hole)
	be.Now += ns
	return n
}

// statWAL is pg_stat_wal as the server reports it.
func (c *Cluster) statWAL() wal.Usage {
	u := c.wal.Total
	u.Records += c.statWALTwice.Records
	u.FPI += c.statWALTwice.FPI
	u.Bytes += c.statWALTwice.Bytes
	return u
}

// beginStatement starts a statement in a new client session: its catalog
// pins (connection, planning, executor start), then the statement's fixed
// parse/plan/start cost.
func (c *Cluster) beginStatement(kind catalog.Kind) (*bufmgr.Backend, error) {
	be := bufmgr.NewBackend(bufmgr.ClientBackend, c.now)
	if err := c.touchCatalog(be, kind); err != nil {
		return nil, err
	}
	c.stmtXid = kind == catalog.Insert || kind == catalog.Copy // an XID from its first row until endStatement
	be.Now += c.costs.StatementNs
	return be, nil
}

// session is a client session that only pins catalog pages (a utility
// command, or a query of statistics).
func (c *Cluster) session(kind catalog.Kind) error {
	be := bufmgr.NewBackend(bufmgr.ClientBackend, c.now)
	if err := c.touchCatalog(be, kind); err != nil {
		return err
	}
	c.finish([]*participant{{be: be}})
	return nil
}

func (c *Cluster) readRelease(be *bufmgr.Backend, t pg.BufferTag) error {
	b, _, err := c.pool.ReadBuffer(be, t, nil)
	if err != nil {
		return err
	}
	c.pool.Unpin(be, b)
	return nil
}

// CheckInvariants checks the pool between commands (only autovacuum's workers hold pins then).
func (c *Cluster) CheckInvariants() error { return c.pool.CheckInvariants(c.av.Backends(), nil) }

// sortedRels lists user relations in creation order.
func (c *Cluster) sortedRels() []*heap.Relation {
	var rs []*heap.Relation
	for _, r := range c.rels[1:] {
		if r != nil {
			rs = append(rs, r)
		}
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].ID < rs[j].ID })
	return rs
}

// errorf makes an engine error (printed as "error: ..." in scenario output).
func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }
