package strategy

import (
	"strings"
	"testing"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

// Every registered policy builds; replacement=clock leaves Control's inline
// sweep in place (no policy installed); an unknown name lists the choices.
// The five built-in policies come first, then those Register added (the
// "mru" of ExampleRegister, registered by its file's init).
func TestRegistry(t *testing.T) {
	names := PolicyNames()
	require.Equal(t, []string{"clock", "lru", "2q", "arc", "clock-pro"}, names[:5])
	for _, n := range names {
		r, err := NewReplacement(n, 16)
		require.NoError(t, err, n)
		require.NotEmpty(t, PolicyDoc(n))
		c := NewControl(pool(16))
		c.SetReplacement(r)
		require.Equal(t, n == "clock", c.Replacement() == nil, n)
	}
	_, err := NewReplacement("fifo", 16)
	require.EqualError(t, err, "replacement=fifo: must be one of "+strings.Join(names, ", "))
}

// Register adds a policy at the end of the registry and refuses a taken
// name (built-in or registered), a name that would not read as one setting
// value, an empty description and a nil factory, every problem on its own
// line, leaving the registry as it was.
func TestRegister(t *testing.T) {
	saved := policies
	t.Cleanup(func() { policies = saved })
	var built []int
	factory := func(n int) Replacement { built = append(built, n); return newLRU(n) }

	require.NoError(t, Register("lru-copy", "least recently used, registered again", factory))
	names := PolicyNames()
	require.Equal(t, "lru-copy", names[len(names)-1])
	require.Equal(t, "least recently used, registered again", PolicyDoc("lru-copy"))
	r, err := NewReplacement("lru-copy", 32)
	require.NoError(t, err)
	require.IsType(t, &LRU{}, r)
	require.Equal(t, []int{32}, built) // the factory got the pool size

	require.EqualError(t, Register("lru-copy", "again", factory),
		"replacement=lru-copy: a policy of that name is already registered")
	require.EqualError(t, Register("clock", "mine", factory),
		"replacement=clock: a policy of that name is already registered")
	err = Register("My Policy", " ", nil)
	require.EqualError(t, err, "replacement=My Policy: a policy name is lower-case letters, digits, '-' and '_', starting with a letter or a digit\n"+
		"replacement=My Policy: a policy needs a one-line description\n"+
		"replacement=My Policy: a policy needs a factory")
	var se *pg.SettingError
	require.ErrorAs(t, err, &se)
	require.Equal(t, "replacement", se.Name)
	for _, bad := range []string{"", "-mru", "_mru", "m,ru", "mru=1", "MRU", "m ru"} {
		require.Error(t, Register(bad, "x", factory), "%q", bad)
	}
	for _, good := range []string{"2q-variant", "mru_2", "x-"} {
		require.NoError(t, Register(good, "x", factory), "%q", good)
	}
	require.Equal(t, append(names, "2q-variant", "mru_2", "x-"), PolicyNames())
}

// ring=N gives every ring N buffers, capped at NBuffers/8 (16,384 buffers:
// 2,048); ring=auto (0) keeps PostgreSQL's sizes (BULKREAD 256kB = 32).
func TestRingOverride(t *testing.T) {
	s := Settings{Version: 17, NBuffers: 16384, VacuumBufferUsageKB: 2048}
	require.Equal(t, 32, RingBuffers(BulkRead, s))
	s.RingOverride = 100
	for _, k := range []Kind{BulkRead, BulkWrite, Vacuum} {
		require.Equal(t, 100, RingBuffers(k, s), k.String())
	}
	require.Equal(t, 0, RingBuffers(Normal, s))
	s.RingOverride = 5000
	require.Equal(t, 2048, RingBuffers(BulkWrite, s))
}

// LRU with a pinned least recent buffer passes over it to the next one; with
// every buffer pinned it fails like the clock.
func TestLRUSkipsPinned(t *testing.T) {
	st := pool(16)
	l := newLRU(16)
	for b := pg.Buffer(1); b <= 16; b++ {
		l.Load(b, pg.BufferTag{Rel: 1, Block: pg.BlockNumber(b)})
	}
	st[1] += pg.RefcountOne
	b, err := l.Victim(st)
	require.NoError(t, err)
	require.Equal(t, pg.Buffer(2), b)
	for b := pg.Buffer(2); b <= 16; b++ {
		st[b] += pg.RefcountOne
	}
	_, err = l.Victim(st)
	require.ErrorIs(t, err, ErrNoUnpinnedBuffers)
}

// The policies' hot-path calls do not allocate: a pool of 16 cycling
// through pages 0..999 (each Load forgets the victim's page first, as
// GetVictimBuffer does), with hits in between.
func TestPoliciesDoNotAllocate(t *testing.T) {
	for _, name := range []string{"lru", "2q", "arc", "clock-pro"} {
		st := pool(16)
		r, err := NewReplacement(name, 16)
		require.NoError(t, err)
		tags := make([]pg.BufferTag, 17)
		for b := pg.Buffer(1); b <= 16; b++ {
			tags[b] = pg.BufferTag{Rel: 1, Block: pg.BlockNumber(b)}
			r.Load(b, tags[b])
		}
		blk := 16
		allocs := testing.AllocsPerRun(1000, func() {
			blk = (blk + 1) % 1000
			b, err := r.Victim(st)
			if err != nil {
				panic(err)
			}
			r.Forget(b, tags[b])
			tags[b] = pg.BufferTag{Rel: 1, Block: pg.BlockNumber(blk)}
			r.Load(b, tags[b])
			r.Access(b)
			r.Access(pg.Buffer(blk%16 + 1))
		})
		require.Zero(t, allocs, name)
	}
}
