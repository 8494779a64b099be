package bench

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sync"
	"syscall"
	"testing"

	"github.com/pgbufsim/pgbufsim/cluster"
	"github.com/pgbufsim/pgbufsim/replay"
	"github.com/pgbufsim/pgbufsim/trace"
)

// replayFiles holds the replay benchmarks' traces as oracleGeneral files in
// memory, by name.
var replayFiles sync.Map

// replayFile is a trace of the shapes the issue measures replay on, as
// oracleGeneral bytes: zipf is Zipf 0.99 over 4,194,304 object ids (about
// 1.3M of them touched in 4M requests), uniform every one of 8,388,608 ids
// equally likely (every pool here evicts steadily); zipf-hashed is zipf with
// each id spread over 64 bits, as public traces hash theirs (the replay
// numbers them densely first).
func replayFile(b *testing.B, kind string, requests int) []byte {
	key := fmt.Sprintf("%s/%d", kind, requests)
	if raw, ok := replayFiles.Load(key); ok {
		return raw.([]byte)
	}
	w := Workload{Kind: kind, Requests: requests, Blocks: 1 << 22, Seed: 1}
	hashed := kind == "zipf-hashed"
	if hashed {
		w.Kind = "zipf"
	}
	if kind == "uniform" {
		w.Blocks = 1 << 23
	}
	g, err := NewGenerator(w)
	if err != nil {
		b.Fatal(err)
	}
	raw := make([]byte, requests*trace.RecordSize)
	for i := 0; i < requests; i++ {
		r := raw[i*trace.RecordSize:]
		binary.LittleEndian.PutUint32(r, uint32(i))
		id := g.Next()
		if hashed { // 64-bit ids, as public traces hash them: the replay renumbers them
			id = (id + 1) * 0x9E3779B97F4A7C15
		}
		binary.LittleEndian.PutUint64(r[4:], id)
		binary.LittleEndian.PutUint32(r[12:], 8192)
		binary.LittleEndian.PutUint64(r[16:], ^uint64(0))
	}
	replayFiles.Store(key, raw)
	return raw
}

// BenchmarkReplay is trace replay as a user runs it, one op a whole trace of
// 4,000,000 requests read from an oracleGeneral file (in memory here):
// "sim" is package replay on a fresh cluster (PostgreSQL 18, the page cache
// model at its default 16GB, every access ReadBuffer + ReleaseBuffer with
// pg_stat_io kept), "naive" the open-addressing clock sweep of
// BenchmarkAccessNaive decoding the same bytes — the floor issue 17 measures
// against. 16,384 buffers (128MB) and 4,194,304 (32GB). The cluster's start
// (allocating the pool) is part of "sim", as it is of a user's run. cpu-ms/op
// is the process's CPU time (user + system, getrusage) per op: on a shared
// machine it varies far less than the wall clock.
func BenchmarkReplay(b *testing.B) {
	const requests = 4_000_000
	for _, kind := range []string{"zipf", "zipf-hashed", "uniform"} {
		for _, nbuf := range []int{16384, 4194304} {
			for _, impl := range []string{"sim", "naive"} {
				b.Run(fmt.Sprintf("%s/buffers=%d/%s", kind, nbuf, impl), func(b *testing.B) {
					raw := replayFile(b, kind, requests)
					var hits int64
					cpu0 := cpuTime()
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						if impl == "naive" {
							hits = naiveReplay(raw, nbuf)
							continue
						}
						c, err := cluster.Open(cluster.Options{SharedBuffers: fmt.Sprintf("%dkB", nbuf*8), CatalogPins: cluster.Bool(false)})
						if err != nil {
							b.Fatal(err)
						}
						res, err := replay.Replay(c, bytes.NewReader(raw), kind, trace.OracleGeneral, "")
						if err != nil {
							b.Fatal(err)
						}
						hits = res.Hits
					}
					b.StopTimer()
					cpu := float64(cpuTime()-cpu0) / float64(b.N)
					b.ReportMetric(cpu/1e6, "cpu-ms/op")
					b.ReportMetric(requests/cpu*1e3, "Mrequests/cpu-s")
					b.ReportMetric(float64(hits)/requests, "hit_ratio")
					b.ReportMetric(float64(b.N)*requests/b.Elapsed().Seconds()/1e6, "Mrequests/s")
				})
			}
		}
	}
}

// cpuTime is the process's user + system CPU time in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// naiveReplay runs an oracleGeneral file's requests through naiveClock,
// decoding each record's object id as it goes, and returns the hits.
func naiveReplay(raw []byte, nbuf int) int64 {
	c := newNaiveClock(nbuf)
	for off := 0; off+trace.RecordSize <= len(raw); off += trace.RecordSize {
		c.access(binary.LittleEndian.Uint64(raw[off+4:]))
	}
	return c.hits
}
