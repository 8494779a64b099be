package pgbench

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// splitmix64 seeded with 0 gives e220a8397b1dcdaf, 6e789e6aa1b965f4,
// 06c45d188009454f: the reference outputs of Vigna's splitmix64.c.
func TestSplitmix64(t *testing.T) {
	var s uint64
	for _, want := range []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f} {
		if got := splitmix64(&s); got != want {
			t.Fatalf("splitmix64 = %#x, want %#x", got, want)
		}
	}
	// pg_prng_seed(0) takes the first two.
	p := NewPRNG(0)
	if s0, s1 := p.State(); s0 != 0xe220a8397b1dcdaf || s1 != 0x6e789e6aa1b965f4 {
		t.Fatalf("Seed(0) state = %#x %#x", s0, s1)
	}
}

// One xoroshiro128** step by hand from s0 = 1, s1 = 0:
// val = rotl(1*5, 7) * 9 = 640 * 9 = 5760; sx = 0 ^ 1 = 1;
// s0' = rotl(1, 24) ^ 1 ^ (1 << 16) = 0x1010001; s1' = rotl(1, 37) = 1<<37.
func TestXoroshiroStep(t *testing.T) {
	p := &PRNG{s0: 1, s1: 0}
	if v := p.Uint64(); v != 5760 {
		t.Fatalf("first value %d, want 5760", v)
	}
	if s0, s1 := p.State(); s0 != 0x1010001 || s1 != 1<<37 {
		t.Fatalf("state %#x %#x, want 0x1010001 0x2000000000", s0, s1)
	}
}

// Uint64Range: a one-value range draws nothing; otherwise each try is the
// raw value shifted right by the range's leading zeros, kept when <= range.
func TestUint64Range(t *testing.T) {
	p := NewPRNG(42)
	before := *p
	if v := p.Uint64Range(7, 7); v != 7 || *p != before {
		t.Fatalf("Uint64Range(7, 7) = %d and moved the state", v)
	}
	if v := p.Uint64Range(9, 3); v != 9 || *p != before {
		t.Fatalf("Uint64Range(9, 3) = %d and moved the state", v)
	}
	// Range 0..10: 4 bits (shift 60); replay the raw stream by hand.
	raw := *p
	var want uint64
	tries := 0
	for {
		tries++
		v := raw.Uint64() >> 60
		if v <= 10 {
			want = 5 + v
			break
		}
	}
	if got := p.Uint64Range(5, 15); got != want || *p != raw {
		t.Fatalf("Uint64Range(5, 15) = %d, want %d after %d tries", got, want, tries)
	}
	// The whole uint64 range: shift 0, never rejected.
	q := NewPRNG(42)
	r := NewPRNG(42)
	if a, b := q.Uint64Range(0, ^uint64(0)), r.Uint64(); a != b {
		t.Fatalf("full range %d, raw %d", a, b)
	}
}

// Double: the top 52 bits over 2^52.
func TestDouble(t *testing.T) {
	p := &PRNG{s0: 1, s1: 0} // first raw value 5760 (above): 5760 >> 12 = 1
	if d := p.Double(); d != 1.0/(1<<52) {
		t.Fatalf("Double = %g, want 2^-52", d)
	}
	q := NewPRNG(3)
	for i := 0; i < 1000; i++ {
		if d := q.Double(); d < 0 || d >= 1 {
			t.Fatalf("Double = %g outside [0, 1)", d)
		}
	}
}

// drawCase is one real run of the draw scripts (testdata/draws): per client,
// the sums over all transactions and the first ones, key for key.
type drawCase struct {
	version, scale, clients int
	builtin                 Builtin
	sums                    map[int][5]int64 // client: count, aid, bid, tid, delta
	first                   map[int][]Txn
}

func readDrawCase(t *testing.T, path string) drawCase {
	t.Helper()
	// draws_15_tpcb_s10_c2.txt
	var c drawCase
	var kind string
	name := strings.TrimSuffix(filepath.Base(path), ".txt")
	if _, err := fmt.Sscanf(strings.ReplaceAll(name, "_", " "), "draws %d %s s%d c%d", &c.version, &kind, &c.scale, &c.clients); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	c.builtin = TPCBLike
	if kind == "select" {
		c.builtin = SelectOnly
	}
	c.sums = map[int][5]int64{}
	c.first = map[int][]Txn{}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		var n []int64
		for _, s := range fs {
			if s == "all" {
				continue
			}
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				t.Fatalf("%s: %q: %v", path, line, err)
			}
			n = append(n, v)
		}
		switch {
		case fs[0] == "all" && len(n) == 6:
			c.sums[int(n[0])] = [5]int64{n[1], n[2], n[3], n[4], n[5]}
		case len(n) == 5:
			c.first[int(n[0])] = append(c.first[int(n[0])], Txn{n[1], n[2], n[3], n[4]})
		case len(n) == 2:
			c.first[int(n[0])] = append(c.first[int(n[0])], Txn{AID: n[1]})
		default:
			t.Fatalf("%s: cannot read %q", path, line)
		}
	}
	if len(c.sums) != c.clients || len(c.first) != c.clients {
		t.Fatalf("%s: %d sums and %d clients' draws for %d clients", path, len(c.sums), len(c.first), c.clients)
	}
	return c
}

// TestDrawsMatchRealPgbench replays the real pgbench's draws (15.18, 18beta1,
// 19beta1; -n -c C -j 1 -t 2000 --random-seed=3) key for key: the first 300
// transactions of each client exactly, and all 2000 through their sums.
func TestDrawsMatchRealPgbench(t *testing.T) {
	paths, err := filepath.Glob("testdata/draws/draws_*.txt")
	if err != nil || len(paths) < 24 {
		t.Fatalf("want 24 recorded runs (3 versions x 2 scripts x 2 scales x 1-2 clients), found %d (%v)", len(paths), err)
	}
	for _, path := range paths {
		c := readDrawCase(t, path)
		t.Run(filepath.Base(path), func(t *testing.T) {
			cl, err := NewClients(c.version, 3, c.clients)
			if err != nil {
				t.Fatal(err)
			}
			for id, client := range cl {
				if client.ID != id {
					t.Fatalf("client %d has ID %d", id, client.ID)
				}
				sums := c.sums[id]
				var got [5]int64
				for i := int64(0); i < sums[0]; i++ {
					x, err := client.Next(c.builtin, c.scale)
					if err != nil {
						t.Fatal(err)
					}
					if first := c.first[id]; i < int64(len(first)) && x != first[i] {
						t.Fatalf("client %d transaction %d: drew %+v, pgbench drew %+v", id, i, x, first[i])
					}
					got[0]++
					got[1] += x.AID
					got[2] += x.BID
					got[3] += x.TID
					got[4] += x.Delta
				}
				if got != sums {
					t.Fatalf("client %d: count and sums %v, pgbench %v", id, got, sums)
				}
			}
		})
	}
}

// The builtins draw aid, bid, tid, delta from one state in that order
// (simple-update exactly as tpcb-like); the thread's states come after the
// clients' and :default_seed.
func TestSeedingOrder(t *testing.T) {
	base := NewPRNG(3)
	var c0, c1, ch PRNG
	c0.Seed(base.Uint64())
	c1.Seed(base.Uint64())
	def := int64(base.Uint64())
	ch.Seed(base.Uint64())
	r, err := NewRun(15, 3, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if r.Clients[0].rs != c0 || r.Clients[1].rs != c1 || r.DefaultSeed != def || r.Threads[0].Choose != ch {
		t.Fatal("seeding order is not clients, default_seed, thread states")
	}
	if len(r.Threads) != 1 || len(r.Threads[0].Clients) != 2 {
		t.Fatalf("threads %+v", r.Threads)
	}
	a, _ := NewClients(18, 3, 1)
	b, _ := NewClients(18, 3, 1)
	for i := 0; i < 100; i++ {
		x, _ := a[0].Next(TPCBLike, 7)
		y, _ := b[0].Next(SimpleUpdate, 7)
		if x != y {
			t.Fatalf("tpcb-like %+v and simple-update %+v differ", x, y)
		}
	}
	// 5 clients on 2 threads: 2 and 3 (pgbench deals (5+1)/2 = ... from the
	// formula: thread 0 gets (5-0+2-0-1)/2 = 3, thread 1 the other 2).
	r, _ = NewRun(19, 1, 5, 2)
	if fmt.Sprint(r.Threads[0].Clients, r.Threads[1].Clients) != "[0 1 2] [3 4]" {
		t.Fatalf("dealt %v %v", r.Threads[0].Clients, r.Threads[1].Clients)
	}
	r, _ = NewRun(19, 1, 2, 8)
	if len(r.Threads) != 2 {
		t.Fatalf("8 threads for 2 clients: %d threads, pgbench reduces to 2", len(r.Threads))
	}
}

func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{func() error { _, err := NewClients(14, 1, 1); return err }(), "version 14"},
		{func() error { _, err := NewClients(20, 1, 1); return err }(), "version 20"},
		{func() error { _, err := NewClients(15, 1, 0); return err }(), "clients=0"},
		{func() error { _, err := NewRun(15, 1, 1, 0); return err }(), "threads=0"},
		{func() error { _, err := ParseBuiltin("select"); return err }(), `builtin="select"`},
		{func() error { c, _ := NewClients(15, 1, 1); _, err := c[0].Next(TPCBLike, 0); return err }(), "scale=0"},
		{func() error { c, _ := NewClients(15, 1, 1); _, err := c[0].Next(Builtin(7), 1); return err }(), "builtin Builtin(7)"},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("error %v, want one naming %q", tc.err, tc.want)
		}
	}
	for i, n := range []string{"tpcb-like", "simple-update", "select-only"} {
		b, err := ParseBuiltin(n)
		if err != nil || b != Builtin(i) || b.String() != n {
			t.Errorf("ParseBuiltin(%q) = %v, %v", n, b, err)
		}
	}
}

// The scripts' text is what `pgbench --show-script=NAME` prints on each
// version ("-- NAME: DESCRIPTION", the script, an empty line), captured in
// testdata/show-script.
func TestScriptsAsPgbenchShowsThem(t *testing.T) {
	for _, v := range []int{15, 18, 19} {
		real, err := os.ReadFile(fmt.Sprintf("testdata/show-script/pg%d.txt", v))
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, s := range []Builtin{TPCBLike, SimpleUpdate, SelectOnly} {
			fmt.Fprintf(&b, "-- %s: %s\n%s\n", s, s.Description(), s.Script())
		}
		if b.String() != string(real) {
			t.Errorf("pg%d: the scripts differ from pgbench --show-script:\n%s\nwant\n%s", v, b.String(), real)
		}
	}
	if got := SelectOnly.Statements(); len(got) != 1 || got[0] != "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;" {
		t.Errorf("select-only statements %q", got)
	}
	if got := TPCBLike.Statements(); len(got) != 7 || got[0] != "BEGIN;" || got[6] != "END;" {
		t.Errorf("tpcb-like statements %q", got)
	}
}

// BenchmarkNext is the cost of one tpcb-like transaction's keys.
func BenchmarkNext(b *testing.B) {
	c, _ := NewClients(18, 3, 1)
	for i := 0; i < b.N; i++ {
		if _, err := c[0].Next(TPCBLike, 100); err != nil {
			b.Fatal(err)
		}
	}
}
