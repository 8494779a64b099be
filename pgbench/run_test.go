package pgbench

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestBuiltinRunsAsLogged replays what the real pgbench sent with the
// builtin scripts themselves (-b, -S, -N; -n -j 1 -t 20 --random-seed=3 at
// scale 20; testdata/run, the servers' log_statement = all): the setup
// connection's two queries, then each client's statements with its keys,
// statement for statement. This is the builtin (not a -f copy of its \set
// lines) drawing exactly what Next draws.
func TestBuiltinRunsAsLogged(t *testing.T) {
	paths, _ := filepath.Glob("testdata/run/pg*.log")
	if len(paths) != 12 {
		t.Fatalf("want 12 logged runs, found %d", len(paths))
	}
	re := regexp.MustCompile(`^pg(\d+)_([a-z-]+)_c(\d)`)
	line := regexp.MustCompile(`^\[(\d+)\] statement: (.*)$`)
	for _, path := range paths {
		m := re.FindStringSubmatch(filepath.Base(path))
		var v, clients int
		fmt.Sscan(m[1], &v)
		fmt.Sscan(m[3], &clients)
		b, err := ParseBuiltin(m[2])
		if err != nil {
			t.Fatal(err)
		}
		var pids []string
		byPid := map[string][]string{}
		for _, l := range readLines(t, path) {
			if strings.HasPrefix(l, "#") {
				continue
			}
			lm := line.FindStringSubmatch(l)
			if lm == nil {
				t.Fatalf("%s: %q", path, l)
			}
			if _, ok := byPid[lm[1]]; !ok {
				pids = append(pids, lm[1])
			}
			byPid[lm[1]] = append(byPid[lm[1]], lm[2])
		}
		if len(pids) != clients+1 {
			t.Fatalf("%s: %d sessions, want the setup one and %d clients", path, len(pids), clients)
		}
		if strings.Join(byPid[pids[0]], "\n") != strings.Join(SetupQueries, "\n") {
			t.Errorf("%s: setup session sent %q", path, byPid[pids[0]])
		}
		// The clients connect in order, 0 first, so their backends' pids
		// ascend (the log interleaves their statements in no fixed order).
		cpids := pids[1:]
		sort.Slice(cpids, func(i, j int) bool { a, _ := strconv.Atoi(cpids[i]); b, _ := strconv.Atoi(cpids[j]); return a < b })
		cl, err := NewClients(v, 3, clients)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range cl {
			var want []string
			for n := 0; n < 20; n++ {
				x, err := c.Next(b, 20)
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, x.SQL(b)...)
			}
			if got := byPid[cpids[i]]; strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s client %d:\n%s\nthe server logged\n%s", path, i, strings.Join(want[:4], "\n"), strings.Join(got[:min(4, len(got))], "\n"))
			}
		}
	}
}
