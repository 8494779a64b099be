package bufmgr

import (
	"fmt"
	"slices"
	"testing"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/strategy"
	"github.com/pgbufsim/pgbufsim/wal"
	"github.com/stretchr/testify/require"
)

// A naive reference model of the buffer pool, written from PostgreSQL's
// rules (bufmgr.c, freelist.c) with plain structs, maps and slices and no
// shared code with Pool: the property test below drives both with the same
// random operations and requires identical buffers, usage counts, pins,
// free list, clock hand, pg_stat_io counters, EXPLAIN counters and WAL
// positions after every step.

type refBuf struct {
	valid, dirty, justDirtied, permanent bool
	tag                                  pg.BufferTag
	usage, refs                          int
}

type refRing struct {
	kind  strategy.Kind
	slots []int
	cur   int
}

type refBackend struct {
	typ  BackendType
	pins map[int]int // buffer → private pin count
	buf  BufferUsage
	wal  wal.Usage
}

type refPool struct {
	version pg.Version
	bufs    []refBuf // [1..n]
	free    []int    // the last element is popped first
	hand    int      // next buffer the clock looks at, 0-based
	where   map[pg.BufferTag]int
	lsn     map[pg.BufferTag]pg.LSN
	nblocks map[pg.RelID]int
	perm    map[pg.RelID]bool
	stats   map[[3]int]int64 // backend type, context, op
	w       *wal.WAL
	// kept19 counts dirty unlogged ring buffers needing a WAL flush that 19
	// wrote instead of rejecting (GetVictimBuffer's BM_PERMANENT test).
	kept19 int64
}

func newRefPool(n int, v pg.Version, w *wal.WAL) *refPool {
	p := &refPool{version: v, bufs: make([]refBuf, n+1), where: map[pg.BufferTag]int{}, lsn: map[pg.BufferTag]pg.LSN{},
		nblocks: map[pg.RelID]int{}, perm: map[pg.RelID]bool{}, stats: map[[3]int]int64{}, w: w}
	for b := n; b >= 1 && v < 19; b-- { // buffer 1 is handed out first; 19 has no free list
		p.free = append(p.free, b)
	}
	return p
}

func (p *refPool) count(be *refBackend, r *refRing, op IOOp) {
	ctx := strategy.Normal
	if r != nil {
		ctx = r.kind
	}
	p.stats[[3]int{int(be.typ), int(ctx), int(op)}]++
}

// pin: the backend's first pin bumps usage (to 5 without a ring; 0→1 with one).
func (p *refPool) pin(be *refBackend, b int, r *refRing) {
	if be.pins[b] == 0 {
		p.bufs[b].refs++
		if r == nil {
			p.bufs[b].usage = min(p.bufs[b].usage+1, 5)
		} else if p.bufs[b].usage == 0 {
			p.bufs[b].usage = 1
		}
	}
	be.pins[b]++
}

func (p *refPool) pinNoUsage(be *refBackend, b int) {
	if be.pins[b] == 0 {
		p.bufs[b].refs++
	}
	be.pins[b]++
}

func (p *refPool) unpin(be *refBackend, b int) {
	be.pins[b]--
	if be.pins[b] == 0 {
		delete(be.pins, b)
		p.bufs[b].refs--
	}
}

// victim: ring slot, free list, clock — in that order.
func (p *refPool) victim(r *refRing) (int, bool, error) {
	if r != nil {
		r.cur = (r.cur + 1) % len(r.slots)
		if b := r.slots[r.cur]; b != 0 && p.bufs[b].refs == 0 && p.bufs[b].usage <= 1 {
			return b, true, nil
		}
	}
	take := func(b int) (int, bool, error) {
		if r != nil {
			r.slots[r.cur] = b
		}
		return b, false, nil
	}
	for len(p.free) > 0 {
		b := p.free[len(p.free)-1]
		p.free = p.free[:len(p.free)-1]
		if p.bufs[b].refs == 0 && p.bufs[b].usage == 0 {
			return take(b)
		}
	}
	n := len(p.bufs) - 1
	for tries := n; ; {
		b := p.hand + 1
		p.hand = (p.hand + 1) % n
		switch {
		case p.bufs[b].refs > 0:
			if tries--; tries == 0 {
				return 0, false, strategy.ErrNoUnpinnedBuffers
			}
		case p.bufs[b].usage > 0:
			p.bufs[b].usage--
			tries = n
		default:
			return take(b)
		}
	}
}

func (p *refPool) flush(be *refBackend, b int, ctx strategy.Kind) {
	if p.bufs[b].permanent {
		p.w.Flush(0, &be.wal, p.lsn[p.bufs[b].tag])
	}
	p.bufs[b].dirty, p.bufs[b].justDirtied = false, false
	p.stats[[3]int{int(be.typ), int(ctx), int(OpWrites)}]++
	be.buf.Written++
}

func (p *refPool) invalidate(b int) {
	if p.bufs[b].valid {
		delete(p.where, p.bufs[b].tag)
	}
	refs := p.bufs[b].refs
	p.bufs[b] = refBuf{refs: refs}
}

func (p *refPool) getVictim(be *refBackend, r *refRing) (int, error) {
	ctx := strategy.Normal
	if r != nil {
		ctx = r.kind
	}
	for {
		b, fromRing, err := p.victim(r)
		if err != nil {
			return 0, err
		}
		p.pinNoUsage(be, b)
		if p.bufs[b].dirty {
			needsFlush := p.lsn[p.bufs[b].tag] > p.w.FlushLSN()
			rejectable := r != nil && needsFlush && r.kind == strategy.BulkRead && fromRing && r.slots[r.cur] == b
			if rejectable && p.version >= 19 && !p.bufs[b].permanent {
				rejectable = false // 19 asks StrategyRejectBuffer only for BM_PERMANENT buffers
				p.kept19++
			}
			if rejectable {
				r.slots[r.cur] = 0 // StrategyRejectBuffer
				p.unpin(be, b)
				continue
			}
			p.flush(be, b, ctx)
		}
		if p.bufs[b].valid {
			if fromRing {
				p.count(be, r, OpReuses)
			} else {
				p.count(be, r, OpEvictions)
			}
		}
		p.invalidate(b)
		return b, nil
	}
}

func (p *refPool) assign(b int, t pg.BufferTag) {
	p.bufs[b].valid, p.bufs[b].tag, p.bufs[b].usage = true, t, 1
	p.bufs[b].permanent = p.perm[t.Rel]
	p.where[t] = b
}

func (p *refPool) readBuffer(be *refBackend, t pg.BufferTag, r *refRing) (int, error) {
	if b, ok := p.where[t]; ok {
		p.pin(be, b, r)
		p.count(be, r, OpHits)
		be.buf.Hit++
		return b, nil
	}
	b, err := p.getVictim(be, r)
	if err != nil {
		return 0, err
	}
	p.assign(b, t)
	be.buf.Read++
	p.count(be, r, OpReads) // one block: one read in every version
	p.count(be, r, OpReadBlocks)
	return b, nil
}

func (p *refPool) extend(be *refBackend, rel pg.RelID, r *refRing) (int, error) {
	b, err := p.getVictim(be, r)
	if err != nil {
		return 0, err
	}
	t := pg.BufferTag{Rel: rel, Block: pg.BlockNumber(p.nblocks[rel])}
	p.nblocks[rel]++
	p.lsn[t] = 0
	p.assign(b, t)
	p.count(be, r, OpExtends)
	be.buf.Written++
	return b, nil
}

// markDirty sets dirty and, up to 18, just-dirtied (19 has no BM_JUST_DIRTIED).
func (p *refPool) markDirty(be *refBackend, b int) {
	if !p.bufs[b].dirty {
		be.buf.Dirtied++
	}
	p.bufs[b].dirty, p.bufs[b].justDirtied = true, p.version < 19
}

func (p *refPool) markDirtyHint(be *refBackend, b int, hole int, logHints bool) {
	if p.bufs[b].dirty && (p.bufs[b].justDirtied || p.version >= 19) {
		return
	}
	var lsn pg.LSN
	t := p.bufs[b].tag
	if logHints && p.bufs[b].permanent && p.lsn[t] <= p.w.RedoRecPtr() {
		lsn, _ = p.w.Insert(0, &be.wal, wal.FPIForHint(hole), 1)
	}
	if !p.bufs[b].dirty {
		if lsn != 0 {
			p.lsn[t] = lsn
		}
		be.buf.Dirtied++
	}
	p.bufs[b].dirty, p.bufs[b].justDirtied = true, p.version < 19
}

func (p *refPool) evict(be *refBackend, rel pg.RelID, all bool) {
	for b := 1; b < len(p.bufs); b++ {
		if !p.bufs[b].valid || (!all && p.bufs[b].tag.Rel != rel) || p.bufs[b].refs > 0 {
			continue
		}
		p.pinNoUsage(be, b)
		if p.bufs[b].dirty {
			p.flush(be, b, strategy.Normal)
		}
		p.invalidate(b)
		p.unpin(be, b)
	}
}

func (p *refPool) dropRel(rel pg.RelID) {
	for b := 1; b < len(p.bufs); b++ {
		if p.bufs[b].valid && p.bufs[b].tag.Rel == rel {
			p.invalidate(b)
			if p.version < 19 {
				p.free = append(p.free, b)
			}
		}
	}
	p.nblocks[rel] = 0
}

func (p *refPool) bufferSync(be *refBackend) {
	var todo []int
	for b := 1; b < len(p.bufs); b++ {
		if p.bufs[b].dirty && p.bufs[b].permanent {
			todo = append(todo, b)
		}
	}
	slices.SortFunc(todo, func(a, c int) int {
		x, y := p.bufs[a].tag, p.bufs[c].tag
		if x.Rel != y.Rel {
			return int(x.Rel) - int(y.Rel)
		}
		return int(x.Block) - int(y.Block)
	})
	for _, b := range todo {
		p.pinNoUsage(be, b)
		p.flush(be, b, strategy.Normal)
		p.unpin(be, b)
	}
}

// compare requires the fast pool and the model to agree on everything visible.
func compare(t *testing.T, step string, p *Pool, m *refPool, bes []*Backend, mbes []*refBackend) {
	t.Helper()
	for b := 1; b < len(m.bufs); b++ {
		s, want := p.State(pg.Buffer(b)), m.bufs[b]
		got := refBuf{valid: s&pg.FlagValid != 0, dirty: s&pg.FlagDirty != 0, justDirtied: s&pg.FlagJustDirtied != 0,
			permanent: s&pg.FlagPermanent != 0, usage: s.Usage(), refs: s.Refcount()}
		if got.valid {
			got.tag = p.Tag(pg.Buffer(b))
		}
		if want != got { // plain comparisons first: require's reflection is slow
			require.Equal(t, want, got, "%s: buffer %d", step, b)
		}
	}
	fl := p.Control().FreeList()
	same := len(fl) == len(m.free)
	for i := 0; same && i < len(fl); i++ {
		same = int(fl[i]) == m.free[i]
	}
	if !same {
		free := make([]int, 0, len(fl))
		for _, b := range fl {
			free = append(free, int(b))
		}
		require.Equal(t, m.free, free, "%s: free list", step)
	}
	require.Equal(t, m.hand+1, int(p.Control().Hand()), "%s: clock hand", step)
	for bt := range NumBackendTypes {
		for k := range strategy.NumKinds {
			for op := range NumIOOps {
				if want, got := m.stats[[3]int{int(bt), int(k), int(op)}], p.Stats.Rel[bt][k][op]; want != got {
					require.Equal(t, want, got, "%s: pg_stat_io %s/%s/%s", step, bt, k, op)
				}
			}
		}
	}
	for i := range bes {
		if mbes[i].buf != bes[i].Buf || mbes[i].wal != bes[i].WAL {
			require.Equal(t, mbes[i].buf, bes[i].Buf, "%s: backend %d buffer usage", step, i)
			require.Equal(t, mbes[i].wal, bes[i].WAL, "%s: backend %d WAL usage", step, i)
		}
	}
	if m.w.InsertLSN() != p.WAL().InsertLSN() || m.w.FlushLSN() != p.WAL().FlushLSN() {
		require.Equal(t, m.w.InsertLSN(), p.WAL().InsertLSN(), "%s: WAL insert position", step)
		require.Equal(t, m.w.FlushLSN(), p.WAL().FlushLSN(), "%s: WAL flush position", step)
	}
}

type xorshift uint64

func (x *xorshift) intn(n int) int {
	*x ^= *x << 13
	*x ^= *x >> 7
	*x ^= *x << 17
	return int(uint64(*x) % uint64(n))
}

// coverage counts what the sequences exercised, so a test that only ever
// hits the easy paths is caught.
type coverage struct{ hits, evictions, reuses, rejects, writes, hintFPIs, noUnpinned, kept19 int64 }

// runSequence drives both pools through one random sequence of ops.
func runSequence(t *testing.T, seed uint64, steps int, cov *coverage) {
	rng := xorshift(seed*0x9E3779B97F4A7C15 | 1)
	n := 16 + rng.intn(25)
	v := pg.Version(15 + rng.intn(5))
	checksums := rng.intn(2) == 0
	newWAL := func() *wal.WAL {
		w, err := wal.New(wal.Config{Version: v, WalBuffers: 256})
		require.NoError(t, err)
		return w
	}
	p, err := NewPool(Config{NBuffers: n, Version: v, Checksums: checksums}, newWAL())
	require.NoError(t, err)
	m := newRefPool(n, v, newWAL())
	rels := []pg.RelID{1, 2, 3}
	for i, rel := range rels {
		nb := rng.intn(8 * n) // past 4n blocks the mapping is sparse (hashed in a pool this small)
		permanent := i != 2   // relation 3 is unlogged
		p.CreateRel(rel, nb, permanent)
		m.nblocks[rel], m.perm[rel] = nb, permanent
	}
	types := []BackendType{ClientBackend, ClientBackend, Autovacuum}
	var bes []*Backend
	var mbes []*refBackend
	for _, ty := range types {
		bes = append(bes, NewBackend(ty, 0))
		mbes = append(mbes, &refBackend{typ: ty, pins: map[int]int{}})
	}
	ckpt := NewBackend(Checkpointer, 0)
	mckpt := &refBackend{typ: Checkpointer, pins: map[int]int{}}
	bes, mbes = append(bes, ckpt), append(mbes, mckpt)
	type held struct{ be, b int }
	var pins []held
	rings := make([][2]any, len(types)) // per backend: *strategy.Ring, *refRing
	for i := range types {
		kinds := []strategy.Kind{strategy.BulkRead, strategy.BulkWrite, strategy.Vacuum}
		if k := rng.intn(4); k < 3 {
			size := 2 + rng.intn(6)
			rings[i] = [2]any{strategy.NewRing(kinds[k], size), &refRing{kind: kinds[k], slots: make([]int, size), cur: 0}}
		}
	}
	ringOf := func(i int, use bool) (*strategy.Ring, *refRing) {
		if !use || rings[i][0] == nil {
			return nil, nil
		}
		return rings[i][0].(*strategy.Ring), rings[i][1].(*refRing)
	}
	// The ring's cursor starts at 0 and advances before use, as in PostgreSQL.
	for i := range steps {
		bi := rng.intn(len(types))
		be, mbe := bes[bi], mbes[bi]
		rel := rels[rng.intn(len(rels))]
		var step string
		switch op := rng.intn(100); {
		case op < 45: // ReadBuffer, keep the pin for a while
			if m.nblocks[rel] == 0 {
				continue
			}
			if len(pins) >= n/4 { // release the oldest first, as a scan would
				h := pins[0]
				pins = pins[1:]
				p.Unpin(bes[h.be], pg.Buffer(h.b))
				m.unpin(mbes[h.be], h.b)
			}
			r, mr := ringOf(bi, rng.intn(2) == 0)
			tag := pg.BufferTag{Rel: rel, Block: pg.BlockNumber(rng.intn(m.nblocks[rel]))}
			step = fmt.Sprintf("step %d: ReadBuffer(%d, %+v, ring=%v)", i, bi, tag, r != nil)
			rejects := be.Rejects
			b, _, err := p.ReadBuffer(be, tag, r)
			mb, merr := m.readBuffer(mbe, tag, mr)
			require.Equal(t, merr, err, step)
			cov.rejects += be.Rejects - rejects
			if err != nil {
				cov.noUnpinned++
			}
			if err == nil {
				require.Equal(t, mb, int(b), step)
				pins = append(pins, held{bi, mb})
			}
		case op < 65: // release a held pin
			if len(pins) == 0 {
				continue
			}
			k := rng.intn(len(pins))
			h := pins[k]
			pins = append(pins[:k], pins[k+1:]...)
			step = fmt.Sprintf("step %d: Unpin(%d, %d)", i, h.be, h.b)
			p.Unpin(bes[h.be], pg.Buffer(h.b))
			m.unpin(mbes[h.be], h.b)
		case op < 75: // a WAL-logged change to a held buffer
			if len(pins) == 0 {
				continue
			}
			h := pins[rng.intn(len(pins))]
			size := 50 + rng.intn(500)
			step = fmt.Sprintf("step %d: MarkBufferDirty(%d, %d) + a %d-byte record", i, h.be, h.b, size)
			lsn, _ := p.WAL().Insert(0, &bes[h.be].WAL, size, 0)
			mlsn, _ := m.w.Insert(0, &mbes[h.be].wal, size, 0)
			p.MarkBufferDirty(bes[h.be], pg.Buffer(h.b))
			m.markDirty(mbes[h.be], h.b)
			// The unlogged relation's page gets an LSN too, as an unlogged
			// GiST index's fake LSNs do: ahead of the flushed WAL it is what
			// 19's BM_PERMANENT test keeps from StrategyRejectBuffer.
			p.SetPageLSN(pg.Buffer(h.b), lsn)
			m.lsn[m.bufs[h.b].tag] = mlsn
		case op < 83: // a hint bit
			if len(pins) == 0 {
				continue
			}
			h := pins[rng.intn(len(pins))]
			hole := rng.intn(4000)
			step = fmt.Sprintf("step %d: MarkBufferDirtyHint(%d, %d, hole %d)", i, h.be, h.b, hole)
			p.MarkBufferDirtyHint(bes[h.be], pg.Buffer(h.b), hole)
			m.markDirtyHint(mbes[h.be], h.b, hole, checksums)
		case op < 88: // extend
			if len(pins) >= n/4 {
				continue
			}
			r, mr := ringOf(bi, rng.intn(2) == 0)
			step = fmt.Sprintf("step %d: Extend(%d, rel %d)", i, bi, rel)
			b, _, err := p.Extend(be, rel, r)
			mb, merr := m.extend(mbe, rel, mr)
			require.Equal(t, merr, err, step)
			if err == nil {
				require.Equal(t, mb, int(b), step)
				pins = append(pins, held{bi, mb})
			}
		case op < 91: // checkpoint: redo pointer, BufferSync
			step = fmt.Sprintf("step %d: checkpoint", i)
			p.WAL().Checkpoint(0, &ckpt.WAL, v)
			m.w.Checkpoint(0, &mckpt.wal, v)
			p.BufferSync(ckpt, false)
			m.bufferSync(mckpt)
		case op < 94: // pg_buffercache_evict_relation / _all
			all := rng.intn(2) == 0
			step = fmt.Sprintf("step %d: evict(rel %d, all=%v)", i, rel, all)
			p.Evict(be, rel, all)
			m.evict(mbe, rel, all)
		case op < 96: // TRUNCATE (no pins on the relation, as the lock guarantees)
			pinned := false
			for _, h := range pins {
				pinned = pinned || m.bufs[h.b].tag.Rel == rel
			}
			if pinned {
				continue
			}
			step = fmt.Sprintf("step %d: DropRelBuffers(rel %d)", i, rel)
			p.DropRelBuffers(rel)
			m.dropRel(rel)
		default: // the WAL writer or a commit flushes
			step = fmt.Sprintf("step %d: XLogFlush", i)
			p.WAL().Flush(0, &be.WAL, p.WAL().InsertLSN())
			m.w.Flush(0, &mbe.wal, m.w.InsertLSN())
		}
		compare(t, step, p, m, bes, mbes)
	}
	for bt := range NumBackendTypes {
		for k := range strategy.NumKinds {
			c := p.Stats.Rel[bt][k]
			cov.hits += c[OpHits]
			cov.evictions += c[OpEvictions]
			cov.reuses += c[OpReuses]
			cov.writes += c[OpWrites]
		}
	}
	for _, be := range bes {
		cov.hintFPIs += be.WAL.FPI
	}
	cov.kept19 += m.kept19
}

// TestPoolMatchesReferenceModel: 10,000 random sequences of 400 operations
// on pools of 16–40 buffers over three relations of up to 8× as many blocks
// (one unlogged; half of them past the flat mapping's limit of 4×), versions 15–19, with and without checksums, three
// backends with their own rings (1,000 sequences under -short). Mutations
// tried while writing it — ring reuse at usage ≤ 2, usage capped at 4, a
// rejected buffer not from the ring — each fail within the first sequences.
func TestPoolMatchesReferenceModel(t *testing.T) {
	n := 10000
	if testing.Short() {
		n = 1000
	}
	var cov coverage
	for seed := range uint64(n) {
		runSequence(t, seed+1, 400, &cov)
		if t.Failed() {
			t.Fatalf("sequence %d", seed+1)
		}
	}
	t.Logf("%+v", cov)
	// Every path was taken many times (the counts are sums over all sequences).
	for name, v := range map[string]int64{"hits": cov.hits, "evictions": cov.evictions, "reuses": cov.reuses,
		"rejects": cov.rejects, "writes": cov.writes, "hint FPIs": cov.hintFPIs} {
		require.Greater(t, v, int64(n/10), name)
	}
	// A rarer path: a dirty unlogged BULKREAD ring buffer, from the ring,
	// whose (fake) LSN is ahead of the flushed WAL, in a 19 sequence (27 in
	// the first 1,000 sequences).
	require.Greater(t, cov.kept19, int64(n/100), "19's unlogged ring buffers written, not rejected")
}

// FuzzReferenceModel runs the property test's random sequences from fuzzed
// seeds and lengths.
func FuzzReferenceModel(f *testing.F) {
	f.Add(uint64(1), uint16(400))
	f.Add(uint64(977), uint16(2000))
	f.Fuzz(func(t *testing.T, seed uint64, steps uint16) {
		var cov coverage
		runSequence(t, seed, int(steps%3000), &cov)
	})
}
