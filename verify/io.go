package verify

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/strategy"
)

// pg_stat_io (16+), object "relation": the counters the simulator keeps per
// backend type and context. From 18 on "reads", "writes" and "extends" count
// I/O operations (a combined read of many blocks counts once) and the
// *_bytes columns count bytes; before 18 they count blocks (op_bytes 8192).

// ioCounters are one pg_stat_io row's counters, in bufmgr.IOOp order
// (read_time is not compared).
type ioCounters [bufmgr.NumIOOps]int64

// ioStats is pg_stat_io's relation rows, by "backend_type/context".
type ioStats map[string]ioCounters

// sqlStatIO reads pg_stat_io's relation rows on a 16+ server; read_blocks
// is read_bytes/8192 on 18+ and reads (in blocks) before.
func sqlStatIO(major int) string {
	readBlocks := "coalesce(reads, 0)"
	if major >= 18 {
		readBlocks = "coalesce(read_bytes, 0)::bigint / 8192"
	}
	return "SELECT backend_type, context, coalesce(reads, 0), coalesce(hits, 0), coalesce(evictions, 0), coalesce(reuses, 0), " +
		"coalesce(writes, 0), coalesce(extends, 0), " + readBlocks + ", coalesce(writebacks, 0) FROM pg_stat_io WHERE object = 'relation'"
}

func statIONow(ctx context.Context, conn *pgx.Conn, major int) (ioStats, error) {
	rows, err := conn.Query(ctx, sqlStatIO(major))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := ioStats{}
	for rows.Next() {
		var bt, cx string
		var c ioCounters
		if err := rows.Scan(&bt, &cx, &c[bufmgr.OpReads], &c[bufmgr.OpHits], &c[bufmgr.OpEvictions], &c[bufmgr.OpReuses],
			&c[bufmgr.OpWrites], &c[bufmgr.OpExtends], &c[bufmgr.OpReadBlocks], &c[bufmgr.OpWritebacks]); err != nil {
			return nil, err
		}
		out[bt+"/"+cx] = c
	}
	return out, rows.Err()
}

// simIO is the simulator's pg_stat_io in the same shape.
func simIO(st bufmgr.IOStats) ioStats {
	out := ioStats{}
	for bt := bufmgr.BackendType(0); bt < bufmgr.NumBackendTypes; bt++ {
		for k := strategy.Kind(0); k < strategy.NumKinds; k++ {
			c := ioCounters(st.Rel[bt][k])
			c[bufmgr.OpReadTime] = 0
			out[bt.String()+"/"+k.String()] = c
		}
	}
	return out
}

func (s ioStats) sub(o ioStats) ioStats {
	out := ioStats{}
	for k, v := range s {
		w := o[k]
		for i := range v {
			v[i] -= w[i]
		}
		out[k] = v
	}
	return out
}

// ioTol is how closely each pg_stat_io counter is judged: the buffer
// counters as EXPLAIN's (1% of shared_buffers), since they count the same
// buffer accesses, plus the catalog pages each session pins (hits).
func (r *runner) ioTol(row string, op bufmgr.IOOp) Tol {
	if (row == "client backend/normal" || row == "client backend+background worker/normal") && (op == bufmgr.OpHits || op == bufmgr.OpReads || op == bufmgr.OpReadBlocks) {
		// Every session's catalog traffic lands here, and two parts of it are
		// not in the measured profile: the catalog lookups of reading
		// pg_stat_io itself at each mark, and which catalog pages a session
		// reads again after an eviction (22-pg-stat-io on 18: 22 reads
		// simulated, 78 on the server, after evict all).
		return Tol{Info: true, Why: "catalog traffic: pg_stat_io's own lookups and catalog re-reads after an eviction are not profiled"}
	}
	switch op {
	case bufmgr.OpWritebacks:
		// Requested *_flush_after tags at a time (a checkpoint's rest at its
		// end): the writes' tolerance plus one batch.
		t := r.bufTol("write-backs are requested in batches of *_flush_after")
		t.Abs += 64
		return t
	case bufmgr.OpReads:
		if r.srv.Major >= 18 {
			return r.bufTol("I/O operations: how reads combine follows the read stream")
		}
	case bufmgr.OpHits:
		return r.bufTol("includes each session's catalog pins (the measured profile)")
	}
	return r.bufTol("")
}

// actShowIO compares pg_stat_io since a mark (16+): per backend type and
// context with activity on either side, reads, hits, evictions, reuses,
// writes, extends, (18+) read_bytes in blocks, and writebacks.
func (r *runner) actShowIO(ctx context.Context, st *step) error {
	var since string
	for _, a := range st.args[1:] {
		if a.Key == "since" {
			since = a.Vals[0]
		}
	}
	m, ok := r.marks[since]
	if !ok {
		return fmt.Errorf("show io: give since=MARK (the server's pg_stat_io since its start includes initdb's and the setup's sessions)")
	}
	var now ioStats
	err := r.session(ctx, func(conn *pgx.Conn) (err error) {
		m, err := r.markNow(ctx, conn)
		now = m.io
		return err
	})
	if err != nil {
		return err
	}
	real := now.sub(m.io)
	simm, ok := r.simMarks[since]
	if !ok {
		return fmt.Errorf("show io: no simulated mark %q", since)
	}
	sim := simIO(st.io).sub(simIO(simm))
	keys := map[string]bool{}
	for k, v := range real {
		if v != (ioCounters{}) {
			keys[k] = true
		}
	}
	for k, v := range sim {
		if v != (ioCounters{}) {
			keys[k] = true
		}
	}
	// A parallel query's I/O splits between the leader (client backend) and
	// its workers (background worker) as the participants happen to take
	// blocks: timing. Where workers did anything in a context, the two rows
	// are shown and their sum is judged, as pg_stat_wal's split is.
	const leader, worker = "client backend/", "background worker/"
	split := map[string]bool{}
	for k := range keys {
		if cx, ok := strings.CutPrefix(k, worker); ok {
			split[cx] = true
			keys["client backend+background worker/"+cx] = true
		}
	}
	for cx := range split {
		sim["client backend+background worker/"+cx] = addIO(sim[leader+cx], sim[worker+cx])
		real["client backend+background worker/"+cx] = addIO(real[leader+cx], real[worker+cx])
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		s, p := sim[k], real[k]
		_, cx, _ := strings.Cut(k, "/")
		for op := bufmgr.IOOp(0); op < bufmgr.IOOp(len(s)); op++ {
			if op == bufmgr.OpReadBlocks && r.srv.Major < 18 {
				continue // the same as reads before 18
			}
			if s[op] == 0 && p[op] == 0 {
				continue
			}
			tol := r.ioTol(k, op)
			if split[cx] && (strings.HasPrefix(k, leader) || strings.HasPrefix(k, worker)) {
				tol = Tol{Info: true, Why: "leader/worker split of a parallel query (their sum is judged)"}
			}
			r.rep.add(st, fmt.Sprintf("io %s %s", k, op), s[op], p[op], tol)
		}
	}
	return nil
}

func addIO(a, b ioCounters) ioCounters {
	for i := range a {
		a[i] += b[i]
	}
	return a
}
