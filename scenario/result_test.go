package scenario

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgbufsim/pgbufsim/cluster"
	"github.com/stretchr/testify/require"
)

// resultType is the Go type of Output.Result each command sets, as the
// Output doc lists them ("<nil>": none).
func resultType(cmd string, args []string) string {
	switch cmd {
	case "insert", "copy", "scan", "vacuum", "analyze", "checkpoint", "evict", "index", "index_scan":
		return "*cluster.StmtResult"
	case "cluster", "set":
		return "scenario.Notices"
	case "table":
		return "cluster.TableInfo"
	case "truncate":
		return "cluster.TruncateResult"
	case "drop":
		return "cluster.DropCachesResult"
	case "replay":
		return "*replay.Result"
	case "recover":
		return "*cluster.RecoveryReport"
	case "crash":
		if len(args) > 0 {
			return "<nil>" // armed: nothing happened yet
		}
		return "cluster.CrashReport"
	case "pgbench":
		return map[string]string{"init": "*cluster.PgbenchInitResult", "run": "*cluster.PgbenchResult"}[args[0]]
	case "show":
		if args[0] == "stat" {
			return map[string]string{"tables": "[]cluster.TableStats", "database": "cluster.DatabaseStats"}[args[1]]
		}
		return map[string]string{"buffercache": "*cluster.Buffercache", "io": "[]cluster.IORow", "wal": "cluster.WALReport",
			"settings": "cluster.SettingsReport", "visibility": "cluster.VisibilityReport", "replication": "cluster.ReplicationReport",
			"corruption": "cluster.CorruptionReport", "pool": "scenario.PoolMap"}[args[0]]
	}
	return "<nil>"
}

// TestResultMatchesOutput runs every golden file and lesson and checks that
// each command's typed result is the documented type and says what its text
// and JSON say: a statement's JSON is made from it, the buffercache rows and
// the WAL figures are its own, and an armed crash that fires is on the
// command it fired during.
func TestResultMatchesOutput(t *testing.T) {
	files, err := filepath.Glob("testdata/scenarios/*")
	require.NoError(t, err)
	lessons, err := filepath.Glob("../examples/lessons/*.scn")
	require.NoError(t, err)
	files = append(files, lessons...)
	require.Len(t, files, 11)
	kinds := map[string]bool{}
	for _, p := range files {
		src, err := os.ReadFile(p)
		require.NoError(t, err)
		f, err := Parse(p, string(src))
		require.NoError(t, err)
		env := &Env{Seed: 1, CheckInvariants: true, Dir: filepath.Dir(p)}
		for _, st := range f.Steps {
			o, err := env.Exec(st.Cmd, st.Args)
			if err != nil {
				continue
			}
			var args []string
			for _, a := range st.Args {
				args = append(args, a.String())
			}
			where := fmt.Sprintf("%s:%d: %s", p, st.Line, st.Text)
			require.Equal(t, resultType(st.Cmd, args), fmt.Sprintf("%T", o.Result), where)
			kinds[fmt.Sprintf("%T", o.Result)] = true
			require.Equal(t, strings.Contains(o.Text, "power failed during this command"), o.PowerFailure != nil, where)
			switch r := o.Result.(type) {
			case *cluster.StmtResult:
				js := o.JSON.(map[string]any)
				want := stmtJSON(r)
				if o.PowerFailure != nil {
					want["crash"] = crashJSON(*o.PowerFailure)
				}
				require.Equal(t, want, js, where)
				s, ok := o.Stmt()
				require.True(t, ok, where)
				require.Same(t, r, s, where)
				// The text starts with it (a trace or a power failure may follow);
				// scan repeat=N prints every run, this the last.
				if !strings.Contains(st.Text, "repeat=") {
					require.True(t, strings.HasPrefix(o.Text, r.String()), where)
				} else {
					require.True(t, strings.HasSuffix(strings.SplitN(o.Text, "\ntrace:", 2)[0], r.String()), where)
				}
			case *cluster.Buffercache:
				rows := o.JSON.(map[string]any)["relations"].([]map[string]any)
				require.Len(t, rows, len(r.Rows), where)
				for i, row := range r.Rows {
					require.Equal(t, row.Relation, rows[i]["name"], where)
					require.Equal(t, row.Buffers, rows[i]["buffers"], where)
				}
				require.Equal(t, r.Unused, o.JSON.(map[string]any)["unused"], where)
			case cluster.WALReport:
				js := o.JSON.(map[string]any)
				require.Equal(t, r.Bytes, js["bytes"], where)
				require.Equal(t, r.Usage.FPI, js["fpi"], where)
			case []cluster.IORow:
				rows, _ := o.JSON.(map[string]any)["rows"].([]map[string]any)
				require.Len(t, rows, len(r), where)
				for i := range r {
					require.Equal(t, r[i].Writes, rows[i]["writes"], where)
				}
			}
		}
	}
	// The files reach the statement, snapshot, crash and replay results.
	for _, k := range []string{"*cluster.StmtResult", "*cluster.Buffercache", "cluster.WALReport",
		"cluster.TableInfo", "*replay.Result", "*cluster.RecoveryReport", "scenario.Notices", "scenario.PoolMap"} {
		require.True(t, kinds[k], "no command gave a %s", k)
	}
}
