package autovac

import (
	"fmt"
	"strings"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
)

// Database is the name the log lines give the scenario's database (verify
// runs it in the server's postgres database).
const Database = "postgres"

// worker is one autovacuum worker: its session, its list of tables, the
// job running and when it acts next.
type worker struct {
	be    *bufmgr.Backend
	next  int64
	queue []item
	cur   *item
	job   Job
	// analyzing: the job is the ANALYZE after (or instead of) the vacuum.
	analyzing bool
	cost      *Cost
	start     int64
	// bufStart and walStart are the usage at the job's start.
	bufStart bufmgr.BufferUsage
	walStart wal.Usage
}

// run does the worker's next step at w.next; false when the worker exits.
func (w *worker) run(l *Launcher) bool {
	if w.be.Now < w.next {
		w.be.Now = w.next
	}
	if w.job == nil {
		return w.startNext(l)
	}
	done, err := w.job.Step()
	if err != nil {
		return w.fail(l, err)
	}
	// The job's step charged its pages and napped at its delay point.
	w.next = w.be.Now
	if done {
		return w.finish(l)
	}
	return true
}

// startNext is do_autovacuum's loop: the next table of the list, rechecked
// (table_recheck_autovac: the counters again, and no other worker on it),
// its vacuum or analyze started with the worker's cost limit.
func (w *worker) startNext(l *Launcher) bool {
	for len(w.queue) > 0 {
		it := w.queue[0]
		w.queue = w.queue[1:]
		var again *Candidate
		for _, c := range l.candidates() {
			if c.ID == it.ID {
				again = &c
				break
			}
		}
		if again == nil || l.busyElsewhere(it.ID, w) {
			continue
		}
		d, ok := l.decide(*again)
		if !ok {
			continue
		}
		it.vacuum, it.analyze = d.Vacuum, d.Analyze
		w.cur = &it
		return w.begin(l, it.vacuum)
	}
	l.Host.EndWorker(w.be)
	return false
}

// begin starts the current table's vacuum (or its analyze).
func (w *worker) begin(l *Launcher, vacuum bool) bool {
	s := l.Host.Settings()
	limit, delay := CostLimit(s, len(l.workers))
	w.cost = NewCost(s, limit, delay)
	w.start, w.analyzing = w.be.Now, !vacuum
	w.bufStart, w.walStart = w.be.Buf, w.be.WAL
	w.job = l.Host.Start(w.be, w.cur.ID, !vacuum, w.cost)
	w.next = w.be.Now
	return true
}

// finish ends the job: pg_class, pgstat's report, the log lines; then the
// analyze if the table needs one too, else the next table.
func (w *worker) finish(l *Launcher) bool {
	rep, err := w.job.Finish()
	if err != nil {
		return w.fail(l, err)
	}
	rep.Buf.Hit -= w.bufStart.Hit
	rep.Buf.Read -= w.bufStart.Read
	rep.Buf.Dirtied -= w.bufStart.Dirtied
	rep.Buf.Written -= w.bufStart.Written
	rep.WAL.Records -= w.walStart.Records
	rep.WAL.FPI -= w.walStart.FPI
	rep.WAL.Bytes -= w.walStart.Bytes
	rep.WAL.BuffersFull -= w.walStart.BuffersFull
	w.job, w.next = nil, w.be.Now
	s := l.Host.Settings()
	elapsed := w.be.Now - w.start
	// The engine's job reported to pgstat (Vacuumed, Analyzed) as it ended.
	if w.analyzing {
		logMin := s.Int("log_autovacuum_min_duration")
		if s.Version >= 19 {
			logMin = s.Int("log_autoanalyze_min_duration")
		}
		if logged(logMin, elapsed) {
			l.Host.Log(AnalyzeLog(s.Version, w.cur.Name, rep, elapsed))
		}
		w.cur = nil
		return true
	}
	if logged(s.Int("log_autovacuum_min_duration"), elapsed) {
		l.Host.Log(VacuumLog(s.Version, w.cur.Name, rep, elapsed))
	}
	if w.cur.analyze {
		return w.begin(l, false)
	}
	w.cur = nil
	return true
}

// fail is an error in the worker: it logs it and exits, as a worker's ERROR does.
func (w *worker) fail(l *Launcher, err error) bool {
	l.Host.Log(fmt.Sprintf("ERROR:  autovacuum worker: %v", err))
	w.job, w.cur = nil, nil
	l.Host.EndWorker(w.be)
	return false
}

// logged is log_autovacuum_min_duration's test: 0 logs everything, −1
// nothing, else runs of at least that long (TimestampDifferenceExceeds).
func logged(minNs, elapsedNs int64) bool {
	return minNs == 0 || minNs > 0 && elapsedNs/1000 >= minNs/1000
}

// rates is the "avg read rate" line: pages read and dirtied per second of the run, in MB/s.
func rates(b bufmgr.BufferUsage, elapsedNs int64) string {
	var r, wr float64
	if secs := float64(elapsedNs/1000) / 1e6; secs > 0 {
		r = float64(pg.BLCKSZ) * float64(b.Read) / (1024 * 1024) / secs
		wr = float64(pg.BLCKSZ) * float64(b.Dirtied) / (1024 * 1024) / secs
	}
	return fmt.Sprintf("avg read rate: %.3f MB/s, avg write rate: %.3f MB/s", r, wr)
}

func bufLine(v pg.Version, b bufmgr.BufferUsage) string {
	word := "misses"
	if v >= 18 {
		word = "reads"
	}
	return fmt.Sprintf("buffer usage: %d hits, %d %s, %d dirtied", b.Hit, b.Read, word, b.Dirtied)
}

// walLine is the "WAL usage" line; 19's "full page image bytes" field is
// left out (the model does not count image bytes apart).
func walLine(v pg.Version, r Report) string {
	if v >= 18 {
		return fmt.Sprintf("WAL usage: %d records, %d full page images, %d bytes, %d buffers full", r.WAL.Records, r.WAL.FPI, r.WAL.Bytes, r.WAL.BuffersFull)
	}
	return fmt.Sprintf("WAL usage: %d records, %d full page images, %d bytes", r.WAL.Records, r.WAL.FPI, r.WAL.Bytes)
}

func pct(n, of int) float64 {
	if of == 0 {
		return 100
	}
	return 100 * float64(n) / float64(of)
}

// VacuumLog is heap_vacuum_rel's log_autovacuum_min_duration message for
// a table without indexes or dead tuples, in the version's words. The lines
// about XID cutoffs (removable cutoff, new relfrozenxid) and system usage
// (getrusage) are left out: the model keeps neither.
func VacuumLog(v pg.Version, table string, r Report, elapsedNs int64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "LOG:  automatic vacuum of table \"%s.public.%s\": index scans: 0\n", Database, table)
	if v >= 18 {
		fmt.Fprintf(&b, "pages: %d removed, %d remain, %d scanned (%.2f%% of total), 0 eagerly scanned\n", r.Removed, r.Pages, r.Scanned, pct(r.Scanned, r.Pages))
	} else {
		fmt.Fprintf(&b, "pages: %d removed, %d remain, %d scanned (%.2f%% of total)\n", r.Removed, r.Pages, r.Scanned, pct(r.Scanned, r.Pages))
	}
	fmt.Fprintf(&b, "tuples: 0 removed, %d remain, 0 are dead but not yet removable\n", r.Tuples)
	if v >= 16 {
		fmt.Fprintf(&b, "frozen: %d pages from table (%.2f%% of total) had %d tuples frozen\n", r.FrozenPages, pct(r.FrozenPages, r.Pages), r.FrozenTuples)
	}
	if v >= 18 {
		fmt.Fprintf(&b, "visibility map: %d pages set all-visible, %d pages set all-frozen (%d were all-visible)\n", r.SetAllVisible, r.SetAllFrozen, 0)
	}
	fmt.Fprintf(&b, "index scan not needed: 0 pages from table (%.2f%% of total) had 0 dead item identifiers removed\n", pct(0, r.Pages))
	fmt.Fprintf(&b, "%s\n%s\n%s", rates(r.Buf, elapsedNs), bufLine(v, r.Buf), walLine(v, r))
	return b.String()
}

// AnalyzeLog is do_analyze_rel's message (its WAL usage line from 18).
func AnalyzeLog(v pg.Version, table string, r Report, elapsedNs int64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "LOG:  automatic analyze of table \"%s.public.%s\"\n", Database, table)
	fmt.Fprintf(&b, "%s\n%s", rates(r.Buf, elapsedNs), bufLine(v, r.Buf))
	if v >= 18 {
		fmt.Fprintf(&b, "\n%s", walLine(v, r))
	}
	return b.String()
}
