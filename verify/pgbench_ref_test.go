//go:build verify

package verify

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/pgbufsim/pgbufsim/pgbench"
	"github.com/stretchr/testify/require"
)

// pgbenchRef is a reference run kept in pgbench/testdata/ref: select-only
// at scale 10, shared_buffers 32MB, 20000 transactions, seed 3, one client,
// after init, CHECKPOINT and a restart (the procedure of the shared
// references: checksums on, autovacuum off, max_wal_size 8GB,
// checkpoint_timeout 1h, bgwriter_lru_maxpages 0).
type pgbenchRef struct {
	Server    string            `json:"server"`
	Procedure []string          `json:"procedure"`
	Settings  map[string]string `json:"settings"`
	// main-fork pages of each relation after the init
	Pages       map[string]int64      `json:"pages_after_init"`
	Run         PgbenchResult         `json:"run"`
	Buffercache map[string]refBuffers `json:"buffercache"` // per relation after the run; "(other)" the rest
	Unused      int64                 `json:"buffercache_unused"`
	Visibility  map[string][2]int64   `json:"visibility_after_run,omitempty"` // all_visible, all_frozen pages
	_           struct{}              `json:"-"`
}

type refBuffers struct {
	Buffers int64    `json:"buffers"`
	Dirty   int64    `json:"dirty"`
	Usage   [6]int64 `json:"usage"` // buffers with usage count 0 … 5
}

var pgbenchRefConf = [][2]string{{"shared_buffers", "32MB"}, {"autovacuum", "off"}, {"max_wal_size", "8GB"},
	{"checkpoint_timeout", "1h"}, {"bgwriter_lru_maxpages", "0"}, {"track_io_timing", "on"}}

var pgbenchRefProcedure = []string{
	"initdb --data-checksums; shared_buffers=32MB autovacuum=off max_wal_size=8GB checkpoint_timeout=1h bgwriter_lru_maxpages=0 track_io_timing=on",
	"CREATE EXTENSION pg_buffercache; CREATE EXTENSION pg_visibility",
	"pgbench -i -s 10 -F 100 -q",
	"CHECKPOINT",
	"pg_ctl restart -m fast",
	"one session of verify's (PgbenchRunFigures): warm-up reading of the statistics views, then the before reading",
	"pgbench -n -c 1 -j 1 -t 20000 --random-seed=3 -b select-only",
	"the same session: the after reading, then pg_buffercache and pg_visibility_map",
}

const sqlRefBuffers = `SELECT coalesce(c.relname::text, CASE WHEN b.relfilenode IS NULL THEN '(unused)' ELSE '(other)' END),
 count(*), count(*) FILTER (WHERE b.isdirty),
 count(*) FILTER (WHERE b.usagecount = 0), count(*) FILTER (WHERE b.usagecount = 1), count(*) FILTER (WHERE b.usagecount = 2),
 count(*) FILTER (WHERE b.usagecount = 3), count(*) FILTER (WHERE b.usagecount = 4), count(*) FILTER (WHERE b.usagecount = 5)
 FROM pg_buffercache b LEFT JOIN pg_class c ON c.relfilenode = b.relfilenode AND b.reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
 AND b.relforknumber = 0 AND c.relname LIKE 'pgbench%' GROUP BY 1`

func runPgbenchRef(t *testing.T, major int) pgbenchRef {
	privateTmp(t)
	srv, err := NewServer(pgBinFor(t, major))
	require.NoError(t, err)
	defer srv.Close()
	ctx := context.Background()
	require.NoError(t, srv.Init(ctx, true, pgbenchRefConf))
	require.NoError(t, srv.Start(ctx))
	ref := pgbenchRef{Server: srv.Version, Procedure: pgbenchRefProcedure, Settings: map[string]string{},
		Pages: map[string]int64{}, Buffercache: map[string]refBuffers{}, Visibility: map[string][2]int64{}}
	for _, kv := range pgbenchRefConf {
		ref.Settings[kv[0]] = kv[1]
	}
	ref.Settings["data_checksums"] = "on"
	exec := func(qs ...string) {
		conn, err := srv.Connect(ctx)
		require.NoError(t, err)
		defer conn.Close(ctx)
		for _, q := range qs {
			_, err := conn.Exec(ctx, q)
			require.NoError(t, err, q)
		}
	}
	exec("CREATE EXTENSION pg_buffercache", "CREATE EXTENSION pg_visibility")
	require.NoError(t, srv.PgbenchInit(ctx, 10, 100))
	conn, err := srv.Connect(ctx)
	require.NoError(t, err)
	rows, err := conn.Query(ctx, "SELECT relname::text, pg_relation_size(oid) / 8192 FROM pg_class WHERE relname LIKE 'pgbench%'")
	require.NoError(t, err)
	var name string
	var n int64
	_, err = pgx.ForEachRow(rows, []any{&name, &n}, func() error { ref.Pages[name] = n; return nil })
	require.NoError(t, err)
	conn.Close(ctx)
	exec("CHECKPOINT")
	require.NoError(t, srv.Restart(ctx))

	ref.Run, err = srv.pgbenchRunFigures(ctx, PgbenchRun{Transactions: 20000, Builtin: pgbench.SelectOnly, Seed: 3, Clients: 1},
		func(conn *pgx.Conn) error {
			rows, err := conn.Query(ctx, sqlRefBuffers)
			if err != nil {
				return err
			}
			var b refBuffers
			if _, err := pgx.ForEachRow(rows, []any{&name, &b.Buffers, &b.Dirty, &b.Usage[0], &b.Usage[1], &b.Usage[2], &b.Usage[3], &b.Usage[4], &b.Usage[5]},
				func() error {
					if name == "(unused)" {
						ref.Unused = b.Buffers
					} else {
						ref.Buffercache[name] = b
					}
					return nil
				}); err != nil {
				return err
			}
			for _, rel := range []string{"pgbench_accounts", "pgbench_branches", "pgbench_tellers"} {
				var v [2]int64
				if err := conn.QueryRow(ctx, fmt.Sprintf("SELECT count(*) FILTER (WHERE all_visible), count(*) FILTER (WHERE all_frozen) FROM pg_visibility_map('%s')", rel)).Scan(&v[0], &v[1]); err != nil {
					return err
				}
				ref.Visibility[rel] = v
			}
			return nil
		})
	require.NoError(t, err)
	return ref
}

// TestPgbenchReference runs the select-only reference on each server and
// holds it to the run kept in pgbench/testdata/ref (one client with a fixed
// seed: the server is deterministic here); PGBUFSIM_WRITE_PGBENCH_REF=1
// writes the files instead. What may differ between two runs, and is not
// compared: tps (wall time), and the buffers of other relations than
// pgbench's (catalogs: "(other)", and with them the unused count), which
// verify's reading sessions touch.
func TestPgbenchReference(t *testing.T) {
	for _, v := range suiteVersions(t) {
		t.Run(fmt.Sprint(v), func(t *testing.T) {
			ref := runPgbenchRef(t, v)
			path := filepath.Join("..", "pgbench", "testdata", "ref", fmt.Sprintf("pg%d_select-only_s10_sb32MB_t20000_seed3.json", v))
			if os.Getenv("PGBUFSIM_WRITE_PGBENCH_REF") == "1" {
				b, err := json.MarshalIndent(ref, "", " ")
				require.NoError(t, err)
				require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
				require.NoError(t, os.WriteFile(path, append(b, '\n'), 0o644))
				return
			}
			b, err := os.ReadFile(path)
			require.NoError(t, err, "no reference kept for %d (PGBUFSIM_WRITE_PGBENCH_REF=1 writes it)", v)
			var kept pgbenchRef
			require.NoError(t, json.Unmarshal(b, &kept))
			require.Equal(t, kept.Pages, ref.Pages)
			kept.Run.TPS, ref.Run.TPS = 0, 0
			require.Equal(t, kept.Run, ref.Run)
			for rel, b := range kept.Buffercache {
				if rel != "(other)" {
					require.Equal(t, b, ref.Buffercache[rel], rel)
				}
			}
			require.Equal(t, kept.Visibility, ref.Visibility)
		})
	}
}
