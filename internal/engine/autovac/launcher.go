package autovac

import (
	"fmt"
	"math"
	"sort"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/guc"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
)

// Candidate is a table as a worker finds it in pg_class, with what the
// model knows about it.
type Candidate struct {
	Ref
	// Enabled is the autovacuum_enabled reloption.
	Enabled bool
	// Refused, when not empty, is why the engine cannot vacuum the table
	// (the worker skips it and says so once in the log: a model limit).
	Refused string
	// Uncommitted: a transaction that has not committed yet wrote rows to
	// the table. VACUUM would find them in progress (no hint bits, not
	// all-visible), which the engine's VACUUM does not model: the worker
	// leaves the table for a later round (a model limit).
	Uncommitted bool
	// Stat is pg_class's figures (the counts are the launcher's).
	Stat TableStat
}

// Job is one VACUUM or ANALYZE the engine runs for a worker, a page a Step.
type Job interface {
	Step() (done bool, err error)
	// Finish ends the work (pg_class's update, the catalog pins) and says what the log line reports.
	Finish() (Report, error)
	// Abort ends a cancelled job: its pins released, pg_class untouched.
	Abort()
}

// Report is what an autovacuum's log lines say (heap_vacuum_rel,
// do_analyze_rel with log_autovacuum_min_duration).
type Report struct {
	Pages, Scanned, Removed int
	Tuples                  int64
	SetAllVisible           int // pages set all-visible (18+ line)
	SetAllFrozen            int
	FrozenPages             int
	FrozenTuples            int64
	// Buf and WAL are the worker's counters when the message is composed
	// (before the transaction's end: its invalidations, its commit).
	Buf                     bufmgr.BufferUsage
	WAL                     wal.Usage
	ReadBytes, WrittenBytes int64
}

// Host is the engine as the workers use it.
type Host interface {
	Settings() *guc.Settings
	// Tables lists the tables in pg_class order.
	Tables() []*heap.Relation
	// StartWorker starts a worker's session at time t (its catalog pins).
	StartWorker(t int64) (*bufmgr.Backend, error)
	// Start sets the work on a table up with the worker's backend: its VACUUM, or its ANALYZE.
	Start(be *bufmgr.Backend, id pg.RelID, analyze bool, cost *Cost) Job
	// EndWorker ends the worker's session (its WAL counters into pg_stat_io).
	EndWorker(be *bufmgr.Backend)
	// Log writes a server log line.
	Log(line string)
}

// Counts are one table's pgstat counters the launcher keeps (pg_stat_user_tables).
type Counts struct {
	// published is n_tup_ins as flushed (the rows of committed statements).
	published                       int64
	InsSinceVacuum, ModSinceAnalyze int64
	// LastAutovacuum and LastAutoanalyze are simulated ns (−1: never); so are the manual ones.
	LastVacuum, LastAutovacuum, LastAnalyze, LastAutoanalyze     int64
	VacuumCount, AutovacuumCount, AnalyzeCount, AutoanalyzeCount int64
	// RelAllFrozen is pg_class.relallfrozen (18+), set by VACUUM and ANALYZE.
	RelAllFrozen  int
	refusedLogged bool
}

// Launcher is the autovacuum launcher and its workers.
type Launcher struct {
	Host Host
	// Refuse, when set, says why the engine cannot vacuum a table ("": it can).
	Refuse func(table string) string
	// next is the database's adl_next_worker (math.MaxInt64: autovacuum off, or parked).
	next int64
	// parked: a wake-up at parkedAt found no table to work on and no worker
	// running. Nothing a worker reads changes until a command ends (pgstat's
	// flush, a manual VACUUM, SET), so the launcher's wake-ups until then
	// would find nothing either: it sleeps until Publish.
	parked   bool
	parkedAt int64
	workers  []*worker
	counts   map[pg.RelID]*Counts
}

// NewLauncher starts the launcher at time t: rebuild_database_list with the
// one database puts its first worker autovacuum_naptime later.
func NewLauncher(h Host, t int64) *Launcher {
	l := &Launcher{Host: h, counts: map[pg.RelID]*Counts{}}
	l.Reset(t)
	return l
}

// Reset is the launcher's (re)start at time t, as after a server restart.
func (l *Launcher) Reset(t int64) {
	l.workers, l.parked = nil, false
	l.next = math.MaxInt64
	if s := l.Host.Settings(); s.Bool("autovacuum") {
		l.next = t + s.Int("autovacuum_naptime")
	}
}

// Counts is table id's counters (created on first use).
func (l *Launcher) Counts(id pg.RelID) *Counts {
	c, ok := l.counts[id]
	if !ok {
		c = &Counts{LastVacuum: -1, LastAutovacuum: -1, LastAnalyze: -1, LastAutoanalyze: -1}
		l.counts[id] = c
	}
	return c
}

// Publish is pgstat's flush at a commit: the rows inserted into each table
// (nil: a dropped slot) since the last flush count toward n_ins_since_vacuum
// and n_mod_since_analyze — unless a transaction block is still open (inTxn).
func (l *Launcher) Publish(rels []*heap.Relation, inTxn bool, now int64) {
	if inTxn {
		return
	}
	if l.parked {
		// The counts may have changed: the launcher wakes at its next
		// scheduled time (the naptime grid it parked on).
		n := l.Host.Settings().Int("autovacuum_naptime")
		k := max(1, (now-l.parkedAt+n-1)/n)
		l.next, l.parked = l.parkedAt+k*n, false
	}
	for _, r := range rels {
		if r == nil {
			continue
		}
		c := l.Counts(r.ID)
		if d := r.Inserted - c.published; d > 0 {
			c.InsSinceVacuum += d
			c.ModSinceAnalyze += d
		}
		c.published = r.Inserted
	}
}

// candidates is pg_class as a worker scans it.
func (l *Launcher) candidates() []Candidate {
	var out []Candidate
	for _, r := range l.Host.Tables() {
		cnt := l.Counts(r.ID)
		cd := Candidate{Ref: Ref{ID: r.ID, Name: r.Name}, Enabled: r.Autovacuum, Uncommitted: cnt.published != r.Inserted,
			Stat: TableStat{RelTuples: r.RelTuples, RelPages: r.RelPages, RelAllFrozen: cnt.RelAllFrozen}}
		if l.Refuse != nil {
			cd.Refused = l.Refuse(r.Name)
		}
		out = append(out, cd)
	}
	return out
}

// Vacuumed is pgstat_report_vacuum at time t: n_ins_since_vacuum restarts.
func (l *Launcher) Vacuumed(id pg.RelID, auto bool, t int64) {
	c := l.Counts(id)
	c.InsSinceVacuum = 0
	if auto {
		c.LastAutovacuum, c.AutovacuumCount = t, c.AutovacuumCount+1
	} else {
		c.LastVacuum, c.VacuumCount = t, c.VacuumCount+1
	}
}

// Truncated is TRUNCATE's pgstat flush (truncdropped): n_ins_since_vacuum
// restarts (the model flushes at once, even inside a transaction block).
func (l *Launcher) Truncated(id pg.RelID) { l.Counts(id).InsSinceVacuum = 0 }

// Analyzed is pgstat_report_analyze at time t: n_mod_since_analyze restarts.
func (l *Launcher) Analyzed(id pg.RelID, auto bool, t int64) {
	c := l.Counts(id)
	c.ModSinceAnalyze = 0
	if auto {
		c.LastAutoanalyze, c.AutoanalyzeCount = t, c.AutoanalyzeCount+1
	} else {
		c.LastAnalyze, c.AnalyzeCount = t, c.AnalyzeCount+1
	}
}

// Next is the time the launcher or a worker acts next (math.MaxInt64: never).
func (l *Launcher) Next() int64 {
	n := l.next
	for _, w := range l.workers {
		n = min(n, w.next)
	}
	return n
}

// Run does the step due first: a worker's (ties: the oldest worker), or
// the launcher's wake-up.
func (l *Launcher) Run() {
	var due *worker
	for _, w := range l.workers {
		if due == nil || w.next < due.next {
			due = w
		}
	}
	if due != nil && due.next <= l.next {
		if !due.run(l) {
			l.removeWorker(due)
		}
		return
	}
	l.launch()
}

func (l *Launcher) removeWorker(w *worker) {
	for i, o := range l.workers {
		if o == w {
			l.workers = append(l.workers[:i], l.workers[i+1:]...)
			return
		}
	}
}

// launch is the launcher's wake-up at its database's next_worker: a worker
// if a slot is free (autovacuum_max_workers, 18+: within
// autovacuum_worker_slots), and the next one autovacuum_naptime later
// (launch_worker). With no free slot the launcher sleeps autovacuum_naptime
// (launcher_determine_sleep with canlaunch false) and tries again.
func (l *Launcher) launch() {
	t := l.next
	s := l.Host.Settings()
	if !s.Bool("autovacuum") {
		l.next = math.MaxInt64
		return
	}
	l.next = t + s.Int("autovacuum_naptime")
	maxw := int(s.Int("autovacuum_max_workers"))
	if s.Version >= 18 {
		maxw = min(maxw, int(s.Int("autovacuum_worker_slots")))
	}
	if len(l.workers) >= maxw {
		return
	}
	// A worker that would find no table to process is not started (a model
	// simplification: its connection's catalog pins are left out).
	list := l.tableList(nil)
	if len(list) == 0 {
		if len(l.workers) == 0 {
			l.next, l.parked, l.parkedAt = math.MaxInt64, true, t
		}
		return
	}
	be, err := l.Host.StartWorker(t)
	if err != nil {
		l.Host.Log(fmt.Sprintf("ERROR:  autovacuum worker: %v", err))
		return
	}
	w := &worker{be: be, next: be.Now, queue: list}
	l.workers = append(l.workers, w)
}

// item is one table of a worker's list: vacuum, analyze or both.
type item struct {
	Ref
	vacuum, analyze bool
	score           float64
}

// tableList is do_autovacuum's scan of pg_class: every table whose
// thresholds are passed (19: in descending order of score), less those
// another worker is processing (its MyWorkerInfo->wi_tableoid).
func (l *Launcher) tableList(self *worker) []item {
	s := l.Host.Settings()
	var list []item
	for _, c := range l.candidates() {
		d, ok := l.decide(c)
		if !ok || l.busyElsewhere(c.ID, self) {
			continue
		}
		list = append(list, item{Ref: c.Ref, vacuum: d.Vacuum, analyze: d.Analyze, score: d.Score})
	}
	if s.Version >= 19 {
		sort.SliceStable(list, func(i, j int) bool { return list[i].score > list[j].score })
	}
	return list
}

// decide applies relation_needs_vacanalyze to a candidate (false: nothing to do).
func (l *Launcher) decide(c Candidate) (Decision, bool) {
	if !c.Enabled {
		return Decision{}, false
	}
	cnt := l.Counts(c.ID)
	st := c.Stat
	st.InsSinceVacuum, st.ModSinceAnalyze = cnt.InsSinceVacuum, cnt.ModSinceAnalyze
	d := NeedsVacAnalyze(l.Host.Settings(), st)
	if !d.Vacuum && !d.Analyze {
		return d, false
	}
	if c.Refused != "" {
		if !cnt.refusedLogged {
			cnt.refusedLogged = true
			l.Host.Log(fmt.Sprintf("pgbufsim: autovacuum passes over table %q: %s (a model limit)", c.Name, c.Refused))
		}
		return d, false
	}
	return d, !c.Uncommitted
}

func (l *Launcher) busyElsewhere(id pg.RelID, self *worker) bool {
	for _, w := range l.workers {
		if w != self && w.cur != nil && w.cur.ID == id {
			return true
		}
	}
	return false
}

// Crashed is the launcher after crash recovery at t: the workers died, and
// the startup process discarded the statistics (pgstat_discard_stats), so
// every count starts over from what is committed now.
func (l *Launcher) Crashed(t int64) {
	for id, c := range l.counts {
		l.counts[id] = &Counts{published: c.published, LastVacuum: -1, LastAutovacuum: -1, LastAnalyze: -1, LastAutoanalyze: -1}
	}
	l.Reset(t)
}

// Cancel is a lock conflict on table id (TRUNCATE, a manual VACUUM or
// ANALYZE): the backend that waits for a worker's lock cancels it
// (ProcSleep's "sending cancel to blocking autovacuum PID"), the worker's
// vacuum or analyze of the table ends with an ERROR, and the worker goes on
// to its next table. The model cancels at once; the server waits
// deadlock_timeout (1 s by default) first.
func (l *Launcher) Cancel(id pg.RelID) {
	for _, w := range l.workers {
		if w.job == nil || w.cur == nil || w.cur.ID != id {
			continue
		}
		w.job.Abort()
		what := "vacuum"
		if w.analyzing {
			what = "analyze"
		}
		l.Host.Log(fmt.Sprintf("ERROR:  canceling autovacuum task\nCONTEXT:  automatic %s of table \"%s.public.%s\"", what, Database, w.cur.Name))
		w.job, w.cur = nil, nil
	}
}

// Shutdown is the server's shutdown: SIGTERM ends every worker, its job
// cancelled; the launcher starts again with the server (Reset).
func (l *Launcher) Shutdown() {
	for _, w := range l.workers {
		if w.job != nil {
			w.job.Abort()
			l.Host.Log("FATAL:  terminating autovacuum process due to administrator command")
		}
		l.Host.EndWorker(w.be)
	}
	l.workers = nil
}

// Backends are the running workers' processes (they hold pins between commands).
func (l *Launcher) Backends() []*bufmgr.Backend {
	var bes []*bufmgr.Backend
	for _, w := range l.workers {
		bes = append(bes, w.be)
	}
	return bes
}

// Configure follows a settings change at t: autovacuum turned on starts
// the launcher's schedule (the postmaster starts it on reload), turned off
// stops new workers.
func (l *Launcher) Configure(t int64) {
	on := l.Host.Settings().Bool("autovacuum")
	switch {
	case on && l.next == math.MaxInt64:
		l.next = t + l.Host.Settings().Int("autovacuum_naptime")
	case !on:
		l.next, l.parked = math.MaxInt64, false
	}
}
