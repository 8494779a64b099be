package storage

import (
	"math/rand/v2"
	"testing"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

func newStorage(t *testing.T, cacheBlocks int64, dev string, raKB int) *Storage {
	t.Helper()
	s, err := New(Config{CacheBlocks: cacheBlocks, Device: Devices[dev], ReadAheadKB: raKB})
	require.NoError(t, err)
	return s
}

// Sequential 8 kB reads from block 100 of a cold file, as a PostgreSQL 15
// seq scan issues them. Linux's on-demand readahead (in 4 kB pages, max 32
// with read_ahead_kb=128):
//   - read 100: no history, not block 0: a standalone read of its 2 pages → 1 block;
//   - read 101: starts where the last ended → initial window: get_init_ra_size(2, 32)
//     = 4 pages (2 ≤ 32/4 → ×2) = blocks 101–102, async 2 pages → mark on block 102;
//   - read 102 hits the mark: next window 8 pages (4 ≤ 16 → ×2) = blocks 103–106, mark on 103;
//   - read 103: 16 pages = 107–114; read 107: 32 pages (16 ≤ 16 → ×2) = 115–130;
//   - then 32 pages (the maximum) on reaching each window's first block:
//     read 115 → 131–146, read 131 → 147–162, read 147 → 163–178.
func TestReadaheadRamp(t *testing.T) {
	s := newStorage(t, 1<<20, "nvme", 128)
	var r Reader
	var sizes []int64
	now := int64(0)
	for b := 100; b < 150; b++ {
		before := s.dev.ReadBytes
		ready, _ := s.Read(now, &r, 1, pg.BlockNumber(b), 1)
		if d := s.dev.ReadBytes - before; d > 0 {
			sizes = append(sizes, d/pg.BLCKSZ)
		}
		now = ready + 4000
	}
	require.Equal(t, []int64{1, 2, 4, 8, 16, 16, 16, 16}, sizes)
	require.Equal(t, int64(50), s.Stats.CacheHits+s.Stats.CacheMisses)
	require.Equal(t, int64(2), s.Stats.CacheMisses, "only blocks 100 and 101 are asked of the device; readahead brings the rest")
}

// Random reads get no readahead: one 8 kB request each.
func TestRandomReadsNoReadahead(t *testing.T) {
	s := newStorage(t, 1<<20, "nvme", 128)
	var r Reader
	now := int64(0)
	for i, b := range []int{900, 17, 5000, 233, 4100, 60, 3001} {
		ready, missed := s.Read(now, &r, 1, pg.BlockNumber(b), 1)
		require.Equal(t, 1, missed, "read %d", i)
		now = ready
	}
	require.Equal(t, int64(7), s.dev.Reads)
	require.Equal(t, int64(7), s.Stats.DeviceBlocks)
}

// read_ahead_kb=0: sequential reads too go one by one.
func TestReadaheadOff(t *testing.T) {
	s := newStorage(t, 1<<20, "nvme", 0)
	var r Reader
	now := int64(0)
	for b := 0; b < 20; b++ {
		now, _ = s.Read(now, &r, 1, pg.BlockNumber(b), 1)
	}
	require.Equal(t, int64(20), s.dev.Reads)
}

// The two lists with 4 blocks of cache: A is read twice (the second access
// moves it to the active list), B, C, D once. Reading E and F reclaims from
// the inactive tail — B, then C — while A survives; the lists stay balanced
// (inactive 3 ≥ active 1).
func TestActiveInactiveLists(t *testing.T) {
	s := newStorage(t, 4, "nvme", 0)
	var r Reader
	read := func(b int) { s.Read(0, &r, 1, pg.BlockNumber(b), 1) }
	for _, b := range []int{10, 20, 30, 40, 10, 50, 60} {
		read(b)
	}
	for b, want := range map[int]bool{10: true, 20: false, 30: false, 40: true, 50: true, 60: true} {
		require.Equal(t, want, s.IsCached(1, pg.BlockNumber(b)), "block %d", b)
	}
	in, act := s.Cached()
	require.Equal(t, [2]int{3, 1}, [2]int{in, act})
	require.Equal(t, int64(2), s.Stats.Reclaimed)
}

// Writes dirty pages; drop_caches keeps them; fsync writes contiguous dirty
// blocks as one request each and cleans them, after which they can be dropped.
func TestWriteSyncDrop(t *testing.T) {
	s := newStorage(t, 1<<20, "nvme", 128)
	for _, b := range []int{0, 1, 2, 3, 10, 11} {
		s.Write(0, 1, pg.BlockNumber(b))
	}
	require.Equal(t, 0, s.DropCaches(0), "dirty pages are not dropped")
	done := s.Sync(0, 1)
	require.Equal(t, int64(2), s.dev.Writes, "blocks 0–3 and 10–11: two runs")
	require.Equal(t, int64(6), s.Stats.WrittenBack)
	// Two requests in parallel units, their transfers serialised:
	// 72.3 µs access, then 4 + 2 blocks at 2.4 GB/s (13.65 + 6.83 µs).
	require.InDelta(t, 72_300+32768*1e9/2.4e9+16384*1e9/2.4e9, float64(done), 2)
	require.Equal(t, 6, s.DropCaches(done))
	in, act := s.Cached()
	require.Equal(t, 0, in+act)
}

// fio --rw=randread --bs=8k --direct=1 --iodepth=1 on seed 003's NVMe (the
// README's "Below shared buffers"): 13.2k IOPS, mean completion 75.7 µs. With no page cache (direct
// I/O) each read is the device's access (72.3 µs) plus 8 kB at 2.4 GB/s
// (3.4 µs) = 75.7 µs; one at a time, 1 s / 75.7 µs = 13.2k a second.
func TestF003_5(t *testing.T) {
	s := newStorage(t, 0, "nvme", 128)
	var r Reader
	now, n := int64(0), 2000
	x := uint64(12345)
	for range n {
		x = x*6364136223846793005 + 1442695040888963407
		blk := pg.BlockNumber((x >> 33) % (1 << 17)) // a 1 GB file
		now, _ = s.Read(now, &r, 1, blk, 1)
	}
	mean := float64(now) / float64(n)
	require.InEpsilon(t, 75_700, mean, 0.15)
	require.InEpsilon(t, 13_200, 1e9/mean, 0.15)
}

// Disk geometry: reading a run in order costs one positioning and then
// transfers only; the same blocks in a scattered order pay a seek and half
// a revolution (4.17 ms) each.
func TestHDDSequentialVsRandom(t *testing.T) {
	seq := newStorage(t, 0, "hdd", 0)
	rnd := newStorage(t, 0, "hdd", 0)
	var r1, r2 Reader
	t1, t2 := int64(0), int64(0)
	for i := range 64 {
		t1, _ = seq.Read(t1, &r1, 1, pg.BlockNumber(i), 1)
		t2, _ = rnd.Read(t2, &r2, 1, pg.BlockNumber((i*37)%64*100), 1)
	}
	// In order: the first read positions the head (a seek + half a
	// revolution); each next one continues where the head is (SeqAccessNs
	// is 0 for a disk): 8 kB at 180 MB/s = 45.5 µs each.
	d := Devices["hdd"]
	perSeq := float64(pg.BLCKSZ) * 1e9 / float64(d.BytesPerSec)
	require.Less(t, float64(t1), float64(d.FullStrokeNs+d.RevolutionNs)+64*perSeq)
	require.Greater(t, float64(t2)/64, float64(d.TrackToTrackNs+d.RevolutionNs/2))
}

// A cloud volume's IOPS cap: 300 reads issued at once complete no faster
// than 300 / 3,000 IOPS = 100 ms, though 64 could run in parallel.
func TestCloudIOPSCap(t *testing.T) {
	s := newStorage(t, 0, "cloud-ebs", 0)
	var last int64
	for i := range 300 {
		var r Reader
		done, _ := s.Read(0, &r, 1, pg.BlockNumber(i*1000), 1)
		last = max(last, done)
	}
	require.GreaterOrEqual(t, last, int64(100_000_000))
	require.Less(t, last, int64(101_000_000))
}

func TestConfigErrors(t *testing.T) {
	_, err := New(Config{CacheBlocks: 10, Device: Devices["nvme"], ReadAheadKB: 6})
	require.EqualError(t, err, "read_ahead_kb=6: must be a multiple of 4 (kB pages) from 0 to 65536")
	_, err = New(Config{CacheBlocks: -1, Device: Devices["nvme"], ReadAheadKB: 128})
	require.EqualError(t, err, "os_cache=-8: must not be negative")
	_, err = LookupDevice("floppy")
	require.EqualError(t, err, `unknown device profile "floppy" (known: cloud-ebs, hdd, nvme, sata-ssd)`)
}

// checkCache verifies the lists and the index agree: every listed page is
// indexed under its block and knows its place in its list's log, the counts
// match the lists, nothing is listed twice, the tail is a page.
func checkCache(t *testing.T, s *Storage) {
	t.Helper()
	c := s.cache
	seen := map[int32]bool{}
	for list := range c.lists {
		l := &c.lists[list]
		n, zeros := 0, 0
		for i, p := range l.log {
			if p == 0 {
				zeros++
				continue
			}
			require.GreaterOrEqual(t, i, l.start, "page %d before the tail", p)
			require.False(t, seen[p], "page %d listed twice", p)
			seen[p] = true
			require.Equal(t, uint8(list), c.nodes[p].list)
			require.Equal(t, int32(i), c.nodes[p].pos)
			require.Equal(t, p, c.lookup(c.nodes[p].file, c.nodes[p].blk))
			n++
		}
		require.Equal(t, l.n, n)
		require.Equal(t, l.start+l.dead, zeros)
		if l.start < len(l.log) {
			require.NotZero(t, l.log[l.start], "the tail is a page")
		}
	}
	require.LessOrEqual(t, c.size(), max(c.capacity, 0))
	// The dirty counts, per file and per index leaf, are the dirty pages'.
	for f := range c.files {
		fi := &c.files[f]
		total := int32(0)
		for l, leaf := range fi.leaves {
			n := int32(0)
			for _, p := range leaf {
				if p != 0 && c.nodes[p].flags&flagDirty != 0 {
					n++
				}
			}
			require.Equal(t, n, fi.dirty[l], "file %d leaf %d", f, l)
			total += n
		}
		require.Equal(t, total, c.dirty[f], "file %d", f)
	}
}

// Caches smaller than a readahead window: the mark of a window can be
// reclaimed before the reader reaches it, and the read must still find its
// page (filemap_create_folio). Sequential and mixed reads, writes, syncs and
// drops keep the lists and the index consistent.
func TestTinyCacheConsistency(t *testing.T) {
	for _, capacity := range []int64{1, 2, 3, 7, 32} {
		s := newStorage(t, capacity, "nvme", 128)
		var r Reader
		now := int64(0)
		x := uint64(capacity)
		for i := range 3000 {
			x = x*6364136223846793005 + 1442695040888963407
			blk := pg.BlockNumber(i % 200)
			if x>>60 < 4 {
				blk = pg.BlockNumber(x >> 40 % 500)
			}
			switch x >> 56 % 8 {
			case 0:
				s.Write(now, 1, blk)
			case 1:
				now = s.Sync(now, 1)
			case 2:
				if i%50 == 0 {
					s.DropCaches(now)
				}
			default:
				ready, _ := s.Read(now, &r, 1, blk, 1+int(x>>50%3))
				require.GreaterOrEqual(t, ready, now)
				now = ready
			}
			checkCache(t, s)
		}
	}
}

// Queue depth: the NVMe profile serves 8 requests at once, each taking its
// 72.3 µs access in parallel and its 3.4 µs transfer in turn. 8 random reads
// issued together complete by 72.3 + 8 × 3.4 = 99.6 µs; 16 need a second
// round: the 9th starts when the first unit frees at 75.7 µs, so the last
// completes near 75.7 + 72.3 + 8 × 3.4 ≈ 175 µs — about twice, not 16 ×
// 75.7 µs as one at a time.
func TestDeviceQueueDepth(t *testing.T) {
	last := func(n int) int64 {
		s := newStorage(t, 0, "nvme", 0)
		var done int64
		for i := range n {
			var r Reader
			d, _ := s.Read(0, &r, 1, pg.BlockNumber(i*997), 1)
			done = max(done, d)
		}
		return done
	}
	xfer := float64(pg.BLCKSZ) * 1e9 / 2.4e9
	require.InDelta(t, 72_300+8*xfer, float64(last(8)), 10)
	require.InDelta(t, 72_300+xfer+72_300+8*xfer, float64(last(16)), 0.02*175_000)
	require.Less(t, float64(last(16)), 0.2*16*75_700)
}

// SyncWAL: a WAL segment's 16 MB go to the NVMe profile in 128 requests of
// 128 kB (DefaultMaxRequestKB), sequential from the second on: the first
// pays the random access (72.3 µs), each moves 131,072 B at 2.4 GB/s
// (54,613 ns) over the shared path, so the last completes at 72,300 +
// 128 × 54,613 = 7,062,764 ns; the cache flush adds FlushNs (1 ms). A later
// sync continues where the last ended: 15 µs of sequential access, 8,192 B
// in 3,413 ns, and the flush.
func TestSyncWAL(t *testing.T) {
	s := newStorage(t, 1024, "nvme", DefaultReadAheadKB)
	require.EqualValues(t, 7_062_764+1_000_000, s.SyncWAL(0, 16<<20))
	require.EqualValues(t, 1_000_000_000+15_000+3_413+1_000_000, s.SyncWAL(1_000_000_000, 8192))
	_, writes, _, wbytes := s.DeviceStats()
	require.EqualValues(t, 129, writes)
	require.EqualValues(t, 16<<20+8192, wbytes)
}

// A disk commits once a revolution: each WAL fdatasync writes the next
// 8 kB where the last one ended, but by then that sector has passed under
// the head, so the write waits for it to come round (the rest of the
// revolution since the last write ended) and the flush adds nothing. Ten
// commits 10 µs apart after the first: each next one completes one
// revolution (8.333 ms) plus its 45.5 µs of transfer after the last —
// about 120 commits a second, what a 7,200 rpm disk gives a single
// synchronous client.
func TestHDDCommitsOncePerRevolution(t *testing.T) {
	s := newStorage(t, 0, "hdd", 0)
	d := Devices["hdd"]
	xfer := int64(pg.BLCKSZ) * 1_000_000_000 / d.BytesPerSec
	prev := s.SyncWAL(0, pg.BLCKSZ)
	for range 10 {
		done := s.SyncWAL(prev+10_000, pg.BLCKSZ)
		require.Equal(t, prev+d.RevolutionNs+xfer, done)
		prev = done
	}
}

// TestLRUListIsALinkedList: the log form of an LRU list gives the order a
// doubly linked list does (pages added at the head only, unlinked from
// anywhere) through random adds and unlinks, with compactions between: the
// tail and the walk from the tail match a plain slice kept in that order.
func TestLRUListIsALinkedList(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	c := newPageCache(0)
	const pages = 3000
	c.nodes = make([]page, pages+1)
	var ref []int32 // tail first
	in := map[int32]bool{}
	for step := 0; step < 200000; step++ {
		if n := int32(1 + r.IntN(pages)); !in[n] && r.IntN(3) > 0 {
			c.pushHead(n, inactive)
			ref = append(ref, n)
			in[n] = true
		} else if len(ref) > 0 {
			// unlink: the tail half the time, else anywhere
			i := 0
			if r.IntN(2) == 0 {
				i = r.IntN(len(ref))
			}
			n := ref[i]
			c.unlink(n)
			ref = append(ref[:i], ref[i+1:]...)
			delete(in, n)
		}
		l := &c.lists[inactive]
		want := int32(0)
		if len(ref) > 0 {
			want = ref[0]
		}
		require.Equal(t, want, l.tail(), "step %d", step)
		require.Equal(t, len(ref), l.n)
		if step%997 == 0 {
			var walk []int32
			for _, n := range l.log[l.start:] {
				if n != 0 {
					walk = append(walk, n)
				}
			}
			require.Equal(t, append([]int32(nil), ref...), walk, "step %d", step)
		}
	}
	require.LessOrEqual(t, cap(c.lists[inactive].log), 8*pages, "the log is compacted")
}

// TestDeviceUnitTakenInTurn: the unit a request takes in turn is always one
// free soonest (what a search of every unit finds, or level with it), on
// every profile, through random requests — reads and writes, sequential and
// not, at times that go backwards as processes' clocks do.
func TestDeviceUnitTakenInTurn(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for _, name := range DeviceNames() {
		q := newDeviceQueue(Devices[name])
		now := int64(0)
		for i := 0; i < 20000; i++ {
			soonest := q.units[0]
			for _, u := range q.units {
				soonest = min(soonest, u)
			}
			require.Equal(t, soonest, q.units[q.nextUnit], "%s request %d", name, i)
			now += int64(r.IntN(200_000)) - 60_000
			off := int64(r.IntN(1<<20)) * pg.BLCKSZ
			if r.IntN(3) == 0 {
				off = q.head
			}
			q.submit(max(now, 0), off, int64(1+r.IntN(16))*pg.BLCKSZ, r.IntN(4) == 0)
		}
	}
}
