package pgclass

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

// TestPlacement15 replays the DDL of random seed 3040 on PostgreSQL 15 and
// checks where its rows land and the pages' free space against the real
// server's (pg_waldump of the run, and its pg_class file after the stop):
//
//	begin; table t1 …; copy t1 freeze; commit  INPLACE … blk 0 (t1 and its TOAST table)
//	index t1_id on t1                          (page 1: 3,184 → 3,008 free)
//	table t2 …; copy t2                        INPLACE off 41 … blk 5 (t2, 237 bytes)
//	index t2_id on t2                          INSERT off 1 … blk 6; page 5 left 932 free
//	restart; …; checkpoint; vacuum t1          INPLACE off 9 … blk 0 FPW, 2,281 bytes
func TestPlacement15(t *testing.T) {
	c := New(15)
	// The tables' rows carry "autovacuum_enabled=off": 140 + 49 bytes of
	// data (vacwal.PgClassRow), t_len 32 + 189 = 221, MAXALIGNed 224; a row
	// without reloptions 32 + 140 = 172, 176 on the page.
	const withOpts, plain = 32 + 189, 32 + 140
	// Session 1: the FSM's fp_next_slot is 0 and page 0's leaf says
	// 235 × 32 = 7,520 free (initdb's VACUUM): the search for category
	// ⌈224/32⌉ = 7 stops at slot 0, fp_next_slot becomes 1. The TOAST table
	// and its index follow on the target block, then the reltoastrelid update
	// (HOT: 6,764 − 4 ≥ 224 on the page). Every row takes a free line
	// pointer (39 unused): 6,764 − 224 − 176 − 176 − 224 = 5,964.
	c.SessionStart()
	require.Equal(t, 0, c.Insert(Key{Rel: 1}, withOpts))
	require.Equal(t, 0, c.Insert(Key{Rel: 1, Kind: Toast}, plain))
	require.Equal(t, 0, c.Insert(Key{Rel: 1, Kind: ToastIndex}, plain))
	blk, ok := c.Update(Key{Rel: 1}, withOpts)
	require.True(t, ok)
	require.Equal(t, 0, blk)
	require.Equal(t, 5964, c.Hole(0))

	// Session 2 (CREATE INDEX t1_id): its lookup of t1 hints t1's two
	// versions on page 0 (not the TOAST rows: the server's pg_class file
	// still has them unhinted before the restart). The search starts at
	// slot 1, whose leaf (99) has category ⌈176/32⌉ = 6: page 1, 3,184 − 176
	// = 3,008 (the server's page after the run); after the commit the
	// session's query of the index's size hints its row.
	c.SessionStart()
	require.Equal(t, []int{0}, c.LookUp(Key{Rel: 1}))
	require.Equal(t, 1, c.Insert(Key{Rel: 2}, plain))
	require.Equal(t, 3008, c.Hole(1))
	c.Commit()
	require.Equal(t, []int{1}, c.LookUp(Key{Rel: 2}))

	// Session 3 (table t2): from slot 2, pages 2–4 have category 2 < 7: page
	// 5 (47). 1,508 − 224 − 176 − 176 = 932, then the HOT update leaves 708
	// with 224 bytes dead.
	c.SessionStart()
	require.Equal(t, 5, c.Insert(Key{Rel: 3}, withOpts))
	c.Insert(Key{Rel: 3, Kind: Toast}, plain)
	c.Insert(Key{Rel: 3, Kind: ToastIndex}, plain)
	blk, _ = c.Update(Key{Rel: 3}, withOpts)
	require.Equal(t, 5, blk)
	require.Equal(t, 708, c.Hole(5))
	c.Commit() // then ALTER TABLE … SET STORAGE PLAIN looks t2 up
	require.Equal(t, []int{5}, c.LookUp(Key{Rel: 3}))

	// Session 4 (COPY t2): its lookup reaches page 5, which it prunes (708
	// < BLCKSZ/10 = 819): the HOT chain's root redirected, 708 + 224 = 932,
	// the server's; no conflict horizon (the update was the inserter's).
	// Session 5 (CREATE INDEX t2_id): the index's row goes to slot 6 (195 ≥ 6).
	c.SessionStart()
	require.Equal(t, 708, c.Hole(5), "pg_class's pages are pruned only as accesses reach them")
	require.Equal(t, []int{5}, c.Reaches(Key{Rel: 3}))
	require.True(t, c.Prunable(5))
	ndead, nredirected, horizon := c.Prune(5)
	require.Equal(t, []any{0, 1, false}, []any{ndead, nredirected, horizon})
	require.Equal(t, 932, c.Hole(5))
	require.False(t, c.Prunable(5))
	c.SessionStart()
	require.Equal(t, 6, c.Insert(Key{Rel: 4}, plain))
	require.Equal(t, 6256-176, c.Hole(6)) // 6,080, the server's
	c.Commit()
	require.Equal(t, []int{6}, c.LookUp(Key{Rel: 4}))

	// The restart reads back fp_next_slot 0 (the FSM page was never
	// dirtied); page 0 still holds t1's dead first version, which the first
	// session hints; VACUUM t1's image of page 0 is 8,192 − 5,964 = 2,228
	// bytes, as the server's 2,281-byte record (53 + 2,228).
	c.Restart()
	c.SessionStart()
	require.Equal(t, []int{0}, c.HeapScan())
	r, _ := c.Row(Key{Rel: 1})
	require.Equal(t, 0, r.Block)
	require.Equal(t, 2228, 8192-c.Hole(r.Block))
}

// TestFSMSearch: fsm_search_avail's walk on a hand-made leaf level — the
// first page to the right of fp_next_slot with the category, wrapping
// around; a page found too small is recorded (RecordAndGetPageWithFreeSpace)
// and the search goes on; with none left the relation is extended.
func TestFSMSearch(t *testing.T) {
	c := &Class{target: -1, rows: map[Key]Row{}}
	for i, free := range []int{100, 3000, 100, 2000} {
		c.Pages = append(c.Pages, Page{Free: free})
		c.Profile = append(c.Profile, i)
		c.setLeaf(i, spaceAvailToCat(free))
	}
	c.upper = int(c.nodes[0]) // 93: the upper pages say page 1's 3,000
	c.next = 2
	require.Equal(t, 3, c.search(spaceNeededToCat(1000))) // slot 2 too small, 3 has 62
	require.Equal(t, 4, c.next)
	require.Equal(t, 1, c.search(spaceNeededToCat(1000))) // wraps: 4 is past the leaves in use → 0, then 1
	require.Equal(t, -1, c.search(spaceNeededToCat(3500)))
	// The FSM says page 1 has 3,000 but it has 200 now: recorded, then
	// page 3; a 2,500-byte tuple fits nowhere and extends pg_class.
	c.Pages[1].Free = 200
	c.next = 1
	c.target = -1
	require.Equal(t, 3, c.place(1000))
	require.True(t, c.dirty)
	require.Equal(t, (200-4)/32, int(c.nodes[nonLeafNodes+1])) // its heap free space, 196
	c.target = -1                                              // page 3 (the last) has 2,000 − 1,004 − 4 = 992 < 2,504
	require.Equal(t, 4, c.place(2504))
	require.Equal(t, emptyPageFree-2504-itemIDSize, c.Hole(4))
	// The hint-dirtied FSM pages: page 1's leaf lowered (the first place);
	// then fsm_search descends from the root, which still says 93 ≥ ⌈2,504/32⌉
	// = 79, finds the leaf page's 62 and corrects the level-1 page and the
	// root; the last page, 3, is too small and its leaf is lowered; the
	// search from the root (62 < 79) gives up and pg_class is extended.
	require.Equal(t, []int{FSMLeaf, 1, FSMRoot, FSMLeaf}, c.TakeFSMDirtied())
	require.Empty(t, c.TakeFSMDirtied())
}

// TestIndexRowLen: pg_index rows are 166 bytes for an index on one column
// and 176 for a TOAST table's index on two, the line pointers' lengths in
// pg_index's pages after verify's setup on 15, 18 and 19 (IndexRowLen's
// derivation: 23 → 24 + 24 + 2n → … → 134 + 32 for n = 1).
func TestIndexRowLen(t *testing.T) {
	require.Equal(t, 166, IndexRowLen(1))
	require.Equal(t, 176, IndexRowLen(2))
}

// TestPgIndexPlacement replays the DDL of `table t1; copy t1; table t2;
// insert t2; index t2_id on=t2` (tuple_bytes=80: each table has a TOAST
// table, whose index's 176-byte row goes into pg_index) against the pages
// pg_waldump showed on each server: the TOAST indexes' rows take pages 0
// and 1 (a new session each: fp_next_slot moves on), then CREATE INDEX's
// 166-byte row (MAXALIGNed 168, on a reused line pointer) —
//
//	15: page 2 (category 7 ≥ ⌈168/32⌉ = 6), 244 − 168 = 76 free: INSERT … 2610 blk 2 FPW, 8,170 bytes (54 + 8,192 − 76)
//	18: page 2, 224 − 168 = 56 free: 8,190 bytes
//	19: page 1's category is 5 < 6, so t2's TOAST index takes page 2; the
//	    search from slot 3 (category 3) wraps to page 0, whose leaf still
//	    says 12 though t1's row left it 228: INSERT … blk 0 without an image
//	    (t1's session logged that page since the checkpoint).
func TestPgIndexPlacement(t *testing.T) {
	for _, tc := range []struct {
		v        pg.Version
		pages    [3]int
		lastFree int
	}{{15, [3]int{0, 1, 2}, 76}, {18, [3]int{0, 1, 2}, 56}, {19, [3]int{0, 2, 0}, 228 - 168}} {
		c := NewIndex(tc.v)
		for i, k := range []Key{{Rel: 1, Kind: ToastIndex}, {Rel: 2, Kind: ToastIndex}, {Rel: 3}} {
			c.SessionStart()
			n := IndexRowLen(2)
			if k.Kind == Table {
				n = IndexRowLen(1)
			}
			require.Equal(t, tc.pages[i], c.Insert(k, n), "version %d row %d", tc.v, i)
		}
		require.Equal(t, tc.lastFree, c.Hole(tc.pages[2]), "version %d", tc.v)
	}
}
