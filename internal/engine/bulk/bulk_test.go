package bulk_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pgbufsim/pgbufsim/internal/engine/bulk"
	"github.com/pgbufsim/pgbufsim/internal/rng"
	"github.com/pgbufsim/pgbufsim/scenario"
	"github.com/stretchr/testify/require"
)

// randomLoad is a scenario of loads drawn from r: a version 15–19 cluster
// with a small pool (evictions, victim writes and their WAL flushes), small
// WAL buffers (buffers full mid-page), a small max_wal_size and short
// background delays (checkpoints, WAL writer and bgwriter rounds falling
// inside a page's rows), checksums, wal_log_hints, full_page_writes and
// wal_compression (images built from the page's LSN) either way; a table of
// random row width and fillfactor loaded by INSERT, with an index on id half
// the time, a second INSERT continuing on its last page after a checkpoint,
// COPY or COPY FREEZE of a second table, the buffer manager's trace of a
// load now and then, sometimes a crash after N writes
// (recovered from at once); then everything shown.
func randomLoad(r *rng.PCG) string {
	pick := func(xs ...string) string { return xs[r.Uint64n(uint64(len(xs)))] }
	onoff := func() string { return pick("on", "off") }
	var b strings.Builder
	fmt.Fprintf(&b, "cluster version=%s shared_buffers=%s data_checksums=%s wal_log_hints=%s wal_buffers=%s max_wal_size=%s checkpoint_timeout=%s bgwriter_delay=%s wal_writer_delay=%s full_page_writes=%s wal_compression=%s autovacuum=off\n",
		pick("15", "16", "17", "18", "19"), pick("128kB", "256kB", "1MB", "4MB"), onoff(), onoff(), pick("32kB", "64kB", "256kB", "-1"),
		pick("32MB", "64MB", "1GB"), pick("30s", "5min"), pick("10ms", "50ms", "200ms"), pick("10ms", "200ms"), pick("on", "on", "off"), pick("off", "off", "pglz"))
	tb := fmt.Sprintf("tuple_bytes=%d fillfactor=%d", 29+r.Uint64n(2000), pick64(r, 10, 50, 90, 100, 100))
	rows := 1 + r.Uint64n(12000)
	fmt.Fprintf(&b, "table t rows=%d %s autovacuum=off\n", rows, tb)
	crash := r.Uint64n(4) == 0
	if crash {
		fmt.Fprintf(&b, "crash after=writes:%d\n", 1+r.Uint64n(200))
	}
	first := 1 + r.Uint64n(rows)
	fmt.Fprintf(&b, "insert t rows=%d\n", first)
	if r.Uint64n(2) == 0 {
		b.WriteString("index t_id on=t\n")
	}
	if r.Uint64n(2) == 0 {
		b.WriteString("checkpoint\n")
	}
	if r.Uint64n(3) == 0 {
		b.WriteString("trace on limit=300\n") // the buffer manager's steps of the next load, printed
	}
	fmt.Fprintf(&b, "mark m\ninsert t rows=%d\ntrace off\n", 1+r.Uint64n(6000))
	switch k := r.Uint64n(3); {
	case k == 0 && !crash:
		fmt.Fprintf(&b, "begin\ntable u rows=%d %s autovacuum=off\ncopy u freeze\ncommit\n", 1+r.Uint64n(8000), tb)
	case k <= 1: // COPY outside a transaction block when a crash is armed: a power failure inside one leaves its COMMIT nothing to commit
		fmt.Fprintf(&b, "table u rows=%d %s autovacuum=off\ncopy u\n", 1+r.Uint64n(8000), tb)
	default:
		fmt.Fprintf(&b, "table u rows=%d %s autovacuum=off\ninsert u\n", 1+r.Uint64n(8000), tb)
	}
	b.WriteString("show wal since=m\nshow io\nshow buffercache\nshow pool\nshow stat bgwriter\nshow stat tables\nshow visibility t\nscan t\nshow wal\nshow io\n")
	return b.String()
}

func pick64(r *rng.PCG, xs ...int) int { return xs[r.Uint64n(uint64(len(xs)))] }

// run executes src and returns every step's text and JSON, in order.
func run(t *testing.T, src string) []string {
	f, err := scenario.Parse("random", src)
	require.NoError(t, err)
	env := &scenario.Env{Seed: 1, CheckInvariants: true}
	var outs []string
	for _, st := range f.Steps {
		o, err := env.ExecStep(st)
		require.NoError(t, err, "line %d of\n%s", st.Line, src)
		js, jerr := json.Marshal(o.JSON)
		require.NoError(t, jerr)
		pf := ""
		if o.PowerFailure != nil { // the armed crash fired: recover before the next command
			pf = fmt.Sprintf("%+v", *o.PowerFailure)
			rf, err := scenario.Parse("recover", "recover\n")
			require.NoError(t, err)
			ro, err := env.ExecStep(rf.Steps[0])
			require.NoError(t, err)
			pf += "\n" + ro.Text
		}
		outs = append(outs, fmt.Sprintf("> %s\n%s\nerr=%v\n%s\n%s", st.Text, o.Text, err, js, pf))
	}
	return outs
}

// TestPerPageEqualsRowByRow runs random load scenarios twice, row by row
// (bulk.RowByRow) and with the per-page step, and requires every command's
// output — text, JSON, power-failure report — to be the same byte for byte.
// The scenarios' outputs are compared against each other, not against
// fixed figures: the row-by-row path is the model the goldens already pin.
func TestPerPageEqualsRowByRow(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 8
	}
	r := rng.New(20261201)
	for i := 0; i < n; i++ {
		src := randomLoad(r)
		bulk.RowByRow = true
		want := run(t, src)
		bulk.RowByRow = false
		got := run(t, src)
		require.Equal(t, len(want), len(got))
		for j := range want {
			require.Equal(t, want[j], got[j], "scenario %d:\n%s", i, src)
		}
	}
	bulk.RowByRow = false
}
