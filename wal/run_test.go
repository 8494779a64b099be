package wal

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/internal/rng"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

// TestInsertRunEqualsLoop drives two copies of a randomly prepared WAL —
// random wal_buffers and costs, a random history of records of random
// sizes, flushes and WAL writer rounds (so the write pointer sits anywhere
// relative to the insert position and buffers-full writes are near), WAL
// checkpoint requests armed — through the same run of identical records:
// one record at a time with Insert (the reference), and with InsertRun,
// falling back to Insert where the run stops. Every field of the WAL, the
// usage counters, the time, the last LSN and the checkpoint requests must
// be the same.
func TestInsertRunEqualsLoop(t *testing.T) {
	r := rng.New(20261201)
	pick := func(xs ...int64) int64 { return xs[r.Uint64n(uint64(len(xs)))] }
	runs, partial, exhausted := 0, 0, 0
	for i := 0; i < 3000; i++ {
		cfg := Config{Version: 18, WalBuffers: int(pick(4, 5, 8, 64, 512, 65536)), Costs: Costs{
			InsertNs: pick(0, 150, 333), CopyPsPerByte: pick(0, 10, 77), WriteCallNs: pick(0, 4000), WritePageNs: pick(0, 900),
			FsyncNs: pick(0, 1e6), WriterDelayNs: 200e6, WriterFlushAft: pick(0, 128)}}
		var ref, got *WAL
		var reqRef, reqGot []int64
		segs := int(pick(1, 3, 1000))
		for k, wp := range []**WAL{&ref, &got} {
			w, err := New(cfg)
			require.NoError(t, err)
			req := &reqRef
			if k == 1 {
				req = &reqGot
			}
			w.SetCheckpointSegments(segs, func(at int64) { *req = append(*req, at) })
			*wp = w
		}
		if r.Uint64n(16) == 0 { // near the end of the 64-bit address space: Insert's ErrWALExhausted
			pos := maxBytePos - r.Uint64n(200000)
			for _, w := range []*WAL{ref, got} {
				w.currBytePos = pos
				w.write, w.flush, w.rqstWrite = w.InsertLSN(), w.InsertLSN(), w.InsertLSN()
				w.initPage = uint64(w.InsertLSN()) / pg.XLogBlcksz
			}
		}
		// The same random history on both (the same draws replayed).
		hist := r.Uint64n(1 << 62)
		var now int64
		var uRef, uGot Usage
		for k, w := range []*WAL{ref, got} {
			h := rng.New(hist)
			u := &uRef
			if k == 1 {
				u = &uGot
			}
			tm := int64(0)
			for j := int(h.Uint64n(300)); j > 0; j-- {
				switch h.Uint64n(8) {
				case 0:
					tm = w.Flush(tm, u, w.insertEnd())
				case 1:
					_, tm = w.BackgroundFlush(tm, u)
				default:
					_, tm = w.Insert(tm, u, 1+int(h.Uint64n(20000)), 0)
				}
			}
			now = tm
		}
		recLen := int(pick(30, 61, 1863, 4000, 8137, 8192, 9000, 30000, 1+int64(r.Uint64n(20000))))
		limit := 1 + int64(r.Uint64n(400))
		before, after := pick(0, 17, 250), pick(0, 1000, 3)
		deadline := now + pick(0, 1, 5000, 1e6, 1e9, 1<<62)

		nowRef, nowGot := now, now
		var lsnRef, lsnGot pg.LSN
		for n := int64(0); n < limit && nowRef < deadline; n++ {
			nowRef += before
			lsnRef, nowRef = ref.Insert(nowRef, &uRef, recLen, 0)
			nowRef += after
		}
		for n := int64(0); n < limit && nowGot < deadline; {
			k, lsn, tm := got.InsertRun(nowGot, &uGot, recLen, limit-n, before, after, deadline)
			if k > 0 {
				n, lsnGot, nowGot = n+k, lsn, tm
				runs++
				continue
			}
			partial++
			nowGot += before
			lsnGot, nowGot = got.Insert(nowGot, &uGot, recLen, 0)
			nowGot += after
			n++
		}
		require.Equal(t, nowRef, nowGot, "case %d", i)
		require.Equal(t, lsnRef, lsnGot, "case %d", i)
		require.Equal(t, uRef, uGot, "case %d", i)
		require.Equal(t, reqRef, reqGot, "case %d", i)
		require.Equal(t, ref.Err(), got.Err(), "case %d", i)
		if ref.Err() != nil {
			exhausted++
		}
		ref.onCkptNeeded, got.onCkptNeeded = nil, nil
		require.Equal(t, *ref, *got, "case %d", i)
	}
	// Both paths were exercised: whole runs, single records where a run
	// stopped, and the log's end.
	require.Greater(t, runs, 1000)
	require.Greater(t, partial, 100)
	require.Greater(t, exhausted, 20)
}
