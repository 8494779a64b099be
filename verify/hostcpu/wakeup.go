package hostcpu

import (
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// WakeupRounds is how many round trips MeasureWakeup takes the median of.
const WakeupRounds = 400

// ErrNoPython is MeasureWakeup's error on a host without python3.
var ErrNoPython = errors.New("host_wakeup: python3 not found, so not measured (set host_wakeup by hand)")

// pingPong is the measurement: a parent pinned to one CPU and a child
// pinned to another pass a byte back and forth over two pipes with
// blocking reads, and the parent prints the median round trip in ns. It is
// a Python script, as devsync's syncs are dd's, so that this program reads
// no clock: the host's times come from a program that times itself.
const pingPong = `import os, sys, time
a, b, n = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
r1, w1 = os.pipe()
r2, w2 = os.pipe()
if os.fork() == 0:
    os.close(w1)
    os.close(r2)
    os.sched_setaffinity(0, {b})
    while os.read(r1, 1):
        os.write(w2, b"x")
    os._exit(0)
os.close(r1)
os.close(w2)
os.sched_setaffinity(0, {a})
ts = []
for i in range(n + n // 4):
    t0 = time.perf_counter_ns()
    os.write(w1, b"x")
    os.read(r2, 1)
    if i >= n // 4:
        ts.append(time.perf_counter_ns() - t0)
os.close(w1)
os.wait()
ts.sort()
print(ts[len(ts) // 2])
`

// MeasureWakeup measures host_wakeup, in ns: how long a process asleep on
// a pipe takes to run once a process on another CPU writes to it — what a
// backend's SetLatch of an I/O worker (pgaio_worker_submit) and the
// worker's completion waking the backend in WaitReadBuffers cost. A round
// trip of pingPong between the first two CPUs this process may run on is
// two wake-ups of a process on an idle CPU (the first quarter of the
// rounds warms up), so host_wakeup is half its median. A host of one CPU
// has no other CPU to wake: 0.
func MeasureWakeup(rounds int) (int64, error) {
	if rounds < 1 {
		return 0, fmt.Errorf("rounds=%d: at least 1", rounds)
	}
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return 0, fmt.Errorf("host_wakeup: cannot read this process's CPUs: %v", err)
	}
	var cpus []int
	for i := 0; len(cpus) < 2 && i < 1024; i++ {
		if set.IsSet(i) {
			cpus = append(cpus, i)
		}
	}
	if len(cpus) < 2 {
		return 0, nil
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		return 0, ErrNoPython
	}
	out, err := exec.Command(py, "-c", pingPong, strconv.Itoa(cpus[0]), strconv.Itoa(cpus[1]), strconv.Itoa(rounds)).CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("host_wakeup: python3 pipe round trips between CPUs %d and %d: %v: %s", cpus[0], cpus[1], err, out)
	}
	ns, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil || ns <= 0 {
		return 0, fmt.Errorf("host_wakeup: python3 printed %q, not a round trip in ns", out)
	}
	return ns / 2, nil
}

// WakeupSetting is host_wakeup as a cluster line's setting
// (" host_wakeup=0.047ms", to the µs; "" for 0, the default).
func WakeupSetting(ns int64) string {
	us := (ns + 500) / 1000
	if us <= 0 {
		return ""
	}
	return " host_wakeup=" + strconv.FormatFloat(float64(us)/1000, 'f', -1, 64) + "ms"
}
