package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDiagnoseCmd: JSON for tools with stable kinds, byte-identical runs,
// the rebuilt scenarios written and runnable, and bad input refused clearly.
func TestDiagnoseCmd(t *testing.T) {
	plan := "../../diagnose/testdata/pg18/s1_cks-on_ckpt_r1_hot_scan_1.json"
	settings := "../../diagnose/testdata/pg18/s1_cks-on_ckpt_r1_settings.json"
	dir := t.TempDir()
	args := []string{"diagnose", plan, "--settings", settings, "--format=json", "--scenarios", dir}
	var out1, out2, errb bytes.Buffer
	require.Equal(t, 0, run(t.Context(), args, &out1, &errb), errb.String())
	require.Equal(t, 0, run(t.Context(), args, &out2, &errb), errb.String())
	require.Equal(t, out1.String(), out2.String())
	var rep struct {
		Findings []struct {
			Kind     string            `json:"kind"`
			Summary  string            `json:"summary"`
			Evidence []string          `json:"evidence"`
			Fixes    []json.RawMessage `json:"fixes"`
		} `json:"findings"`
	}
	require.NoError(t, json.Unmarshal(out1.Bytes(), &rep))
	var ks []string
	for _, f := range rep.Findings {
		ks = append(ks, f.Kind)
		require.NotEmpty(t, f.Fixes, f.Kind)
	}
	require.Equal(t, []string{"hint_bit_fpi", "wal_buffers_full", "quarter_threshold"}, ks)
	// The written baseline runs as a scenario of its own.
	var runOut bytes.Buffer
	require.Equal(t, 0, run(t.Context(), []string{"run", filepath.Join(dir, "hint_bit_fpi.scn")}, &runOut, &errb), errb.String())
	require.Contains(t, runOut.String(), "WAL: records=3000 fpi=3000 bytes=22251000")

	bad := filepath.Join(t.TempDir(), "plan.json")
	require.NoError(t, os.WriteFile(bad, []byte(`[{"Plan": {"Node Type": "Seq Scan", "Actual Rows": 1, "Actual Total Time": 1}}]`), 0o644))
	errb.Reset()
	require.Equal(t, 1, run(t.Context(), []string{"diagnose", bad}, &out1, &errb))
	require.Contains(t, errb.String(), "EXPLAIN without BUFFERS")
	errb.Reset()
	require.Equal(t, 2, run(t.Context(), []string{"diagnose"}, &out1, &errb))
	require.Contains(t, errb.String(), "usage: pgbufsim diagnose")
}
