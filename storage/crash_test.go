package storage

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

// twoWrites is a disk (one arm) whose page cache holds two dirty pages of
// two files, versions 100 and 200, fsynced at time 0 by the checkpointer:
// two requests, one file after the other — the second starts when the
// first file's fsync is done, its write and then the disk's cache flush.
func twoWrites(t *testing.T, armed int64, onFire func(int64)) (*Storage, int64) {
	s, err := New(Config{CacheBlocks: 64, Device: Devices["hdd"], ReadAheadKB: DefaultReadAheadKB})
	require.NoError(t, err)
	s.WriteLSN(0, 1, 0, 100)
	s.WriteLSN(0, 2, 0, 200)
	if armed > 0 {
		s.ArmCrash(armed, onFire)
	}
	done, _ := s.SyncAll(0)
	return s, done
}

func TestCrashTornWrites(t *testing.T) {
	s, done := twoWrites(t, 0, nil)
	first := s.crash.pages()[0]
	require.Equal(t, int64(0), first.Start)
	second := s.crash.pages()[1]
	require.Equal(t, first.Done+s.dev.d.FlushNs, second.Start, "the second fsync starts as the first's flush ends")
	require.Equal(t, done, second.Done+s.dev.d.FlushNs)

	// At time 0 only the first write is in flight.
	torn := s.Crash(0)
	require.Equal(t, []PageWrite{{File: 1, Block: 0, LSN: 100, Start: 0, Done: first.Done}}, torn)
	require.False(t, s.IsCached(1, 0), "the page cache is lost")
	require.Zero(t, s.DirtyPages())

	// As the second starts, the first has completed (durable): the second is torn.
	s, _ = twoWrites(t, 0, nil)
	torn = s.Crash(second.Start)
	require.Len(t, torn, 1)
	require.Equal(t, pg.RelID(2), torn[0].File)
	require.Equal(t, pg.LSN(200), torn[0].LSN)

	// After both completed nothing is torn.
	s, _ = twoWrites(t, 0, nil)
	require.Empty(t, s.Crash(done))
}

func TestCrashArmed(t *testing.T) {
	var at int64 = -1
	s, _ := twoWrites(t, 2, func(t int64) { at = t })
	first := s.crash.pages()[0]
	fired, ok := s.Fired()
	require.True(t, ok)
	require.Equal(t, first.Done+s.dev.d.FlushNs, fired, "the 2nd page write starts as the 1st file's fsync ends")
	require.Equal(t, fired, at)
	torn := s.Crash(fired)
	require.Len(t, torn, 1)
	require.Equal(t, pg.RelID(2), torn[0].File)
	_, ok = s.Fired()
	require.False(t, ok, "nothing armed after the crash")
}

// A page's LSN goes with the page, not with the record that held it: after
// a page written at LSN 100 is truncated away, the record reused for a page
// written without one (LSN 0) writes back LSN 0; the pages around it keep
// theirs (the LSNs are kept beside the page records, lsn/setLSN).
func TestCrashLSNOfReusedPage(t *testing.T) {
	s, err := New(Config{CacheBlocks: 64, Device: Devices["hdd"], ReadAheadKB: DefaultReadAheadKB})
	require.NoError(t, err)
	s.WriteLSN(0, 1, 0, 300)
	s.WriteLSN(0, 1, 1, 100)
	s.Truncate(1, 1) // block 1 and its LSN 100 leave the cache
	s.Write(0, 1, 5) // the freed record, no LSN
	s.WriteLSN(0, 1, 9, 400)
	s.SyncAll(0)
	got := map[pg.BlockNumber]pg.LSN{}
	for _, w := range s.crash.pages() {
		got[w.Block] = w.LSN
	}
	require.Equal(t, map[pg.BlockNumber]pg.LSN{0: 300, 5: 0, 9: 400}, got)
}
