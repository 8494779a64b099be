package diagnose

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/pgbufsim/pgbufsim/cluster"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/scenario"
)

// A recipe is the situation a plan came from, rebuilt as a scenario: the
// cluster (version and the settings known), the table the plan read (its
// pages and row shape), how it was loaded, what happened between the load
// and the read, and the read itself. A fix is a change to the recipe.
type recipe struct {
	comment []string
	version int
	gucs    [][2]string // cluster settings, in order
	rel     string
	pages   int64
	shape   heap.Shape
	// load: "insert", or "copy freeze" (the table created in the transaction).
	load            string
	vacuumAfterLoad bool
	readBeforeCkpt  bool // the first read runs between the load and the checkpoint
	checkpoint      bool // a checkpoint between the load (or VACUUM) and the read
	cold            bool // the read starts with the table out of shared buffers
	dropCaches      bool // … and out of the OS page cache
	// other data sharing the pool: tables of otherPages each, vacuumed,
	// read twice before the statement (usage count 2), each under
	// NBuffers/4 so without a ring.
	otherTables int
	otherPages  int64
	// ios: the read is count(*) by an Index Only Scan: an id btree, and (when
	// the plan fetched no heap tuple) a VACUUM so that every page is all-visible.
	ios, iosVacuum bool
	// the read: a count(*) scan, or an index scan of idxRows rows on idxPages heap pages.
	index             bool
	idxRows, idxPages int64
	idxDistinct       int64
	repeat            int // the read run again (a warm second run)
}

func (r recipe) set(name, value string) recipe {
	g := append([][2]string(nil), r.gucs...)
	for i := range g {
		if g[i][0] == name {
			g[i][1] = value
			r.gucs = g
			return r
		}
	}
	r.gucs = append(g, [2]string{name, value})
	return r
}

func (r recipe) get(name string) string {
	for _, g := range r.gucs {
		if g[0] == name {
			return g[1]
		}
	}
	return ""
}

// step roles, to find results in the run.
const (
	roleNone = iota
	roleLoad
	roleFix
	roleRead
	roleBuffercache
	roleWAL
)

type line struct {
	text string
	role int
}

func (r recipe) lines() []line {
	var ls []line
	add := func(role int, format string, a ...any) { ls = append(ls, line{fmt.Sprintf(format, a...), role}) }
	for _, c := range r.comment {
		add(roleNone, "# %s", c)
	}
	var cl strings.Builder
	fmt.Fprintf(&cl, "cluster version=%d", r.version)
	for _, g := range r.gucs {
		fmt.Fprintf(&cl, " %s=%s", g[0], g[1])
	}
	add(roleNone, "%s", cl.String())
	tbl := fmt.Sprintf("table %s pages=%d tuple_bytes=%d fillfactor=%d autovacuum=off", r.rel, r.pages, r.shape.TupleLen, r.shape.Fillfactor)
	for i := 1; i <= r.otherTables; i++ {
		add(roleNone, "table other%d pages=%d tuple_bytes=%d autovacuum=off", i, r.otherPages, r.shape.TupleLen)
	}
	add(roleNone, "mark start")
	if r.load == "copy freeze" {
		add(roleNone, "begin")
		add(roleNone, "%s", tbl)
		add(roleLoad, "copy %s freeze", r.rel)
		add(roleNone, "commit")
	} else {
		add(roleNone, "%s", tbl)
		add(roleLoad, "%s %s", r.load, r.rel)
	}
	if r.index {
		add(roleNone, "index %s_key on=%s key=k distinct=%d correlation=0", r.rel, r.rel, r.idxDistinct)
	}
	if r.ios {
		add(roleNone, "index %s_id on=%s", r.rel, r.rel)
		if r.iosVacuum {
			add(roleNone, "vacuum %s", r.rel)
		}
	}
	if r.vacuumAfterLoad {
		add(roleFix, "vacuum %s", r.rel)
	}
	read := func() {
		if r.index {
			add(roleRead, "index_scan %s_key key=1 rows=%d pages=%d", r.rel, r.idxRows, r.idxPages)
		} else {
			add(roleRead, "scan %s", r.rel)
		}
	}
	if r.readBeforeCkpt {
		read()
		ls[len(ls)-1].role = roleFix
	}
	for i := 1; i <= r.otherTables; i++ {
		add(roleNone, "insert other%d", i)
		add(roleNone, "vacuum other%d", i) // hinted and clean: evicting them costs no write
	}
	if r.checkpoint {
		add(roleNone, "checkpoint")
	}
	if r.cold {
		add(roleNone, "evict all")
	}
	if r.dropCaches {
		add(roleNone, "drop caches")
	}
	for i := 1; i <= r.otherTables; i++ {
		add(roleNone, "scan other%d repeat=2", i)
	}
	add(roleNone, "mark before")
	read()
	for i := 0; i < r.repeat; i++ {
		read()
		ls[len(ls)-1].role = roleRead // the last run is the one measured
		ls[len(ls)-2].role = roleNone
	}
	add(roleWAL, "show wal since=start")
	add(roleBuffercache, "show buffercache")
	return ls
}

func (r recipe) text() string {
	var b strings.Builder
	for _, l := range r.lines() {
		b.WriteString(l.text)
		b.WriteByte('\n')
	}
	return b.String()
}

// outcome is what a rebuilt scenario measured, read from the commands'
// typed results (scenario.Output.Result).
type outcome struct {
	read     *cluster.StmtResult // the read's EXPLAIN figures
	load     *cluster.StmtResult // the load's
	fix      *cluster.StmtResult // the fix step's (VACUUM, the early read), if any
	buffers  map[string]int      // pg_buffercache after the read, by relation
	unused   int
	totalWAL int64 // WAL bytes from the start of the load to the end
}

// walBytes is a statement's WAL bytes (0 for a step the recipe does not have).
func walBytes(r *cluster.StmtResult) int64 {
	if r == nil {
		return 0
	}
	return r.WAL.Bytes
}

// ms is the read's execution time in milliseconds, to the microsecond (as
// the scenario's JSON prints it).
func (o *outcome) ms() float64 { return float64(o.read.TimeNs/1000) / 1000 }

func (o *outcome) others() int {
	n := 0
	for rel, b := range o.buffers {
		if strings.HasPrefix(rel, "other") {
			n += b
		}
	}
	return n
}

// simulate runs a recipe's scenario.
func simulate(r recipe, seed uint64) (*outcome, error) {
	ls := r.lines()
	f, err := scenario.Parse("rebuilt.scn", r.text())
	if err != nil {
		return nil, err
	}
	var roles []int
	for _, l := range ls {
		if !strings.HasPrefix(l.text, "#") {
			roles = append(roles, l.role)
		}
	}
	if len(roles) != len(f.Steps) {
		return nil, fmt.Errorf("rebuilt scenario: %d lines, %d steps", len(roles), len(f.Steps))
	}
	env := &scenario.Env{Seed: seed}
	o := &outcome{buffers: map[string]int{}}
	for i, st := range f.Steps {
		out, err := env.Exec(st.Cmd, st.Args)
		if err != nil {
			return nil, fmt.Errorf("rebuilt scenario line %d (%s): %w", st.Line, st.Text, err)
		}
		stmt, _ := out.Stmt()
		switch roles[i] {
		case roleRead:
			o.read = stmt
		case roleFix:
			o.fix = stmt
		case roleLoad:
			o.load = stmt
		case roleWAL:
			if w, ok := out.Result.(cluster.WALReport); ok {
				o.totalWAL = w.Bytes
			}
		case roleBuffercache:
			if bc, ok := out.Result.(*cluster.Buffercache); ok {
				for _, row := range bc.Rows {
					o.buffers[row.Relation] = row.Buffers
				}
				o.unused = bc.Unused
			}
		}
	}
	if o.read == nil {
		return nil, fmt.Errorf("rebuilt scenario: the read gave no result")
	}
	return o, nil
}

// writeScenario writes a recipe next to the others in dir.
func writeScenario(dir, name string, r recipe) (string, error) {
	if dir == "" {
		return "", nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	p := filepath.Join(dir, name+".scn")
	return p, os.WriteFile(p, []byte(r.text()), 0o644)
}

// fitShape finds the row shape that puts tpp tuples on a page and leaves a
// hole as close to hole as the page layout allows (hole < 0: unknown): the
// MAXALIGNed tuple length and the fillfactor, searched over every length and
// fillfactor heap.Shape accepts. A full-page image's size depends on the
// hole, so when the plan's images give it, a shape within a tenth of the
// rows per page that matches the hole better wins (real rows vary in length;
// uniform ones cannot match both).
func fitShape(tpp int, hole int) heap.Shape {
	type score struct{ outside, first, second int }
	less := func(a, b score) bool {
		if a.outside != b.outside {
			return a.outside < b.outside
		}
		if a.first != b.first {
			return a.first < b.first
		}
		return a.second < b.second
	}
	best, bestScore := heap.Shape{TupleLen: 64, Fillfactor: 100}, score{2, math.MaxInt, math.MaxInt}
	window := tpp / 10
	for ff := 100; ff >= 10; ff-- {
		for tl := 32; tl <= 8160; tl += 8 {
			s := heap.Shape{TupleLen: tl, Fillfactor: ff}
			k := s.TuplesPerPage()
			if k < tpp-window {
				break // longer tuples fit fewer
			}
			dk, dh := abs(k-tpp), 0
			if hole >= 0 {
				dh = abs(s.Hole(k) - hole)
			}
			sc := score{1, dk, dh}
			if dk <= window {
				sc = score{0, dh, dk}
			}
			if less(sc, bestScore) {
				best, bestScore = s, sc
			}
		}
		if hole < 0 && bestScore.outside == 0 && bestScore.second == 0 {
			break // fillfactor 100 gives it; no hole to match
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
