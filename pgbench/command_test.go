package pgbench

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCommands(t *testing.T) {
	i, err := ParseInit([]Setting{{"scale", "10"}})
	if err != nil || i != (InitCmd{Scale: 10, Fillfactor: 100}) || strings.Join(i.Args(), " ") != "-i -s 10 -F 100 -q" || i.Check(15) != nil {
		t.Fatalf("init %+v %v %q", i, err, i.Args())
	}
	r, err := ParseRun([]Setting{{"transactions", "20000"}, {"builtin", "select-only"}, {"seed", "3"}})
	if err != nil || r != (RunCmd{Transactions: 20000, Builtin: SelectOnly, Seed: 3, Clients: 1}) || r.Check(19) != nil ||
		strings.Join(r.Args(), " ") != "-n -c 1 -j 1 -t 20000 --random-seed=3 -b select-only" {
		t.Fatalf("run %+v %v %q", r, err, r.Args())
	}
	r, _ = ParseRun([]Setting{{"transactions", "10"}, {"clients", "4"}})
	if strings.Join(r.Args(), " ") != "-n -c 4 -j 1 -t 10 --random-seed=0 -b tpcb-like" {
		t.Fatalf("defaults: %q", r.Args())
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{func() error { _, err := ParseInit([]Setting{{"scale", "x"}}); return err }(), "scale=x: an integer"},
		{func() error { _, err := ParseInit([]Setting{{"transactions", "3"}}); return err }(), "pgbench init does not take transactions=3"},
		{func() error { _, err := ParseRun([]Setting{{"scale", "3"}}); return err }(), "pgbench run does not take scale=3"},
		{func() error { _, err := ParseRun([]Setting{{"seed", "-1"}}); return err }(), "seed=-1"},
		{func() error { _, err := ParseRun([]Setting{{"builtin", "select"}}); return err }(), `builtin="select"`},
		{func() error { _, err := ParseRun([]Setting{{"clients", "two"}}); return err }(), "clients=two: an integer"},
		{InitCmd{Scale: 0, Fillfactor: 100}.Check(15), "scale=0"},
		{InitCmd{Scale: 1, Fillfactor: 101}.Check(18), "fillfactor=101"},
		{RunCmd{Transactions: 0, Clients: 1}.Check(15), "transactions=0"},
		{RunCmd{Transactions: 1, Clients: 0}.Check(15), "clients=0"},
		{RunCmd{Transactions: 1, Clients: 1, Builtin: 9}.Check(15), "builtin Builtin(9)"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("error %v, want one naming %q", c.err, c.want)
		}
	}
	// The JSON field names are the contract.
	b, _ := json.Marshal(Result{Tables: map[string]TableStats{"t": {}}, Indexes: map[string]IndexStats{"i": {}}})
	want := `{"transactions":0,"shared_hit":0,"shared_read":0,"shared_dirtied":0,"shared_written":0,"wal_records":0,"wal_fpi":0,"wal_bytes":0,"tps":0,` +
		`"tables":{"t":{"heap_blks_hit":0,"heap_blks_read":0,"idx_blks_hit":0,"idx_blks_read":0,"n_tup_ins":0,"n_tup_upd":0,"n_tup_hot_upd":0}},"indexes":{"i":{"idx_blks_hit":0,"idx_blks_read":0}}}`
	if string(b) != want {
		t.Fatalf("JSON %s", b)
	}
}

// The summary of a real run (15.18: pgbench -n -c 1 -j 1 -t 20000 --random-seed=3 -S).
func TestParseSummary(t *testing.T) {
	out := "pgbench: setting random seed to 3\npgbench (15.18 (Debian 15.18-0+deb12u1))\ntransaction type: <builtin: select only>\nscaling factor: 10\n" +
		"query mode: simple\nnumber of clients: 1\nnumber of threads: 1\nmaximum number of tries: 1\nnumber of transactions per client: 20000\n" +
		"number of transactions actually processed: 20000/20000\nnumber of failed transactions: 0 (0.000%)\nlatency average = 0.209 ms\n" +
		"initial connection time = 2.975 ms\ntps = 4790.599311 (without initial connection time)\n"
	n, tps, err := ParseSummary(out)
	if err != nil || n != 20000 || tps != 4790.599311 {
		t.Fatalf("%d %g %v", n, tps, err)
	}
	if _, _, err := ParseSummary("pgbench: error: connection to server failed\n"); err == nil {
		t.Fatal("no summary, no error")
	}
}
