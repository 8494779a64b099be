package cores

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// task is a test process: steps of cpu ns each, the i-th waiting wait[i]
// ns first; it records the start of each step in order, with its name.
type task struct {
	name  string
	now   int64
	wait  int64
	steps int
	cpu   int64
	waits map[int]int64
	log   *[]string
	at    *[]int64
}

func (k *task) Task() *Task {
	n := 0
	return &Task{Now: &k.now, Waited: &k.wait, Step: func() (bool, error) {
		*k.log = append(*k.log, k.name)
		*k.at = append(*k.at, k.now)
		if w := k.waits[n]; w > 0 {
			k.now += w
			k.wait += w
		}
		k.now += k.cpu
		n++
		return n == k.steps, nil
	}}
}

func schedule(t *testing.T, p *Pool, ks ...*task) (string, []int64) {
	t.Helper()
	var log []string
	var at []int64
	ts := make([]*Task, len(ks))
	for i, k := range ks {
		k.log, k.at = &log, &at
		ts[i] = k.Task()
	}
	require.NoError(t, p.Schedule(ts, func(int64) bool { return false }))
	s := ""
	for _, n := range log {
		s += n
	}
	return s, at
}

// Linux's base slice: 0.7 ms × (1 + ilog2(min(ncpus, 8))).
func TestDefaultSlice(t *testing.T) {
	for n, want := range map[int]int64{1: 700_000, 2: 1_400_000, 3: 1_400_000, 4: 2_100_000, 7: 2_100_000, 8: 2_800_000, 64: 2_800_000} {
		require.Equal(t, want, DefaultSlice(n), "%d CPUs", n)
	}
	require.EqualValues(t, 1_400_000, New(2, -1, 0).Slice())
	require.EqualValues(t, 0, New(2, 0, 0).Slice())
	require.Zero(t, (*Pool)(nil).Slice())
}

// One core, a slice of 100 ns, two tasks of 25 steps of 10 ns that never
// block: a takes the core at 0 and runs 10 steps ([0,100)); its 11th step,
// at 100, finds its slice over and b waiting: b runs 10 ([100,200)), then
// a 10 ([200,300)), b 10 ([300,400)), a its last 5 ([400,450)) and b its
// last 5 ([450,500)).
func TestScheduleSlices(t *testing.T) {
	a := &task{name: "a", steps: 25, cpu: 10}
	b := &task{name: "b", steps: 25, cpu: 10}
	order, _ := schedule(t, New(1, 100, 0), a, b)
	require.Equal(t, "aaaaaaaaaabbbbbbbbbbaaaaaaaaaabbbbbbbbbbaaaaabbbbb", order)
	require.EqualValues(t, 450, a.now)
	require.EqualValues(t, 500, b.now)
	// Without slices the two alternate step by step (the task whose clock
	// is earliest steps next), ending at 490 and 500.
	a2 := &task{name: "a", steps: 25, cpu: 10}
	b2 := &task{name: "b", steps: 25, cpu: 10}
	order, _ = schedule(t, New(1, 0, 0), a2, b2)
	require.Equal(t, "ab", order[:2])
	require.Equal(t, "abababababababababababababababababababababababab", order[:48])
	require.EqualValues(t, 490, a2.now)
	require.EqualValues(t, 500, b2.now)
}

// A task that blocks gives its core up at its wait's start: a's 3rd step
// (at 20) waits 50. b takes the core at 20 and keeps it for its slice of
// 100 ([20,120)); a, runnable from 70, waits in the queue and gets the
// core at 120: its 3rd step's CPU [120,130), then its other 7 steps
// ([130,200)). b's 11th step at 200 runs after a finishes.
func TestScheduleBlock(t *testing.T) {
	a := &task{name: "a", steps: 10, cpu: 10, waits: map[int]int64{2: 50}}
	b := &task{name: "b", steps: 12, cpu: 10}
	order, at := schedule(t, New(1, 100, 0), a, b)
	require.Equal(t, "aaabbbbbbbbbbaaaaaaabb", order)
	require.Equal(t, []int64{0, 10, 20, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 130, 140, 150, 160, 170, 180, 190, 200, 210}, at)
	require.EqualValues(t, 200, a.now)
	require.EqualValues(t, 220, b.now)
}

// Two cores, three tasks of 15 steps of 10, slice 100: a takes core 0, b
// core 1, c queues at 0. At 100 a's slice is over (a steps before b at
// equal times): c takes core 0 and a queues; then b's is: a, first in the
// queue, takes core 1 and runs its last 5 steps [100,150), and b, queued,
// gets core 1 when a finishes: [150,200). c runs 10 steps [100,200) on
// core 0, then, nobody queued, a new slice for its last 5: [200,250).
func TestScheduleTwoCores(t *testing.T) {
	a := &task{name: "a", steps: 15, cpu: 10}
	b := &task{name: "b", steps: 15, cpu: 10}
	c := &task{name: "c", steps: 15, cpu: 10}
	schedule(t, New(2, 100, 0), a, b, c)
	require.EqualValues(t, 150, a.now)
	require.EqualValues(t, 200, b.now)
	require.EqualValues(t, 250, c.now)
}

// A burst placed with Run (an I/O worker's read) goes to a core no task
// holds when one can start it as soon; on one core it runs between the
// holder's steps. A holder whose core such a burst delays moves to a free
// core that can run its step sooner.
func TestScheduleRunBursts(t *testing.T) {
	p := New(2, 1000, 0)
	var read int64
	a := &task{name: "a", steps: 3, cpu: 10}
	ts := []*Task{a.Task()}
	var log []string
	var at []int64
	a.log, a.at = &log, &at
	step := ts[0].Step
	ts[0].Step = func() (bool, error) {
		if a.now == 0 {
			read = p.Run(0, 50) // a's core 0 is held: core 1, [0,50)
		}
		return step()
	}
	require.NoError(t, p.Schedule(ts, func(int64) bool { return false }))
	require.EqualValues(t, 50, read)
	require.EqualValues(t, 30, a.now) // a's steps never wait for the read
	require.Equal(t, []span{{0, 50}}, p.cores[1])

	// One core: the read at 5 runs [5,55) while a holds the core: a's first
	// step's CPU runs [0,5), is preempted, and resumes after the read
	// ([55,60)); its others follow ([60,70), [70,80)).
	p = New(1, 1000, 0)
	a = &task{name: "a", steps: 3, cpu: 10}
	a.log, a.at = &log, &at
	t1 := a.Task()
	step = t1.Step
	t1.Step = func() (bool, error) {
		if a.now == 0 {
			read = p.Run(5, 50)
		}
		return step()
	}
	require.NoError(t, p.Schedule([]*Task{t1}, func(int64) bool { return false }))
	require.EqualValues(t, 55, read)
	require.EqualValues(t, 80, a.now)
}

// host_wakeup: a task that blocked runs again a wake-up later when its core
// idled meanwhile. Two cores, slice 1,000, wake-up 50; a's 2nd step (at 10)
// waits 100: it sleeps [10,110) with nothing on its core, so it runs from
// 160: its CPU [160,170), its 3rd step [170,180); 50 more waited. Without a
// wake-up it ends at 130.
func TestScheduleWakeLatency(t *testing.T) {
	a := &task{name: "a", steps: 3, cpu: 10, waits: map[int]int64{1: 100}}
	_, at := schedule(t, New(2, 1000, 50), a)
	require.Equal(t, []int64{0, 10, 170}, at)
	require.EqualValues(t, 180, a.now)
	require.EqualValues(t, 150, a.wait)
	b := &task{name: "b", steps: 3, cpu: 10, waits: map[int]int64{1: 100}}
	schedule(t, New(2, 1000, 0), b)
	require.EqualValues(t, 130, b.now)

	// One core, and the process that wakes it ran there up to the wake-up
	// (an I/O worker's read [50,110), Run): the core did not idle, so no
	// wake-up: a runs [110,120), [120,130).
	p := New(1, 1000, 50)
	var log []string
	var at2 []int64
	c := &task{name: "c", steps: 3, cpu: 10, waits: map[int]int64{1: 100}, log: &log, at: &at2}
	tc := c.Task()
	step := tc.Step
	tc.Step = func() (bool, error) {
		if c.now == 10 {
			require.EqualValues(t, 110, p.Run(50, 60))
		}
		return step()
	}
	require.NoError(t, p.Schedule([]*Task{tc}, func(int64) bool { return false }))
	require.EqualValues(t, 130, c.now)
	require.EqualValues(t, 100, c.wait)
}
