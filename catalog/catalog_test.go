package catalog

import (
	"strings"
	"testing"

	"github.com/pgbufsim/pgbufsim/pg"

	"github.com/stretchr/testify/require"
)

// The codec: a digit is a page's pins, a letter a–f the same 0–5 pins on a
// page the session dirties; Add sums, Sub takes what a has beyond b.
func TestPins(t *testing.T) {
	p := Decode("52a0c")
	require.Equal(t, []Pin{{5, false}, {2, false}, {0, true}, {0, false}, {2, true}}, p)
	require.Equal(t, "52a0c", Encode(p))
	require.Equal(t, "73a0d", Encode(Add(p, Decode("21001")))) // 5+2, 2+1, a+0, 0+0, c(2)+1 = d
	require.Equal(t, "10a0c", Encode(Sub(p, Decode("44"))))    // 5−4, 2−4 → 0; the rest as it was
	require.Equal(t, "5200c", Encode(Sub(p, Decode("00a0"))), "what b dirtied is not a's any more")
}

// The profiles in force, each measured on a real server with pgbufsim
// catalog-profile: 15's (Debian's 15.18) for 15 to 17, 18's (18beta1) for
// 18, 19's (19beta1) for 19; a parallel worker's own pins are the
// one-worker scan less the serial scan. The statistics views' kinds were
// measured later (catalog-profile --append): their pages follow the first
// measurement's (233, 239 and 249 pages), whose kinds pin none of them; ANALYZE
// and CREATE INDEX later still (284, 303 and 308 pages before them: 7, 6
// and 4 pages only they pin, pg_statistic's free space map among them);
// pgbench's reading session (13, 7 and 9 pages only it pins); then set and
// the one-worker CREATE INDEX (2, 3 and 3 pages more: set's pg_proc pages);
// a build worker's own pins are the one-worker build less the serial one.
func TestProfiles(t *testing.T) {
	require.Same(t, &PG15, For(15))
	require.Same(t, &PG15, For(17))
	require.Same(t, &PG18, For(18))
	require.Same(t, &PG19, For(19))
	first := map[*Profile]int{&PG15: 233, &PG18: 239, &PG19: 249}
	require.Equal(t, 306, PG15.Pages)
	require.Equal(t, 319, PG18.Pages)
	require.Equal(t, 324, PG19.Pages)
	for _, p := range []*Profile{&PG15, &PG18, &PG19} {
		for _, d := range [][3]Kind{{Worker, Scan1w, Scan}, {IndexWorker, Index1w, Index}} {
			w := Decode(p.Kinds[d[0]])
			serial, one := Decode(p.Kinds[d[2]]), Decode(p.Kinds[d[1]])
			require.NotEmpty(t, w, "kind %d", d[0])
			for i := range w {
				want := one[i].N
				if i < len(serial) {
					want = max(0, one[i].N-serial[i].N)
				}
				require.Equal(t, want, w[i].N, "kind %d page %d", d[0], i)
			}
		}
		// set's session pins pages a plain session does not: the pg_proc rows
		// of pg_reload_conf and pg_conf_load_time (and their index's page).
		require.NotEmpty(t, strings.Trim(Encode(Sub(Decode(p.Kinds[Set]), Decode(p.Kinds[Session]))), "0"))
		for _, k := range []Kind{Session, First, Scan, Insert, Vacuum, Checkpoint, Buffercache, Table, Copy, StatTables, StatDatabase, StatBgwriter, StatIO, PgbenchSetup, PgbenchTPCB, PgbenchSimpleUpdate, PgbenchSelectOnly, Analyze, Index, Index1w, Set, PgbenchReading} {
			if k == StatIO && p == &PG15 {
				require.Empty(t, p.Kinds[k], "15 has no pg_stat_io")
				continue
			}
			require.NotEmpty(t, p.Kinds[k], "every kind is measured")
			require.LessOrEqual(t, len(p.Kinds[k]), p.Pages, "no pin beyond the profile's pages")
			if k < StatTables {
				require.LessOrEqual(t, len(p.Kinds[k]), first[p], "the first measurement's kinds pin its pages only")
			}
		}
	}
}

// The measured catalog prunes (catalog-profile --prunes) apply to the
// versions measured only: 16 and 17 borrow 15's pins, not its pg_proc
// layout. A parallel worker prunes what the one-worker scan prunes beyond
// the serial scan's: on 15, 18 and 19 both reach the same page (the count
// aggregate's), so a worker prunes nothing of its own.
func TestPrunes(t *testing.T) {
	require.Nil(t, PrunesFor(16))
	require.Nil(t, PrunesFor(17))
	for _, v := range []pg.Version{15, 18, 19} {
		p := PrunesFor(v)
		require.NotEmpty(t, p[Scan], "version %d", v)
		require.Equal(t, p[Scan], p[Scan1w], "version %d", v)
		require.Empty(t, p[Worker], "version %d", v)
		for k, recs := range p {
			for _, r := range recs {
				// An image record holds most of a page; a plain prune record is a few dozen bytes.
				require.Greater(t, r.Image, 4096, "version %d kind %d %s", v, k, r.Page)
				require.Greater(t, r.Hint, 4096, "version %d kind %d %s", v, k, r.Page)
				require.Less(t, r.Plain, 100, "version %d kind %d %s", v, k, r.Page)
			}
		}
	}
	require.Equal(t, []Prune{{"pg_proc/18", 7557, 8025, 58}}, PrunesFor(18)[Scan], "18's count(*) reaches int8inc's pg_proc page")
}

// A pgbench kind's measured first hints replace the profile's dirtied
// pages: page 1 (dirtied in the profile) stays pinned but clean, page 2
// becomes dirtied, page 5 (not pinned by the kind) is pinned once; a page
// the profile lacks (-1) is left out, and a page a prune dirties is
// dirtied when the prune happens.
func TestWithHints(t *testing.T) {
	pins := Decode("2c1")
	pruneHappens := false
	hints := []Hint{{"pg_statistic/0/18", 2, ""}, {"pg_statistic/0/0", 4, ""}, {"pg_am/0/9", -1, ""}, {"pg_proc/0/20", 0, "pg_proc/20"}}
	got := WithHints(pins, hints, func(h Hint) bool { return pruneHappens })
	require.Equal(t, "22b0a", Encode(got))
	pruneHappens = true
	require.Equal(t, "c2b0a", Encode(WithHints(pins, hints, func(h Hint) bool { return pruneHappens })), "a page dirtied by its prune")
	require.Equal(t, "2c1", Encode(pins), "the profile's own pins are not changed")
}

// pgbench's sessions' first hints (catalog-profile --prunes, in a verified
// run's order after pgbench -i): a select-only client's first transaction
// hints the pg_statistic page of pgbench_accounts' rows, which the profile,
// measured after the tpcb-like client had hinted it, shows clean; every
// page is one of the profile's.
func TestHints(t *testing.T) {
	require.Nil(t, HintsFor(16))
	for _, v := range []pg.Version{15, 18, 19} {
		h := HintsFor(v)
		require.Equal(t, "pg_statistic/0/18", h[PgbenchSelectOnly][0].Page, "version %d", v)
		for k, hs := range h {
			for _, x := range hs {
				require.GreaterOrEqual(t, x.Index, 0, "version %d kind %d %s", v, k, x.Page)
				require.Less(t, x.Index, For(v).Pages, "version %d kind %d %s", v, k, x.Page)
			}
		}
		i := h[PgbenchSelectOnly][0].Index
		require.False(t, Decode(For(v).Kinds[PgbenchSelectOnly])[i].Dirty, "version %d: the profile's select-only kind", v)
		require.True(t, Decode(For(v).Kinds[PgbenchTPCB])[i].Dirty, "version %d: the profile's tpcb-like kind", v)
	}
}

// ByPrunes: 18's plain session dirties pg_proc/0/66 (index 168, one pin)
// and is the first to prune it (prunes18). When the prune is this
// session's the mark stays, as the prune's; when an earlier session pruned
// the page the mark is dropped and the pin stays. A mark on a page the
// kind does not prune (here the scan's pg_proc/18 prune, which reaches a
// page the session's profile leaves clean) is left alone; a dirtied page
// of no pins keeps one pin when its mark goes.
func TestByPrunes(t *testing.T) {
	p := &PG18
	blk, ok := p.Block("pg_proc/66")
	require.True(t, ok)
	require.Equal(t, 168, blk)
	pins := Decode(p.Kinds[Session])
	require.Equal(t, Pin{1, true}, pins[blk])
	kept, by := p.ByPrunes(pins, p.Prunes[Session], func(Prune) bool { return true })
	require.Equal(t, pins, kept)
	require.Equal(t, map[int]bool{168: true}, by)
	dropped, by := p.ByPrunes(pins, p.Prunes[Session], func(Prune) bool { return false })
	require.Nil(t, by)
	require.Equal(t, Pin{1, false}, dropped[blk])
	for i := range pins {
		if i != blk {
			require.Equal(t, pins[i], dropped[i], "page %d", i)
		}
	}
	require.True(t, pins[blk].Dirty, "pins is not changed")
	same, by := p.ByPrunes(pins, p.Prunes[Scan], func(Prune) bool { return true })
	require.Equal(t, pins, same)
	require.Nil(t, by)
	a := make([]Pin, blk+1)
	a[blk] = Pin{0, true}
	out, _ := p.ByPrunes(a, p.Prunes[Session], func(Prune) bool { return false })
	require.Equal(t, Pin{1, false}, out[blk])
}
