package scenario

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/strategy"
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

// quarterCliffSteps runs examples/what-if/quarter-cliff-NAME.scn with the
// command "evict all" replaced by repl ("" keeps it) and returns the hot
// table's buffers after each "show buffercache hot", and under ARC its T1,
// T2, B1, B2 and target right after "scan fill4".
func quarterCliffSteps(t *testing.T, name, repl string) (hot []int, afterFill4 [5]int) {
	src, err := os.ReadFile("../examples/what-if/quarter-cliff-" + name + ".scn")
	require.NoError(t, err)
	s := string(src)
	if repl != "" {
		require.Contains(t, s, "\nevict all\n")
		s = strings.Replace(s, "\nevict all\n", "\n"+repl+"\n", 1)
	}
	f, err := Parse(name, s)
	require.NoError(t, err)
	env := &Env{Seed: 1, CheckInvariants: true}
	for _, st := range f.Steps {
		o, err := env.Exec(st.Cmd, st.Args)
		require.NoError(t, err, "line %d: %s", st.Line, st.Text)
		switch st.Text {
		case "scan fill4":
			if a, ok := env.C.Pool().Control().Replacement().(*strategy.ARC); ok {
				t1, t2, b1, b2, target := a.Sizes()
				afterFill4 = [5]int{t1, t2, b1, b2, target}
			}
		case "show buffercache hot":
			n := 0
			for _, l := range strings.Split(o.Text, "\n") {
				if fs := strings.Fields(l); len(fs) > 1 && fs[0] == "hot" {
					n, err = strconv.Atoi(fs[1])
					require.NoError(t, err, l)
				}
			}
			hot = append(hot, n)
		}
	}
	return hot, afterFill4
}

// examples/what-if/quarter-cliff-arc.scn: ARC (8.0.0/8.0.1) loses the hot
// table, none of its 3,000 pages left after any of the eight q scans,
// because the directory still remembers the load phase: by the end of the
// fill scans the B1 hits have pushed the T1 target to the whole pool
// (16,384), so victims come from T2, hot's list. With "restart" in place of
// "evict all" the directory starts empty and hot keeps its 3,000 pages.
func TestWhatIfQuarterCliffARC(t *testing.T) {
	hot, sizes := quarterCliffSteps(t, "arc", "")
	require.Equal(t, []int{0, 0, 0, 0, 0, 0, 0, 0}, hot)
	require.Equal(t, 16384, sizes[4], "T1 target after the fill scans (T1, T2, B1, B2, target: %v)", sizes)
	require.Less(t, sizes[0], sizes[4])
	hot, _ = quarterCliffSteps(t, "arc", "restart")
	require.Equal(t, []int{3000, 3000, 3000, 3000, 3000, 3000, 3000, 3000}, hot)
}

// examples/what-if/quarter-cliff-clock-pro.scn: CLOCK-Pro keeps the hot
// table whole, 3,000 buffers after every q scan.
func TestWhatIfQuarterCliffClockPro(t *testing.T) {
	hot, _ := quarterCliffSteps(t, "clock-pro", "")
	require.Equal(t, []int{3000, 3000, 3000, 3000, 3000, 3000, 3000, 3000}, hot)
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
				f, err := Parse(path, string(src))
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
