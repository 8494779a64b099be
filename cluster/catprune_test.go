package cluster_test

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/cluster"
	"github.com/pgbufsim/pgbufsim/wal"
	"github.com/stretchr/testify/require"
)

// Catalog pruning on access after verify's setup (FreshCatalogs), as the
// WAL it adds to the same commands without it: each
// session prunes, once, the pg_proc pages the measured table (catalog
// prunes18.go) gives its kind, after the first session's. On 18 with
// checksums off, after a restart, one image record each:
//
//   - the table's session (Table): nothing of its own;
//   - the mark (Session): pg_proc/66 (pg_lsn_out): 7,681 bytes, 1 image;
//   - set (Set): pg_proc/61 (pg_conf_load_time): 7,185 bytes;
//   - scan (Scan): pg_proc/18 (int8inc): 7,557 bytes, outside EXPLAIN's counters;
//   - a second scan and a second mark: nothing (pruned once).
//
// With checksums on, each is the hint image then the plain record:
// pg_proc/66 8,205 + 54, pg_proc/61 8,237 + 56, pg_proc/18 8,025 + 58.
func TestFreshCatalogPrunes(t *testing.T) {
	run := func(checksums, fresh bool) (out, scans []wal.Usage) {
		c, err := cluster.Open(cluster.Options{Version: 18, SharedBuffers: "16MB", DataChecksums: cluster.Bool(checksums), Seed: 1,
			Settings: []cluster.Setting{{Name: "autovacuum", Value: "off"}, {Name: "bgwriter_lru_maxpages", Value: "0"}}})
		require.NoError(t, err)
		if fresh {
			c.FreshCatalogs()
		}
		_, err = c.CreateTable(cluster.TableSpec{Name: "t", Rows: 400, TupleBytes: 400, Autovacuum: cluster.Bool(false)})
		require.NoError(t, err)
		_, err = c.Insert("t", 0)
		require.NoError(t, err)
		require.NoError(t, c.Restart())
		step := func(fn func() error) {
			before := c.WAL().Total
			require.NoError(t, fn())
			out = append(out, c.WAL().Total.Sub(before))
		}
		scan := func() error {
			r, err := c.Scan("t")
			if err == nil {
				scans = append(scans, r.WAL)
			}
			return err
		}
		step(func() error { return c.Mark("m0") })
		step(func() error {
			_, err := c.Set(cluster.Setting{Name: "max_parallel_workers_per_gather", Value: "0"})
			return err
		})
		step(scan)
		step(scan)
		step(func() error { return c.Mark("m1") })
		return out, scans
	}
	for _, tc := range []struct {
		checksums bool
		want      []wal.Usage // mark, set, scan, scan, mark
	}{
		{false, []wal.Usage{{Records: 1, FPI: 1, Bytes: 7681}, {Records: 1, FPI: 1, Bytes: 7185}, {Records: 1, FPI: 1, Bytes: 7557}, {}, {}}},
		{true, []wal.Usage{{Records: 2, FPI: 1, Bytes: 8205 + 54}, {Records: 2, FPI: 1, Bytes: 8237 + 56}, {Records: 2, FPI: 1, Bytes: 8025 + 58}, {}, {}}},
	} {
		fresh, freshScans := run(tc.checksums, true)
		plain, plainScans := run(tc.checksums, false)
		require.Equal(t, plainScans, freshScans, "the prune is the session's, not the statement's (EXPLAIN's)")
		for i := range tc.want {
			got := fresh[i].Sub(plain[i])
			require.Equal(t, tc.want[i].Records, got.Records, "checksums=%v step %d", tc.checksums, i)
			require.Equal(t, tc.want[i].FPI, got.FPI, "checksums=%v step %d", tc.checksums, i)
			require.Equal(t, tc.want[i].Bytes, got.Bytes, "checksums=%v step %d", tc.checksums, i)
		}
	}
}
