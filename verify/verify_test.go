package verify

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/scenario"
	"github.com/stretchr/testify/require"
)

// These tests need no server; the differential suite is suite_test.go (-tags verify).

func TestNewServerBadBin(t *testing.T) {
	_, err := NewServer("")
	require.ErrorContains(t, err, "--pgbin")
	dir := t.TempDir()
	_, err = NewServer(dir)
	require.ErrorContains(t, err, "no initdb program there")
	// An initdb that is not executable is no initdb either.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "initdb"), []byte("#!/bin/sh\n"), 0o644))
	_, err = NewServer(dir)
	require.ErrorContains(t, err, "no initdb program there")
}

func TestTolerance(t *testing.T) {
	require.True(t, exact.ok(96, 96))
	require.False(t, exact.ok(96, 97))
	bt := Tol{Abs: 20}
	require.True(t, bt.ok(100, 120))
	require.False(t, bt.ok(100, 121))
	// 1% of the larger value: 1% of 30,523,426 is 305,234.
	p := Tol{Pct: 1}
	require.True(t, p.ok(30523426, 30523426-305234))
	require.False(t, p.ok(30523426, 30523426-305235))
	require.True(t, Tol{Info: true}.ok(0, 1e9))
	require.Equal(t, "±max(112, 1%) (x)", Tol{Abs: 112, Pct: 1, Why: "x"}.String())
}

func TestRewriteForVersion(t *testing.T) {
	f, err := scenario.Parse("s.scn", "cluster version=18 shared_buffers=16MB\nevict all\nscan t repeat=3\nevict t\n")
	require.NoError(t, err)
	steps, notes, err := rewrite(f, 15)
	require.NoError(t, err)
	// cluster at 15; evict all → restart; 3 scans; evict t untouched (refused later by translate).
	require.Len(t, steps, 6)
	require.Equal(t, "version", steps[0].args[0].Key)
	require.Equal(t, []string{"15"}, steps[0].args[0].Vals)
	require.Equal(t, "restart", steps[1].cmd)
	require.Equal(t, "scan", steps[2].cmd)
	require.Len(t, steps[4].args, 1) // the table name; repeat= is gone
	require.Equal(t, "evict", steps[5].cmd)
	require.Len(t, notes, 2)
	// On 17 pg_buffercache can evict: no restart.
	steps, _, err = rewrite(f, 17)
	require.NoError(t, err)
	require.Equal(t, "evict", steps[1].cmd)
}

// The SQL row reproduces the simulated tuple length: 24-byte header + int4 +
// a varlena pad (1-byte header up to 126 bytes of text, else a 4-byte one).
func TestTableSQL(t *testing.T) {
	env := &scenario.Env{}
	_, err := env.Exec("cluster", []datadriven.CmdArg{{Key: "version", Vals: []string{"15"}}})
	require.NoError(t, err)
	cases := []struct {
		args  string
		cols  []string
		exprs []string
		err   string
	}{
		{"tuple_bytes=1832", []string{"id int4", "pad text"}, []string{"g", "repeat('x', 1800)"}, ""}, // 32 + 1800
		{"tuple_bytes=133", []string{"id int4", "pad text"}, []string{"g", "repeat('x', 104)"}, ""},   // 29 + 104
		{"tuple_bytes=28", []string{"id int4"}, []string{"g"}, ""},
		{"tuple_bytes=157", nil, nil, "no SQL translation for a 157-byte tuple"},
		{"columns=(int8, bool, text:200)", []string{"c1 int8", "c2 bool", "c3 text"}, []string{"g", "true", "repeat('x', 200)"}, ""},
	}
	for i, c := range cases {
		name := string(rune('a' + i))
		f, err := scenario.Parse("t.scn", "table "+name+" rows=10 "+c.args+"\n")
		require.NoError(t, err)
		_, err = env.Exec(f.Steps[0].Cmd, f.Steps[0].Args)
		require.NoError(t, err)
		st := &step{line: 1, text: f.Steps[0].Text, cmd: f.Steps[0].Cmd, args: f.Steps[0].Args}
		tb, err := newTable(st, env)
		if c.err != "" {
			require.ErrorContains(t, err, c.err)
			continue
		}
		require.NoError(t, err, c.args)
		require.Equal(t, c.cols, tb.cols, c.args)
		require.Equal(t, c.exprs, tb.exprs, c.args)
	}
}

func TestParseLSN(t *testing.T) {
	l, err := parseLSN("0/1DA8E950")
	require.NoError(t, err)
	require.Equal(t, pg.LSN(0x1DA8E950), l)
	require.Equal(t, "0/1DA8E950", l.String())
	_, err = parseLSN("zz")
	require.Error(t, err)
}

func TestWALDumpLine(t *testing.T) {
	m := reWALRec.FindStringSubmatch("rmgr: Heap2       len (rec/tot):     57/  7425, tx:          0, lsn: 0/0485BAC0, prev 0/0485BA48, desc: FREEZE_PAGE cutoff xid 736 ntuples 4, blkref #0: rel 1663/5/16409 blk 0 FPW")
	require.NotNil(t, m)
	require.Equal(t, []string{"Heap2", "7425", "FREEZE_PAGE"}, m[1:])
}

// walPayload takes out one short page header per WAL page boundary crossed
// and a long one at a segment's start.
func TestWALPayload(t *testing.T) {
	require.EqualValues(t, 176, walPayload(0x1000028, 0x10000D8))                // within a page
	require.EqualValues(t, 176, walPayload(0x1001FA0, 0x1001FA0+176+24))         // across one page boundary
	require.EqualValues(t, 176, walPayload(0x1FFFFA0, 0x1FFFFA0+176+40))         // across a segment boundary
	require.EqualValues(t, 8192*2-24*2, walPayload(0x1000028, 0x1000028+8192*2)) // two boundaries
}

// pg_waldump's errors at the end of the WAL written so far (its stderr on
// 18beta1, seed 2110 of the random run on a loaded host) end a read without
// an end LSN; others are errors.
func TestEndOfWAL(t *testing.T) {
	require.True(t, endOfWAL("pg_waldump: error: error in WAL record at 0/171D7F88: invalid magic number 0000 in WAL segment 000000010000000000000017, LSN 0/171D8000, offset 1933312\n"))
	require.True(t, endOfWAL("pg_waldump: error: error in WAL record at 0/1A2B3C8: invalid record length at 0/1A2B400: expected at least 24, got 0\n"))
	require.True(t, endOfWAL("pg_waldump: error: could not find a valid record after 0/1000000\n"))
	require.False(t, endOfWAL("pg_waldump: error: error in WAL record at 0/171D7F88: invalid magic number D118 in WAL segment 000000010000000000000017, LSN 0/171D8000, offset 1933312\n"))
	require.False(t, endOfWAL("pg_waldump: error: could not open file \"000000010000000000000017\": No such file or directory\n"))
}
