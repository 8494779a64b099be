package verify

import (
	"fmt"
	"math"
	"os"
	"slices"
	"time"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/storage"
)

// DeviceSync is the host's fdatasync as the WAL meets it, measured beside
// the servers' data directories: the machine settings device_flush and
// device_write_mbps that make the simulator's WAL syncs (Storage.SyncWAL)
// take the host's time.
type DeviceSync struct {
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

// deviceSyncSizes are the writes synced: one 8 kB page (pg_test_fsync's
// figure), and 1, 4 and 16 MB, up to the whole segment XLogWrite syncs when
// it finishes one.
var deviceSyncSizes = []int64{pg.BLCKSZ, 1 << 20, 4 << 20, pg.WalSegSize}

// MeasureDeviceSync times fdatasync on the file system the servers' data
// directories are made on (the temporary directory, as Server.Init makes
// them), the way XLogWrite meets it: a WAL segment is created full size and
// synced (XLogFileInit), then 8 kB pages are written into it (pwrite into
// the page cache) and fdatasync (issue_xlog_fsync, wal_sync_method's Linux
// default) takes them to the device. Each size is synced runs times in a
// fresh segment; the line through the sizes' medians gives the device's
// flush and write rate. The tool measures this itself rather than through
// a server: no SQL view times one fdatasync on every version (pg_stat_wal's
// wal_sync_time is 14–17 only and needs track_wal_io_timing; 18 moved it to
// pg_stat_io), and the file system, the device and the calls are the same.
// dev is the device profile the simulated runs use, whose access time the
// model adds before the write.
func MeasureDeviceSync(runs int, dev storage.Device) (*DeviceSync, error) {
	if runs < 1 || runs > 99 {
		return nil, fmt.Errorf("runs=%d: must be from 1 to 99", runs)
	}
	dir, err := os.MkdirTemp("", "pgbufsim-devsync-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var medians []float64
	page := make([]byte, pg.BLCKSZ)
	for i := range page {
		page[i] = byte(i * 7) // not zeros: nothing below the page cache may skip them
	}
	zero := make([]byte, pg.WalSegSize)
	for _, n := range deviceSyncSizes {
		var ms []float64
		for r := range runs {
			d, err := syncOnce(fmt.Sprintf("%s/seg%d-%d", dir, n, r), zero, page, n)
			if err != nil {
				return nil, err
			}
			ms = append(ms, float64(d.Nanoseconds())/1e6)
		}
		medians = append(medians, median(ms))
	}
	ds := deviceSyncFrom(deviceSyncSizes, medians, dev)
	if ds.WriteMBps <= 0 {
		return nil, fmt.Errorf("fdatasync did not take longer for more bytes (medians %v ms for %v bytes): the device is too noisy to measure now", medians, deviceSyncSizes)
	}
	return ds, nil
}

// deviceSyncFrom fits the line through the medians (ms) of the sizes.
func deviceSyncFrom(sizes []int64, medians []float64, dev storage.Device) *DeviceSync {
	ds := &DeviceSync{SizesBytes: sizes, MedianMs: medians}
	slope, icept := fitLine(sizes, medians) // ms per byte, ms
	if slope > 0 {
		ds.WriteMBps = int64(math.Round(1e-3 / slope)) // bytes per ms over 1,000 is MB/s
	}
	ds.FlushMs = math.Round(max(0, icept-float64(dev.AccessNs)/1e6)*1000) / 1000
	return ds
}

// syncOnce creates a WAL-segment-sized file, syncs it, writes n bytes of
// pages into it and returns how long their fdatasync took.
func syncOnce(path string, zero, page []byte, n int64) (time.Duration, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return 0, err
	}
	defer os.Remove(path)
	defer f.Close()
	if _, err := f.Write(zero); err != nil {
		return 0, err
	}
	if err := f.Sync(); err != nil {
		return 0, err
	}
	for off := int64(0); off < n; off += int64(len(page)) {
		if _, err := f.WriteAt(page, off); err != nil {
			return 0, err
		}
	}
	start := time.Now()
	if err := fdatasync(f); err != nil {
		return 0, err
	}
	return time.Since(start), nil
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

// Settings is the measurement as the cluster settings it stands for.
func (d *DeviceSync) Settings() string {
	return fmt.Sprintf("device_flush=%gms device_write_mbps=%d", d.FlushMs, d.WriteMBps)
}
