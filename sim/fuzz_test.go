package sim

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/scenario"
)

// FuzzScenario runs arbitrary scenario text: every command must either work
// or return an error — never panic — and the pool's invariants must hold
// after every command that works. Sizes are kept small so each input runs
// quickly: an input naming 100,000 rows or pages or more stops there.
func FuzzScenario(f *testing.F) {
	seeds, _ := filepath.Glob("../examples/*.scn")
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(strings.ReplaceAll(string(b), "131072", "1310"))
		}
	}
	f.Add("cluster version=15 shared_buffers=16MB\ntable t rows=1000 tuple_bytes=100\nindex t_id on=t key=id\ninsert t\nindex_scan t_id from=1 to=2000\n")
	f.Add("cluster version=17 shared_buffers=128kB wal_compression=pglz data_checksums=on\ntable t pages=40 tuple_bytes=1832\nbegin\ntruncate t\ncopy t freeze\ncommit\ncheckpoint\nanalyze t\nvacuum t freeze\nshow replication since=x\n")
	f.Fuzz(func(t *testing.T, src string) {
		file, err := scenario.Parse("fuzz.scn", src)
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
		}
	})
}

func tooBig(args []datadriven.CmdArg) bool {
	for _, a := range args {
		for _, v := range a.Vals {
			if len(v) > 5 && (a.Key == "rows" || a.Key == "pages" || a.Key == "shared_buffers" || a.Key == "to" || a.Key == "repeat") {
				return true
			}
		}
		if a.Key == "shared_buffers" {
			for _, v := range a.Vals {
				if strings.HasSuffix(v, "GB") || strings.HasSuffix(v, "TB") {
					return true
				}
			}
		}
	}
	return false
}
