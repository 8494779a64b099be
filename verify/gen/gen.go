// Package gen writes random valid scenarios for the differential tests:
// each seed gives one scenario, the same every time.
package gen

import (
	"fmt"
	"strings"

	"github.com/pgbufsim/pgbufsim/internal/rng"
)

// Options bound the random scenarios.
type Options struct {
	Version int // the server's major version (the scenario's cluster line, and which commands translate)
	// MaxPoolMB caps shared_buffers (16–256MB; 0 means 256): the bounded run
	// in scripts/test keeps to small pools so that a scenario takes seconds.
	MaxPoolMB int
	// Host is machine settings appended to the cluster line (the server's
	// host as verify.HostScale.Settings gives it: host_time_scale, host_cpus,
	// the device's fdatasync); "" simulates the default machine. It draws
	// nothing from the seed, so a seed's scenario is the same with or without.
	Host string
}

// Generate returns a random valid scenario, the same for the same seed and
// options: a cluster of 16MB–256MB with checksums and wal_log_hints on or
// off; one to three tables sized either side of NBuffers/4 and NBuffers/8
// (and some larger than the pool), loaded by INSERT, COPY or COPY FREEZE,
// perhaps with an index; a checkpoint or not; an eviction, a restart or
// neither; then scans (serial or parallel, some repeated), VACUUM, ANALYZE
// and index scans, ending with the buffer cache, the WAL since the first
// mark, the visibility map and (16+) pg_stat_io.
func Generate(seed uint64, o Options) string {
	r := &gen{r: rng.New(seed ^ 0x70676275667369), v: o.Version}
	g := r
	maxPool := o.MaxPoolMB
	if maxPool <= 0 || maxPool > 256 {
		maxPool = 256
	}
	// Small pools more often: a 256MB pool's tables take a while to load.
	var pools, weights []int
	total := 0
	for i, p := range []int{16, 32, 64, 128, 256} {
		if p <= maxPool {
			w := []int{35, 25, 18, 12, 10}[i]
			pools, weights = append(pools, p), append(weights, w)
			total += w
		}
	}
	pool := pools[0]
	for i, x := 0, r.IntN(total); i < len(pools); i++ {
		if x < weights[i] {
			pool = pools[i]
			break
		}
		x -= weights[i]
	}
	nbuf := pool * 128
	cks := g.coin()
	wlh := !cks && g.coin()
	fmt.Fprintf(&g.b, "# random scenario: seed %d, PostgreSQL %d\n", seed, o.Version)
	fmt.Fprintf(&g.b, "cluster version=%d shared_buffers=%dMB max_wal_size=1GB checkpoint_timeout=1h autovacuum=off bgwriter_lru_maxpages=0 data_checksums=%s", o.Version, pool, onOff(cks))
	if wlh {
		g.b.WriteString(" wal_log_hints=on")
	}
	if g.IntN(4) == 0 {
		g.b.WriteString(" max_parallel_workers_per_gather=0")
	}
	if o.Host != "" {
		g.b.WriteString(" " + o.Host)
	}
	g.b.WriteString("\n")

	type tbl struct {
		name    string
		rows    int
		indexed bool
	}
	var tables []tbl
	nt := 1 + r.IntN(3)
	// Sizes relative to the pool: just under and over NBuffers/8 and NBuffers/4, half, and more than the pool.
	fractions := []float64{0.05, 0.118, 0.132, 0.24, 0.26, 0.5, 1.25}
	for i := 1; i <= nt; i++ {
		f := fractions[r.IntN(len(fractions))]
		pages := max(8, int(f*float64(nbuf)))
		if pages > 40000 { // keep a load under a minute on the server
			pages = 40000
		}
		shape := []struct {
			bytes, perPage int
		}{{1832, 4}, {400, 18}, {80, 96}}[r.IntN(3)]
		if pages > 8000 && shape.perPage > 4 {
			shape.bytes, shape.perPage = 1832, 4 // narrow rows only for smaller tables: many rows load slowly
		}
		name := fmt.Sprintf("t%d", i)
		decl := fmt.Sprintf("table %s rows=%d tuple_bytes=%d autovacuum=off\n", name, pages*shape.perPage, shape.bytes)
		switch r.IntN(3) {
		case 0:
			g.b.WriteString(decl)
			fmt.Fprintf(&g.b, "insert %s\n", name)
		case 1:
			g.b.WriteString(decl)
			fmt.Fprintf(&g.b, "copy %s\n", name)
		default:
			g.b.WriteString("begin\n" + decl)
			fmt.Fprintf(&g.b, "copy %s freeze\ncommit\n", name)
		}
		t := tbl{name: name, rows: pages * shape.perPage}
		if shape.perPage > 4 && g.IntN(3) == 0 {
			fmt.Fprintf(&g.b, "index %s_id on=%s key=id\n", name, name)
			t.indexed = true
		}
		tables = append(tables, t)
	}
	if g.coin() {
		g.b.WriteString("checkpoint\n")
	}
	switch r.IntN(3) {
	case 0:
		g.b.WriteString("evict all\n")
	case 1:
		g.b.WriteString("restart\n")
	}
	g.b.WriteString("mark m0\n")
	ops := 2 + r.IntN(5)
	for i := 0; i < ops; i++ {
		t := tables[r.IntN(len(tables))]
		switch k := r.IntN(20); {
		case k < 8:
			if r.IntN(3) == 0 {
				fmt.Fprintf(&g.b, "scan %s repeat=%d\n", t.name, 2+r.IntN(3))
			} else {
				fmt.Fprintf(&g.b, "scan %s\n", t.name)
			}
		case k < 10:
			fmt.Fprintf(&g.b, "set max_parallel_workers_per_gather=%d\n", []int{0, 2}[r.IntN(2)])
		case k < 12:
			if g.coin() {
				fmt.Fprintf(&g.b, "vacuum %s freeze\n", t.name)
			} else {
				fmt.Fprintf(&g.b, "vacuum %s\n", t.name)
			}
		case k < 13:
			fmt.Fprintf(&g.b, "analyze %s\n", t.name)
		case k < 15 && t.indexed:
			a := 1 + r.IntN(max(1, t.rows/2))
			fmt.Fprintf(&g.b, "index_scan %s_id from=%d to=%d\n", t.name, a, a+r.IntN(max(1, t.rows/4)))
		case k < 16:
			g.b.WriteString("checkpoint\n")
		case k < 18:
			g.b.WriteString("show buffercache\n")
		default:
			fmt.Fprintf(&g.b, "scan %s\n", t.name)
		}
	}
	g.b.WriteString("show buffercache\nshow wal since=m0\n")
	fmt.Fprintf(&g.b, "show visibility %s\n", tables[r.IntN(len(tables))].name)
	if o.Version >= 16 {
		g.b.WriteString("show io since=m0\n")
	}
	return g.b.String()
}

type gen struct {
	r *rng.PCG
	v int
	b strings.Builder
}

// IntN is uniform in [0, n).
func (g *gen) IntN(n int) int { return int(g.r.Uint64n(uint64(n))) }

func (g *gen) coin() bool { return g.IntN(2) == 0 }

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
