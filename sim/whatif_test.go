package sim

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/scenario"
	"github.com/stretchr/testify/require"
)

// whatIf runs a shipped what-if example with one cluster setting changed
// (old → new on its cluster line, the first line starting "cluster "; ""
// keeps the file as it is).
func whatIf(t *testing.T, name, old, new string) map[string]int {
	src, err := os.ReadFile("../examples/what-if/" + name + ".scn")
	require.NoError(t, err)
	s := string(src)
	if old != "" {
		lines := strings.Split(s, "\n")
		for i, l := range lines {
			if strings.HasPrefix(l, "cluster ") {
				require.Contains(t, l, old)
				lines[i] = strings.Replace(l, old, new, 1)
				break
			}
		}
		s = strings.Join(lines, "\n")
	}
	env, _ := run(t, s)
	return buffers(env)
}

// examples/what-if/quarter-cliff-2q.scn: the clock loses the hot table to
// the eight quarter tables (0 of its 3,000 pages left, as in
// examples/quarter-cliff.scn); 2Q keeps all 3,000 in T2, since each q table's
// pages are seen once and victims come from T1 while T1 holds more than a
// quarter of the pool.
func TestWhatIfQuarterCliff2Q(t *testing.T) {
	require.Equal(t, 3000, whatIf(t, "quarter-cliff-2q", "", "")["hot"])
	require.Equal(t, 0, whatIf(t, "quarter-cliff-2q", "replacement=2q", "replacement=clock")["hot"])
}

// examples/what-if/ring-flood-reject-flush.scn: with reject=flush big ends
// with its three processes' rings (PG18: each ring capped at the pin limit,
// 16,384 / (100 + 8 + 10 + 16 + 2 + 38) = 94 buffers: 282), with PG17's
// 256kB rings 3 x 32 = 96, and hot keeps its 3,000 pages; with reject=pg the
// flood takes the pool and hot is gone.
func TestWhatIfRingFloodRejectFlush(t *testing.T) {
	b := whatIf(t, "ring-flood-reject-flush", "", "")
	require.Equal(t, [2]int{282, 3000}, [2]int{b["big"], b["hot"]})
	b = whatIf(t, "ring-flood-reject-flush", "version=18", "version=17")
	require.Equal(t, [2]int{96, 3000}, [2]int{b["big"], b["hot"]})
	b = whatIf(t, "ring-flood-reject-flush", "reject=flush", "reject=pg")
	require.Equal(t, 0, b["hot"])
	require.Greater(t, b["big"], 16000)
}

// Every shipped example runs under each replacement policy, without the free
// list and with reject=flush, with the pool's invariants checked after every
// command (one buffer per page, refcounts equal to pins, ring slots inside
// the pool).
func TestWhatIfExamplesKeepInvariants(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every example under five variants")
	}
	files, err := filepath.Glob("../examples/*.scn")
	require.NoError(t, err)
	lessons, err := filepath.Glob("../examples/lessons/*.scn")
	require.NoError(t, err)
	for _, path := range append(files, lessons...) {
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		for _, variant := range []string{"replacement=lru freelist=off", "replacement=2q reject=flush", "usage_max=1 ring=8",
			"replacement=arc", "replacement=clock-pro freelist=off"} {
			t.Run(filepath.Base(path)+"/"+variant, func(t *testing.T) {
				f, err := scenario.Parse(path, string(src))
				require.NoError(t, err)
				env := &Env{Seed: 1, CheckInvariants: true, Dir: filepath.Dir(path)}
				for _, st := range f.Steps {
					args := st.Args
					if st.Cmd == "cluster" {
						for _, kv := range strings.Fields(variant) {
							k, v, _ := strings.Cut(kv, "=")
							args = append(args, datadriven.CmdArg{Key: k, Vals: []string{v}})
						}
					}
					_, err := env.Exec(st.Cmd, args)
					require.NoError(t, err, "%s:%d: %s", path, st.Line, st.Text)
				}
			})
		}
	}
}
