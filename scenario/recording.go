package scenario

import (
	"fmt"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/pg"
)

// # Recording
//
// With Env.Record set (as `pgbufsim plot` and `pgbufsim animate` do), the
// Env samples the pool after every command and, inside statements, every
// few buffer allocations (a free-list pop, a clock victim or a ring reuse:
// the moments the pool's contents change): every allocation in a pool of up
// to 256 buffers, every NBuffers/64 in a bigger one. A sample's time is the
// simulated clock of the process that allocated (parallel processes' clocks
// interleave, so a sample never goes back before the previous one). A
// `cluster` command starts a new recording.

// Series are what a `plot` command can draw.
var Series = []struct{ Name, Doc string }{
	{"composition", "buffers per relation over simulated time (stacked area)"},
	{"usage", "buffers per usage count 0-5 over simulated time (stacked area)"},
	{"wal", "WAL bytes inserted since the cluster started"},
	{"fpi", "full-page images logged since the cluster started"},
}

// Sample is the pool and the WAL at one moment.
type Sample struct {
	T        int64 // simulated ns
	Rel      []int // buffers per pool relation (by RelID)
	Usage    [6]int
	Unused   int
	WALBytes int64
	FPI      int64
	// Cmd is the command the sample was taken during (or, After, just
	// after): its line as written, e.g. "scan big".
	Cmd   string
	After bool
}

// Frame is one picture of the pool for animate.
type Frame struct {
	T     int64
	Label string
	Map   PoolMap
}

// Figure is what one `plot` command asked for: its series over the samples up to it.
type Figure struct {
	Series  []string
	Title   string
	Samples []Sample
	// Names are the relations' names by RelID ("" for ids never in the pool).
	Names []string
}

// Recording is everything recorded since the last `cluster` command.
type Recording struct {
	Samples []Sample
	Frames  []Frame
	Figures []Figure
	// walStart is the insert LSN when the cluster started (initdb's end).
	walStart pg.LSN
}

// maxFrames caps the frames taken inside statements (after-command frames are always kept).
const maxFrames = 4000

// Recording returns what was recorded (Env.Record).
func (e *Env) Recording() *Recording { return &e.teach.rec }

// sample takes a sample (and a frame) at time t.
func (e *Env) sample(t int64, label string, always bool) {
	rec := &e.teach.rec
	if n := len(rec.Samples); n > 0 && rec.Samples[n-1].T > t {
		t = rec.Samples[n-1].T
	}
	c := e.C
	s := Sample{T: t, WALBytes: int64(c.WAL().InsertLSN() - rec.walStart), FPI: c.WAL().Total.FPI, Cmd: e.teach.cmd, After: always}
	for b := pg.Buffer(1); int(b) <= c.Pool().NBuffers(); b++ {
		st := c.Pool().State(b)
		if st&pg.FlagValid == 0 {
			s.Unused++
			continue
		}
		id := int(c.Pool().Tag(b).Rel)
		for len(s.Rel) <= id {
			s.Rel = append(s.Rel, 0)
		}
		s.Rel[id]++
		s.Usage[st.Usage()]++
	}
	rec.Samples = append(rec.Samples, s)
	if always || len(rec.Frames) < maxFrames {
		rec.Frames = append(rec.Frames, Frame{T: t, Label: label, Map: PoolMapOf(c)})
	}
}

// sampleDuring samples inside a statement, every allocation in a small pool.
func (e *Env) sampleDuring(ev bufmgr.Event) {
	every := e.C.Pool().NBuffers() / 64
	if e.C.Pool().NBuffers() <= 256 || every < 1 {
		every = 1
	}
	if e.teach.allocs%every != 0 {
		return
	}
	page := "-"
	if ev.Valid {
		page = fmt.Sprintf("%s/%d", e.C.RelName(ev.Tag.Rel), ev.Tag.Block)
	}
	e.sample(ev.Now, fmt.Sprintf("%s: %s buffer %d (%s)", ev.Backend, ev.Kind, ev.Buffer, page), false)
}
