//go:build verify

package verify

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestHostScaleFlood measures host_time_scale on each suite server's host
// (pgbufsim host-scale: the checksums-off scan of seed 000) and runs the
// checksum ring flood (examples/ring-flood.scn, the background writer on, as
// on a server) on both sides at that scale. The backends' written figure of
// the flood scan is what the background writer (100 buffers a round, a
// round per 200 ms) has not written first, so it follows the scan's
// duration: it is judged within 1% of shared_buffers, as verify judges every
// buffer count, plus a round for every 200 ms by which the two durations
// differ (below). It is the prediction of a step the scale was not measured
// on (that step adds an FPI_FOR_HINT per page, the WAL writes and the ring's
// rejections). The scan's execution time is reported, not judged: it
// follows the load on the host while it runs. Only the scan's figures are
// judged: the background writer's rounds between statements follow the
// gaps between them, 500 ms of client pause before each statement in the
// simulator and, on the server, however long verify's own queries take on
// a host under load — the inserts' written figures (the background writer
// cleans ahead of the next insert in the gap) and what it has cleaned by
// the show commands after the scan move with them.
//
// The scale is the CPU's; the device's time is measured beside it
// (devsync.Measure: device_flush and device_write_mbps), because the
// flood's WAL syncs are the device's: XLogWrite fsyncs each WAL segment it
// finishes, ~13 MB here, and the simulator's fdatasync writes those bytes
// at the host's rate after its flush (Storage.SyncWAL). Before that, with a
// flat 1 ms an fdatasync, 15's flood took 0.34–0.55 of the server's time at
// the calibrated scale (444–561 ms simulated against 1,018–1,793), which
// this test asserted so that closing the gap would show; with the host's
// device (2-core machine, load average 4.4–6: scale 1.442, fdatasync of
// 16 MB 31 ms, device_flush=0.844ms device_write_mbps=547) it took 1,031
// ms against 1,455, written 31,690 against 31,495; at load 6 (scale 1.603,
// 0.89 ms, 510 MB/s) 1,114 against 1,278, written 31,590 against 31,595;
// at load 9–12 (scale 2.125, 0.903 ms, 333 MB/s) 1,527 against 1,813,
// written 31,490 against 31,295; at load 4 (scale 1.176, 1.056 ms, 669
// MB/s) 846 against 1,667, written 31,790 against 31,395. The ratio is
// 0.51–0.87 now against 0.34–0.55 before: the syncs (~20 ms each here, 19
// of them) are the device's, and what is left moves with the load between
// the calibration step and the flood, which run one after the other, and
// with the WAL write path under WALWriteLock (README). The written figures
// are inside the bound below in every run, so 15 is judged as 18 and 19
// are (18beta1: load 6, scale 2.012, 1,747 ms against 1,546, written 31,284
// against 31,494; load 3–6, scale 2.641, 2,077 against 1,688, written
// 31,184 against 31,465 — longer than the server's, the io workers' part
// of 18's scale, below). On 18 and 19 the calibration step
// measures 2.1–2.9 because its reads go through the io workers, whose
// hand-offs on a 2-core host the model did not price (see the README's
// "The host's speed" paragraph). The step and the flood now run on the
// host's cores (host_cpus, runtime.NumCPU): the step's leader, parallel
// workers and I/O workers share them, and at load 4–8 the scales were
// 0.898 (15), 1.247 (18), 0.994 (19), the flood 1,031 ms against 1,237,
// 1,584 against 1,651 and 1,348 against 1,403.
func TestHostScaleFlood(t *testing.T) {
	privateTmp(t)
	src, err := os.ReadFile("../examples/ring-flood.scn")
	require.NoError(t, err)
	for _, major := range suiteVersions(t) {
		t.Run(fmt.Sprintf("pg%d", major), func(t *testing.T) {
			bin := pgBinFor(t, major)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			hs, err := MeasureHostScale(ctx, bin, HostScaleRuns, nil)
			require.NoError(t, err)
			require.Greater(t, hs.Scale, 0.0)
			t.Logf("PostgreSQL %s: host_time_scale=%g host_cpus=%d (%v ms on the server, %.1f simulated); fdatasync %v ms: %s", hs.Server, hs.Scale, hs.CPUs, hs.RealMs, hs.SimMs, hs.Device.MedianMs, hs.Device.Settings())
			scn := strings.Replace(string(src), "autovacuum=off\n", "autovacuum=off "+hs.Settings()+"\n", 1)
			require.NotEqual(t, string(src), scn, "the example's cluster line ends in autovacuum=off")
			if major < 16 { // no pg_stat_io
				scn = strings.Replace(scn, "show io since=before\n", "", 1)
			}
			rep, err := Run(ctx, "ring-flood.scn", scn, Options{PGBin: bin, Seed: 1})
			require.NoError(t, err)
			line := 0
			for i, l := range strings.Split(scn, "\n") {
				if l == "scan big" {
					line = i + 1
				}
			}
			w := row(t, rep, line, "shared written")
			ex := row(t, rep, line, ExecutionTimeFigure)
			t.Logf("scan big: written %d simulated, %d on the server; %.1f ms simulated, %.1f on the server", w.Sim, w.Real, float64(ex.Sim)/1000, float64(ex.Real)/1000)
			require.True(t, w.Judged)
			// The written figure given the durations: within verify's 1% of
			// shared_buffers plus 100 buffers (a background writer round of
			// bgwriter_lru_maxpages) for every 200 ms (bgwriter_delay), or part
			// of it, by which the simulated scan is shorter or longer than the
			// server's. The duration itself is the host model's figure, not
			// judged (a quiet CI machine: 937 ms simulated at scale 1.437 against
			// 1,081 ms, written 31,784 against 31,613).
			gap := max(ex.Sim-ex.Real, ex.Real-ex.Sim)
			rounds := (gap + 199_999) / 200_000
			bound := int64(rep.NBuffers)/100 + 100*rounds
			require.LessOrEqual(t, max(w.Sim-w.Real, w.Real-w.Sim), bound, "written: %d simulated, %d on the server, durations %d and %d µs", w.Sim, w.Real, ex.Sim, ex.Real)
			judged := 0
			for _, r := range rep.Rows {
				if r.Line == line {
					require.True(t, r.OK || r.Figure == "shared written", "line %d %s: %d simulated, %d on the server (%s)", r.Line, r.Figure, r.Sim, r.Real, r.Tolerance)
					judged += map[bool]int{true: 1}[r.Judged]
				}
			}
			require.GreaterOrEqual(t, judged, 7, "hit, read, dirtied, written, WAL records, FPI and bytes")
		})
	}
}
