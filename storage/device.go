package storage

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/pgbufsim/pgbufsim/pg"
)

// Device is a named storage device profile. Its parameters are documented
// figures, each with where it comes from; a request of n bytes at time t on an
// idle device completes after AccessNs plus n / BytesPerSec.
type Device struct {
	Name string
	Doc  string
	// AccessNs is the per-request access time before data moves: command
	// processing and the flash read, or on a disk the settle time (its seek
	// and rotation are computed from the head position).
	AccessNs int64
	// SeqAccessNs replaces AccessNs for a request that starts where the
	// previous one ended: an SSD controller's read-ahead, a disk's head
	// already in place.
	SeqAccessNs int64
	// BytesPerSec is the transfer rate, shared by all requests in flight.
	BytesPerSec int64
	// WriteBytesPerSec, when set, is the rate of writes (data leaving the
	// page cache: fdatasync's written pages, write-back); 0: BytesPerSec.
	// The machine setting device_write_mbps sets it (a host measured by
	// pgbufsim host-scale).
	WriteBytesPerSec int64
	// Parallelism is how many requests the device serves at once (flash
	// channels and dies; 1 for a disk's single arm). Requests beyond it queue.
	Parallelism int
	// IOPS caps request starts per second (0: no cap): a cloud volume's
	// provisioned IOPS. An I/O larger than MaxIOBytes counts as several.
	IOPS       int64
	MaxIOBytes int64
	// FlushNs is the device's cache flush that ends an fdatasync, after the
	// file's dirty pages have been written (what pg_test_fsync measures for
	// one 8 kB write, less that write). The SSD profiles keep the cost
	// model's earlier flat figure for a WAL fdatasync on an SSD, ~1 ms; the
	// disk's is 0, as its writes are modelled reaching the platter (seek
	// and rotational wait, positioning) before the flush; the cloud volume's is one more round trip of its 0.5 ms per I/O. The
	// machine setting device_flush replaces it with a host's (pgbufsim
	// host-scale measures it).
	FlushNs int64
	// Disk geometry (Parallelism 1): seek time from track-to-track to full
	// stroke growing with the square root of the distance, plus half a
	// revolution on average unless the request continues where the head is.
	TrackToTrackNs, FullStrokeNs, RevolutionNs int64
	SpanBytes                                  int64 // the disk's capacity, for seek distances
}

// Devices are the profiles by name.
var Devices = map[string]Device{
	// Seed 003's local NVMe SSD without DRAM: fio random 8 kB direct reads at
	// depth 1 complete in 75.7 µs on average (13.2k IOPS, TestF003_5): 72.3 µs of
	// access plus 3.4 µs moving 8 kB at 2.4 GB/s, the sequential rate of a
	// PCIe 3 ×4 DRAM-less drive. A request continuing the previous one is
	// served from the controller's own read-ahead in 15 µs, so sequential
	// 128 kB reads at depth 1 run at ~1.9 GB/s, what such drives reach in a
	// one-deep sequential benchmark. Eight requests in parallel (its channels).
	"nvme": {Name: "nvme", Doc: "DRAM-less NVMe SSD (seed 003): 75.7 µs per random 8 kB read at depth 1, 2.4 GB/s, 8 in parallel",
		AccessNs: 72_300, SeqAccessNs: 15_000, BytesPerSec: 2_400_000_000, Parallelism: 8, FlushNs: 1_000_000},
	// A SATA SSD: ~100 µs for a random 8 kB read at depth 1 (85 µs access,
	// 15 µs at the 530 MB/s a SATA 6 Gb/s link sustains); NCQ lets it serve
	// several requests at once.
	"sata-ssd": {Name: "sata-ssd", Doc: "SATA SSD: ~100 µs per random 8 kB read at depth 1, 530 MB/s, 8 in parallel",
		AccessNs: 85_000, SeqAccessNs: 10_000, BytesPerSec: 530_000_000, Parallelism: 8, FlushNs: 1_000_000},
	// A 7,200 rpm disk: 8.33 ms a revolution (4.17 ms average rotational
	// wait), seeks from 1 ms (track to track) to 16 ms (full stroke) over
	// 2 TB, 180 MB/s on the outer tracks; one arm.
	"hdd": {Name: "hdd", Doc: "7,200 rpm disk: seek 1–16 ms by distance + 4.17 ms rotation, 180 MB/s, one arm",
		AccessNs: 100_000, SeqAccessNs: 0, BytesPerSec: 180_000_000, Parallelism: 1,
		TrackToTrackNs: 1_000_000, FullStrokeNs: 16_000_000, RevolutionNs: 8_333_333, SpanBytes: 2 << 40, FlushNs: 0},
	// A general-purpose cloud block volume at its baseline (AWS gp3): 3,000
	// IOPS, 125 MB/s, ~0.5 ms per I/O over the network; I/Os up to 256 KiB
	// count as one against the IOPS cap; many requests in flight.
	"cloud-ebs": {Name: "cloud-ebs", Doc: "cloud volume (gp3 baseline): 0.5 ms per I/O, 3,000 IOPS, 125 MB/s, I/Os to 256 KiB count once",
		AccessNs: 500_000, SeqAccessNs: 500_000, BytesPerSec: 125_000_000, Parallelism: 64, IOPS: 3000, MaxIOBytes: 256 << 10, FlushNs: 500_000},
}

// DeviceNames lists the profiles in name order.
func DeviceNames() []string {
	var ns []string
	for n := range Devices {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// LookupDevice returns the named profile or an error listing the known ones.
func LookupDevice(name string) (Device, error) {
	d, ok := Devices[name]
	if !ok {
		return Device{}, fmt.Errorf("unknown device profile %q (known: %s)", name, strings.Join(DeviceNames(), ", "))
	}
	return d, nil
}

// deviceQueue is one device's state: when each of its parallel units and its
// transfer path are next free, the IOPS budget, and a disk's head position.
type deviceQueue struct {
	d        Device
	units    []int64
	nextUnit int // the unit taken longest ago (see submit)
	bus      int64
	nextIO   int64 // the earliest start the IOPS cap allows
	head     int64 // byte offset after the last request (disks)
	headFree int64 // when the head got there
	// lastStart is when the last request submitted started being served
	// (the crash model's moment a write begins reaching the medium).
	lastStart               int64
	xferN, xferRate, xferNs int64 // n * 1e9 / rate of the last request
	// Requests and bytes served, for reports.
	Reads, Writes         int64
	ReadBytes, WriteBytes int64
	BusyNs                int64
}

func newDeviceQueue(d Device) *deviceQueue {
	return &deviceQueue{d: d, units: make([]int64, max(1, d.Parallelism)), head: -1}
}

// submit serves a request of n bytes at byte offset off made at time now and
// returns when it completes.
func (q *deviceQueue) submit(now, off, n int64, write bool) int64 {
	// The unit free soonest. Every request completes no earlier than the
	// one before it (done below is at least the bus's last completion), so
	// the units, taken in turn, are in order of their free times from the
	// one taken longest ago: it is the earliest (or level with it, which
	// changes no time).
	u := q.nextUnit
	if q.nextUnit++; q.nextUnit == len(q.units) {
		q.nextUnit = 0
	}
	start := max(now, q.units[u], q.nextIO)
	q.lastStart = start
	if q.d.IOPS > 0 {
		ios := int64(1)
		if q.d.MaxIOBytes > 0 {
			ios = pg.DivCeil(n, q.d.MaxIOBytes)
		}
		q.nextIO = start + ios*1_000_000_000/q.d.IOPS
	}
	access := q.d.AccessNs
	if off == q.head {
		access = q.d.SeqAccessNs
	}
	if q.d.RevolutionNs > 0 {
		access += q.positioning(start, off, write)
	}
	rate := q.d.BytesPerSec
	if write && q.d.WriteBytesPerSec > 0 {
		rate = q.d.WriteBytesPerSec
	}
	// The transfer time of the last size and rate asked (a replay's reads
	// are mostly one size: a division saved each).
	if n != q.xferN || rate != q.xferRate {
		q.xferN, q.xferRate, q.xferNs = n, rate, n*1_000_000_000/rate
	}
	xfer := q.xferNs
	done := max(start+access, q.bus) + xfer
	q.bus = done
	q.units[u] = done
	q.head, q.headFree = off+n, done
	q.BusyNs += done - start
	if write {
		q.Writes++
		q.WriteBytes += n
	} else {
		q.Reads++
		q.ReadBytes += n
	}
	return done
}

// positioning is a disk's seek plus rotational wait for a request at off
// starting at time start: none when it continues exactly where the previous
// request ended and starts as that one finished (the next sector is under
// the head); otherwise a seek growing with the square root of the distance
// and half a revolution on average. A write continuing where the last
// request ended, but later, waits for that sector to come round again: the
// platter turned (start − headFree) since the head was there, so the wait
// is the rest of a revolution — why a disk commits at most once a
// revolution (a read continuing is served from the drive's read-ahead, the
// half revolution kept for it).
func (q *deviceQueue) positioning(start, off int64, write bool) int64 {
	if off == q.head && start <= q.headFree {
		return 0
	}
	if write && off == q.head {
		return q.d.RevolutionNs - (start-q.headFree)%q.d.RevolutionNs
	}
	d := off - q.head
	if d < 0 {
		d = -d
	}
	seek := int64(0)
	if off != q.head {
		frac := float64(d) / float64(q.d.SpanBytes)
		if frac > 1 {
			frac = 1
		}
		seek = q.d.TrackToTrackNs + int64(float64(q.d.FullStrokeNs-q.d.TrackToTrackNs)*math.Sqrt(frac))
	}
	return seek + q.d.RevolutionNs/2
}
