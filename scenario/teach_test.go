package scenario

import (
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

func runLines(t *testing.T, e *Env, lines ...string) Output {
	t.Helper()
	var o Output
	for _, l := range lines {
		cmd, args, err := datadriven.ParseLine(l)
		require.NoError(t, err)
		o, err = e.Exec(cmd, args)
		require.NoError(t, err, l)
	}
	return o
}

// Lesson 1 by hand: after a restart the free list hands out 1, 2, 3, …, so a
// (read 5 times) sits in buffers 1-4 at usage 5, b (twice) in 5-8 at 2, c and
// d (once) in 9-12 and 13-16 at 1, the hand at 1. e's first victim search
// takes one count from every buffer (a 4, b 1, c and d 0), wraps, takes one
// more from a (3) and b (0), and stops at buffer 9: c's first page. Its next
// three pages take 10, 11, 12 (at 0 already): c is gone, d survives at 0.
func TestClockSweepLessonByHand(t *testing.T) {
	e := &Env{Seed: 1}
	lines := []string{"cluster version=18 shared_buffers=128kB data_checksums=off catalog_pins=off"}
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		lines = append(lines, "table "+n+" pages=4 tuples_per_page=4", "insert "+n)
	}
	lines = append(lines, "checkpoint", "restart", "scan a repeat=5", "scan b repeat=2", "scan c", "scan d")
	runLines(t, e, lines...)
	m := PoolMapOf(e.C)
	require.Equal(t, "AAAABBBBCCCCDDDD", m.Page)
	require.Equal(t, "5555222211111111", m.Usage)
	require.Equal(t, pg.Buffer(1), m.Hand)

	var victims []pg.Buffer
	decrements := 0
	e.C.Pool().SetTracer(func(ev bufmgr.Event) {
		switch ev.Kind {
		case bufmgr.EvVictim:
			victims = append(victims, ev.Buffer)
		case bufmgr.EvUsageDecrement:
			decrements++
		}
	})
	runLines(t, e, "scan e")
	require.Equal(t, []pg.Buffer{9, 10, 11, 12}, victims)
	require.Equal(t, 16+8, decrements, "one full pass, then buffers 1-8 again")
	m = PoolMapOf(e.C)
	require.Equal(t, "AAAABBBBEEEEDDDD", m.Page)
	require.Equal(t, "3333000011110000", m.Usage)
	require.Equal(t, pg.Buffer(13), m.Hand)
}

// A 128MB pool (16,384 buffers) is drawn one column per 16 buffers: 1,024
// columns in 16 rows of 64, each line under 100 columns.
func TestPoolMapGroups(t *testing.T) {
	e := &Env{Seed: 1}
	o := runLines(t, e, "cluster version=18 shared_buffers=128MB", "table t pages=3000 tuples_per_page=4", "insert t", "show pool")
	m := PoolMapOf(e.C)
	require.Equal(t, 16, m.Group)
	require.Len(t, m.Page, 1024)
	for _, l := range strings.Split(o.Text, "\n") {
		require.LessOrEqual(t, len([]rune(l)), 100, l)
	}
	require.Contains(t, o.Text, "one column per 16 buffers")
	// The session's catalog pages (170 of them) come off the free list
	// first (columns 0-10 '#'), then insert's 3,000 pages of t, dirty (upper
	// case), and 13,000-odd buffers are still unused. A column shows what
	// most of its 16 buffers hold, so the unused columns are the free list
	// give or take one partly used column.
	require.Equal(t, byte('#'), m.Page[0])
	require.Equal(t, byte('T'), m.Page[100])
	require.Equal(t, byte('.'), m.Page[1023])
	require.InDelta(t, m.FreeList, strings.Count(m.Page, ".")*16, 15)
}

// Trace off installs no tracer: the hot path is the untraced one.
func TestTraceOffRemovesTracer(t *testing.T) {
	e := &Env{Seed: 1}
	runLines(t, e, "cluster version=18 shared_buffers=128kB", "trace on")
	require.NotNil(t, e.C.Pool().Control().Observer)
	runLines(t, e, "trace off")
	require.Nil(t, e.C.Pool().Control().Observer)
}
