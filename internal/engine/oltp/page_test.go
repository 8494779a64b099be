package oltp

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/nbtree"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/wal"
	"github.com/stretchr/testify/require"
)

// A full pgbench_accounts page after COPY: 61 tuples of 121 bytes
// (MAXALIGN 128) and 61 line pointers: pd_lower = 24 + 4·61 = 268,
// pd_upper = 8192 − 61·128 = 384, so 116 bytes free and PageGetHeapFreeSpace
// 112 — too little for a 128-byte version: the first UPDATE leaves the page.
func TestAccountsPageRoom(t *testing.T) {
	p := page{nline: 61, live: 61}
	require.Equal(t, 116, p.freeSpace(128))
	require.Equal(t, 112, p.heapFreeSpace(128))
	require.Less(t, p.heapFreeSpace(128), 128)
}

// The lifecycle heap_update and heap_page_prune give a full page:
//  1. row A moves off the page (no room): its tuple dead, its root → LP_DEAD
//     at the next prune (ndead 1), which frees 128 bytes: 244 free, 240 for a tuple;
//  2. row B's update then fits: HOT (a new line pointer, 62), 112 free;
//  3. the next prune turns B's root into a redirect to its new version
//     (nredirected 1) and frees the old version's 128 bytes.
func TestPruneLifecycle(t *testing.T) {
	p := page{nline: 61, live: 61}
	// 1. A leaves: the old version stays as a dead tuple with storage.
	p.live--
	p.dead++
	p.departNormal++
	p.pruneXid = 5
	require.False(t, p.prunable(5), "the updating transaction's own change is not yet prunable")
	require.True(t, p.prunable(6))
	o := p.prune()
	require.Equal(t, pruneOutcome{redirected: 0, dead: 1, unused: 0}, o)
	require.Equal(t, 116+128, p.freeSpace(128))
	require.Equal(t, 240, p.heapFreeSpace(128))
	// 2. B's HOT update: a new line pointer (no unused one), one more dead tuple.
	p.addItem()
	p.live--
	p.dead++
	p.rootsToRedirect++
	require.Equal(t, 62, int(p.nline))
	require.Equal(t, 244-128-4, p.freeSpace(128))
	// 3. The prune: B's root becomes a redirect, its old storage freed.
	o = p.prune()
	require.Equal(t, pruneOutcome{redirected: 1, dead: 0, unused: 0}, o)
	require.Equal(t, 1, int(p.redirect))
	require.Equal(t, 1, int(p.lpdead))
	require.Equal(t, 8192-24-4*62-128*60, p.freeSpace(128))
}

// log_heap_update's record for pgbench_accounts: the old and new data
// (97 bytes after t_hoff: aid, bid, the balance, the 85-byte filler) share
// the first 8 bytes and, for balances 0 → 1234 (0x04D2: bytes D2 04 00 00
// against 00 00 00 00), the last two balance bytes and the filler: prefix
// 8, suffix 87. The HOT record is then 24 (header) + 20 (block 0 reference)
// + 2 + 2 (prefix and suffix lengths) + 5 (xl_heap_header) + 1 (the pad
// between the 23-byte header and t_hoff 24, logged as is) + 97 − 8 − 87
// (the changed bytes) + 2 + 14 (main data: xl_heap_update) = 72.
func TestHeapUpdateRecord(t *testing.T) {
	tb := &Table{before: 8, after: 85}
	var a, b [128]byte
	prefix, suffix := wal.UpdateAffix(tb.rowData(a[:], 0), tb.rowData(b[:], 1234))
	require.Equal(t, 8, prefix)
	require.Equal(t, 87, suffix)
	require.Equal(t, 72, wal.HeapUpdate(121, prefix, suffix, true, false, false, 0, 0))
	// A move to another page: no prefix/suffix compression, the old page a
	// second block reference of the same relation (8 bytes): 24 + 20 + 5 +
	// 98 + 2 + 14 + 8 = 171.
	require.Equal(t, 171, wal.HeapUpdate(121, 0, 0, false, false, false, 0, 0))
	// heap_update's XLOG_HEAP_LOCK before it leaves the page: 24 + 20 + 2 + 8 = 54.
	require.Equal(t, 54, wal.HeapLockLen(false, 0))
	// A prune of one dead line pointer: 15: 24 + 20 + 2 + 8 + 2 = 56;
	// 17+: 24 + 20 + 2 + 6 + (2 + 2) = 56 too, by another layout.
	require.Equal(t, 56, wal.PruneLen(15, 0, 1, 0, false, 0))
	require.Equal(t, 56, wal.PruneLen(18, 0, 1, 0, false, 0))
	require.Equal(t, 57, wal.PruneLen(16, 0, 1, 0, false, 0))
}

// The arithmetic descent agrees with the index's own ordered search: key k
// of an id index built by CREATE INDEX is on leaf (k−1)/366, the last leaf
// holding the rest.
func TestLeafOfMatchesIndex(t *testing.T) {
	c := newTestCluster(t, 18, "16MB")
	b, _, err := Init(c, 1, 100)
	require.NoError(t, err)
	tb := b.Accounts
	require.Equal(t, 274, tb.Index.Leaves()) // ⌈100,000 / 366⌉
	for _, k := range []int64{1, 366, 367, 50000, 99999, 100000} {
		require.Equal(t, tb.Index.LeafOf(k), tb.leafOf(k), "key %d", k)
		require.Equal(t, tb.Index.Path(tb.leafOf(k)), tb.path(tb.leafOf(k)))
	}
	require.Equal(t, (100000-1)/nbtree.LeafKeys, tb.leafOf(100000))
	require.Equal(t, pg.BlockNumber(0), pg.BlockNumber(tb.baseBlock(61)))
	require.Equal(t, pg.BlockNumber(1), pg.BlockNumber(tb.baseBlock(62)))
}

// One TPC-B transaction on a fresh scale-1 table after a checkpoint, by hand:
// the accounts UPDATE finds the page full (116 bytes free), so it logs
// XLOG_HEAP_LOCK with the page's image, moves the row to the last page
// (40 rows: room) — an UPDATE record with that page's image — and inserts
// the key's new entry into the leaf (its image); the SELECT, tellers and
// branches updates (HOT, each page's image), the history insert (a new
// page: INIT_PAGE, no image) and the commit. Records: lock, update,
// btree insert, tellers, branches, history, commit = 7; images: accounts
// old page, accounts last page, leaf, tellers page, branches page = 5.
// Without the sessions' catalog pins (whose first reads of some catalog
// rows hint them: images of their own, counted in the run's WAL).
func TestOneTransaction(t *testing.T) {
	c := newTestCluster(t, 18, "16MB", [2]string{"catalog_pins", "off"})
	b, _, err := Init(c, 1, 100)
	require.NoError(t, err)
	_, err = c.RunCheckpoint()
	require.NoError(t, err)
	res, err := b.Run(TPCBLike, 1, []Keys{fixedKeys{Txn{AID: 5, BID: 1, TID: 3, Delta: 1234}}})
	require.NoError(t, err)
	require.Equal(t, int64(7), res.WAL.Records)
	require.Equal(t, int64(5), res.WAL.FPI)
	acc := res.Tables[Accounts]
	require.Equal(t, int64(1), acc.Upd)
	require.Equal(t, int64(0), acc.HotUpd)
	require.Equal(t, int64(1), res.Tables[Tellers].HotUpd)
	require.Equal(t, 1640, b.Accounts.Rel.NPages(), "the moved row went to the last page (100,000 = 1639·61 + 21), not a new one")
	require.Equal(t, uint32(1639), b.Accounts.rows[4].cur)
}

type fixedKeys struct{ t Txn }

func (f fixedKeys) Next() (Txn, error) { return f.t, nil }

// 19's heap_page_prune_opt pins the table's VM page into the scan's
// vmbuffer before it prunes (visibilitymap_pin, pruneheap.c); 15–18's does
// not. By hand, on scale 1: transaction 1 updates aid 5 on page 0, which is
// full, so the new version goes to the last page and the old one is left
// dead with pd_prune_xid = transaction 1 (its heap_update pins the VM for
// both pages: they were all-visible). Transaction 2 updates aid 6 on the
// same page: its UPDATE's index fetch finds page 0 full with a prunable
// xid and prunes it — on 19 one more access to the VM fork, on 18 none
// (page 0 is no longer all-visible, so heap_update pins nothing; the
// freed room takes the new version HOT, on the same page).
func TestPruneOnAccessPinsVM(t *testing.T) {
	for _, tc := range []struct {
		v       pg.Version
		vmReads int64
	}{{18, 0}, {19, 1}} {
		c := newTestCluster(t, tc.v, "16MB")
		b, _, err := Init(c, 1, 100)
		require.NoError(t, err)
		_, err = b.Run(TPCBLike, 1, []Keys{fixedKeys{Txn{AID: 5, BID: 1, TID: 3, Delta: 1}}})
		require.NoError(t, err)
		vm := c.ForkRelID(b.Accounts.Rel, pg.VMFork)
		h0, r0 := c.Pool().Accesses(vm)
		prunes := b.Accounts.stat.Prunes
		res, err := b.Run(TPCBLike, 1, []Keys{fixedKeys{Txn{AID: 6, BID: 1, TID: 3, Delta: 1}}})
		require.NoError(t, err)
		h1, r1 := c.Pool().Accesses(vm)
		require.Equal(t, prunes+1, b.Accounts.stat.Prunes, "version %d: transaction 2 prunes page 0", tc.v)
		require.Equal(t, int64(1), res.Tables[Accounts].HotUpd, "version %d: the pruned room takes aid 6's new version", tc.v)
		require.Equal(t, tc.vmReads, h1+r1-h0-r0, "version %d: VM accesses of transaction 2", tc.v)
	}
}
