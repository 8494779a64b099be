package scenario

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/cluster"
	"github.com/stretchr/testify/require"
)

// The WAL segment files the seed-000 experiment creates on PostgreSQL 18
// (testdata/reference_pg18_walinit.json: pg_stat_io's object wal, context
// init writes of each step on the reference runs, one per segment
// created). A fresh cluster has initdb's segment 1 only; each load's WAL
// runs into segments no file has yet, so XLogWrite creates them; the
// checkpoint then recycles every segment before its redo pointer's as a
// future one (XLOGfileslop is far away: the estimate is the loads' ~360 MB),
// and the scans' WAL lands in recycled files — except where it runs past
// them: without checksums and with wal_log_hints the loads ended in segment
// 22 and recycled 21 (segments 23–43), and the scan's WAL reaches segment
// 44. With checksums the loads' WAL is 2.4 MB longer (initdb's too), so the
// loads end in segment 23, 22 are recycled (up to 45) and the same scan
// WAL creates none. The counts follow from where initdb's WAL ends and
// what the loads log, so they hold only if both are right.
func TestSegmentsAgainstReference(t *testing.T) {
	data, err := os.ReadFile("testdata/reference_pg18_walinit.json")
	require.NoError(t, err)
	var ref struct {
		Runs map[string]map[string]struct {
			Init int64 `json:"wal_init_writes"`
		} `json:"runs"`
	}
	require.NoError(t, json.Unmarshal(data, &ref))
	for name, settings := range map[string]string{
		"s1_cks-on":      "data_checksums=on",
		"s1_cks-off":     "data_checksums=off",
		"s1_cks-off-wlh": "data_checksums=off wal_log_hints=on",
	} {
		t.Run(name, func(t *testing.T) {
			src := seed000{settings: settings + " max_wal_size=8GB checkpoint_timeout=1h autovacuum=off", checkpoint: true}.String()
			// Marks around each step the reference measured.
			for _, r := range [][2]string{
				{"insert big\n", "mark s0\ninsert big\nmark load_big\n"},
				{"insert hot\n", "insert hot\nmark load_hot\n"},
				{"insert fill4\n", "insert fill4\nmark load_fill\n"},
				{"checkpoint\n", "checkpoint\nmark checkpoint\n"},
				{"mark before\n", "mark before\nmark warm_scans\n"},
			} {
				src = strings.Replace(src, r[0], r[1], 1)
			}
			src += "mark big_scan\n"
			env, _ := run(t, src)
			inits := func(from, to string) int64 {
				rows := func(m string) int64 {
					o, err := env.Exec("show", []datadriven.CmdArg{{Key: "io"}, {Key: "since", Vals: []string{m}}, {Key: "context", Vals: []string{"init"}}})
					require.NoError(t, err)
					var n int64
					for _, r := range o.Result.([]cluster.IORow) {
						n += r.Writes
					}
					return n
				}
				return rows(from) - rows(to)
			}
			steps := []string{"s0", "load_big", "load_hot", "load_fill", "checkpoint", "warm_scans", "big_scan"}
			for i := 1; i < len(steps); i++ {
				want := ref.Runs[name][steps[i]].Init
				require.Equal(t, want, inits(steps[i-1], steps[i]), "segments created during %s", steps[i])
			}
		})
	}
}
