package guc

import (
	"errors"
	"testing"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/strategy"
	"github.com/stretchr/testify/require"
)

// The derived values at 18's defaults, by hand: MaxBackends =
// max_connections 100 + max_worker_processes 8 + max_wal_senders 10 +
// autovacuum_worker_slots 16 + 2 special workers = 136; the pin limit is
// NBuffers 16,384 / (136 + NUM_AUXILIARY_PROCS 6 + 32 I/O workers) = 94;
// wal_buffers=-1 gives 16,384 / 32 = 512 pages. On 15: 100 + 8 + 10 +
// autovacuum_max_workers 3 + the launcher = 122.
func TestDerived(t *testing.T) {
	s, err := DefaultSettings(18)
	require.NoError(t, err)
	require.Equal(t, 16384, s.NBuffers())
	require.Equal(t, 136, s.MaxBackends())
	require.Equal(t, 94, s.PinLimit())
	require.Equal(t, 512, s.WalBuffers())
	require.Equal(t, 16, s.IOCombineLimit()) // 128kB
	require.True(t, s.Bool("data_checksums"))
	s15, err := DefaultSettings(15)
	require.NoError(t, err)
	require.Equal(t, 122, s15.MaxBackends())
	require.Equal(t, 0, s15.IOCombineLimit()) // no read streams' combining before 17
	require.False(t, s15.Bool("data_checksums"))
	require.False(t, s15.Known("io_method"))
	// A small pool: 16MB = 2,048 buffers → wal_buffers 64 pages; 1MB → the floor of 8.
	_, err = s.Set("shared_buffers", "1MB")
	require.NoError(t, err)
	require.Equal(t, 128, s.NBuffers())
	require.Equal(t, 8, s.WalBuffers())
}

// Bad values name the setting, the value and the allowed range.
func TestSetErrors(t *testing.T) {
	s, err := DefaultSettings(18)
	require.NoError(t, err)
	for _, c := range []struct{ name, value, want string }{
		{"shared_buffers", "64kB", "shared_buffers=64kB: below the minimum of 16 buffers (128kB)"},
		{"no_such_guc", "1", "unrecognized configuration parameter"},
		{"io_workers", "40", "outside the allowed range 1..32"},
		{"data_checksums", "maybe", "must be a boolean"},
		{"read_ahead_kb", "130", "must be a multiple of 4"},
	} {
		_, err := s.Set(c.name, c.value)
		require.ErrorContains(t, err, c.want, "%s=%s", c.name, c.value)
		var se *pg.SettingError
		require.True(t, errors.As(err, &se))
		require.Equal(t, c.name, se.Name)
	}
	// 15 does not have io_method (added in 18).
	s15, _ := DefaultSettings(15)
	_, err = s15.Set("io_method", "sync")
	require.ErrorContains(t, err, "added in 18")
	// 19 has no free list: freelist=on is refused there.
	s19, _ := DefaultSettings(19)
	_, err = s19.Set("freelist", "on")
	require.ErrorContains(t, err, "PostgreSQL 19 has no free list")
}

// Clone is a deep copy; Format round-trips through Set.
func TestCloneAndFormat(t *testing.T) {
	s, _ := DefaultSettings(17)
	c := s.Clone()
	_, err := c.Set("effective_io_concurrency", "64")
	require.NoError(t, err)
	require.EqualValues(t, 1, s.Int("effective_io_concurrency"))
	require.EqualValues(t, 64, c.Int("effective_io_concurrency"))
	for _, n := range s.Names() {
		d := s.Clone()
		_, err := d.Set(n, s.Format(n))
		require.NoError(t, err, "%s = %s", n, s.Format(n))
		require.Equal(t, s.Format(n), d.Format(n), n)
	}
	require.Equal(t, "128MB", s.Format("shared_buffers"))
	require.Equal(t, "200ms", s.Format("wal_writer_delay"))
	require.Equal(t, "2MB", s.Format("vacuum_buffer_usage_limit")) // 17's default
}

// lowestFree is a policy for the registry test: the lowest-numbered unpinned buffer.
type lowestFree struct{}

func (lowestFree) Access(pg.Buffer)               {}
func (lowestFree) Load(pg.Buffer, pg.BufferTag)   {}
func (lowestFree) Forget(pg.Buffer, pg.BufferTag) {}
func (lowestFree) Victim(st []pg.BufState) (pg.Buffer, error) {
	for i, s := range st {
		if s.Refcount() == 0 {
			return pg.Buffer(i + 1), nil
		}
	}
	return pg.InvalidBuffer, strategy.ErrNoUnpinnedBuffers
}

// A policy registered after start-up is a value replacement= accepts: the
// enum's values are read when a setting is parsed, not when the table was built.
func TestRegisteredPolicyAccepted(t *testing.T) {
	s, _ := DefaultSettings(18)
	_, err := s.Set("replacement", "lowest-free")
	require.ErrorContains(t, err, "must be one of clock, lru, 2q, arc, clock-pro")
	require.NoError(t, strategy.Register("lowest-free", "the lowest-numbered unpinned buffer", func(int) strategy.Replacement { return lowestFree{} }))
	_, err = s.Set("replacement", "lowest-free")
	require.NoError(t, err)
	require.Equal(t, "lowest-free", s.Enum("replacement"))
}

// max_wal_size below two 16 MB segments: the server refuses to start
// (ReadControlFile: "max_wal_size" must be at least twice "wal_segment_size").
func TestMaxWALSizeAtLeastTwoSegments(t *testing.T) {
	s, err := DefaultSettings(18)
	require.NoError(t, err)
	_, err = s.Set("max_wal_size", "31MB")
	require.NoError(t, err, "the GUC's own range starts at 2MB")
	err = s.CheckModelled()
	var se *pg.SettingError
	require.ErrorAs(t, err, &se)
	require.Equal(t, "max_wal_size", se.Name)
	_, err = s.Set("max_wal_size", "32MB")
	require.NoError(t, err)
	require.NoError(t, s.CheckModelled())
}
