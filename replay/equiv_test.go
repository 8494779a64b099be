package replay

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/pgbufsim/pgbufsim/cluster"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/trace"
	"github.com/stretchr/testify/require"
)

// replayOracleV0 is the oracleGeneral replay as it was before issue 17 (a Go
// map from hashed id to block consulted per request, 4,096-record reads, no
// touching ahead), kept verbatim so the test below can run old and new on
// the same traces.
func replayOracleV0(w *cluster.Workload, name string, f io.ReadSeeker, relName string) (*Result, error) {
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
	n, err := oraclePassV0(f, name, recs, func(id uint64) { maxID = max(maxID, id) })
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
		if _, err := oraclePassV0(f, name, recs, func(id uint64) {
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
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	// The accesses.
	rp := &replayer{pool: w.Pool(), res: &Result{File: name, Format: "oraclegeneral", Relation: relName}}
	rd := trace.NewOracleReader(name, f)
	var pos, have int
	tag := pg.BufferTag{Rel: relID}
	be := w.Backend()
	res, err := rp.run(w, func() (bool, error) {
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
		return false, rp.access(be, tag, false)
	})
	if err != nil {
		return nil, err
	}
	res.Blocks = nblocks
	return res, nil
}

// oraclePassV0 is oraclePass as it was, with replayOracleV0.
func oraclePassV0(f io.ReadSeeker, name string, recs []trace.Record, fn func(id uint64)) (n int64, err error) {
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

// randomTrace is a random oracleGeneral trace: a mix of a skewed hot set, a
// uniform spread, and sequential runs (so the page cache's readahead and
// reclaim are exercised), over direct block numbers or over hashed 64-bit ids
// (renumbered by the replay).
func randomTrace(r *rand.Rand) (raw []byte, desc string) {
	n := 1 + r.IntN(30000)
	space := 1 + r.IntN(20000)
	hashed := r.IntN(2) == 0
	salt := r.Uint64()
	var recs []trace.Record
	seq := 0
	for i := 0; i < n; i++ {
		var blk int
		switch k := r.IntN(10); {
		case k < 5: // hot: the low tenth of the space, squared for skew
			x := r.Float64()
			blk = int(x * x * float64(max(1, space/10)))
		case k < 8:
			blk = r.IntN(space)
		default:
			seq = (seq + 1) % space
			blk = seq
		}
		id := uint64(blk)
		if hashed {
			id = (uint64(blk)+1)*0x9E3779B97F4A7C15 ^ salt
			if r.IntN(5000) == 0 {
				id = 1<<64 - 1 // the one id the new table keeps apart
			}
		}
		recs = append(recs, trace.Record{Time: uint32(i), ObjID: id, Size: 8192, NextAccess: -1})
	}
	var b bytes.Buffer
	if err := trace.WriteOracle(&b, recs); err != nil {
		panic(err)
	}
	return b.Bytes(), fmt.Sprintf("%d requests over %d blocks, hashed=%v", n, space, hashed)
}

// state is everything a replay leaves that a user can see: its result,
// every buffer's state and tag, the page cache's and device's counters, the
// page cache's contents, and pg_stat_io.
func state(t *testing.T, c *cluster.Cluster, res *Result, nblocks int) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%+v %d\n", *res, c.Now())
	p := c.Pool()
	for i := 1; i <= p.NBuffers(); i++ {
		fmt.Fprintf(&b, "%d %x %+v\n", i, p.State(pg.Buffer(i)), p.Tag(pg.Buffer(i)))
	}
	st := c.Storage()
	fmt.Fprintf(&b, "%+v\n", st.Stats)
	r, w, rb, wb := st.DeviceStats()
	in, act := st.Cached()
	fmt.Fprintln(&b, r, w, rb, wb, in, act)
	for _, ref := range c.Relations() {
		for blk := 0; blk < nblocks; blk++ {
			if st.IsCached(ref.ID, pg.BlockNumber(blk)) {
				fmt.Fprintf(&b, "%s:%d ", ref.Name, blk)
			}
		}
	}
	rows, err := c.StatIO("")
	require.NoError(t, err)
	fmt.Fprintf(&b, "\n%+v\n", rows)
	bg, err := c.StatBgwriterSince("")
	require.NoError(t, err)
	fmt.Fprintf(&b, "%+v\n", bg)
	return b.String()
}

// The replay of issue 17 (ids numbered by an open-addressing table, traces
// decoded in big blocks, requests' memory touched ahead) leaves exactly the
// state the one before it left, on random traces, pools and page caches,
// with and without prefetching, with the block numbers kept from the first
// pass and decoded again.
func TestReplayOracleSameAsBefore(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 17))
	defer func(tb int, kr int64) { oracleImpl, touchBlocks, keepRequests = replayOracle, tb, kr }(touchBlocks, keepRequests)
	var written int64 // victims the replays wrote (the dirty cases must make some)
	for i := 0; i < 40; i++ {
		// Half the traces with touching ahead forced on (the traces here
		// are smaller than the size at which the replay starts touching).
		touchBlocks = []int{0, 1 << 18}[i%2]
		// And a quarter of them decoded again (keeping at most 1 request):
		// one with prefetching and a clean pool, one without and dirty.
		keepRequests = 1 << 26
		if i%8 == 4 || i%8 == 7 {
			keepRequests = 1
		}
		raw, desc := randomTrace(r)
		opts := cluster.Options{
			SharedBuffers: fmt.Sprintf("%dkB", 8*(16+r.IntN(3000))),
			OSCache:       fmt.Sprintf("%dkB", 8*r.IntN(12000)),
			CatalogPins:   cluster.Bool(r.IntN(2) == 0),
		}
		dirty := 0 // pages of a table loaded (dirty, WAL-logged) before the replay
		if i%4 >= 2 {
			dirty = 1 + r.IntN(4000)
		}
		t.Run(fmt.Sprintf("%d", i), func(t *testing.T) {
			var got [2]string
			for k, impl := range []func(*cluster.Workload, string, io.ReadSeeker, string) (*Result, error){replayOracleV0, replayOracle} {
				oracleImpl = impl
				c, err := cluster.Open(opts)
				require.NoError(t, err)
				if dirty > 0 {
					// Dirty buffers ahead of the replay: its misses write
					// victims (WAL flushes first), the bgwriter cleans.
					_, err := c.CreateTable(cluster.TableSpec{Name: "dirt", Pages: int64(dirty), TuplesPerPage: 4})
					require.NoError(t, err)
					_, err = c.Insert("dirt", 0)
					require.NoError(t, err)
				}
				res, err := Replay(c, bytes.NewReader(raw), "t", trace.OracleGeneral, "")
				require.NoError(t, err, desc)
				written += res.Written
				got[k] = state(t, c, res, res.Blocks)
				// And a second replay of the same trace over what the first left.
				res, err = Replay(c, bytes.NewReader(raw), "t", trace.OracleGeneral, "")
				if err != nil {
					got[k] += "error: " + err.Error()
				} else {
					got[k] += state(t, c, res, res.Blocks)
				}
			}
			require.Equal(t, got[0], got[1], "%s %+v", desc, opts)
		})
	}
	require.Positive(t, written, "no replay wrote a dirty victim: the dirty cases test nothing")
}
