package strategy

import (
	"math/rand/v2"
	"testing"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

// The observed sweep of TestClockSweep's pool: 16 buffers at usage 1, buffer
// 3 at 5, buffer 2 pinned, hand at 1. The first pass takes one count from
// every unpinned buffer (1: 1→0, 3: 5→4, 4…16: 1→0) and passes the pin on 2;
// the second pass stops on buffer 1, now at 0. 1 + 1 + 1 + 13 + 1 = 17 events.
func TestObservedSweepEvents(t *testing.T) {
	st := pool(16)
	c := NewControl(st)
	for i := 0; i < 16; i++ {
		b, _, _ := c.GetBuffer(nil)
		st[b] = pg.FlagValid.WithUsage(1)
	}
	st[3] = st[3].WithUsage(5)
	st[2] += pg.RefcountOne
	var evs []Event
	c.Observer = func(e Event) { evs = append(evs, e) }
	b, _, err := c.GetBuffer(nil)
	require.NoError(t, err)
	require.Equal(t, pg.Buffer(1), b)
	want := []Event{{Kind: EvUsageDecrement, Buffer: 1, Usage: 0}, {Kind: EvHandPinned, Buffer: 2, Usage: 1},
		{Kind: EvUsageDecrement, Buffer: 3, Usage: 4}}
	for b := pg.Buffer(4); b <= 16; b++ {
		want = append(want, Event{Kind: EvUsageDecrement, Buffer: b, Usage: 0})
	}
	want = append(want, Event{Kind: EvVictim, Buffer: 1, Slot: -1})
	require.Equal(t, want, evs)
}

// A ring of 2 whose slot buffer was used by someone else (usage 2) lets it
// escape: the slot gets the clock's victim instead.
func TestObservedRingEscape(t *testing.T) {
	st := pool(16)
	c := NewControl(st)
	r := NewRing(BulkRead, 2)
	var evs []Event
	c.Observer = func(e Event) { evs = append(evs, e) }
	for i := 0; i < 2; i++ { // slots 1 and 0 get buffers 1 and 2 from the free list
		b, _, _ := c.GetBuffer(r)
		st[b] = pg.FlagValid.WithUsage(1)
	}
	st[1] = st[1].WithUsage(2)       // another backend hit buffer 1 (slot 1)
	b, fromRing, _ := c.GetBuffer(r) // slot 1 → buffer 1 at usage 2: escape; free list gives 3
	require.False(t, fromRing)
	require.Equal(t, pg.Buffer(3), b)
	st[3] = pg.FlagValid.WithUsage(1)
	b, fromRing, _ = c.GetBuffer(r) // slot 0 → buffer 2 at usage 1: reused
	require.True(t, fromRing)
	require.Equal(t, pg.Buffer(2), b)
	require.Equal(t, []Event{
		{Kind: EvFreeListPop, Buffer: 1, Slot: 1}, {Kind: EvFreeListPop, Buffer: 2, Slot: 0},
		{Kind: EvRingEscape, Buffer: 1, Usage: 2, Slot: 1}, {Kind: EvFreeListPop, Buffer: 3, Slot: 1},
		{Kind: EvRingReuse, Buffer: 2, Usage: 1, Slot: 0},
	}, evs)
	require.Equal(t, []pg.Buffer{2, 3}, r.Slots())
}

// TestObservedSweepMatches runs the same random workload on an observed and
// an unobserved Control: the victims, state words, hands and rings agree.
func TestObservedSweepMatches(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		const n = 32
		sa, sb := pool(n), pool(n)
		ca, cb := NewControl(sa), NewControl(sb)
		events := 0
		cb.Observer = func(Event) { events++ }
		ra, rb := NewRing(BulkRead, 4), NewRing(BulkRead, 4)
		for step := 0; step < 2000; step++ {
			var xa, xb *Ring
			if rng.IntN(2) == 0 {
				xa, xb = ra, rb
			}
			ba, fa, ea := ca.GetBuffer(xa)
			bb, fb, eb := cb.GetBuffer(xb)
			require.Equal(t, ea, eb)
			require.Equal(t, ba, bb, "seed %d step %d", seed, step)
			require.Equal(t, fa, fb)
			if ea == nil {
				u := 1 + rng.IntN(5)
				sa[ba], sb[bb] = pg.FlagValid.WithUsage(u), pg.FlagValid.WithUsage(u)
			}
			if rng.IntN(10) == 0 { // a pin comes or goes
				b := pg.Buffer(1 + rng.IntN(n))
				if sa[b].Refcount() == 0 {
					sa[b] += pg.RefcountOne
					sb[b] += pg.RefcountOne
				} else {
					sa[b] -= pg.RefcountOne
					sb[b] -= pg.RefcountOne
				}
			}
			if rng.IntN(50) == 0 {
				b := pg.Buffer(1 + rng.IntN(n))
				if sa[b].Refcount() == 0 {
					sa[b], sb[b] = 0, 0
					ca.FreeBuffer(b)
					cb.FreeBuffer(b)
				}
			}
		}
		require.Equal(t, sa, sb)
		require.Equal(t, ca.Hand(), cb.Hand())
		require.Equal(t, ra.Slots(), rb.Slots())
		require.Equal(t, ca.CompletePasses, cb.CompletePasses)
		require.Greater(t, events, 2000)
	}
}
