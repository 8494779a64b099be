package scenario

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

// run executes a scenario text with invariant checks after every command and
// returns the environment and every command's output.
func run(t testing.TB, src string) (*Env, []Output) {
	t.Helper()
	f, err := Parse("test.scn", src)
	require.NoError(t, err)
	env := &Env{Seed: 1, CheckInvariants: true}
	var outs []Output
	for _, st := range f.Steps {
		o, err := env.Exec(st.Cmd, st.Args)
		require.NoError(t, err, "line %d: %s", st.Line, st.Text)
		outs = append(outs, o)
	}
	return env, outs
}

// buffers counts the buffers holding each relation the way the reference runs
// measured it: with a pg_buffercache query ("show buffercache"), which like the
// real query first does its own catalog lookups.
func buffers(env *Env) map[string]int {
	if _, err := env.Exec("show", argsOf("buffercache")); err != nil {
		panic(err)
	}
	m := map[string]int{}
	for _, r := range env.C.Pool().Contents() {
		if r.Valid {
			m[env.C.RelName(r.Tag.Rel)]++
		} else {
			m["(unused)"]++
		}
	}
	return m
}

// seed000 builds seed 000's experiment (as the reference runs did it): load
// big, hot and four fill tables with INSERT … SELECT, optionally checkpoint,
// pg_buffercache_evict_all(), hot scanned six times, each fill table once,
// then mark "before" and SELECT count(*) FROM big.
type seed000 struct {
	settings   string // extra cluster settings
	bigPages   int
	checkpoint bool
	vacuumBig  bool
}

func (s seed000) String() string {
	if s.bigPages == 0 {
		s.bigPages = 32768
	}
	var b strings.Builder
	fmt.Fprintf(&b, "cluster version=18 shared_buffers=128MB %s\n", s.settings)
	fmt.Fprintf(&b, "table big pages=%d tuple_bytes=1832\n", s.bigPages)
	b.WriteString("table hot rows=12000 tuple_bytes=1832\n")
	for i := 1; i <= 4; i++ {
		fmt.Fprintf(&b, "table fill%d rows=12800 tuple_bytes=1832\n", i)
	}
	b.WriteString("insert big\ninsert hot\ninsert fill1\ninsert fill2\ninsert fill3\ninsert fill4\n")
	if s.checkpoint {
		b.WriteString("checkpoint\n")
	}
	b.WriteString("evict all\nscan hot repeat=6\nscan fill1\nscan fill2\nscan fill3\nscan fill4\nmark before\n")
	if s.vacuumBig {
		b.WriteString("vacuum big\nmark vacuumed\n")
	}
	b.WriteString("scan big\n")
	return b.String()
}

// reference is one real PostgreSQL 18 run's big_scan figures (testdata/reference_pg18.json).
type reference struct {
	BigBuffers            int     `json:"big_buffers"`
	HotBuffers            int     `json:"hot_buffers"`
	OtherBuffers          int     `json:"other_buffers"`
	WALLSNBytes           int64   `json:"wal_lsn_bytes"`
	ExplainRead           int64   `json:"explain_shared_read"`
	ExplainDirtied        int64   `json:"explain_dirtied"`
	ExplainWritten        int64   `json:"explain_written"`
	ExplainWALRecords     int64   `json:"explain_wal_records"`
	ExplainWALFPI         int64   `json:"explain_wal_fpi"`
	ExplainWALBytes       int64   `json:"explain_wal_bytes"`
	ExplainWALBuffersFull int64   `json:"explain_wal_buffers_full"`
	Workers               int     `json:"workers_launched"`
	Reuses                int64   `json:"bulkread_reuses"`
	Evictions             int64   `json:"bulkread_evictions"`
	ExecutionMs           float64 `json:"execution_ms"`
	BgwriterClean         int64   `json:"bgwriter_buffers_clean"`
	BgwriterMaxWritten    int64   `json:"bgwriter_maxwritten_clean"`
}

func loadReference(t testing.TB) map[string]reference {
	t.Helper()
	data, err := os.ReadFile("testdata/reference_pg18.json")
	require.NoError(t, err)
	var doc struct {
		Runs map[string]reference `json:"runs"`
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	return doc.Runs
}

// onePercent is the tolerance for buffers per relation against the reference
// runs: 1% of shared_buffers (the runs' repeats differ by up to 10 of 16,384,
// see testdata/reference_pg18.json).
func onePercent(env *Env) int { return env.C.S.NBuffers() / 100 }

func lastStmt(outs []Output) map[string]any { return outs[len(outs)-1].JSON.(map[string]any) }

// walSince is the LSN distance since a mark, as pg_wal_lsn_diff shows it.
func walSince(env *Env, name string) int64 {
	return int64(env.C.WAL().InsertLSN() - markLSN(env, name))
}

// argsOf parses positional arguments the way a scenario line would.
func argsOf(words ...string) []datadriven.CmdArg {
	var a []datadriven.CmdArg
	for _, w := range words {
		a = append(a, datadriven.CmdArg{Key: w})
	}
	return a
}

// execAll runs a scenario text and returns the first error, if any.
func execAll(env *Env, src string) ([]Output, error) {
	f, err := Parse("test.scn", src)
	if err != nil {
		return nil, err
	}
	env.CheckInvariants = true
	var outs []Output
	for _, st := range f.Steps {
		o, err := env.Exec(st.Cmd, st.Args)
		if err != nil {
			return outs, err
		}
		outs = append(outs, o)
	}
	return outs, nil
}

func pgBlock(b int) pg.BlockNumber { return pg.BlockNumber(b) }

const heapHinted = heap.PageHinted

// markLSN is the insert LSN a mark remembered.
func markLSN(env *Env, name string) pg.LSN {
	m, ok := env.C.MarkInfo(name)
	if !ok {
		panic("no mark " + name)
	}
	return m.LSN
}

// markIO is pg_stat_io's counters when the mark was set.
func markIO(env *Env, name string) bufmgr.IOStats {
	m, ok := env.C.MarkInfo(name)
	if !ok {
		panic("no mark " + name)
	}
	return m.IO
}
