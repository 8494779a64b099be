// Package devsync measures a host's fdatasync as the WAL meets it, beside
// the servers' data directories: the machine settings device_flush and
// device_write_mbps that make the simulator's WAL syncs (Storage.SyncWAL)
// take the host's time (pgbufsim host-scale).
package devsync

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/storage"
)

// Result is the measurement.
type Result struct {
	// SizesBytes and MedianMs: each size written and synced, and the median
	// of its fdatasync's time over the runs.
	SizesBytes []int64
	MedianMs   []float64
	// The least-squares line through them: FlushMs at no bytes (less the
	// device profile's access time, which the model adds itself) and the
	// slope's rate.
	FlushMs   float64
	WriteMBps int64
}

// Sizes are the writes synced: one 8 kB page (pg_test_fsync's figure), and
// 1, 4 and 16 MB, up to the whole segment XLogWrite syncs when it finishes
// one.
var Sizes = []int64{pg.BLCKSZ, 1 << 20, 4 << 20, pg.WalSegSize}

// Measure times fdatasync on the file system the servers' data directories
// are made on (the temporary directory, as the verify server makes them),
// the way XLogWrite meets it: a WAL segment is created full size and synced
// (XLogFileInit), 8 kB pages are written into it (pwrite into the page
// cache), and fdatasync (issue_xlog_fsync; wal_sync_method's Linux default)
// takes them to the device. Each size is synced runs times, each in a
// fresh segment; the line through the sizes' medians gives the device's
// flush and write rate. The writes and syncs are coreutils' dd, which
// times what it does and prints it (this program reads no clock, as the
// server's times come from its EXPLAIN ANALYZE): the sync is a dd that
// copies nothing with conv=fdatasync, so its time is the fdatasync of the
// pages the write before it left dirty. No SQL view times one fdatasync on
// every version (pg_stat_wal's wal_sync_time is 14–17 only, with
// track_wal_io_timing); the file system, the device and the calls are the
// server's. dev is the device profile the simulated runs use, whose access
// time the model adds before the write.
func Measure(runs int, dev storage.Device) (*Result, error) {
	if runs < 1 || runs > 99 {
		return nil, fmt.Errorf("runs=%d: must be from 1 to 99", runs)
	}
	dir, err := os.MkdirTemp("", "pgbufsim-devsync-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	seg := filepath.Join(dir, "segment")
	var medians []float64
	for _, n := range Sizes {
		var ms []float64
		for range runs {
			if _, err := dd(seg, fmt.Sprint(pg.WalSegSize), "1", "fdatasync"); err != nil { // XLogFileInit
				return nil, err
			}
			if _, err := dd(seg, fmt.Sprint(pg.BLCKSZ), fmt.Sprint(n/pg.BLCKSZ), "notrunc"); err != nil {
				return nil, err
			}
			s, err := dd(seg, fmt.Sprint(pg.BLCKSZ), "0", "notrunc,fdatasync")
			if err != nil {
				return nil, err
			}
			ms = append(ms, s*1000)
		}
		medians = append(medians, median(ms))
	}
	r := FromMedians(Sizes, medians, dev)
	if r.WriteMBps <= 0 {
		return nil, fmt.Errorf("fdatasync did not take longer for more bytes (medians %v ms for %v bytes): the device is too noisy to measure now", medians, Sizes)
	}
	return r, nil
}

// ddTime is the elapsed time dd reports (LC_ALL=C): "…copied, 0.0274638 s, …".
var ddTime = regexp.MustCompile(`copied, ([0-9.e+-]+) s`)

// dd writes count blocks of bs zero bytes to path with conv and returns the
// seconds it reports.
func dd(path, bs, count, conv string) (float64, error) {
	cmd := exec.Command("dd", "if=/dev/zero", "of="+path, "bs="+bs, "count="+count, "conv="+conv)
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("dd of=%s bs=%s count=%s conv=%s: %v: %s", path, bs, count, conv, err, out)
	}
	return ParseDD(string(out))
}

// ParseDD reads the seconds from dd's summary line.
func ParseDD(out string) (float64, error) {
	m := ddTime.FindStringSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("dd printed no elapsed time: %q", out)
	}
	return strconv.ParseFloat(m[1], 64)
}

func median(v []float64) float64 {
	s := slices.Sorted(slices.Values(v))
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + m) / 2
	}
	return m
}

// fitLine is the least-squares line y = a + b·x.
func fitLine(xs []int64, ys []float64) (b, a float64) {
	var sx, sy, sxx, sxy float64
	n := float64(len(xs))
	for i, x := range xs {
		fx := float64(x)
		sx += fx
		sy += ys[i]
		sxx += fx * fx
		sxy += fx * ys[i]
	}
	b = (n*sxy - sx*sy) / (n*sxx - sx*sx)
	return b, (sy - b*sx) / n
}

// FromMedians fits the line through the medians (ms) of the sizes.
func FromMedians(sizes []int64, medians []float64, dev storage.Device) *Result {
	r := &Result{SizesBytes: sizes, MedianMs: medians}
	slope, icept := fitLine(sizes, medians) // ms per byte, ms
	if slope > 0 {
		r.WriteMBps = int64(math.Round(1e-3 / slope)) // bytes per ms over 1,000 is MB/s
	}
	r.FlushMs = math.Round(max(0, icept-float64(dev.AccessNs)/1e6)*1000) / 1000
	return r
}

// Settings is the measurement as the cluster settings it stands for.
func (r *Result) Settings() string {
	return fmt.Sprintf("device_flush=%gms device_write_mbps=%d", r.FlushMs, r.WriteMBps)
}
