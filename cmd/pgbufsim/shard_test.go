package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// A sweep split into N shards (run one after the other here, as a cluster's
// jobs would run them anywhere) and merged prints the same table, writes the
// same CSV and reports the same on stderr, byte for byte, as the unsharded
// run — for every N from 1 to more shards than points, the shard files given
// in any order; a point that fails fails the same way.
func TestSweepShardMerge(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.scn")
	require.NoError(t, os.WriteFile(p, []byte("cluster version=18 shared_buffers=16MB\ntable t pages=600 tuple_bytes=1832\ninsert t\ncheckpoint\nscan t\n"), 0o644))
	vary := []string{"--vary", "data_checksums=off,on", "--vary", "eic=1,16,64", "--vary", "shared_buffers=16MB,2MB,128kB"}
	var out, errb bytes.Buffer
	whole := filepath.Join(dir, "whole.csv")
	require.Equal(t, 0, run(context.Background(), append(append([]string{"sweep", "--csv=" + whole}, vary...), p), &out, &errb), errb.String())
	wantOut, wantErr := out.String(), errb.String()
	wantCSV, err := os.ReadFile(whole)
	require.NoError(t, err)
	for _, n := range []int{1, 2, 3, 5, 18, 25} {
		var shards []string
		for k := n - 1; k >= 0; k-- { // merged in reverse order
			sh := filepath.Join(dir, fmt.Sprintf("s-%d-%d.json", k, n))
			out.Reset()
			errb.Reset()
			require.Equal(t, 0, run(context.Background(), append(append([]string{"sweep", "--jobs=1", fmt.Sprintf("--shard=%d/%d", k, n), "--out=" + sh}, vary...), p), &out, &errb), errb.String())
			require.Empty(t, out.String())
			shards = append(shards, sh)
		}
		out.Reset()
		errb.Reset()
		require.Equal(t, 0, run(context.Background(), append([]string{"sweep", "--merge", "--csv=" + whole}, shards...), &out, &errb), errb.String())
		require.Equal(t, wantOut, out.String(), "N=%d", n)
		require.Equal(t, wantErr, errb.String(), "N=%d", n)
		gotCSV, err := os.ReadFile(whole)
		require.NoError(t, err)
		require.Equal(t, string(wantCSV), string(gotCSV), "N=%d", n)
		if n == 3 {
			// A missing shard, a shard given twice, and shards of another sweep are refused.
			errb.Reset()
			require.Equal(t, 1, run(context.Background(), []string{"sweep", "--merge", shards[0], shards[1]}, &out, &errb))
			require.Contains(t, errb.String(), "missing shard 0/3")
			errb.Reset()
			require.Equal(t, 1, run(context.Background(), []string{"sweep", "--merge", shards[0], shards[0], shards[1]}, &out, &errb))
			require.Contains(t, errb.String(), "both shard 2/3")
			other := filepath.Join(dir, "other.json")
			require.Equal(t, 0, run(context.Background(), []string{"sweep", "--shard=0/3", "--out=" + other, "--seed=2", "--vary", "data_checksums=off,on", p}, &out, &errb))
			errb.Reset()
			require.Equal(t, 1, run(context.Background(), []string{"sweep", "--merge", other, shards[1], shards[0]}, &out, &errb))
			require.Contains(t, errb.String(), "shards of different sweeps")
			errb.Reset()
			require.Equal(t, 1, run(context.Background(), []string{"compare", "--merge", shards[0], shards[1], shards[2]}, &out, &errb))
			require.Contains(t, errb.String(), "a shard of sweep, not of compare")
		}
	}
	errb.Reset()
	require.Equal(t, 2, run(context.Background(), append(append([]string{"sweep", "--shard=3/3"}, vary...), p), &out, &errb))
	require.Contains(t, errb.String(), "--shard 3/3: expected K/N with 0 ≤ K < N")
	errb.Reset()
	require.Equal(t, 2, run(context.Background(), append(append([]string{"sweep", "--shard=0/3", "--csv=x.csv"}, vary...), p), &out, &errb))
	require.Contains(t, errb.String(), "--csv and --step are the merge's")
	errb.Reset()
	require.Equal(t, 2, run(context.Background(), append(append([]string{"sweep", "--out=x.json"}, vary...), p), &out, &errb))
	require.Contains(t, errb.String(), "--out names a shard file")

	// Points that fail (io_combine_limit is 17's): status 1 and the same
	// errors, from the shards that ran them and from the merge.
	q := filepath.Join(dir, "v.scn")
	require.NoError(t, os.WriteFile(q, []byte("cluster version=18 shared_buffers=16MB\ntable t pages=600 tuple_bytes=1832\ninsert t\nset io_combine_limit=16\nscan t\n"), 0o644))
	vary = []string{"--vary", "version=15,16,17,18", "--vary", "eic=1,64"}
	out.Reset()
	errb.Reset()
	require.Equal(t, 1, run(context.Background(), append(append([]string{"sweep", "--csv=" + whole}, vary...), q), &out, &errb))
	wantOut, wantErr = out.String(), errb.String()
	require.Contains(t, wantErr, "point 4 (version=16 effective_io_concurrency=64)")
	wantCSV, err = os.ReadFile(whole)
	require.NoError(t, err)
	var shards []string
	for k := 0; k < 3; k++ {
		sh := filepath.Join(dir, fmt.Sprintf("v-%d.json", k))
		require.Equal(t, 1, run(context.Background(), append(append([]string{"sweep", fmt.Sprintf("--shard=%d/3", k), "--out=" + sh}, vary...), q), &out, &errb))
		shards = append(shards, sh)
	}
	out.Reset()
	errb.Reset()
	require.Equal(t, 1, run(context.Background(), append([]string{"sweep", "--merge", "--csv=" + whole}, shards...), &out, &errb))
	require.Equal(t, wantOut, out.String())
	require.Equal(t, wantErr, errb.String())
	gotCSV, err := os.ReadFile(whole)
	require.NoError(t, err)
	require.Equal(t, string(wantCSV), string(gotCSV))
}

// compare's shards merge into the unsharded table too.
func TestCompareShardMerge(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "w.scn")
	require.NoError(t, os.WriteFile(p, []byte(whatIfScn), 0o644))
	vary := []string{"--vary", "reject=pg,flush", "--vary", "replacement=clock,lru,2q", "--vary", "shared_buffers=16MB,1MB"}
	var out, errb bytes.Buffer
	require.Equal(t, 0, run(context.Background(), append([]string{"compare", p}, vary...), &out, &errb), errb.String())
	want, wantErr := out.String(), errb.String()
	for _, n := range []int{2, 5, 12} {
		var shards []string
		for k := 0; k < n; k++ {
			sh := filepath.Join(dir, fmt.Sprintf("w-%d-%d.json", k, n))
			require.Equal(t, 0, run(context.Background(), append([]string{"compare", p, fmt.Sprintf("--shard=%d/%d", k, n), "--out=" + sh}, vary...), &out, &errb), errb.String())
			shards = append(shards, sh)
		}
		out.Reset()
		errb.Reset()
		require.Equal(t, 0, run(context.Background(), append([]string{"compare", "--merge"}, shards...), &out, &errb), errb.String())
		require.Equal(t, want, out.String(), "N=%d", n)
		require.Equal(t, wantErr, errb.String(), "N=%d", n)
	}
}
