package cluster

import (
	"errors"
	"fmt"
	"io"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/strategy"
	"github.com/pgbufsim/pgbufsim/trace"
)

// Trace replay
//
// replay feeds a block-access trace through the pool: each access is a
// ReadBuffer (ReadBufferExtended, RBM_NORMAL, no strategy) and a
// ReleaseBuffer by one client backend, so hits bump usage counts and misses
// take victims from the free list and the clock sweep exactly as a query's
// page accesses would; a CSV "write" also marks the buffer dirty
// (MarkBufferDirty, without a WAL record: the trace says which pages change,
// not how). No session start, no catalog pins: only the trace's accesses.
//
// Blocks belong to a relation. oracleGeneral object ids become block numbers
// of relation=NAME (default "trace"): used as they are when the largest id
// is below 16,777,216 or twice the number of requests, otherwise renumbered
// densely in first-seen order (hashed ids of public traces) — the clock sweep
// never looks at block numbers, so either way the hits are the same. CSV
// lines name their relation. A relation that does not exist yet is created
// by the replay (CREATE TABLE over a data file that already holds as many
// empty pages as the largest block the trace reads: on disk, in no cache); a
// block past the end of an existing table is an error, as reading past EOF is
// in PostgreSQL. Both formats are read once before any access (twice for
// hashed ids), so a bad line or record is reported before anything runs.

// ReplayResult is a replay's counts.
type ReplayResult struct {
	File, Format, Relation string // the trace's name, its format, the relations it read
	Requests, Hits, Misses int64
	Evictions              int64 // victims the accesses took from the clock sweep
	Written                int64 // dirty buffers the accesses wrote out
	Blocks                 int   // the relations' sizes
	TimeNs                 int64 // simulated time
}

// HitRatio is Hits / Requests (0 for an empty trace).
func (r *ReplayResult) HitRatio() float64 {
	if r.Requests == 0 {
		return 0
	}
	return float64(r.Hits) / float64(r.Requests)
}

// Replay feeds a block-access trace through the pool, read from src (read
// twice, or three times for hashed ids: it must seek); name is what errors
// and the result call it. For oracleGeneral, relation names the relation
// the object ids become blocks of ("": "trace"); CSV lines name their own.
func (c *Cluster) Replay(src io.ReadSeeker, name string, format trace.Format, relation string) (*ReplayResult, error) {
	var res *ReplayResult
	err := c.command("replay", 0, false, func() error {
		if format == trace.CSV && relation != "" {
			return fmt.Errorf("replay %s: relation= is for oraclegeneral traces; CSV lines name their relation", name)
		}
		if relation == "" {
			relation = "trace"
		}
		if c.txn.active {
			return fmt.Errorf("replay %s: not inside a transaction block (commit first)", name)
		}
		c.advanceTo(c.now + costs.InterCommandNs)
		var err error
		if format == trace.OracleGeneral {
			res, err = c.replayOracle(name, src, relation)
		} else {
			res, err = c.replayCSV(name, src)
		}
		if err != nil {
			return fmt.Errorf("replay %w", err)
		}
		return nil
	})
	return res, err
}

// traceRelation returns the relation a trace names, creating it with
// nblocks pages when it does not exist (CREATE TABLE over a data file that
// already holds them: on disk, not in any cache); created says which.
func (c *Cluster) traceRelation(name string, nblocks int) (r *heap.Relation, created bool, err error) {
	if r, ok := c.byName[name]; ok {
		return r, false, nil
	}
	if err := validTableName(name); err != nil {
		return nil, false, err
	}
	id := pg.RelID(len(c.rels))
	r = heap.NewRelation(id, name, heap.Shape{TupleLen: 28, Fillfactor: 100, PlannerWidth: 4})
	r.ReservePages(nblocks)
	for r.NPages() < nblocks {
		r.AddPage()
	}
	c.rels = append(c.rels, r)
	c.byName[name] = r
	c.pool.CreateRel(id, nblocks, true)
	return r, true, nil
}

func validTableName(name string) error {
	for _, ch := range name {
		if !(ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9') {
			return &pg.SettingError{Name: "relation", Value: name, Allowed: "a relation name is letters, digits and _"}
		}
	}
	return nil
}

// replayer runs accesses as one client backend interleaved with the WAL writer.
type replayer struct {
	c   *Cluster
	be  *bufmgr.Backend
	res *ReplayResult
}

func (c *Cluster) newReplayer(name, format, rel string) *replayer {
	return &replayer{c: c, be: bufmgr.NewBackend(bufmgr.ClientBackend, c.now),
		res: &ReplayResult{File: name, Format: format, Relation: rel}}
}

// access is ReadBuffer + (MarkBufferDirty) + ReleaseBuffer of one block.
func (rp *replayer) access(t pg.BufferTag, write bool) error {
	b, hit, err := rp.c.pool.ReadBuffer(rp.be, t, nil)
	if err != nil {
		return err
	}
	if write {
		rp.c.pool.MarkBufferDirty(rp.be, b)
	}
	rp.c.pool.Unpin(rp.be, b)
	rp.res.Requests++
	if hit {
		rp.res.Hits++
	} else {
		rp.res.Misses++
	}
	return nil
}

// run drives next (one access per call, done at the end) on the scheduler,
// then folds the counters into the result.
func (rp *replayer) run(next func() (bool, error)) (*ReplayResult, error) {
	c := rp.c
	start := rp.be.Now
	ev := c.pool.Stats.Rel[bufmgr.ClientBackend][strategy.Normal][bufmgr.OpEvictions]
	err := c.run([]*participant{{be: rp.be, step: next}})
	c.finish([]*participant{{be: rp.be}})
	c.foldWAL(rp.be)
	rp.res.Evictions = c.pool.Stats.Rel[bufmgr.ClientBackend][strategy.Normal][bufmgr.OpEvictions] - ev
	rp.res.Written = rp.be.Buf.Written
	rp.res.TimeNs = rp.be.Now - start
	return rp.res, err
}

// Largest oracleGeneral object id used as a block number as it is (see
// above), and the most blocks a relation can have (MaxBlockNumber + 1).
const (
	traceDirectBlocks = 1 << 24
	maxTraceBlocks    = 0xFFFFFFFF
)

// oraclePass reads every record of an oracleGeneral file from the start,
// calling fn for each object id.
func oraclePass(f io.ReadSeeker, name string, recs []trace.Record, fn func(id uint64)) (n int64, err error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	rd := trace.NewOracleReader(name, f)
	for {
		k, err := rd.Read(recs)
		for _, r := range recs[:k] {
			fn(r.ObjID)
		}
		n += int64(k)
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

func (c *Cluster) replayOracle(name string, f io.ReadSeeker, relName string) (*ReplayResult, error) {
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if rest := size % trace.RecordSize; rest != 0 {
		return nil, fmt.Errorf("%s: truncated oracleGeneral trace: the record at byte offset %d has %d of its %d bytes (file size %d is not a multiple of %d)",
			name, size-rest, rest, trace.RecordSize, size, trace.RecordSize)
	}
	// Pass 1: the largest object id decides how ids become blocks; hashed
	// ids are numbered in first-seen order (a second pass), so the relation's
	// size is known before any access.
	recs := make([]trace.Record, 4096)
	var maxID uint64
	n, err := oraclePass(f, name, recs, func(id uint64) { maxID = max(maxID, id) })
	if err != nil {
		return nil, err
	}
	direct := n == 0 || maxID < traceDirectBlocks || (maxID < 2*uint64(n) && maxID < maxTraceBlocks)
	var dense map[uint64]uint32
	nblocks := 0
	if direct {
		if n > 0 {
			nblocks = int(maxID) + 1
		}
	} else {
		dense = make(map[uint64]uint32)
		if _, err := oraclePass(f, name, recs, func(id uint64) {
			if _, ok := dense[id]; !ok && len(dense) < maxTraceBlocks {
				dense[id] = uint32(len(dense))
			}
		}); err != nil {
			return nil, err
		}
		if len(dense) >= maxTraceBlocks {
			return nil, fmt.Errorf("%s: more than %d distinct object ids: more blocks than one relation can have", name, maxTraceBlocks-1)
		}
		nblocks = len(dense)
	}
	rel, created, err := c.traceRelation(relName, nblocks)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if !created {
		if !direct {
			return nil, fmt.Errorf("%s: hashed object ids (up to %d) can only be replayed into a relation the replay creates; %s exists", name, maxID, relName)
		}
		if nblocks > c.pool.NBlocks(rel.ID) {
			return nil, fmt.Errorf("%s: object id %d is past the end of %s (%d pages): reading beyond EOF", name, maxID, relName, c.pool.NBlocks(rel.ID))
		}
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	// The accesses.
	rp := c.newReplayer(name, "oraclegeneral", relName)
	rd := trace.NewOracleReader(name, f)
	var pos, have int
	tag := pg.BufferTag{Rel: rel.ID}
	res, err := rp.run(func() (bool, error) {
		if pos == have {
			k, err := rd.Read(recs)
			if err != nil && !errors.Is(err, io.EOF) {
				return true, err
			}
			if k == 0 {
				return true, nil
			}
			pos, have = 0, k
		}
		id := recs[pos].ObjID
		pos++
		if dense != nil {
			tag.Block = pg.BlockNumber(dense[id])
		} else {
			tag.Block = pg.BlockNumber(id)
		}
		return false, rp.access(tag, false)
	})
	if err != nil {
		return nil, err
	}
	res.Blocks = nblocks
	return res, nil
}

// csvPass reads every line of a CSV trace from the start, calling fn for each access.
func csvPass(f io.ReadSeeker, name string, fn func(a trace.Access) error) error {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	rd := trace.NewCSVReader(name, f)
	for {
		a, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(a); err != nil {
			return err
		}
	}
}

func (c *Cluster) replayCSV(name string, f io.ReadSeeker) (*ReplayResult, error) {
	// Pass 1: every line parses, every block of an existing table is inside
	// it, and each new relation's size is known — before any access.
	var order []string
	size := map[string]int{}
	if err := csvPass(f, name, func(a trace.Access) error {
		nb, seen := size[a.Relation]
		if !seen {
			order = append(order, a.Relation)
			if r, ok := c.byName[a.Relation]; ok {
				nb = c.pool.NBlocks(r.ID)
			} else if err := validTableName(a.Relation); err != nil {
				return fmt.Errorf("%s:%d: %w", name, a.Line, err)
			}
		}
		if _, ok := c.byName[a.Relation]; ok && int(a.Block) >= nb {
			return fmt.Errorf("%s:%d: block %d is past the end of %s (%d pages): reading beyond EOF", name, a.Line, a.Block, a.Relation, nb)
		} else if !ok {
			nb = max(nb, int(a.Block)+1)
		}
		size[a.Relation] = nb
		return nil
	}); err != nil {
		return nil, err
	}
	ids := map[string]pg.RelID{}
	for _, rn := range order {
		r, _, err := c.traceRelation(rn, size[rn])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		ids[rn] = r.ID
	}
	// Pass 2: the accesses.
	rp := c.newReplayer(name, "csv", "")
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	rd := trace.NewCSVReader(name, f)
	res, err := rp.run(func() (bool, error) {
		a, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return true, nil
		}
		if err != nil {
			return true, err
		}
		return false, rp.access(pg.BufferTag{Rel: ids[a.Relation], Block: pg.BlockNumber(a.Block)}, a.Write)
	})
	if err != nil {
		return nil, err
	}
	for i, rn := range order {
		if i > 0 {
			res.Relation += ", "
		}
		res.Relation += rn
		res.Blocks += size[rn]
	}
	return res, nil
}
