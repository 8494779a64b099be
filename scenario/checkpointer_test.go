package scenario

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pgbufsim/pgbufsim/cluster"
	"github.com/stretchr/testify/require"
)

// dirtyBuffers counts the dirty buffers in the pool (what a checkpoint starting now marks).
func dirtyBuffers(env *Env) int {
	n := 0
	for _, r := range env.C.Pool().Contents() {
		if r.Valid && r.Dirty {
			n++
		}
	}
	return n
}

var reWrite = regexp.MustCompile(`write=(\d+)\.(\d{3}) s`)

// writeSeconds is the write= figure of a "checkpoint complete" line.
func writeSeconds(t *testing.T, line string) float64 {
	m := reWrite.FindStringSubmatch(line)
	require.NotNil(t, m, line)
	s, _ := strconv.Atoi(m[1])
	ms, _ := strconv.Atoi(m[2])
	return float64(s) + float64(ms)/1000
}

// Timed checkpoints: the checkpointer starts one checkpoint_timeout after the
// last start (the server's start for the first). A 100-page load at ~0.5 s,
// then sleep 100s with checkpoint_timeout=30s: wake-ups at 30, 60 and 90 s.
// The first finds WAL since initdb's checkpoint record and runs; the other
// two find nothing logged since the first's record and are skipped, counted
// as timed all the same (CheckpointerMain counts before CreateCheckPoint
// decides to skip). It writes every buffer dirty at its start and nothing
// else (nothing runs during the sleep).
//
// Pacing: the checkpoint starts at 30.0x s, a fraction of a second past the
// whole second ckpt_start_time keeps, and has N ≈ 130 buffers to write; after
// the k-th, IsCheckpointOnSchedule compares 0.9·k/N (≥ 0.0069) with the time
// elapsed over 30 s (≤ 0.1·k/30 + 0.002 ≈ 0.0033·k + 0.002): on schedule
// after every buffer, so each is followed by CheckpointWriteDelay's 100 ms
// nap: write = N × (100 ms + 10 µs a write).
func TestTimedCheckpointsAndSkips(t *testing.T) {
	env, outs := run(t, `cluster version=15 shared_buffers=16MB checkpoint_timeout=30s autovacuum=off
table t rows=400 tuple_bytes=1832 autovacuum=off
insert t
sleep 1s`)
	_ = outs
	// After a first sleep's session has pinned (and hinted) its catalog pages, which the next does not again.
	n := dirtyBuffers(env)
	require.Greater(t, n, 100, "the table's 100 pages and the catalog's dirty pages")
	o, err := env.Exec("sleep", argsOf("100s"))
	require.NoError(t, err)
	lines := strings.Split(o.Text, "\n")
	require.Len(t, lines, 2, o.Text)
	require.Equal(t, "LOG:  checkpoint starting: time", lines[0])
	require.Contains(t, lines[1], fmt.Sprintf("checkpoint complete: wrote %d buffers (%.1f%%)", n, float64(n)*100/2048))
	w := writeSeconds(t, lines[1])
	require.InDelta(t, float64(n)*0.10001, w, 0.002, "one 100 ms nap after each buffer")
	o, err = env.Exec("show", argsOf("stat", "bgwriter"))
	require.NoError(t, err)
	st := o.Result.(cluster.StatBgwriter)
	require.Equal(t, int64(3), st.CheckpointsTimed, "30, 60, 90 s")
	require.Equal(t, int64(0), st.CheckpointsReq)
	require.Equal(t, int64(1), st.CheckpointsDone, "the two idle ones are skipped")
	require.Equal(t, int64(n), st.BuffersCheckpoint)
	// 15's buffers_backend: the INSERT extended its 100 pages itself.
	require.Equal(t, int64(100), st.BuffersBackend)
	require.Contains(t, o.Text, "pg_stat_bgwriter: checkpoints_timed=3 checkpoints_req=0")
}

// A spread checkpoint with more buffers than naps fit (N > 0.9 × 30 s / 100
// ms = 270) falls behind the time schedule and writes without napping
// until 0.9·k/N catches up with elapsed/30 s again: its write phase ends when
// k = N, at elapsed = 0.9 × 30 s = 27 s, give or take the last nap (100 ms).
//
// Full-page images start at once: the redo pointer moves at the start, so a
// scan that sets hint bits (checksums on, 18's default) during the
// checkpoint logs an image of every page the checkpointer has already
// written (clean, last logged before the new redo pointer); a page still
// dirty from the load is BM_DIRTY|BM_JUST_DIRTIED and MarkBufferDirtyHint
// logs nothing for it.
func TestSpreadCheckpointAndImagesDuringIt(t *testing.T) {
	env, _ := run(t, `cluster version=18 shared_buffers=128MB checkpoint_timeout=30s autovacuum=off
table t rows=4000 tuple_bytes=1832 autovacuum=off
table u rows=4000 tuple_bytes=1832 autovacuum=off
insert t
insert u
sleep 35s`)
	clean := 0
	for _, r := range env.C.Pool().Contents() {
		if r.Valid && !r.Dirty && env.C.RelName(r.Tag.Rel) == "t" {
			clean++
		}
	}
	// 5 s into a 27 s write phase of ~2,000 buffers, t's first (blocks in order) are written.
	require.Greater(t, clean, 100)
	require.Less(t, clean, 1000)
	o, err := env.Exec("scan", argsOf("t"))
	require.NoError(t, err)
	res, _ := o.Stmt()
	// Between the count and the scan the client pauses 0.5 s and connects, and
	// the checkpointer writes on at N / 27 s (N ≈ 2,030: ~75 buffers a
	// second): the scan finds clean and at most ~45 more of t's pages written.
	require.GreaterOrEqual(t, res.WAL.FPI, int64(clean), "an image for each page the checkpoint already wrote")
	require.LessOrEqual(t, res.WAL.FPI, int64(clean+45))
	o, err = env.Exec("sleep", argsOf("60s"))
	require.NoError(t, err)
	require.Contains(t, o.Text, "checkpoint complete")
	w := writeSeconds(t, o.Text)
	require.GreaterOrEqual(t, w, 26.9)
	require.LessOrEqual(t, w, 27.1)
}

// WAL-triggered checkpoints: max_wal_size=128MB gives CheckPointSegments =
// 8 / 1.9 = 4, so XLogWrite requests a checkpoint when it finishes the
// segment 3 past the redo pointer's: the next redo pointer is past the end
// of that segment, more than 48 MB after the last. Under a load the writes
// run at full speed (the WAL term of IsCheckpointOnSchedule keeps them
// behind). A request made while a checkpoint runs is absorbed: the next one
// starts as soon as it ends. So each redo pointer is either past the end of
// the segment that asked or just past the previous checkpoint record, by at
// most what inserts run ahead meanwhile: the same write may go on up to
// wal_buffers (4 MB here) past the segment's end, and inserts are up to
// wal_buffers ahead of writes — 8 MB.
func TestWALTriggeredCheckpoints(t *testing.T) {
	_, outs := run(t, `cluster version=17 shared_buffers=128MB max_wal_size=128MB autovacuum=off
table big rows=131072 tuple_bytes=1832 autovacuum=off
mark a
insert big
checkpoint
show wal since=a
show stat bgwriter since=a`)
	const seg = 16 << 20
	var starts int
	var redos, recs []uint64
	reEnd := regexp.MustCompile(`distance=(\d+) kB.*; lsn=([0-9A-F]+)/([0-9A-F]+), redo lsn=([0-9A-F]+)/([0-9A-F]+)$`)
	lsn := func(hi, lo string) uint64 {
		h, _ := strconv.ParseUint(hi, 16, 32)
		l, _ := strconv.ParseUint(lo, 16, 32)
		return h<<32 | l
	}
	for _, o := range outs {
		for _, l := range strings.Split(o.Text, "\n") {
			if l == "LOG:  checkpoint starting: wal" {
				starts++
			}
			if m := reEnd.FindStringSubmatch(l); m != nil {
				recs, redos = append(recs, lsn(m[2], m[3])), append(redos, lsn(m[4], m[5]))
			}
		}
	}
	require.Equal(t, starts, len(redos), "CHECKPOINT waits for the one under way, which ends at full speed")
	require.GreaterOrEqual(t, starts, 2)
	for i := 1; i < len(redos); i++ {
		prev := redos[i-1]
		require.Greater(t, redos[i], prev+3*seg, "checkpoint %d", i+1)
		asked := (prev/seg + 4) * seg // the end of the segment 3 past the previous redo pointer's
		require.LessOrEqual(t, redos[i], max(asked, recs[i-1])+8<<20, "checkpoint %d", i+1)
	}
	wal := outs[5].Result.(cluster.WALReport)
	// More than 48 MB between requests: at most 1 + (W − 48 MB) / 48 MB of them in the load's W bytes.
	require.LessOrEqual(t, starts, 1+int((wal.Bytes-3*seg)/(3*seg)))
	st := outs[6].Result.(cluster.StatBgwriter)
	require.Equal(t, int64(starts+1), st.CheckpointsReq, "the WAL-triggered ones and CHECKPOINT")
	require.Equal(t, int64(0), st.CheckpointsTimed)
	require.Contains(t, outs[6].Text, "pg_stat_checkpointer: num_timed=0 num_requested=")
}
