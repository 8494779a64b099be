package verify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/pgbufsim/pgbufsim/guc"
	"github.com/pgbufsim/pgbufsim/internal/cores"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/storage"
	"github.com/pgbufsim/pgbufsim/verify/devsync"
	"github.com/pgbufsim/pgbufsim/verify/hostcpu"
)

// HostScaleScenario is the step host_time_scale is measured on (hostcpu.ScaleScenario).
const HostScaleScenario = hostcpu.ScaleScenario

// HostCPUs is the host's host_cpus: the CPUs this process may run on
// (runtime.NumCPU), which the servers started here share.
func HostCPUs() int { return runtime.NumCPU() }

// hostScaleScenarioOn is the calibration step on a host of cpus cores
// whose wake-up onto an idle CPU takes wakeup ns: the simulator shares them
// among the backend and its I/O workers as the server's processes share
// the host's (host_cpus, host_wakeup).
func hostScaleScenarioOn(cpus int, wakeup int64) string {
	return strings.Replace(HostScaleScenario, "bgwriter_lru_maxpages=0\n", fmt.Sprintf("bgwriter_lru_maxpages=0 host_cpus=%d%s\n", cpus, hostcpu.WakeupSetting(wakeup)), 1)
}

// HostScaleRuns is how many calibration steps a host measurement takes the
// median of (each ~5 s): the host's load moves one run by ±20%.
const HostScaleRuns = 3

// HostScale is a measurement of host_time_scale on a server's host.
type HostScale struct {
	Server string
	Major  int
	// CPUs is the host's host_cpus, which the step is simulated on.
	CPUs int
	// Slice is the host kernel's base slice, host_sched_slice (hostcpu.SchedSlice).
	Slice int64
	// Wakeup is a sleeping process's wake-up onto an idle CPU,
	// host_wakeup (hostcpu.MeasureWakeup; 0 on one CPU).
	Wakeup int64
	// SimMs is the simulator's execution time of the step at
	// host_time_scale=1; RealMs the server's in each run, in order.
	SimMs  float64
	RealMs []float64
	// Scale is the median of RealMs over SimMs.
	Scale float64
	// Device is the host's fdatasync, measured beside the data directories
	// (devsync.Measure): the CPU's scale does not cover the device's time.
	Device *devsync.Result
}

// deviceSyncRuns is how many times each size is synced.
const deviceSyncRuns = 5

// MeasureHostScale runs HostScaleScenario runs times on the server in bin
// (each on a fresh cluster) and the simulator, and returns the host's scale.
func MeasureHostScale(ctx context.Context, bin string, runs int, progress io.Writer) (*HostScale, error) {
	if runs < 1 || runs > 99 {
		return nil, fmt.Errorf("runs=%d: must be from 1 to 99", runs)
	}
	scanLine := strings.Count(HostScaleScenario, "\n") // the last line: scan big
	hs := &HostScale{CPUs: HostCPUs(), Slice: hostcpu.SchedSlice()}
	wk, err := hostcpu.MeasureWakeup(hostcpu.WakeupRounds)
	if errors.Is(err, hostcpu.ErrNoPython) {
		if progress != nil {
			fmt.Fprintln(progress, err) // not measurable here: the step runs with host_wakeup=0
		}
	} else if err != nil {
		return nil, err
	}
	hs.Wakeup = wk
	scn := hostScaleScenarioOn(hs.CPUs, hs.Wakeup)
	for i := range runs {
		rep, err := Run(ctx, "host-scale.scn", scn, Options{PGBin: bin, Seed: 1})
		if err != nil {
			return nil, err
		}
		var sim, real int64 = -1, -1
		for _, row := range rep.Rows {
			if row.Line == scanLine && row.Figure == ExecutionTimeFigure {
				sim, real = row.Sim, row.Real
			}
		}
		if sim <= 0 || real <= 0 {
			return nil, fmt.Errorf("run %d: no execution time for line %d (scan big) in the report", i+1, scanLine)
		}
		hs.Server, hs.Major, hs.SimMs = rep.Server, rep.Major, float64(sim)/1000
		hs.RealMs = append(hs.RealMs, float64(real)/1000)
		if progress != nil {
			fmt.Fprintf(progress, "run %d: %.1f ms on the server, %.1f ms simulated\n", i+1, float64(real)/1000, float64(sim)/1000)
		}
	}
	sorted := slices.Sorted(slices.Values(hs.RealMs))
	med := sorted[len(sorted)/2]
	if len(sorted)%2 == 0 {
		med = (sorted[len(sorted)/2-1] + med) / 2
	}
	hs.Scale = math.Round(med/hs.SimMs*1000) / 1000
	// The default device profile, which the calibration step and verify's
	// scenarios run on unless they name one.
	ds, err := devsync.Measure(deviceSyncRuns, storage.Devices[guc.Lookup("device").Default(pg.MaxVersion)])
	if err != nil {
		return nil, err
	}
	hs.Device = ds
	return hs, nil
}

// Settings is the measurement as a cluster line's machine settings:
// host_time_scale, host_cpus, host_sched_slice when the kernel's is not
// its default for host_cpus CPUs (a process pinned to fewer CPUs than the
// machine's, a tuned kernel), host_wakeup when measured, and (when
// measured) the device's fdatasync.
func (h *HostScale) Settings() string {
	s := fmt.Sprintf("host_time_scale=%g host_cpus=%d", h.Scale, h.CPUs)
	if h.Slice > 0 && h.Slice != cores.DefaultSlice(h.CPUs) {
		s += " host_sched_slice=" + strconv.FormatFloat(float64(h.Slice)/1e6, 'g', -1, 64) + "ms"
	}
	s += hostcpu.WakeupSetting(h.Wakeup)
	if h.Device != nil {
		s += " " + h.Device.Settings()
	}
	return s
}

// String is the measurement as the command prints it.
func (h *HostScale) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "server: %s\n", h.Server)
	fmt.Fprintf(&b, "step: seed 000's count(*) of 32,768 pages after a checkpoint, checksums off (pgbufsim host-scale --print-scenario)\n")
	fmt.Fprintf(&b, "simulated at host_time_scale=1 host_cpus=%d%s (the host's CPUs): %.3f ms\n", h.CPUs, hostcpu.WakeupSetting(h.Wakeup), h.SimMs)
	ms := make([]string, len(h.RealMs))
	for i, v := range h.RealMs {
		ms[i] = fmt.Sprintf("%.3f", v)
	}
	fmt.Fprintf(&b, "on the server: %s ms\n", strings.Join(ms, ", "))
	fmt.Fprintf(&b, "host_time_scale=%g host_cpus=%d%s (the kernel's base slice %.3g ms; host_wakeup: a wake-up onto an idle CPU, half a pipe round trip between two CPUs)\n", h.Scale, h.CPUs, hostcpu.WakeupSetting(h.Wakeup), float64(h.Slice)/1e6)
	if d := h.Device; d != nil {
		ms := make([]string, len(d.MedianMs))
		for i, v := range d.MedianMs {
			ms[i] = fmt.Sprintf("%s %.3f ms", pg.FormatSize(d.SizesBytes[i]), v)
		}
		fmt.Fprintf(&b, "fdatasync beside the data directory (median of %d each): %s\n", deviceSyncRuns, strings.Join(ms, ", "))
		fmt.Fprintf(&b, "%s\n", d.Settings())
	}
	return b.String()
}
