package scenario

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/pg"
)

// FuzzScenario runs arbitrary scenario text: every command must either work
// or return an error — never panic — and the pool's invariants must hold
// after every command that works. Sizes are kept small so each input runs
// quickly: an input naming 100,000 rows or pages or more stops there.
func FuzzScenario(f *testing.F) {
	seeds, _ := filepath.Glob("../examples/*.scn")
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			src := strings.ReplaceAll(string(b), "131072", "1310")
			// pgbench's tables at scale 1 (100,000 accounts) and short runs.
			src = strings.NewReplacer("scale=10", "scale=1", "scale=5", "scale=1",
				"transactions=20000", "transactions=200", "transactions=2000", "transactions=100").Replace(src)
			f.Add(src)
		}
	}
	f.Add("cluster version=15 shared_buffers=16MB\ntable t rows=1000 tuple_bytes=100\nindex t_id on=t key=id\ninsert t\nindex_scan t_id from=1 to=2000\n")
	f.Add("cluster version=17 shared_buffers=128kB wal_compression=pglz data_checksums=on\ntable t pages=40 tuple_bytes=1832\nbegin\ntruncate t\ncopy t freeze\ncommit\ncheckpoint\nanalyze t\nvacuum t freeze\nshow replication since=x\n")
	f.Fuzz(func(t *testing.T, src string) {
		file, err := Parse("fuzz.scn", src)
		if err != nil {
			return
		}
		env := &Env{Seed: 1, CheckInvariants: true}
		for _, st := range file.Steps {
			if tooBig(st.Args) {
				return
			}
			_, err := env.Exec(st.Cmd, st.Args)
			if err != nil && strings.Contains(err.Error(), "invariant") {
				t.Fatalf("line %d %q: %v", st.Line, st.Text, err)
			}
			// A few pages of tiny tuples are many rows: keep each input quick.
			if st.Cmd == "table" && err == nil && len(st.Args) > 0 {
				if r, ok := env.C.Table(st.Args[0].Key); ok && r.Declared > 50_000 {
					return
				}
			}
		}
	})
}

// tooBig keeps each fuzz input quick: sizes and repeats above these bounds
// stop the input there (the bounds still allow rings, the quarter cliff
// and evictions on the small pools).
func tooBig(args []datadriven.CmdArg) bool {
	limits := map[string]int64{"rows": 50_000, "pages": 5_000, "to": 50_000, "repeat": 4, "requests": 50_000,
		"scale": 1, "transactions": 500, "clients": 8}
	for _, a := range args {
		for _, v := range a.Vals {
			if lim, ok := limits[a.Key]; ok {
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil || n > lim {
					return true
				}
			}
			if a.Key == "shared_buffers" {
				n, err := pg.ParseSize(v, pg.UnitBlocks)
				if err != nil || n > 16384 { // 128MB
					return true
				}
			}
		}
	}
	return false
}

// FuzzCommands decodes bytes into a sequence of valid-looking commands on a
// small cluster (16–64 buffers, versions 15–18, checksums on or off, a small
// page cache on any device) over three tables: loads, scans, VACUUM,
// ANALYZE, checkpoints, evictions, restarts, dropped caches, indexes,
// truncations and setting changes. Commands may fail (a table not loaded
// yet); none may panic, and the pool's invariants hold after every one.
func FuzzCommands(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	f.Add([]byte{3, 200, 17, 0, 0, 1, 1, 9, 2, 4, 4, 4, 7, 2, 9, 9, 12})
	f.Add([]byte("the checksum ring flood, shaken"))
	f.Fuzz(func(t *testing.T, data []byte) {
		pos := 0
		next := func(n int) int {
			if pos >= len(data) {
				return 0
			}
			pos++
			return int(data[pos-1]) % n
		}
		devices := []string{"nvme", "sata-ssd", "hdd", "cloud-ebs"}
		cmds := []string{fmt.Sprintf("cluster version=%d shared_buffers=%d data_checksums=%v os_cache=%dkB device=%s",
			15+next(4), 16+next(49), next(2) == 0, 8*next(64), devices[next(4)])}
		for len(cmds) < 40 && pos < len(data) {
			tb := fmt.Sprintf("t%d", next(3))
			switch next(18) {
			case 0:
				cmds = append(cmds, fmt.Sprintf("table %s pages=%d tuple_bytes=%d", tb, 1+next(80), 40+8*next(200)))
			case 1:
				cmds = append(cmds, "insert "+tb)
			case 2:
				cmds = append(cmds, "copy "+tb)
			case 3, 4:
				cmds = append(cmds, "scan "+tb)
			case 5:
				cmds = append(cmds, "vacuum "+tb)
			case 6:
				cmds = append(cmds, "analyze "+tb)
			case 7:
				cmds = append(cmds, "checkpoint")
			case 8:
				cmds = append(cmds, "evict all")
			case 9:
				cmds = append(cmds, "evict "+tb)
			case 10:
				cmds = append(cmds, "restart")
			case 11:
				cmds = append(cmds, "drop caches")
			case 12:
				cmds = append(cmds, fmt.Sprintf("index %s_id on=%s key=id", tb, tb))
			case 13:
				cmds = append(cmds, fmt.Sprintf("index_scan %s_id from=%d to=%d", tb, 1+next(50), 50+next(200)))
			case 14:
				cmds = append(cmds, "truncate "+tb)
			case 15:
				cmds = append(cmds, fmt.Sprintf("set effective_io_concurrency=%d", next(64)))
			case 16:
				cmds = append(cmds, fmt.Sprintf("index %s_k on=%s key=k distinct=%d correlation=0.%d", tb, tb, 1+next(20), next(10)))
			case 17:
				cmds = append(cmds, fmt.Sprintf("index_scan %s_k key=%d order=%s", tb, 1+next(20), []string{"index", "sorted"}[next(2)]))
			}
		}
		file, err := Parse("fuzz.scn", strings.Join(cmds, "\n"))
		if err != nil {
			t.Fatalf("generated scenario does not parse: %v", err)
		}
		env := &Env{Seed: 1, CheckInvariants: true}
		for _, st := range file.Steps {
			if _, err := env.Exec(st.Cmd, st.Args); err != nil && strings.Contains(err.Error(), "invariant") {
				t.Fatalf("line %d %q: %v\n%s", st.Line, st.Text, err, strings.Join(cmds, "\n"))
			}
		}
	})
}
