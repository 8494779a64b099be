package bench

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/storage"
	"github.com/pgbufsim/pgbufsim/wal"
)

// BenchmarkStorageMissHeavy: every access misses shared buffers (16,384
// buffers over a 1,048,576-block file read in order, or at random), so each is a clock
// sweep, an eviction and a read below. "flat" is the model without a storage
// layer (storage.NewFlat: every read an instant page-cache hit); "pagecache"
// is the real layer with the whole file in a 16 GB page cache (an index
// lookup and an LRU update per read); "device" a 1 GB page cache, so most
// reads go to the NVMe profile (readahead, device queue, reclaim).
// The goal: pagecache < 2 × flat.
func BenchmarkStorageMissHeavy(b *testing.B) {
	const nbuf, blocks = 16384, 1 << 20
	for _, pattern := range []string{"seq", "random"} {
		for _, mode := range []string{"flat", "pagecache", "device"} {
			b.Run(pattern+"/"+mode, func(b *testing.B) {
				var st *storage.Storage
				switch mode {
				case "flat":
					st = storage.NewFlat()
				case "pagecache":
					st = bufmgr.DefaultStorage()
					st.Preload(1, blocks)
				case "device":
					var err error
					st, err = storage.New(storage.Config{CacheBlocks: 1 << 30 / pg.BLCKSZ, Device: storage.Devices["nvme"], ReadAheadKB: 128})
					if err != nil {
						b.Fatal(err)
					}
				}
				w, err := wal.New(wal.Config{Version: 18, WalBuffers: 512})
				if err != nil {
					b.Fatal(err)
				}
				p, err := bufmgr.NewPool(bufmgr.Config{NBuffers: nbuf, Version: 18, Storage: st}, w)
				if err != nil {
					b.Fatal(err)
				}
				p.CreateRel(1, blocks, true)
				be := bufmgr.NewBackend(bufmgr.ClientBackend, 0)
				x := uint64(1)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					blk := pg.BlockNumber(i % blocks)
					if pattern == "random" {
						x = x*6364136223846793005 + 1442695040888963407
						blk = pg.BlockNumber(x >> 44)
					}
					buf, _, err := p.ReadBuffer(be, pg.BufferTag{Rel: 1, Block: blk}, nil)
					if err != nil {
						b.Fatal(err)
					}
					p.Unpin(be, buf)
				}
			})
		}
	}
}

// BenchmarkStorageWrite: the storage model's write path alone, a page per
// iteration. "load": a relation's blocks written in order into a page cache
// of 65,536 blocks (each new page inserted dirty, and once the cache is
// full a dirty victim reclaimed and written to the device, logged for the
// crash model), one every 25 µs (the NVMe profile writes a page in about
// 18 µs, so the device keeps up and the crash log stays short) — what every
// extension and ring write of a bulk load costs below the buffer manager. "checkpoint": a cached dirty page written
// again (a second access: the page moves to the active list) and, every
// 32 pages, sync_file_range over those 32 (checkpoint_flush_after's
// write-back: one device request and one crash-log entry), with an fsync
// of everything every 65,536.
func BenchmarkStorageWrite(b *testing.B) {
	const cache = 1 << 16
	newStorage := func(b *testing.B) *storage.Storage {
		st, err := storage.New(storage.Config{CacheBlocks: cache, Device: storage.Devices["nvme"], ReadAheadKB: 128})
		if err != nil {
			b.Fatal(err)
		}
		return st
	}
	b.Run("load", func(b *testing.B) {
		st := newStorage(b)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			st.WriteLSN(int64(i)*25_000, 1, pg.BlockNumber(i), pg.LSN(i+1))
		}
	})
	b.Run("checkpoint", func(b *testing.B) {
		st := newStorage(b)
		for i := 0; i < cache; i++ {
			st.WriteLSN(0, 1, pg.BlockNumber(i), pg.LSN(i+1))
		}
		st.SyncAll(0)
		b.ResetTimer()
		now := int64(0)
		for i := 0; i < b.N; i++ {
			blk := pg.BlockNumber(i % cache)
			now += 1000
			st.WriteLSN(now, 1, blk, pg.LSN(i+1))
			if blk%32 == 31 {
				st.Writeback(now, 1, blk-31, 32)
			}
			if blk == cache-1 {
				now, _ = st.SyncAll(now)
			}
		}
	})
}
