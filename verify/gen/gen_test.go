package gen

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pgbufsim/pgbufsim/scenario"
	"github.com/stretchr/testify/require"
)

// Every generated scenario runs in the simulator without an error, is the
// same for the same seed, and over many seeds uses every kind of step.
func TestGenerateValid(t *testing.T) {
	seen := map[string]int{}
	n := 80
	if testing.Short() {
		n = 20
	}
	for _, v := range []int{15, 18, 19} {
		for seed := uint64(1); seed <= uint64(n); seed++ {
			src := Generate(seed, Options{Version: v})
			require.Equal(t, src, Generate(seed, Options{Version: v}), "seed %d: not reproducible", seed)
			name := fmt.Sprintf("random-%d-%d.scn", v, seed)
			f, err := scenario.Parse(name, src)
			require.NoError(t, err, src)
			env := &scenario.Env{Seed: 1}
			for _, st := range f.Steps {
				_, err := env.Exec(st.Cmd, st.Args)
				require.NoError(t, err, "%s:%d: %s\n%s", name, st.Line, st.Text, src)
				key := st.Cmd
				if st.Cmd == "copy" && strings.Contains(st.Text, "freeze") {
					key = "copy freeze"
				}
				seen[key]++
			}
			for _, w := range []string{"data_checksums=on", "data_checksums=off", "wal_log_hints=on", "repeat="} {
				if strings.Contains(src, w) {
					seen[w]++
				}
			}
			for _, mb := range []string{"16MB", "32MB", "64MB", "128MB", "256MB"} {
				if strings.Contains(src, "shared_buffers="+mb) {
					seen[mb]++
				}
			}
		}
	}
	for _, k := range []string{"insert", "copy", "copy freeze", "checkpoint", "evict", "restart", "scan", "set", "vacuum", "analyze",
		"index", "index_scan", "show", "data_checksums=on", "data_checksums=off", "wal_log_hints=on", "repeat=",
		"16MB", "32MB", "64MB", "128MB", "256MB"} {
		require.Positive(t, seen[k], "no generated scenario has %q", k)
	}
	require.NotEqual(t, Generate(1, Options{Version: 18}), Generate(2, Options{Version: 18}))
	// The host's settings end the cluster line and change nothing else.
	host := "host_time_scale=0.9 host_cpus=2 device_flush=0.5ms device_write_mbps=500"
	for seed := uint64(1); seed <= 20; seed++ {
		plain, hosted := Generate(seed, Options{Version: 18}), Generate(seed, Options{Version: 18, Host: host})
		p, h := strings.Split(plain, "\n"), strings.Split(hosted, "\n")
		require.Equal(t, p[1]+" "+host, h[1], "seed %d: the cluster line", seed)
		require.Equal(t, append(p[:1:1], p[2:]...), append(h[:1:1], h[2:]...), "seed %d: the rest", seed)
	}
	require.NotContains(t, Generate(7, Options{Version: 15}), "show io", "pg_stat_io is new in 16")
	require.NotContains(t, Generate(7, Options{Version: 18, MaxPoolMB: 32}), "shared_buffers=64MB")
}
