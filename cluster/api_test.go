package cluster_test

import (
	"errors"
	"os"
	"testing"

	"github.com/pgbufsim/pgbufsim/cluster"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/scenario"
	"github.com/stretchr/testify/require"
)

// The typed API and the scenario language are the same engine: the shipped
// 16MB ring flood run command by command through Env gives, for every
// statement, the figures the typed methods return on a cluster built from
// the same settings.
func TestTypedAPIMatchesScenario(t *testing.T) {
	src, err := os.ReadFile("../examples/ring-flood-small.scn")
	require.NoError(t, err)
	f, err := scenario.Parse("ring-flood-small.scn", string(src))
	require.NoError(t, err)
	env := &scenario.Env{Seed: 1, CheckInvariants: true}
	var fromScenario []map[string]any
	for _, st := range f.Steps {
		o, err := env.Exec(st.Cmd, st.Args)
		require.NoError(t, err, st.Text)
		if st.Cmd == "insert" || st.Cmd == "scan" || st.Cmd == "checkpoint" || st.Cmd == "evict" {
			fromScenario = append(fromScenario, o.JSON.(map[string]any))
		}
	}

	c, err := cluster.Open(cluster.Options{Version: 18, SharedBuffers: "16MB", DataChecksums: cluster.Bool(true), Seed: 1,
		Settings: []cluster.Setting{{Name: "max_wal_size", Value: "1GB"}, {Name: "checkpoint_timeout", Value: "1h"},
			{Name: "autovacuum", Value: "off"}, {Name: "bgwriter_lru_maxpages", Value: "0"}}})
	require.NoError(t, err)
	require.Empty(t, c.Notices(), "every setting given is simulated (autovacuum too)")
	tables := []string{"big", "hot", "fill1", "fill2", "fill3", "fill4"}
	rows := []int64{16384, 1500, 1600, 1600, 1600, 1600}
	for i, name := range tables {
		info, err := c.CreateTable(cluster.TableSpec{Name: name, Rows: rows[i], TupleBytes: 1832, Autovacuum: cluster.Bool(false)})
		require.NoError(t, err)
		require.Equal(t, 4, info.TuplesPerPage)
		require.Equal(t, 824, info.Hole) // 8192 − 24 − 4 × (1,832 + 4)
	}
	var typed []*cluster.StmtResult
	add := func(r *cluster.StmtResult, err error) {
		require.NoError(t, err)
		typed = append(typed, r)
	}
	for _, name := range tables {
		add(c.Insert(name, 0))
	}
	add(c.Checkpoint())
	add(c.EvictAll())
	for i := 0; i < 6; i++ {
		add(c.Scan("hot"))
	}
	for _, name := range tables[2:] {
		add(c.Scan(name))
	}
	require.NoError(t, c.Mark("before"))
	add(c.Scan("big"))
	// The scenario's "scan hot repeat=6" is one JSON result (the last scan's).
	typed = append(typed[:8], typed[13:]...)
	require.Len(t, typed, len(fromScenario))
	for i, r := range typed {
		js := fromScenario[i]
		require.EqualValues(t, js["shared_hit"], r.Buf.Hit, "statement %d (%s)", i, r.Kind)
		require.EqualValues(t, js["shared_read"], r.Buf.Read, "statement %d", i)
		require.EqualValues(t, js["shared_dirtied"], r.Buf.Dirtied, "statement %d", i)
		require.EqualValues(t, js["shared_written"], r.Buf.Written, "statement %d", i)
		require.EqualValues(t, js["wal_fpi"], r.WAL.FPI, "statement %d", i)
		require.EqualValues(t, js["wal_bytes"], r.WAL.Bytes, "statement %d", i)
		require.EqualValues(t, js["ring_rejected"], r.Rejects, "statement %d", i)
	}
	// The flood: every page of big logged an image (4,096 × 7,417 bytes).
	last := typed[len(typed)-1]
	require.EqualValues(t, 4096, last.WAL.FPI)
	require.EqualValues(t, 4096*7417, last.WAL.Bytes)
	bc, err := c.Buffercache("big", "hot")
	require.NoError(t, err)
	require.Zero(t, bc.Row("hot").Buffers, "the flood evicted hot")
	w, err := c.WALSince("before")
	require.NoError(t, err)
	require.True(t, w.SinceMark)
	// Since the mark: the scan's 4,096 images and six more. The six tables'
	// rows went to six pg_class pages (each CREATE TABLE a session of its
	// own: the FSM's next page with room for 224 bytes, 0, 1, 5, 6, 8 and 11
	// on 18), each with the rows of a TOAST table and its index no lookup
	// has hinted; the pg_buffercache query joins pg_class whole, and with
	// checksums each page's first hint after the checkpoint logs an image.
	require.EqualValues(t, 4096+6, w.Usage.FPI)
	require.Greater(t, w.Bytes, w.Usage.Bytes, "the LSN distance adds page headers and alignment")
	require.NoError(t, c.CheckInvariants())
}

// Validate lists every problem, each a *pg.SettingError naming the setting;
// a zero Options is the version's defaults and valid.
func TestOptionsValidate(t *testing.T) {
	require.NoError(t, cluster.Options{}.Validate())
	err := cluster.Options{Version: 15, SharedBuffers: "1kB", IOMethod: "sync", ReadAheadKB: cluster.Int(3),
		Settings: []cluster.Setting{{Name: "shared_buffers", Value: "1MB"}}}.Validate()
	require.Error(t, err)
	var names []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var se *pg.SettingError
		require.True(t, errors.As(e, &se), "%v", e)
		names = append(names, se.Name)
	}
	// io_method is not a 15 setting; the second shared_buffers is given twice.
	require.Equal(t, []string{"shared_buffers", "io_method", "read_ahead_kb", "shared_buffers"}, names)
	_, err = cluster.Open(cluster.Options{Version: 14})
	require.ErrorContains(t, err, "supported versions are 15 to 19")
	_, err = cluster.Open(cluster.Options{Version: 19, IOMethod: "io_uring"})
	require.ErrorContains(t, err, "io_uring is not modelled")
}

// Bad statements fail with an error naming the table or the option, and
// leave the cluster usable; after a crash every call but Recover says the
// server is down.
func TestStatementErrors(t *testing.T) {
	c, err := cluster.Open(cluster.Options{SharedBuffers: "1MB", CatalogPins: cluster.Bool(false)})
	require.NoError(t, err)
	_, err = c.Scan("nosuch")
	require.ErrorContains(t, err, `scan nosuch: relation "nosuch" does not exist`)
	_, err = c.CreateTable(cluster.TableSpec{Name: "t", Pages: 1, TupleBytes: 10})
	require.ErrorContains(t, err, "tuple_bytes=10: must be between 24 and 8164 bytes")
	_, err = c.CreateTable(cluster.TableSpec{Name: "t"})
	require.ErrorContains(t, err, "give its size as rows=N or pages=N")
	_, err = c.CreateTable(cluster.TableSpec{Name: "t", Pages: 10, TuplesPerPage: 4})
	require.NoError(t, err)
	_, err = c.Insert("t", 0)
	require.NoError(t, err)
	info, ok := c.Table("t")
	require.True(t, ok)
	require.Equal(t, 10, info.Pages)
	require.EqualValues(t, 40, info.Rows)
	_, err = c.CreateIndex(cluster.IndexSpec{Name: "t_k", Table: "t", Column: "k"})
	require.ErrorContains(t, err, "declare how many distinct values it has")
	_, err = c.Vacuum("t", false)
	require.NoError(t, err)
	require.ErrorContains(t, c.Mark(""), "mark: expected a name")
	_, err = c.WALSince("nosuch")
	require.ErrorContains(t, err, "since=nosuch: no such mark")
	_, err = c.Crash()
	require.NoError(t, err)
	require.True(t, c.Down())
	_, err = c.Scan("t")
	require.ErrorIs(t, err, cluster.ErrDown)
	_, err = c.Buffercache()
	require.ErrorIs(t, err, cluster.ErrDown)
	rep, err := c.Recover()
	require.NoError(t, err)
	require.Empty(t, rep.Corrupted, "no write was in flight")
	_, err = c.Scan("t")
	require.NoError(t, err)
	require.NoError(t, c.CheckInvariants())
}

// HostTimeScale reaches the cluster's cost model as host_time_scale: every
// CPU and memory cost × the factor (200 ns a pin × 2 = 400 ns, 1 µs a page
// → 2 µs), the device's fdatasync (1 ms) not; a scale of −1 is refused.
func TestOptionsHostTimeScale(t *testing.T) {
	c, err := cluster.Open(cluster.Options{SharedBuffers: "1MB", HostTimeScale: 2})
	require.NoError(t, err)
	got, def := c.Costs(), cluster.Costs()
	require.Equal(t, 2*def.Buf.PinNs, got.Buf.PinNs)
	require.Equal(t, 2*def.PageNs, got.PageNs)
	require.Equal(t, def.WAL.FsyncNs, got.WAL.FsyncNs)
	require.Equal(t, "2", c.S.Format("host_time_scale"))
	_, err = cluster.Open(cluster.Options{HostTimeScale: -1})
	require.ErrorContains(t, err, "host_time_scale=-1: must be a number greater than 0, at most 100")
}

// TestOptionsDevice: device_flush and device_write_mbps as typed options
// replace the profile's flush and write rate (nvme: 1 ms, writes at its
// 2.4 GB/s read rate), 400 MB/s being 400,000,000 bytes a second; a write
// rate of 0 is refused with the setting and its range.
func TestOptionsDevice(t *testing.T) {
	c, err := cluster.Open(cluster.Options{SharedBuffers: "1MB", DeviceFlush: "2.5ms", DeviceWriteMBps: cluster.Int(400)})
	require.NoError(t, err)
	d := c.S.StorageConfig().Device
	require.EqualValues(t, 2_500_000, d.FlushNs)
	require.EqualValues(t, 400_000_000, d.WriteBytesPerSec)
	def, err := cluster.Open(cluster.Options{SharedBuffers: "1MB"})
	require.NoError(t, err)
	require.EqualValues(t, 1_000_000, def.S.StorageConfig().Device.FlushNs)
	require.Zero(t, def.S.StorageConfig().Device.WriteBytesPerSec)
	_, err = cluster.Open(cluster.Options{DeviceWriteMBps: cluster.Int(0)})
	require.ErrorContains(t, err, "device_write_mbps=0")
}
