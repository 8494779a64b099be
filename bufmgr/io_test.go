package bufmgr

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/storage"
	"github.com/stretchr/testify/require"
)

// TestIOWorkerPoolGrows: PostgreSQL 19's I/O worker pool, with a flat
// storage (the data in memory: a read costs its 4 µs system call). Two
// workers to start, at most four, one launch per 100 µs, a new worker ready
// 3 µs after the request, idle workers above two retiring after 1 ms.
// Six reads submitted at time 0:
//
//	r1, r2 take workers 0 and 1 at once (done at 4 µs);
//	r3, r4 wait for them (start 4 µs, done 8 µs): 1, then 2 waiting — not
//	  more than the 2 workers;
//	r5 would wait until 8 µs with 3 waiting > 2 workers: a third worker is
//	  launched (ready at 3 µs) and takes it: done at 7 µs;
//	r6 waits too (4 waiting > 3 workers), but the launch interval has not
//	  passed: it goes to worker 2 at 7 µs, done at 11 µs.
//
// At 200 µs worker 2 has idled 189 µs (< 1 ms): the pool keeps 3; at 2 ms it
// has idled beyond the timeout and retires.
func TestIOWorkerPoolGrows(t *testing.T) {
	m := newIOModel(Config{IOWorkers: 2, Costs: Costs{ReadCallNs: 4000, ReadPageNs: 500},
		IOPool: IOWorkerPool{Min: 2, Max: 4, LaunchIntervalNs: 100_000, IdleTimeoutNs: 1_000_000, StartNs: 3000}}, storage.NewFlat())
	var done []int64
	for i := 0; i < 6; i++ {
		d, _ := m.StartAsync(0, pg.BufferTag{Rel: 1, Block: pg.BlockNumber(i)}, 1)
		done = append(done, d)
	}
	require.Equal(t, []int64{4000, 4000, 8000, 8000, 7000, 11000}, done)
	require.Equal(t, 3, m.Workers())
	d, _ := m.StartAsync(200_000, pg.BufferTag{Rel: 1, Block: 7}, 1)
	require.Equal(t, int64(204_000), d)
	require.Equal(t, 3, m.Workers())
	m.StartAsync(2_000_000, pg.BufferTag{Rel: 1, Block: 8}, 1)
	require.Equal(t, 2, m.Workers())

	// 18's pool (Max 0) stays at io_workers however deep the queue.
	m18 := newIOModel(Config{IOWorkers: 2, Costs: Costs{ReadCallNs: 4000}}, storage.NewFlat())
	for i := 0; i < 6; i++ {
		m18.StartAsync(0, pg.BufferTag{Rel: 1, Block: pg.BlockNumber(i)}, 1)
	}
	require.Equal(t, 2, m18.Workers())
}

// TestReadVerifiesChecksums: with data_checksums every page read is
// verified (PageIsVerified → pg_checksum_page), by whichever process
// performs the read. Flat storage, 4 µs a call, 0.5 µs a further block, 2 µs
// a checksum; a 16-block read:
//
//	without checksums: 4 + 15 × 0.5 = 11.5 µs;
//	with them: 11.5 + 16 × 2 = 43.5 µs.
//
// Synchronously (15–17, io_method=sync) the backend's clock takes it; with
// io_method=worker the I/O worker does (the read completes 32 µs later) and
// the submitting backend's clock is not charged.
func TestReadVerifiesChecksums(t *testing.T) {
	costs := Costs{ReadCallNs: 4000, ReadPageNs: 500, ChecksumNs: 2000}
	tag := pg.BufferTag{Rel: 1, Block: 0}
	for _, c := range []struct {
		checksums bool
		want      int64
	}{{false, 11_500}, {true, 43_500}} {
		m := newIOModel(Config{Checksums: c.checksums, Costs: costs}, storage.NewFlat())
		be := NewBackend(ClientBackend, 0)
		require.Equal(t, c.want, m.SyncRead(be, tag, 16), "sync, checksums=%v", c.checksums)
		require.Equal(t, int64(0), be.Now, "SyncRead returns the new time; the caller sets it")

		w := newIOModel(Config{Checksums: c.checksums, IOWorkers: 1, Costs: costs}, storage.NewFlat())
		d, _ := w.StartAsync(0, tag, 16)
		require.Equal(t, c.want, d, "worker, checksums=%v", c.checksums)
	}
}
