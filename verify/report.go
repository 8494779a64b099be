package verify

import (
	"fmt"
	"math"
	"strings"
)

// Tol is a figure's tolerance: |sim − real| ≤ max(Abs, Pct% of the larger
// value). Info figures are shown but not judged (a mechanism the simulator
// does not model yet; Why says which).
type Tol struct {
	Abs  int64
	Pct  float64
	Info bool
	Why  string
}

// exact is for figures the mechanism fixes: ring sizes, record and FPI counts, pages.
var exact = Tol{}

func (t Tol) String() string {
	var s string
	switch {
	case t.Info:
		s = "not judged"
	case t.Abs == 0 && t.Pct == 0:
		s = "exact"
	case t.Pct == 0:
		s = fmt.Sprintf("±%d", t.Abs)
	case t.Abs == 0:
		s = fmt.Sprintf("±%g%%", t.Pct)
	default:
		s = fmt.Sprintf("±max(%d, %g%%)", t.Abs, t.Pct)
	}
	if t.Why != "" {
		s += " (" + t.Why + ")"
	}
	return s
}

func (t Tol) ok(sim, real int64) bool {
	if t.Info {
		return true
	}
	d := sim - real
	if d < 0 {
		d = -d
	}
	allowed := float64(t.Abs)
	if t.Pct > 0 {
		allowed = math.Max(allowed, t.Pct/100*math.Max(math.Abs(float64(sim)), math.Abs(float64(real))))
	}
	return float64(d) <= allowed
}

// Row is one figure compared.
type Row struct {
	Line      int    `json:"line"`
	Command   string `json:"command"`
	Figure    string `json:"figure"`
	Sim       int64  `json:"sim"`
	Real      int64  `json:"real"`
	Diff      int64  `json:"diff"`
	Tolerance string `json:"tolerance"`
	Judged    bool   `json:"judged"`
	OK        bool   `json:"ok"`
}

// Report is a verify run's result.
type Report struct {
	Scenario string   `json:"scenario"`
	Server   string   `json:"server"`
	Major    int      `json:"version"`
	NBuffers int      `json:"shared_buffers"`
	Rows     []Row    `json:"rows"`
	Notes    []string `json:"notes"`
}

func (r *Report) add(st *step, figure string, sim, real int64, t Tol) {
	r.Rows = append(r.Rows, Row{Line: st.line, Command: lineText(st), Figure: figure, Sim: sim, Real: real,
		Diff: sim - real, Tolerance: t.String(), Judged: !t.Info, OK: t.ok(sim, real)})
}

// OK reports whether every judged figure is within its tolerance.
func (r *Report) OK() bool {
	for _, row := range r.Rows {
		if !row.OK {
			return false
		}
	}
	return true
}

// Failed lists the figures outside their tolerance.
func (r *Report) Failed() []Row {
	var out []Row
	for _, row := range r.Rows {
		if !row.OK {
			out = append(out, row)
		}
	}
	return out
}

// Text prints the side-by-side table, grouped by command.
func (r *Report) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "verify %s: PostgreSQL %s vs pgbufsim (version %d), shared_buffers=%d buffers\n", r.Scenario, r.Server, r.Major, r.NBuffers)
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	last := ""
	fmt.Fprintf(&b, "\n%-30s %14s %14s %12s  %s\n", "figure", "pgbufsim", "postgres", "diff", "tolerance")
	ok, judged := 0, 0
	for _, row := range r.Rows {
		head := fmt.Sprintf("%d: %s", row.Line, row.Command)
		if head != last {
			fmt.Fprintf(&b, "-- line %s\n", head)
			last = head
		}
		mark := "ok"
		switch {
		case !row.Judged:
			mark = "--"
		case !row.OK:
			mark = "OUT"
		}
		if row.Judged {
			judged++
			if row.OK {
				ok++
			}
		}
		fmt.Fprintf(&b, "%-30s %14d %14d %+12d  %-3s %s\n", row.Figure, row.Sim, row.Real, row.Diff, mark, row.Tolerance)
	}
	verdict := "all within tolerance"
	if ok < judged {
		verdict = fmt.Sprintf("%d outside tolerance", judged-ok)
	}
	fmt.Fprintf(&b, "\n%d of %d judged figures agree (%d shown for information); %s\n", ok, judged, len(r.Rows)-judged, verdict)
	return b.String()
}

// Counts is how many figures were judged and how many of those are outside tolerance.
func (r *Report) Counts() (judged, outside int) {
	for _, row := range r.Rows {
		if row.Judged {
			judged++
			if !row.OK {
				outside++
			}
		}
	}
	return judged, outside
}
