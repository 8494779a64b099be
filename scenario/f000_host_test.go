package scenario

import (
	"slices"
	"strconv"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/cluster"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/storage"
	"github.com/stretchr/testify/require"
)

// F000-13: the flood scan's written figure on the reference runs' host.
//
// What the scan writes is what the background writer does not write first:
// BgBufferSync writes at most bgwriter_lru_maxpages (100) buffers a round,
// one round per bgwriter_delay (200 ms), and during the flood every round
// stops at that limit (the smoothed allocation rate is thousands a round).
// So the backends' share depends on how long the scan runs. The reference
// runs' host (a 2-core VM) takes longer for the same work than the host the
// cost model was measured on; how much longer is measured on another step:
// the checksums-off scan of the same table after the same checkpoint (the
// same reads, hint bits and ring writes, no WAL), median execution time
// 275.1 ms in three runs against the simulator's at host_time_scale=1. With
// the ratio as host_time_scale, the checksums-on scan (which adds one
// FPI_FOR_HINT per page, the WAL writes and the ring's rejections) must take
// as long as on the server, the background writer must get through as many
// rounds (8–9 there, give or take the one whose phase against the scan's
// start differs), and the scan's written figure must land in the band of the
// five flood runs (31,186–31,660).
//
// The two wal_log_hints runs took 2,046 and 2,389 ms for the same WAL and
// writes, 0.7–1.0 s longer than the checksum runs, and their background
// writer wrote 1,200–1,400; nothing in the server's code makes them slower
// (FlushBuffer even skips the checksum copy), so no host scale explains both
// and they are left out here.
//
// One factor is not yet the whole mechanism: on PostgreSQL 15 (no io
// workers) the same calibration predicts a third of the flood's time, the
// WAL write cycles under WALWriteLock being dearer on such a host than the
// plain scan's work; on 18 the io workers' hand-offs, which the model does
// not price, raise the calibration step's scale by about as much
// (verify's TestHostScaleFlood has the measurements).
func TestF000_13_WrittenOnTheReferenceHost(t *testing.T) {
	ref := loadReference(t)
	const settings = "max_wal_size=8GB checkpoint_timeout=1h autovacuum=off "
	scan := func(extra string) (map[string]any, cluster.StatBgwriter) {
		env, outs := run(t, seed000{settings: settings + extra, checkpoint: true}.String())
		res := lastStmt(outs)
		o, err := env.Exec("show", []datadriven.CmdArg{{Key: "stat"}, {Key: "bgwriter"}, {Key: "since", Vals: []string{"before"}}})
		require.NoError(t, err)
		return res, o.Result.(cluster.StatBgwriter)
	}

	// The host's scale, from the checksums-off runs.
	off, _ := scan("data_checksums=off")
	var realOff []float64
	for _, r := range []string{"s1_cks-off_ckpt_r1", "s1_cks-off_ckpt_r2", "s1_cks-off_ckpt_r3"} {
		realOff = append(realOff, ref[r].ExecutionMs)
	}
	slices.Sort(realOff)
	scale := realOff[1] / off["time_ms"].(float64)
	require.InDelta(t, 2.1, scale, 0.2, "the reference host is about twice as slow")

	on, bg := scan("data_checksums=on host_time_scale=" + strconv.FormatFloat(scale, 'f', 3, 64))
	runs := []string{"s1_cks-on_ckpt_r1", "s1_cks-on_ckpt_r2", "s1_cks-on_ckpt_r3"}
	var ms []float64
	var clean []int64
	for _, r := range runs {
		ms, clean = append(ms, ref[r].ExecutionMs), append(clean, ref[r].BgwriterClean)
		require.Equal(t, 100*ref[r].BgwriterMaxWritten, ref[r].BgwriterClean, "every real round stopped at bgwriter_lru_maxpages")
	}
	// The scale is the host's CPU and memory work; the scan also waits for
	// the WAL's fdatasyncs, one per 16 MB segment it finishes, on a device
	// the reference runs did not measure: the simulator takes the default
	// profile's (nvme: 1 ms flush + 16 MB at 2.4 GB/s ≈ 8 ms a segment, about
	// 116 ms for the scan's 243 MB). That share of the predicted time is
	// unmeasured, and the prediction is judged within it of the runs' range.
	dev := storage.Devices["nvme"]
	segMs := (float64(dev.FlushNs) + float64(pg.WalSegSize)*1e9/float64(dev.BytesPerSec)) / 1e6
	syncMs := float64(on["wal_bytes"].(int64)) / pg.WalSegSize * segMs
	require.InDelta(t, 116, syncMs, 5)
	require.GreaterOrEqual(t, on["time_ms"].(float64), slices.Min(ms)-syncMs, "the scan takes as long as on the server")
	require.LessOrEqual(t, on["time_ms"].(float64), slices.Max(ms)+syncMs)
	require.Equal(t, 100*bg.MaxwrittenClean, bg.BuffersClean, "every round stops at bgwriter_lru_maxpages")
	require.GreaterOrEqual(t, bg.BuffersClean, slices.Min(clean)-100, "within one round")
	require.LessOrEqual(t, bg.BuffersClean, slices.Max(clean)+100)

	var band []int64
	for _, r := range append(runs, "s1_cks-off-wlh_ckpt_r1", "s1_cks-off-wlh_ckpt_r2") {
		band = append(band, ref[r].ExplainWritten)
	}
	w := on["shared_written"].(int64)
	t.Logf("host_time_scale=%.3f: scan %.1f ms, buffers_clean %d, written %d", scale, on["time_ms"], bg.BuffersClean, w)
	require.GreaterOrEqual(t, w, slices.Min(band))
	require.LessOrEqual(t, w, slices.Max(band))

	// At the cost model's own host the scan is twice as fast, the background
	// writer gets through a third of the rounds and the backends write more:
	// outside the band (31,784 against at most 31,660).
	def, _ := scan("data_checksums=on")
	require.Greater(t, def["shared_written"].(int64), slices.Max(band))
}
