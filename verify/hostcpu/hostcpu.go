// Package hostcpu is what verify needs of the host's CPUs: pinning a
// server to a scenario's host_cpus, and the kernel scheduler's base slice.
package hostcpu

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/pgbufsim/pgbufsim/internal/cores"
	"golang.org/x/sys/unix"
)

// Pin is the taskset -c list a server is pinned to for a scenario of
// host_cpus=n: the first n CPUs this process may run on, so that the
// simulator's n cores are judged against a server given n CPUs. It is ""
// (no pinning) for n 0 (unlimited) or at least the CPUs there are.
func Pin(n int) (string, error) {
	if n <= 0 {
		return "", nil
	}
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return "", fmt.Errorf("host_cpus=%d: cannot read this process's CPUs to pin the server to %d of them: %v", n, n, err)
	}
	if n >= set.Count() {
		return "", nil
	}
	var ids []string
	for i := 0; len(ids) < n; i++ {
		if set.IsSet(i) {
			ids = append(ids, strconv.Itoa(i))
		}
	}
	return strings.Join(ids, ","), nil
}

// SchedSlice is the host kernel's base slice in ns, host_sched_slice
// (what a process runs before another runnable one takes its CPU): the
// scheduler's debugfs base_slice_ns when it can be read (root, debugfs
// mounted), else the default the kernel computed at boot from its release
// and its online CPUs — not this process's affinity: a server pinned to
// fewer CPUs keeps the machine's slice — 0.70 ms (6.15 on; 0.75 before)
// × (1 + ilog2(min(CPUs, 8))) (update_sysctl, kernel/sched/fair.c).
func SchedSlice() int64 {
	if b, err := os.ReadFile("/sys/kernel/debug/sched/base_slice_ns"); err == nil {
		if ns, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && ns > 0 {
			return ns
		}
	}
	online := onlineCPUs()
	slice := cores.DefaultSlice(online)
	var u unix.Utsname
	if unix.Uname(&u) == nil && !kernelAtLeast(unix.ByteSliceToString(u.Release[:]), 6, 15) {
		slice = slice / 700_000 * 750_000
	}
	return slice
}

// onlineCPUs counts the kernel's online CPUs (a list like "0-1,4").
func onlineCPUs() int {
	b, err := os.ReadFile("/sys/devices/system/cpu/online")
	if err != nil {
		return runtime.NumCPU()
	}
	return countCPUList(strings.TrimSpace(string(b)), runtime.NumCPU())
}

// countCPUList counts the CPUs of a kernel CPU list ("0-3,8"); def when it
// cannot be read.
func countCPUList(list string, def int) int {
	n := 0
	for _, r := range strings.Split(list, ",") {
		lo, hi, ok := strings.Cut(r, "-")
		a, err1 := strconv.Atoi(lo)
		b := a
		var err2 error
		if ok {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || b < a {
			return def
		}
		n += b - a + 1
	}
	return n
}

// kernelAtLeast reports whether a kernel release ("6.18.44-…") is at
// least major.minor.
func kernelAtLeast(release string, major, minor int) bool {
	f := strings.FieldsFunc(release, func(r rune) bool { return r < '0' || r > '9' })
	if len(f) < 2 {
		return true
	}
	ma, _ := strconv.Atoi(f[0])
	mi, _ := strconv.Atoi(f[1])
	return ma > major || ma == major && mi >= minor
}
