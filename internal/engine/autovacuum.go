package engine

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/catalog"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/internal/engine/autovac"
	"github.com/pgbufsim/pgbufsim/internal/engine/catpin"
	"github.com/pgbufsim/pgbufsim/internal/engine/vacwal"
	"github.com/pgbufsim/pgbufsim/pg"
)

// avHost is the engine as autovacuum's launcher and workers use it (package autovac).
type avHost struct{ c *Cluster }

func (h avHost) Settings() *Settings { return h.c.S }
func (h avHost) Log(line string)     { h.c.ckpt.AppendLog(line) }

// Tables lists the tables in creation (pg_class) order.
func (h avHost) Tables() []*heap.Relation { return h.c.sortedRels() }

// StartWorker is a worker's connection at t: the catalog pages a session pins.
func (h avHost) StartWorker(t int64) (*bufmgr.Backend, error) {
	be := bufmgr.NewBackend(bufmgr.Autovacuum, t)
	h.c.cat.On = h.c.S.Bool("catalog_pins")
	return be, h.c.cat.Touch(h.c.pool, h.c.wal, be, catalog.Vacuum, catpin.Txn{Started: new(bool), FoldWAL: h.c.foldWAL})
}

func (h avHost) EndWorker(be *bufmgr.Backend) { h.c.foldWAL(be) }

// Start sets a worker's VACUUM or ANALYZE of table id up.
func (h avHost) Start(be *bufmgr.Backend, id pg.RelID, analyze bool, cost *autovac.Cost) autovac.Job {
	if analyze {
		j := h.c.startAnalyze(be, h.c.rels[id], cost)
		j.auto = true
		return avAnalyze{j.p, j}
	}
	j := h.c.startVacuum(be, h.c.rels[id], false, cost)
	j.auto = true
	return avVacuum{j.p, j}
}

// Step is one page of a worker's job.
func (p *participant) Step() (bool, error) { return p.step() }

type avVacuum struct {
	*participant
	j *vacJob
}

func (v avVacuum) Abort() { v.j.Abort() }

// Finish ends an autovacuum's VACUUM; its report is heap_vacuum_rel's figures.
func (v avVacuum) Finish() (autovac.Report, error) {
	j := v.j
	res, err := j.end()
	if err != nil {
		return autovac.Report{}, err
	}
	j.c.asyncCommit(res.WAL.Records, j.be.Now)
	av, af := j.rel.CountVisibility()
	return autovac.Report{Pages: j.nblocks, Scanned: j.scanned, Tuples: int64(j.rel.RelTuples),
		SetAllVisible: max(av-j.avBefore, 0), SetAllFrozen: max(af-j.afBefore, 0),
		FrozenPages: j.frozenPages, FrozenTuples: j.frozenTuples, Buf: res.Buf, WAL: res.WAL}, nil
}

type avAnalyze struct {
	*participant
	j *anlJob
}

func (a avAnalyze) Abort() { a.j.Abort() }

// Finish ends an autovacuum's ANALYZE: its own transaction commits.
func (a avAnalyze) Finish() (autovac.Report, error) {
	j := a.j
	if _, err := j.end(); err != nil {
		return autovac.Report{}, err
	}
	c, be := j.c, j.be
	rep := autovac.Report{Pages: j.nblocks, Scanned: j.sampled, Buf: be.Buf, WAL: be.WAL}
	c.xids++
	end, now := c.wal.Insert(be.Now, &be.WAL, vacwal.CommitLen(j.invals), 0)
	be.Now = c.wal.Flush(now, &be.WAL, end)
	return rep, nil
}

// Autovacuum is the launcher, its workers and pg_stat_user_tables' counters.
func (c *Cluster) Autovacuum() *autovac.Launcher { return c.av }
