package strategy

import (
	"fmt"
	"testing"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

// poolSim drives a Replacement the way bufmgr does, with no free list in
// front of it (as freelist=off): a hit is Access, a miss takes Victim,
// forgets its page (GetVictimBuffer's InvalidateVictimBuffer) and loads the
// new one (BufferAlloc).
type poolSim struct {
	t     *testing.T
	r     Replacement
	st    []pg.BufState
	tags  []pg.BufferTag // by buffer
	valid []bool
	where map[pg.BufferTag]pg.Buffer
}

func newPoolSim(t *testing.T, name string, n int) *poolSim {
	r, err := NewReplacement(name, n)
	require.NoError(t, err)
	return &poolSim{t: t, r: r, st: pool(n), tags: make([]pg.BufferTag, n+1), valid: make([]bool, n+1), where: map[pg.BufferTag]pg.Buffer{}}
}

func blk(n int) pg.BufferTag { return pg.BufferTag{Rel: 1, Block: pg.BlockNumber(n)} }

// read reads block n: the buffer it is in and whether it was a miss.
func (s *poolSim) read(n int) (pg.Buffer, bool) {
	t := blk(n)
	if b, ok := s.where[t]; ok {
		s.r.Access(b)
		return b, false
	}
	b, err := s.r.Victim(s.st)
	require.NoError(s.t, err)
	require.Zero(s.t, s.st[b]&pg.RefcountMask, "victim %d is pinned", b)
	s.load(b, t)
	return b, true
}

// load puts page t in buffer b, forgetting b's page first.
func (s *poolSim) load(b pg.Buffer, t pg.BufferTag) {
	s.forget(b)
	s.r.Load(b, t)
	s.tags[b], s.valid[b], s.where[t] = t, true, b
}

// forget invalidates b's page (eviction, DROP, pg_buffercache_evict).
func (s *poolSim) forget(b pg.Buffer) {
	if s.valid[b] {
		s.r.Forget(b, s.tags[b])
		delete(s.where, s.tags[b])
		s.valid[b] = false
	}
}

// victims reads blocks from..to-1 (all misses) and returns the buffers
// that gave way, in order.
func (s *poolSim) victims(from, to int) []pg.Buffer {
	var vs []pg.Buffer
	for n := from; n < to; n++ {
		b, miss := s.read(n)
		require.True(s.t, miss, "block %d", n)
		vs = append(vs, b)
	}
	return vs
}

func bufs(from, to int) []pg.Buffer {
	var bs []pg.Buffer
	for b := from; b <= to; b++ {
		bs = append(bs, pg.Buffer(b))
	}
	return bs
}

// checkBufLists verifies that every buffer is on at most one list, each
// list's links and size agree, and that valid buffers are on a list other
// than free (free < 0: no such list) and invalid ones on free.
func checkBufLists(l *bufLists, valid []bool, free int) error {
	seen := make([]int, len(l.on))
	for li := range l.head {
		n := 0
		prev := pg.InvalidBuffer
		for b := l.head[li]; b != pg.InvalidBuffer; b = l.next[b] {
			if int(l.on[b]) != li || l.prev[b] != prev {
				return fmt.Errorf("list %d: buffer %d's links disagree", li, b)
			}
			if seen[b]++; seen[b] > 1 || n > len(l.on) {
				return fmt.Errorf("list %d: buffer %d seen twice", li, b)
			}
			prev = b
			n++
		}
		if n != l.size[li] || l.tail[li] != prev {
			return fmt.Errorf("list %d: %d buffers, size %d", li, n, l.size[li])
		}
	}
	for b := 1; b < len(l.on); b++ {
		switch {
		case valid[b] && (l.on[b] < 0 || int(l.on[b]) == free):
			return fmt.Errorf("valid buffer %d on list %d", b, l.on[b])
		case !valid[b] && free >= 0 && int(l.on[b]) != free:
			return fmt.Errorf("invalid buffer %d on list %d", b, l.on[b])
		}
	}
	return nil
}

// checkGhosts verifies the ghost lists' links and sizes, that each tag is
// found in its own slot, that no ghost is a resident page, and that the
// table holds exactly the ghosts.
func checkGhosts(g *ghostLists, resident map[pg.BufferTag]pg.Buffer) error {
	total := 0
	for li := range g.head {
		n := 0
		prev := int32(-1)
		for s := g.head[li]; s >= 0; s = g.next[s] {
			if int(g.on[s]) != li || g.prev[s] != prev || n > len(g.on) {
				return fmt.Errorf("ghost list %d: slot %d's links disagree", li, s)
			}
			if g.idx.get(g.tag[s]) != s {
				return fmt.Errorf("ghost list %d: %v not found in slot %d", li, g.tag[s], s)
			}
			if _, ok := resident[g.tag[s]]; ok {
				return fmt.Errorf("ghost list %d: %v is resident", li, g.tag[s])
			}
			prev = s
			n++
		}
		if n != g.size[li] {
			return fmt.Errorf("ghost list %d: %d slots, size %d", li, n, g.size[li])
		}
		total += n
	}
	if total != g.idx.n || total+len(g.unused) != len(g.on) {
		return fmt.Errorf("%d ghosts, table %d, %d unused of %d", total, g.idx.n, len(g.unused), len(g.on))
	}
	return nil
}

// checkPolicy verifies a policy's internal lists against the pool.
func (s *poolSim) check() error {
	switch r := s.r.(type) {
	case *LRU:
		return checkBufLists(&r.l, s.valid, -1)
	case *TwoQ:
		return checkBufLists(&r.l, s.valid, twoQFree)
	case *ARC:
		if err := checkBufLists(&r.l, s.valid, arcFree); err != nil {
			return err
		}
		t1, t2, b1, b2, target := r.Sizes()
		if t1+t2+b1+b2 > 2*r.n || target < 0 || target > r.n {
			return fmt.Errorf("ARC: T1 %d T2 %d B1 %d B2 %d target %d over %d buffers", t1, t2, b1, b2, target, r.n)
		}
		return checkGhosts(&r.g, s.where)
	case *ClockPro:
		return checkClockPro(r, s.valid, s.tags, s.where)
	}
	return fmt.Errorf("no check for %T", s.r)
}

// checkClockPro walks the clock once: the links agree, every valid buffer
// is on it and every invalid one off it (on the free list), the counts match,
// non-resident pages are in their test period, findable by tag, not resident
// and at most m, the hands are on the clock, and mc is within 1..m−1.
func checkClockPro(c *ClockPro, valid []bool, tags []pg.BufferTag, resident map[pg.BufferTag]pg.Buffer) error {
	hot, cold, non, nodes := 0, 0, 0, 0
	onClock := map[int32]bool{}
	if x0 := c.handHot; x0 != 0 {
		x := x0
		for {
			if onClock[x] || nodes > len(c.flag) {
				return fmt.Errorf("node %d seen twice", x)
			}
			onClock[x] = true
			f := c.flag[x]
			if f&cpLinked == 0 || c.prev[c.next[x]] != x {
				return fmt.Errorf("node %d's links disagree", x)
			}
			switch {
			case int(x) > c.m:
				non++
				if f&(cpHot|cpTest) != cpTest || c.ghosts.get(c.tag[x]) != x {
					return fmt.Errorf("non-resident node %d: flags %b, table %d", x, f, c.ghosts.get(c.tag[x]))
				}
				if _, ok := resident[c.tag[x]]; ok {
					return fmt.Errorf("non-resident node %d: %v is resident", x, c.tag[x])
				}
			case f&cpHot != 0:
				hot++
			default:
				cold++
			}
			nodes++
			if x = c.next[x]; x == x0 {
				break
			}
		}
	}
	for _, h := range []int32{c.handHot, c.handCold, c.handTest} {
		if (h == 0) != (nodes == 0) || h != 0 && !onClock[h] {
			return fmt.Errorf("hand at %d off the clock", h)
		}
	}
	if hot != c.nHot || cold != c.nCold || non != c.nNon || nodes != c.nodes || non != c.ghosts.n {
		return fmt.Errorf("counted hot %d cold %d non-resident %d nodes %d, kept %d %d %d %d (table %d)", hot, cold, non, nodes, c.nHot, c.nCold, c.nNon, c.nodes, c.ghosts.n)
	}
	if non > c.m || c.mc < 1 || c.mc > c.mcMax() {
		return fmt.Errorf("%d non-resident pages, mc %d, m %d", non, c.mc, c.m)
	}
	for b := 1; b <= c.m; b++ {
		if valid[b] != onClock[int32(b)] {
			return fmt.Errorf("buffer %d: valid %v, on the clock %v", b, valid[b], onClock[int32(b)])
		}
		if valid[b] == (c.free.on[b] == 0) {
			return fmt.Errorf("buffer %d: valid %v, on the free list %v", b, valid[b], c.free.on[b] == 0)
		}
	}
	return checkBufLists(&c.free, make([]bool, len(valid)), -1)
}

// pcg32 is a small deterministic generator for the random tests.
type pcg32 struct{ state uint64 }

func (p *pcg32) intn(n int) int {
	old := p.state
	p.state = old*6364136223846793005 + 1442695040888963407
	x := uint32(((old >> 18) ^ old) >> 27)
	r := uint32(old >> 59)
	return int((x>>r | x<<((-r)&31)) % uint32(n))
}

// Every policy under random traffic on 16 buffers: reads over 64 blocks
// (hot blocks 0..7 more often), pins and unpins, pages invalidated without
// reuse (DROP, pg_buffercache_evict). The victim is never pinned, a miss
// fails only when every buffer is pinned, and the lists stay consistent
// after every step.
func TestPoliciesRandomTraffic(t *testing.T) {
	for _, name := range []string{"lru", "2q", "arc", "clock-pro"} {
		for seed := uint64(1); seed <= 20; seed++ {
			s := newPoolSim(t, name, 16)
			rng := &pcg32{state: seed}
			for step := 0; step < 3000; step++ {
				switch op := rng.intn(20); {
				case op < 2: // pin or unpin a buffer
					b := pg.Buffer(rng.intn(16) + 1)
					if s.st[b]&pg.RefcountMask != 0 {
						s.st[b] -= pg.RefcountOne
					} else if s.valid[b] {
						s.st[b] += pg.RefcountOne
					}
				case op < 3: // invalidate an unpinned page
					if b := pg.Buffer(rng.intn(16) + 1); s.st[b]&pg.RefcountMask == 0 {
						s.forget(b)
					}
				default:
					n := rng.intn(64)
					if rng.intn(2) == 0 {
						n %= 8
					}
					pinned := 0
					for b := 1; b <= 16; b++ {
						if s.valid[b] && s.st[b]&pg.RefcountMask != 0 {
							pinned++
						}
					}
					if _, ok := s.where[blk(n)]; !ok && pinned == 16 {
						_, err := s.r.Victim(s.st)
						require.ErrorIs(t, err, ErrNoUnpinnedBuffers, "%s seed %d step %d", name, seed, step)
						continue
					}
					s.read(n)
				}
				require.NoError(t, s.check(), "%s seed %d step %d", name, seed, step)
			}
		}
	}
}

// The tag table under churn: 10,000 random inserts and deletes over 200
// tags in a table sized for 64 entries (kept at most 64), checked against a
// map after every step.
func TestTagTable(t *testing.T) {
	m := newTagTable(64)
	want := map[pg.BufferTag]int32{}
	rng := &pcg32{state: 7}
	for i := 0; i < 10000; i++ {
		tg := pg.BufferTag{Rel: pg.RelID(rng.intn(3)), Block: pg.BlockNumber(rng.intn(70))}
		if _, ok := want[tg]; ok || len(want) == 64 {
			m.del(tg)
			delete(want, tg)
		} else {
			m.put(tg, int32(i))
			want[tg] = int32(i)
		}
		require.Equal(t, len(want), m.n)
		for k, v := range want {
			require.Equal(t, v, m.get(k))
		}
	}
	require.Equal(t, int32(-1), m.get(pg.BufferTag{Rel: 9}))
}
