package cores

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// hold makes core c held by a running task whose clock is now and which has
// run used ns of its slice (what Schedule sets up).
func hold(p *Pool, c int, now, used int64) *Task {
	n, w := now, int64(0)
	t := &Task{Now: &n, Waited: &w, state: running, core: c}
	p.held[c], p.used[c] = t, used
	return t
}

// A woken burst does not preempt a holder inside its slice: the holder at
// 500 has run 200 of its 1,000, so its slice ends at 500 + 800 = 1,300 and
// the read ready at 600 runs [1300,1350). When the holder waits for it in
// a step that started at 700, it blocks, its core frees at 700 and the read
// runs there: [700,750).
func TestWakeWaitsForSlice(t *testing.T) {
	p := New(1, 1000, 0)
	h := hold(p, 0, 500, 200)
	end, b := p.Wake(500, 600, 50, nil)
	require.EqualValues(t, 1350, end)
	require.NotNil(t, b)
	p.cur, p.curAt = h, 700
	require.EqualValues(t, 750, p.Await(b, end, 700))
	// Looked at, it no longer moves.
	p.cur = nil
	p.release(0, 710)
	require.EqualValues(t, 750, b.End())
	// A read ready after the slice's end waits for the next slice's end:
	// the holder's clock 500, slice end 1,300, then 2,300.
	h = hold(p, 0, 500, 200)
	end, _ = p.Wake(500, 1400, 50, nil)
	require.EqualValues(t, 2350, end)
}

// Without a holder, or with nothing in the way, Wake is Run and the burst
// stays where it is (nil).
func TestWakeFreeCore(t *testing.T) {
	p := New(2, 1000, 0)
	hold(p, 0, 0, 0)
	end, b := p.Wake(0, 10, 50, nil)
	require.EqualValues(t, 60, end) // core 1, free: [10,60)
	require.Nil(t, b)
	var none *Pool
	end, b = none.Wake(0, 10, 50, nil)
	require.EqualValues(t, 60, end)
	require.Nil(t, b)
	require.EqualValues(t, 60, none.Await(b, end, 20))
}

// A burst waiting behind another on the free core moves to a core that
// frees sooner: core 0 held (slice end 1,000), core 1 busy [0,100) with
// an earlier read, so the read woken at 0 goes to core 1 at 100,
// [100,150); core 0's holder blocks at 20: the read runs there, [20,70).
func TestWakePulledByFreedCore(t *testing.T) {
	p := New(2, 1000, 0)
	hold(p, 0, 0, 0)
	p.Run(0, 100) // core 1 [0,100)
	end, b := p.Wake(0, 0, 50, nil)
	require.EqualValues(t, 150, end)
	require.NotNil(t, b)
	p.release(0, 20)
	require.EqualValues(t, 70, b.End())
	require.Equal(t, 0, b.core)
}

// An I/O worker's next read waited for its last (prev): when the last moves
// earlier, so does the next. Both cores held, slices ending at 1,000 and
// 2,000: the first read runs [1000,1100) on core 0, the worker's next,
// ready at its end, [1100,1200). Core 1 frees at 50: the first moves there,
// [50,150), and the next follows it, [150,250).
func TestWakeChainFollows(t *testing.T) {
	p := New(2, 1000, 0)
	hold(p, 0, 0, 0)
	hold(p, 1, 1000, 0)
	e1, b1 := p.Wake(0, 0, 100, nil)
	require.EqualValues(t, 1100, e1)
	e2, b2 := p.Wake(0, e1, 100, b1)
	require.EqualValues(t, 1200, e2)
	require.NotNil(t, b2)
	p.release(1, 50)
	require.EqualValues(t, 150, b1.End())
	require.EqualValues(t, 250, b2.End())
	// A read that did not wait for the worker's last (it ended by the
	// submission) does not follow it.
	_, b3 := p.Wake(300, 300, 10, b2)
	require.Nil(t, b3) // core 1 is free at 300: [300,310), nothing to follow
}

// remove splits a merged span: [0,30) made of three touching bursts loses
// its middle one.
func TestRemoveSplits(t *testing.T) {
	p := New(1, 0, 0)
	p.Run(0, 10)
	p.Run(10, 10)
	p.Run(20, 10)
	require.Equal(t, []span{{0, 30}}, p.cores[0])
	require.True(t, p.remove(0, span{10, 20}))
	require.Equal(t, []span{{0, 10}, {20, 30}}, p.cores[0])
	require.False(t, p.remove(0, span{5, 15}))
}

// host_wakeup: a sleeping I/O worker woken onto an idle core starts a
// wake-up (50) later. Core 0 held by the backend (slice end 1,000), core 1
// idle: the read ready at 10 runs [60,160) there and stays (nil). The
// worker's next read, ready at 160 when its last ends, finds its core just
// running it (the span ends at 160): no wake-up, [160,260). A read at 400,
// after core 1 idled, pays it again: [450,550).
func TestWakeLatency(t *testing.T) {
	p := New(2, 1000, 50)
	require.EqualValues(t, 50, p.Wakeup())
	hold(p, 0, 0, 0)
	end, b := p.Wake(0, 10, 100, nil)
	require.EqualValues(t, 160, end)
	require.Nil(t, b)
	end, _ = p.Wake(100, 160, 100, nil)
	require.EqualValues(t, 260, end)
	end, _ = p.Wake(400, 400, 100, nil)
	require.EqualValues(t, 550, end)

	// Resume: a worker busy until 100 takes a read handed to it at 50 at
	// 100, without sleeping; one free since 40 wakes at 50 + 50.
	require.EqualValues(t, 100, p.Resume(100, 50))
	require.EqualValues(t, 100, p.Resume(40, 50))
	require.EqualValues(t, 50, (*Pool)(nil).Resume(40, 50))
	require.Zero(t, (*Pool)(nil).Wakeup())

	// One core, held: the read goes after the slice ([1000,1100)); when the
	// holder blocks at 20 the read runs on the core it frees, which was
	// busy, not idle: [20,120), no wake-up.
	p = New(1, 1000, 50)
	h := hold(p, 0, 0, 0)
	end, b = p.Wake(0, 10, 100, nil)
	require.EqualValues(t, 1100, end)
	p.cur, p.curAt = h, 20
	require.EqualValues(t, 120, p.Await(b, end, 20))
}
