package cluster_test

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/cluster"
	"github.com/stretchr/testify/require"
)

// cachedScan is a checksummed count(*) of an all-frozen table of pages
// pages from the OS page cache (the pool emptied by a restart, no parallel
// workers), as the servers were measured: its execution time and the CPU
// time the host's cores ran (0 without host_cpus).
func cachedScan(t *testing.T, ioMethod string, cpus *int, pages int64) (timeNs, workNs int64) {
	t.Helper()
	return cachedScanOn(t, cluster.Options{SharedBuffers: "128MB", IOMethod: ioMethod, HostCPUs: cpus}, pages)
}

// cachedScanOn is cachedScan with o's pool, I/O method, cores and wake-up.
func cachedScanOn(t *testing.T, o cluster.Options, pages int64) (timeNs, workNs int64) {
	t.Helper()
	o.DataChecksums, o.MaxParallelWorkersPerGather, o.Settings = cluster.Bool(true), cluster.Int(0), []cluster.Setting{{"autovacuum", "off"}}
	c, err := cluster.Open(o)
	require.NoError(t, err)
	_, err = c.CreateTable(cluster.TableSpec{Name: "big", Rows: pages * 4, TupleBytes: 1832, Autovacuum: cluster.Bool(false)})
	require.NoError(t, err)
	_, err = c.Insert("big", 0)
	require.NoError(t, err)
	_, err = c.Vacuum("big", true)
	require.NoError(t, err)
	_, err = c.Checkpoint()
	require.NoError(t, err)
	require.NoError(t, c.Restart())
	before := c.Pool().IO().Cores().Work()
	res, err := c.Scan("big")
	require.NoError(t, err)
	require.EqualValues(t, pages, res.Buf.Read)
	require.Zero(t, res.Workers)
	return res.TimeNs, c.Pool().IO().Cores().Work() - before
}

// TestHostCPUsUnlimited: host_cpus=0 is the model without a core pool, and
// a pool with more cores than processes (a backend and 18's 3 I/O workers
// on 64) never makes a burst wait, so both give exactly the times of a
// cluster that does not name the setting.
func TestHostCPUsUnlimited(t *testing.T) {
	for _, m := range []string{"sync", "worker"} {
		want, _ := cachedScan(t, m, nil, 2000)
		for _, n := range []int{0, 64} {
			got, _ := cachedScan(t, m, cluster.Int(n), 2000)
			require.Equal(t, want, got, "io_method=%s host_cpus=%d", m, n)
		}
	}
}

// TestHostCPUsWorkerScan: with data checksums, io_method=worker moves each
// read's CPU (the preadv of 16 blocks and their copies, 4 + 15 × 1.9 µs,
// and 16 checksums of 2 µs: 64.5 µs, 4.03 µs a page) from the backend to
// the I/O workers, leaving the backend its 1.6 µs a page (a pin 0.2, the
// page 1, 4 all-visible tuples 0.4). With a core each (host_cpus=0) the
// three workers keep ahead of the backend (64.5 / 3 = 21.5 µs for 16
// pages against its 25.6): 1.6 µs a page against sync's 5.63, 3.5× faster. On the host's cores the same CPU has to be run: the
// scan cannot end before its work over the cores — host_cpus=2: half of
// sync's 5.63 µs a page, a ratio of at most 2; host_cpus=1: no faster than
// sync. Idle gaps (a read placed on a core ahead of the backend's page
// steps, bursts not preempted) add at most a few per cent over that bound.
func TestHostCPUsWorkerScan(t *testing.T) {
	const pages = 12000
	// Each figure is the scan of 12,000 pages less the scan of 6,000 (both
	// through the ring): what 6,000 pages add, without the statement's
	// start (the session's catalog reads after the restart, parse and
	// plan), which runs outside the scan's page loop.
	scan := func(m string, cpus *int) (ns, work int64) {
		ns, work = cachedScan(t, m, cpus, pages)
		halfNs, halfWork := cachedScan(t, m, cpus, pages/2)
		return ns - halfNs, work - halfWork
	}
	// Sync: all of it is the backend's CPU (the data is in the page cache:
	// no device time), 5.63 µs a page.
	syncNs, syncWork := scan("sync", cluster.Int(2))
	require.InDelta(t, float64(pages/2)*(1600+4031.25), float64(syncWork), 1000)
	require.InDelta(t, float64(syncWork), float64(syncNs), 1000)
	free, _ := scan("worker", nil)
	require.InDelta(t, float64(pages/2)*1600, float64(free), 0.01*float64(free), "a core each: the backend's 1.6 µs a page")
	for _, k := range []int{1, 2} {
		ns, work := scan("worker", cluster.Int(k))
		// The same CPU work as sync's, now over k cores.
		require.InDelta(t, float64(syncWork), float64(work), 1000, "host_cpus=%d", k)
		bound := work / int64(k)
		require.GreaterOrEqual(t, ns, bound, "host_cpus=%d", k)
		require.LessOrEqual(t, ns, bound*106/100, "host_cpus=%d: %d ns against the bound %d", k, ns, bound)
		t.Logf("host_cpus=%d: 6,000 pages add %.2f ms with io_method=worker, %.2f with sync: sync/worker %.2f (a core each: %.2f)", k, float64(ns)/1e6, float64(syncNs)/1e6, float64(syncNs)/float64(ns), float64(syncNs)/float64(free))
	}
}

// TestHostCPUsParallelStart: a one-worker parallel scan of 4,000 pages in
// shared buffers (all-frozen: 1.6 µs a page, no I/O). On 2 cores the
// worker's start-up (WorkerStartNs, 3 ms: the fork and ParallelWorkerMain)
// runs beside the leader, which scans 1,875 pages alone meanwhile, and the
// two share the other 2,125 as with a core each. On 1 core nothing
// overlaps: the start-up takes the core first, then the leader's and the
// worker's pages share it (a time slice each in turn, host_sched_slice's
// 0.7 ms: the scheduler never leaves the core idle while one is runnable),
// so the scan takes the serial scan's time plus the start-up, 3 ms,
// exactly (the catalog pins left out: catalog_pins=off).
func TestHostCPUsParallelStart(t *testing.T) {
	scan := func(cpus, workers int) int64 {
		c, err := cluster.Open(cluster.Options{SharedBuffers: "128MB", HostCPUs: cluster.Int(cpus), CatalogPins: cluster.Bool(false),
			MaxParallelWorkersPerGather: cluster.Int(workers),
			Settings:                    []cluster.Setting{{"autovacuum", "off"}, {"parallel_setup_cost", "0"}, {"parallel_tuple_cost", "0"}, {"min_parallel_table_scan_size", "0"}}})
		require.NoError(t, err)
		_, err = c.CreateTable(cluster.TableSpec{Name: "pt", Rows: 16000, TupleBytes: 1832, Autovacuum: cluster.Bool(false)})
		require.NoError(t, err)
		_, err = c.Insert("pt", 0)
		require.NoError(t, err)
		_, err = c.Vacuum("pt", true)
		require.NoError(t, err)
		_, err = c.Scan("pt")
		require.NoError(t, err)
		res, err := c.Scan("pt")
		require.NoError(t, err)
		require.EqualValues(t, 4000, res.Buf.Hit)
		require.Equal(t, workers, res.Workers)
		return res.TimeNs
	}
	start := cluster.Costs().WorkerStartNs
	serial := scan(1, 0)
	require.Equal(t, serial+start, scan(1, 1))
	unlimited := scan(0, 1)
	require.Equal(t, unlimited, scan(2, 1))
	t.Logf("serial %.3f ms, one worker on 1 core %.3f, on 2 or more %.3f", float64(serial)/1e6, float64(serial+start)/1e6, float64(unlimited)/1e6)
}

// TestHostWakeup: host_wakeup prices the hand-offs of an io_method=worker
// scan where a process sleeps and is woken onto an idle core: the server
// measured here (a serial scan of 4,851 cached pages in a 32MB pool) takes
// 13.1–13.7 ms pinned to one CPU and 28–38 ms on two. On one core none is
// idle when a process is woken — the I/O worker runs when the backend
// blocks, on the core it frees, and the backend when the worker's read
// ends there — so the time is the same with and without it. In a 32MB
// pool the read stream pins at most 23 buffers (GetPinLimit, 4,096 shared
// among the processes: `show settings` prints it), under two 16-block
// reads, so the backend waits for every read: on two cores each read
// wakes its worker on the other, idle core and then the backend asleep in
// WaitReadBuffers, close to two wake-ups a read (304 for the table; the
// session's catalog reads after the restart are hand-offs too, a few
// dozen). In a 128MB pool the stream pins the ring's 32, two reads in
// flight, so the workers' core is kept busy and few are paid.
func TestHostWakeup(t *testing.T) {
	const pages, wake, reads = 4851, 50_000, (4851 + 15) / 16
	scan := func(pool string, cpus int, wakeup string) int64 {
		ns, _ := cachedScanOn(t, cluster.Options{SharedBuffers: pool, HostCPUs: cluster.Int(cpus), HostWakeup: wakeup}, pages)
		return ns
	}
	require.Equal(t, scan("32MB", 1, ""), scan("32MB", 1, "0.05ms"))
	two0, two := scan("32MB", 2, ""), scan("32MB", 2, "0.05ms")
	extra := two - two0
	require.GreaterOrEqual(t, extra, int64(3*wake*reads/2))
	require.LessOrEqual(t, extra, int64(2*wake*(reads+40)))
	big0, big := scan("128MB", 2, ""), scan("128MB", 2, "0.05ms")
	require.Less(t, big-big0, extra/10)
	t.Logf("4,851 cached pages, io_method=worker, 2 cores: 32MB pool %.2f ms, with a wake-up of 50 µs %.2f (%.2f a read); 128MB %.2f and %.2f", float64(two0)/1e6, float64(two)/1e6, float64(extra)/wake/reads, float64(big0)/1e6, float64(big)/1e6)

	c, err := cluster.Open(cluster.Options{SharedBuffers: "1MB", HostCPUs: cluster.Int(2), HostWakeup: "0.05ms"})
	require.NoError(t, err)
	require.EqualValues(t, wake, c.Pool().IO().Cores().Wakeup())
	_, err = cluster.Open(cluster.Options{HostCPUs: cluster.Int(2), HostWakeup: "11ms"})
	require.ErrorContains(t, err, "host_wakeup=11ms: outside the allowed range")
}

// TestOptionsHostCPUs: host_cpus as a typed option reaches the pool's
// cores; unset it is 0, no pool; outside 0–1024 it is refused with the
// setting and its range.
func TestOptionsHostCPUs(t *testing.T) {
	c, err := cluster.Open(cluster.Options{SharedBuffers: "1MB", HostCPUs: cluster.Int(2)})
	require.NoError(t, err)
	require.Equal(t, "2", c.S.Format("host_cpus"))
	require.Equal(t, 2, c.Pool().IO().Cores().Cores())
	def, err := cluster.Open(cluster.Options{SharedBuffers: "1MB"})
	require.NoError(t, err)
	require.Nil(t, def.Pool().IO().Cores())
	_, err = cluster.Open(cluster.Options{HostCPUs: cluster.Int(1025)})
	require.ErrorContains(t, err, "host_cpus=1025: outside the allowed range 0..1024")
}
