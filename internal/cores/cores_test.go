package cores

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// No pool: every burst runs at once (host_cpus=0, a core per process).
func TestNilPool(t *testing.T) {
	var p *Pool
	require.Nil(t, New(0, 0, 0))
	require.EqualValues(t, 150, p.Run(100, 50))
	require.EqualValues(t, 150, p.Run(100, 50))
	p.Advance(1000)
	require.Zero(t, p.Cores())
}

// One core: bursts asked for at the same time queue one after another;
// a burst asked for while the core is idle starts at once.
func TestOneCore(t *testing.T) {
	p := New(1, 0, 0)
	require.EqualValues(t, 10, p.Run(0, 10))  // [0,10)
	require.EqualValues(t, 20, p.Run(0, 10))  // waits for the first: [10,20)
	require.EqualValues(t, 35, p.Run(30, 5))  // idle at 30: [30,35)
	require.EqualValues(t, 25, p.Run(15, 5))  // the gap [20,30) holds it from 20: [20,25)
	require.EqualValues(t, 30, p.Run(21, 5))  // busy to 25; the gap [25,30) is 5 long: [25,30)
	require.EqualValues(t, 45, p.Run(22, 10)) // busy [0,35) now: [35,45)
}

// Two cores: two simultaneous bursts run side by side, the third waits for
// the one that ends first; four bursts of 10 at 0 take 20 (40 of work on 2
// cores).
func TestTwoCores(t *testing.T) {
	p := New(2, 0, 0)
	require.EqualValues(t, 10, p.Run(0, 10)) // core 0 [0,10)
	require.EqualValues(t, 10, p.Run(0, 10)) // core 1 [0,10)
	require.EqualValues(t, 20, p.Run(0, 10)) // core 0 [10,20)
	require.EqualValues(t, 20, p.Run(0, 10)) // core 1 [10,20)
	// A burst placed far ahead (an I/O worker's read submitted early) does
	// not hold back an earlier one: [100,150) on core 0, then 5 at 20 runs at 20.
	require.EqualValues(t, 150, p.Run(100, 50))
	require.EqualValues(t, 25, p.Run(20, 5))
	// Core 0 is busy [10,25)∪[100,150), core 1 [10,20)∪… the next 90 at 20
	// fits core 1 from 20 (its gap runs to infinity), ending at 110.
	require.EqualValues(t, 110, p.Run(20, 90))
	// Both busy at 100..110: a burst of 10 at 100 starts when core 1 ends.
	require.EqualValues(t, 120, p.Run(100, 10))
}

// A burst of work a process spreads over N pages at a core's full speed:
// two processes each asking for 1,000 bursts of 2 back to back take 2,000
// on two cores; three take 3,000 (6,000 of work, 2 cores), whatever the order.
func TestThroughput(t *testing.T) {
	for procs, want := range map[int]int64{2: 2000, 3: 3000} {
		p := New(2, 0, 0)
		now := make([]int64, procs)
		for range 1000 {
			for i := range now {
				now[i] = p.Run(now[i], 2)
			}
		}
		end := int64(0)
		for _, n := range now {
			end = max(end, n)
		}
		require.Equal(t, want, end, "%d processes", procs)
	}
}

// Advance forgets spans that ended; spans merge when they touch.
func TestAdvance(t *testing.T) {
	p := New(1, 0, 0)
	p.Run(0, 10)
	p.Run(10, 10) // merges with [0,10): [0,20)
	require.Len(t, p.cores[0], 1)
	p.Run(30, 10)
	p.Advance(25)
	require.Equal(t, []span{{30, 40}}, p.cores[0])
	require.EqualValues(t, 30, p.Run(25, 5)) // [25,30) before [30,40)
	require.Equal(t, []span{{25, 40}}, p.cores[0])
}
