// Package replay feeds block-access traces through a simulated cluster's
// buffer pool: each access a ReadBuffer (ReadBufferExtended, RBM_NORMAL, no
// strategy) and a ReleaseBuffer by one client backend, so hits bump usage
// counts and misses take victims from the free list and the clock sweep
// exactly as a query's page accesses would (bufmgr.c, freelist.c). The
// traces are read from an io.ReadSeeker in the formats of package trace.
package replay

import (
	"errors"
	"fmt"
	"io"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/cluster"
	"github.com/pgbufsim/pgbufsim/pg"
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
//
// Speed (issue 17): hashed ids are numbered in that second pass by an
// open-addressing table (idTable); a trace of up to 2^26 requests keeps the
// block numbers of its first pass (or its numbering pass) for the accesses,
// 4 bytes a request, and a longer one is decoded again 16,384 records a read
// keeping only the object ids. On a relation of 262,144 blocks or more the
// memory of each batch of 32 requests — pool mapping entries and state
// words, page-cache index entries and pages, the mapping entries of the
// victims ahead of the clock hand, the index entries of the page cache's
// next reclaim victims — is fetched into the CPU's cache in three steps one
// to three batches before it is made (bufmgr's Prefetcher: prefetch
// instructions, no state), so that the cache misses of a trace over millions
// of ids overlap instead of queueing. Each scheduler step makes the accesses
// up to the next batch boundary in one call (Pool.ReadRelease), stopping
// where a background process is due, as the scheduler would have run it
// between two one-access steps; its misses take a short path too (the
// victim, its mapping entries, the read and the counters, without the
// general path's pin bookkeeping and ring and tracer checks). The
// relation's buffer mapping is one flat array (Pool.FlattenMapping, up to
// flatBlocks blocks) whatever the pool's size, a lookup one load fetched
// ahead. None of it changes a result (TestReplayOracleSameAsBefore).

// Result is a replay's counts.
type Result struct {
	File, Format, Relation string // the trace's name, its format, the relations it read
	Requests, Hits, Misses int64
	Evictions              int64 // victims the accesses took from the clock sweep
	Written                int64 // dirty buffers the accesses wrote out
	Blocks                 int   // the relations' sizes
	TimeNs                 int64 // simulated time
}

// HitRatio is Hits / Requests (0 for an empty trace).
func (r *Result) HitRatio() float64 {
	if r.Requests == 0 {
		return 0
	}
	return float64(r.Hits) / float64(r.Requests)
}

// Replay feeds a block-access trace through c's pool as one client
// command, read from src (read twice, or three times for hashed ids: it
// must seek); name is what errors and the result call it. For
// oracleGeneral, relation names the relation the object ids become blocks
// of ("": "trace"); CSV lines name their own.
func Replay(c *cluster.Cluster, src io.ReadSeeker, name string, format trace.Format, relation string) (*Result, error) {
	var res *Result
	err := c.RunWorkload("replay", func(w *cluster.Workload) error {
		if format == trace.CSV && relation != "" {
			return fmt.Errorf("replay %s: relation= is for oraclegeneral traces; CSV lines name their relation", name)
		}
		if relation == "" {
			relation = "trace"
		}
		var err error
		if format == trace.OracleGeneral {
			res, err = oracleImpl(w, name, src, relation)
		} else {
			res, err = replayCSV(c, w, name, src)
		}
		if err != nil {
			return fmt.Errorf("replay %w", err)
		}
		return nil
	})
	return res, err
}

// replayer counts one replay's accesses.
type replayer struct {
	pool *bufmgr.Pool
	res  *Result
}

// decodeBlock is how many oracleGeneral records one read decodes (384 kB:
// big reads, small enough to stay out of the way of the pool in the CPU cache).
const decodeBlock = 1 << 14

// keepRequests is the largest trace whose block numbers the replay keeps
// from its first pass (256 MB of them); a longer one is decoded again.
var keepRequests int64 = 1 << 26 // a variable so that the tests can take the other path too

// Requests' memory is fetched ahead (bufmgr.Prefetcher) touchBatch at a
// time when the relation has at least touchBlocks blocks: below that its
// mapping entries (4 bytes a block) fit in a core's L2 and its page-cache
// pages mostly in L3, so fetching ahead only costs.
const touchBatch = bufmgr.PrefetchBatch

var touchBlocks = 1 << 18 // a variable so that the tests can touch small traces too

// flatBlocks is the largest relation whose buffer mapping the replay makes
// flat (256 MB of it; the trace's kept block numbers take as much).
const flatBlocks = 1 << 26

// access is ReadBuffer + (MarkBufferDirty) + ReleaseBuffer of one block.
func (rp *replayer) access(be *bufmgr.Backend, t pg.BufferTag, write bool) error {
	b, hit, err := rp.pool.ReadBuffer(be, t, nil)
	if err != nil {
		return err
	}
	if write {
		rp.pool.MarkBufferDirty(be, b)
	}
	rp.pool.Unpin(be, b)
	rp.res.Requests++
	if hit {
		rp.res.Hits++
	} else {
		rp.res.Misses++
	}
	return nil
}

// run drives next (one access per call, done at the end) on the
// workload's client backend, then folds the counters into the result.
func (rp *replayer) run(w *cluster.Workload, next func() (bool, error)) (*Result, error) {
	run, err := w.Run(next)
	rp.res.Evictions, rp.res.Written, rp.res.TimeNs = run.Evictions, run.Written, run.TimeNs
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
func oraclePass(f io.ReadSeeker, name string, ids []uint64, fn func(id uint64)) (n int64, err error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	rd := trace.NewOracleReaderSize(name, f, len(ids))
	for {
		k, err := rd.ReadIDs(ids)
		for _, id := range ids[:k] {
			fn(id)
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

// oracleImpl is the oracleGeneral replay (a test swaps in the one before
// issue 17's to compare them).
var oracleImpl = replayOracle

func replayOracle(w *cluster.Workload, name string, f io.ReadSeeker, relName string) (*Result, error) {
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
	// size is known before any access. A trace of up to keepRequests
	// requests keeps its block numbers from that pass (4 bytes a request)
	// for the accesses, instead of decoding the file once more.
	ids := make([]uint64, decodeBlock)
	var kept []uint32
	if recs := size / trace.RecordSize; recs <= keepRequests {
		kept = make([]uint32, 0, recs)
	}
	var maxID uint64
	n, err := oraclePass(f, name, ids, func(id uint64) {
		maxID = max(maxID, id)
		if kept != nil {
			kept = append(kept, uint32(id)) // the block when direct (maxID < 2^32 then)
		}
	})
	if err != nil {
		return nil, err
	}
	direct := n == 0 || maxID < traceDirectBlocks || (maxID < 2*uint64(n) && maxID < maxTraceBlocks)
	var dense *idTable
	nblocks := 0
	if direct {
		if n > 0 {
			nblocks = int(maxID) + 1
		}
	} else {
		dense = newIDTable()
		i := 0
		if _, err := oraclePass(f, name, ids, func(id uint64) {
			if dense.len() < maxTraceBlocks {
				num := dense.add(id)
				if kept != nil {
					kept[i] = num
					i++
				}
			}
		}); err != nil {
			return nil, err
		}
		if dense.len() >= maxTraceBlocks {
			return nil, fmt.Errorf("%s: more than %d distinct object ids: more blocks than one relation can have", name, maxTraceBlocks-1)
		}
		nblocks = dense.len()
	}
	relID, relPages, created, err := w.Relation(relName, nblocks)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if !created {
		if !direct {
			return nil, fmt.Errorf("%s: hashed object ids (up to %d) can only be replayed into a relation the replay creates; %s exists", name, maxID, relName)
		}
		if nblocks > relPages {
			return nil, fmt.Errorf("%s: object id %d is past the end of %s (%d pages): reading beyond EOF", name, maxID, relName, relPages)
		}
	}
	// The page cache's bookkeeping grows once, to the most pages the
	// trace can bring into it, rather than doubling (and copying) as it
	// fills (a capacity only: no page is cached by it).
	w.Pool().IO().Storage().Reserve(int(min(int64(nblocks), n)))
	// The relation's buffer mapping as one flat array (4 bytes a block, at
	// most flatBlocks of them), whatever the pool's size: a lookup is one
	// load, fetched ahead with the rest (Pool.FlattenMapping).
	if w.Pool().NBlocks(relID) <= flatBlocks {
		w.Pool().FlattenMapping(relID)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	// The accesses, from the kept block numbers or decoded again.
	rp := &replayer{pool: w.Pool(), res: &Result{File: name, Format: "oraclegeneral", Relation: relName}}
	rd := trace.NewOracleReaderSize(name, f, len(ids))
	be := w.Backend()
	pool := w.Pool()
	var pf *bufmgr.Prefetcher
	if nblocks >= touchBlocks {
		pf = pool.NewPrefetcher(relID)
	}
	var pos, have int
	blocks := kept
	if kept == nil {
		blocks = make([]uint32, len(ids))
	} else {
		have = len(kept)
	}
	res, err := rp.run(w, func() (bool, error) {
		if pos == have {
			if kept != nil {
				return true, nil
			}
			k, err := rd.ReadIDs(ids)
			if err != nil && !errors.Is(err, io.EOF) {
				return true, err
			}
			if k == 0 {
				return true, nil
			}
			pos, have = 0, k
			for i, id := range ids[:k] {
				if dense != nil {
					blocks[i] = dense.get(id)
				} else {
					blocks[i] = uint32(id)
				}
			}
		}
		// The accesses up to the next multiple of touchBatch, or until a
		// background process is due (Pool.ReadRelease).
		if pf != nil && pos%touchBatch == 0 {
			pf.Ahead(blocks[:have], pos/touchBatch)
		}
		end := min(have, (pos/touchBatch+1)*touchBatch)
		k, hits, err := pool.ReadRelease(w, be, relID, blocks[pos:end])
		pos += k
		rp.res.Requests += int64(k)
		rp.res.Hits += int64(hits)
		rp.res.Misses += int64(k - hits)
		return false, err
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

func replayCSV(c *cluster.Cluster, w *cluster.Workload, name string, f io.ReadSeeker) (*Result, error) {
	// Pass 1: every line parses, every block of an existing table is inside
	// it, and each new relation's size is known — before any access.
	var order []string
	size := map[string]int{}
	if err := csvPass(f, name, func(a trace.Access) error {
		nb, seen := size[a.Relation]
		if !seen {
			order = append(order, a.Relation)
			if t, ok := c.Table(a.Relation); ok {
				nb = t.Pages
			} else if err := cluster.ValidTableName(a.Relation); err != nil {
				return fmt.Errorf("%s:%d: %w", name, a.Line, err)
			}
		}
		if _, ok := c.Table(a.Relation); ok && int(a.Block) >= nb {
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
		id, _, _, err := w.Relation(rn, size[rn])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		ids[rn] = id
	}
	// Pass 2: the accesses.
	rp := &replayer{pool: w.Pool(), res: &Result{File: name, Format: "csv"}}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	rd := trace.NewCSVReader(name, f)
	be := w.Backend()
	res, err := rp.run(w, func() (bool, error) {
		a, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return true, nil
		}
		if err != nil {
			return true, err
		}
		return false, rp.access(be, pg.BufferTag{Rel: ids[a.Relation], Block: pg.BlockNumber(a.Block)}, a.Write)
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
