//go:build verify

package verify

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pgbufsim/pgbufsim/verify/gen"
	"github.com/stretchr/testify/require"
)

// knownRandom reads testdata/random-known.txt: the disagreements of the
// bounded random run that are recorded with their explanation, one a line,
// "VERSION SEED LINE FIGURE  # why".
func knownRandom(t *testing.T) map[string]string {
	f, err := os.Open("testdata/random-known.txt")
	require.NoError(t, err)
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		body, why, ok := strings.Cut(l, "#")
		require.True(t, ok && strings.TrimSpace(why) != "", "random-known.txt: %q gives no reason", l)
		out[strings.Join(strings.Fields(body), " ")] = strings.TrimSpace(why)
	}
	require.NoError(t, sc.Err())
	return out
}

// TestRandom is the bounded random run: PGBUFSIM_VERIFY_RANDOM scenarios
// (default 3) per version, seeds 1…N, pools up to 32MB, each verified on the
// server (a scenario outside tolerance runs once more), simulated on the
// server's host as measured first (random.Options.SimulateHost says why). Every figure still
// outside tolerance must be one recorded in testdata/random-known.txt with
// its explanation; any other fails the test, and the scenario is written to
// $PGBUFSIM_VERIFY_RANDOM_OUT (if set) as a ready-to-add file.
func TestRandom(t *testing.T) {
	n := 3
	if s := os.Getenv("PGBUFSIM_VERIFY_RANDOM"); s != "" {
		var err error
		n, err = strconv.Atoi(s)
		require.NoError(t, err)
	}
	known := knownRandom(t)
	for _, major := range suiteVersions(t) {
		t.Run(fmt.Sprintf("pg%d", major), func(t *testing.T) {
			bin := pgBinFor(t, major)
			privateTmp(t)
			before := len(leftovers(t))
			hctx, hcancel := context.WithTimeout(context.Background(), 5*time.Minute)
			hs, err := MeasureHostScale(hctx, bin, HostScaleRuns, nil)
			hcancel()
			require.NoError(t, err)
			t.Logf("the host: %s (calibration %v ms on the server, %.1f simulated)", hs.Settings(), hs.RealMs, hs.SimMs)
			for seed := uint64(1); seed <= uint64(n); seed++ {
				t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
					name := fmt.Sprintf("random-pg%d-seed%d.scn", major, seed)
					src := gen.Generate(seed, gen.Options{Version: major, MaxPoolMB: 32, Host: hs.Settings()})
					ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
					defer cancel()
					rep, err := Run(ctx, name, src, Options{PGBin: bin, Seed: 1})
					require.NoError(t, err, src)
					if !rep.OK() {
						rep, err = Run(ctx, name, src, Options{PGBin: bin, Seed: 1})
						require.NoError(t, err, src)
					}
					judged, outside := rep.Counts()
					t.Logf("%s: %d figures judged, %d outside tolerance", name, judged, outside)
					var unknown []string
					for _, r := range rep.Failed() {
						key := fmt.Sprintf("%d %d %d %s", major, seed, r.Line, strings.Join(strings.Fields(r.Figure), " "))
						if why, ok := known[key]; ok {
							t.Logf("known: line %d %s: pgbufsim %d, postgres %d — %s", r.Line, r.Figure, r.Sim, r.Real, why)
							continue
						}
						unknown = append(unknown, fmt.Sprintf("%s: pgbufsim %d, postgres %d (%s)", key, r.Sim, r.Real, r.Tolerance))
					}
					if len(unknown) > 0 {
						if dir := os.Getenv("PGBUFSIM_VERIFY_RANDOM_OUT"); dir != "" {
							require.NoError(t, os.MkdirAll(dir, 0o755))
							require.NoError(t, os.WriteFile(dir+"/"+name, []byte(src), 0o644))
						}
						t.Errorf("figures outside tolerance twice and not in testdata/random-known.txt:\n%s\n%s\n%s",
							strings.Join(unknown, "\n"), src, rep.Text())
					}
				})
			}
			require.Equal(t, before, len(leftovers(t)), "a data directory was left behind")
		})
	}
}
