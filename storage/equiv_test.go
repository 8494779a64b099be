package storage

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"hash"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

var rewriteDigests = flag.Bool("rewrite-digests", false, "rewrite testdata/random-ops.digest from the current code")

// randomOps runs a random sequence of the storage model's operations on a
// random small machine (a page cache of 0 to 96 blocks, any device, any
// readahead and request size, three files of up to 300 blocks, armed
// crashes) and writes everything the model answers into h: each call's
// results, the counters, the lists' sizes, which blocks are cached and the
// torn writes of a power loss. Two implementations that feed h the same
// bytes behave alike on these inputs.
func randomOps(t *testing.T, seed uint64, h hash.Hash) {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	names := DeviceNames()
	cfg := Config{
		CacheBlocks:  []int64{0, 1, 3, 8, 24, 96}[rng.IntN(6)],
		Device:       Devices[names[rng.IntN(len(names))]],
		ReadAheadKB:  []int{0, 16, 32, 128}[rng.IntN(4)],
		MaxRequestKB: []int{8, 32, 128}[rng.IntN(3)],
	}
	s, err := New(cfg)
	require.NoError(t, err)
	readers := make([]Reader, 2)
	now := int64(0)
	blocks := 40 + rng.IntN(260)
	lsn := uint64(0)
	for i := range 400 {
		f := pg.RelID(1 + rng.IntN(3))
		blk := pg.BlockNumber(rng.IntN(blocks))
		if rng.IntN(3) == 0 { // runs: sequential blocks
			blk = pg.BlockNumber(i % blocks)
		}
		now += int64(rng.IntN(200_000))
		switch op := rng.IntN(20); {
		case op < 5:
			n := 1 + rng.IntN(8)
			for k := range n {
				lsn += uint64(rng.IntN(3))
				s.WriteLSN(now, f, blk+pg.BlockNumber(k), pg.LSN(lsn))
			}
			fmt.Fprintf(h, "w %d %d %d\n", f, blk, n)
		case op < 6:
			s.Write(now, f, blk)
		case op < 11:
			r := &readers[rng.IntN(2)]
			ready, missed := s.Read(now, r, f, blk, 1+rng.IntN(4))
			fmt.Fprintf(h, "r %d %d %d %d\n", f, blk, ready, missed)
			if rng.IntN(2) == 0 {
				now = ready
			}
		case op < 12:
			s.Advise(now, f, blk, 1+rng.IntN(16))
		case op < 15:
			s.Writeback(now, f, blk, 1+rng.IntN(40))
		case op < 16:
			done := s.Sync(now, f)
			fmt.Fprintf(h, "sync %d\n", done)
		case op < 17:
			done, st := s.SyncAll(now)
			fmt.Fprintf(h, "syncall %d %d %d %d\n", done, st.Files, st.LongestNs, st.SumNs)
			now = done
		case op < 18:
			if rng.IntN(4) == 0 {
				fmt.Fprintf(h, "drop %d\n", s.DropCaches(now))
			} else {
				s.Truncate(f, rng.IntN(blocks))
			}
		case op < 19:
			done := s.SyncWAL(now, int64(rng.IntN(300_000)))
			fmt.Fprintf(h, "wal %d\n", done)
		default:
			if s.Armed() == 0 && rng.IntN(3) == 0 {
				s.ArmCrash(int64(1+rng.IntN(20)), func(at int64) { fmt.Fprintf(h, "fired %d\n", at) })
			} else if rng.IntN(4) == 0 {
				at := now - int64(rng.IntN(2_000_000))
				for _, w := range s.Crash(at) {
					fmt.Fprintf(h, "torn %+v\n", w)
				}
				readers = make([]Reader, 2)
			}
		}
		in, act := s.Cached()
		st := s.Stats
		fmt.Fprintf(h, "%d %d %d %d %d %d %d %d %d %d\n", st.CacheHits, st.CacheMisses, st.DeviceBlocks, st.AdvisedBlocks,
			st.WrittenBack, st.Reclaimed, in, act, s.DirtyPages(), s.Armed())
		r1, w1, rb, wb := s.DeviceStats()
		fmt.Fprintf(h, "dev %d %d %d %d\n", r1, w1, rb, wb)
		checkCache(t, s)
	}
	for f := pg.RelID(1); f <= 3; f++ {
		for b := range blocks + 8 {
			if s.IsCached(f, pg.BlockNumber(b)) {
				fmt.Fprintf(h, "c %d %d\n", f, b)
			}
		}
	}
	at, ok := s.Fired()
	fmt.Fprintf(h, "fired %d %v\n", at, ok)
	for _, w := range s.Crash(now + 1_000_000_000) {
		fmt.Fprintf(h, "torn %+v\n", w)
	}
	for _, w := range s.Crash(now) {
		fmt.Fprintf(h, "torn %+v\n", w)
	}
}

const digestFile = "testdata/random-ops.digest"

// TestRandomOpsDigest: 300 random operation sequences (randomOps) give the
// same answers, byte for byte, as the model gave when the digests were
// recorded — before the write log, the write-back and the page cache's write
// path were accounted in runs of blocks (the digests were written by the
// per-page implementation and not rewritten since). A change in any read's
// completion time, any counter, any cached block or any torn write fails.
// Only a change meant to change the model's answers rewrites them:
// go test ./storage -run TestRandomOpsDigest -rewrite-digests.
func TestRandomOpsDigest(t *testing.T) {
	var got []string
	for seed := range uint64(300) {
		h := sha256.New()
		randomOps(t, seed, h)
		got = append(got, fmt.Sprintf("%d %s", seed, hex.EncodeToString(h.Sum(nil))[:16]))
	}
	if *rewriteDigests {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(digestFile, []byte(strings.Join(got, "\n")+"\n"), 0o644))
		return
	}
	fh, err := os.Open(digestFile)
	require.NoError(t, err)
	defer fh.Close()
	var want []string
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		want = append(want, sc.Text())
	}
	require.NoError(t, sc.Err())
	require.Equal(t, want, got)
}
