// Package pgclass is where the scenario's pg_class rows lie: pg_class's heap
// pages with their free space, its free space map (one leaf FSM page: the
// catalog has far fewer than 4,069 pages), and each backend's target block.
// CREATE TABLE and CREATE INDEX insert rows (heap_insert through
// RelationGetBufferForTuple, hio.c, which asks the FSM: freespace.c and
// fsmpage.c); CREATE TABLE's reltoastrelid update moves the table's row
// (heap_update, HOT on its page when it fits); the next session's lookups
// prune a nearly full page (heap_page_prune_opt). An in-place update
// (VACUUM's, ANALYZE's) then dirties the row's page, and an image of that
// page leaves out its own free space. No buffer or WAL state here: the
// engine's catalog pins (package catpin) map a page to its buffer.
package pgclass

import (
	"github.com/pgbufsim/pgbufsim/catalog"
	"github.com/pgbufsim/pgbufsim/pg"
)

// The FSM page layout (fsm_internals.h) and the heap page's constants.
const (
	nodesPerPage   = pg.BLCKSZ - 24 - 4          // NodesPerPage: BLCKSZ − MAXALIGN(SizeOfPageHeaderData) − fp_next_slot
	nonLeafNodes   = pg.BLCKSZ/2 - 1             // NonLeafNodesPerPage
	leafNodes      = nodesPerPage - nonLeafNodes // LeafNodesPerPage: 4,069
	catStep        = pg.BLCKSZ / 256             // FSM_CAT_STEP: 32
	maxRequest     = pg.BLCKSZ - 32              // MaxFSMRequestSize = MaxHeapTupleSize (8,160)
	itemIDSize     = 4                           // sizeof(ItemIdData)
	emptyPageFree  = pg.BLCKSZ - 24              // a new page: pd_upper − pd_lower
	pruneMinFree   = pg.BLCKSZ / 10              // heap_page_prune_opt's minfree (pg_class's fillfactor is 100)
	tupleHeaderLen = 32                          // MAXALIGN(23 + pg_class's null bitmap of 33–34 attributes)
)

// Kind is which of a relation's pg_class rows.
type Kind uint8

const (
	Table      Kind = iota // the relation's own row (a table or an index)
	Toast                  // its TOAST table's row
	ToastIndex             // the TOAST table's index's row
)

// Key names a pg_class row (Col 0), or a pg_attribute row: the column
// attnum Col of that relation (negative for the system columns).
type Key struct {
	Rel  pg.RelID
	Kind Kind
	Col  int
}

// Page is one pg_class heap page.
type Page struct {
	Free   int // pd_upper − pd_lower
	Unused int // LP_UNUSED line pointers PageAddItem can reuse
	Dead   int // bytes of tuples an update left dead (pruning reclaims them)
	DeadIn int // the session that left them (pruned only from a later one)
	// DeadRoots and HotRoots count the dead versions an update left: moved
	// to another page (pruned to LP_DEAD) or HOT (the chain's root pruned
	// to a redirect). Full is PD_PAGE_FULL, which heap_update sets on a
	// page whose tuple it had to move elsewhere.
	DeadRoots, HotRoots int
	Full                bool
	// Horizon: one of the dead versions was deleted by another transaction
	// than its inserter's (pruning it logs a snapshot conflict horizon).
	Horizon bool
}

// Row is where a row lies and its tuple's length (t_len).
type Row struct {
	Block, Len int
}

// Class is pg_class's pages and FSM in one cluster.
type Class struct {
	Pages []Page
	// Profile maps a page to its catalog page in the pin profile (-1: none).
	Profile []int
	nodes   [nodesPerPage]uint8 // the leaf FSM page's binary tree (fp_nodes)
	next    int                 // fp_next_slot, in shared buffers
	onDisk  int                 // fp_next_slot as last written
	dirty   bool                // the FSM page was dirtied since the last restart
	upper   int                 // the leaf page's value in the FSM's upper pages (its fp_nodes[0] when last propagated)
	// FSMDirtied: the FSM blocks (FSMLeaf, 1, FSMRoot) hint-dirtied since the
	// caller last took them (TakeFSMDirtied), in order.
	FSMDirtied []int
	// Extended: the last placement added a page (its insert initialises
	// it: XLOG_HEAP_INIT_PAGE, never an image).
	Extended bool
	target   int // this session's rd_targblock (-1: none)
	session  int
	rows     map[Key]Row
	// unhinted: row versions (a key's on a page) whose inserting or
	// updating transaction no visibility check has hinted yet, with the
	// session that wrote them (hinted only once it has committed).
	unhinted map[version]int
	// PruneOnAccess: pages are pruned only as the caller's accesses reach
	// them (Prunable, Prune); otherwise SessionStart prunes every nearly
	// full page with dead versions.
	PruneOnAccess bool
	// killable: versions a non-HOT update left dead whose index entries are
	// still live, with the updating session (an index scan that finds them
	// dead to all marks the entries LP_DEAD: KillDead).
	killable map[version]int
}

type version struct {
	Key   Key
	Block int
}

// New is pg_class as verify's setup leaves it on version v
// (catalog.PgClassPages); its pages are pruned as lookups and heap scans
// reach them (PruneOnAccess).
func New(v pg.Version) *Class {
	c := NewPages(catalog.PgClassPages(v))
	c.PruneOnAccess = true
	return c
}

// NewIndex is pg_index as verify's setup leaves it on version v
// (catalog.PgIndexPages): its rows are placed as pg_class's are
// (RelationGetBufferForTuple through its own FSM).
func NewIndex(v pg.Version) *Class { return NewPages(catalog.PgIndexPages(v)) }

// IndexRowLen is t_len of a pg_index row for an index on ncols columns
// (pg_index.h, 15 and later): indexrelid, indrelid (oid), indnatts,
// indnkeyatts (int2), eleven bools (23 bytes), then indkey (int2vector),
// indcollation and indclass (oidvector), indoption (int2vector), each
// int-aligned with a 24-byte array header and 2 or 4 bytes a column;
// indexprs and indpred null, so a 3-byte null bitmap for the 21 columns
// puts t_hoff at 32. One column: 166 bytes; a TOAST index's two: 176 (the
// line pointers' lengths in pg_index's pages on 15, 18 and 19).
func IndexRowLen(ncols int) int {
	align4 := func(n int) int { return (n + 3) &^ 3 }
	n := 23
	for _, w := range []int{2, 4, 4, 2} {
		n = align4(n) + 24 + w*ncols
	}
	return 32 + n
}

// NewPages is a catalog's heap pages as measured (free space, unused line
// pointers, FSM category, profile index).
func NewPages(pages []catalog.PgClassPage) *Class {
	c := &Class{target: -1, rows: map[Key]Row{}, unhinted: map[version]int{}, killable: map[version]int{}}
	for i, p := range pages {
		c.Pages = append(c.Pages, Page{Free: p.Free, Unused: p.Unused})
		c.Profile = append(c.Profile, p.Profile)
		c.setLeaf(i, p.FSMCat)
	}
	c.upper = int(c.nodes[0])
	return c
}

// RowLen is t_len of a pg_class row of rowData bytes (vacwal.PgClassRow).
func RowLen(rowData int) int { return tupleHeaderLen + rowData }

func maxAlign(n int) int { return (n + 7) &^ 7 }

// SessionStart is a new backend: no target block in its relcache; its
// catalog lookups reach the pages of the rows earlier sessions updated, and
// heap_page_prune_opt prunes those left with under BLCKSZ/10 free.
func (c *Class) SessionStart() {
	c.NewSession()
	for i := range c.Pages {
		if c.PruneOnAccess {
			break
		}
		p := &c.Pages[i]
		if p.Dead > 0 && p.DeadIn < c.session && p.Free < pruneMinFree {
			p.Free += p.Dead
			p.Dead, p.DeadRoots, p.HotRoots, p.Full, p.Horizon = 0, 0, 0, false, false
			c.hint(func(v version) bool { return v.Block == i }) // pruning checks every tuple's visibility
		}
	}
}

// NewSession is a new backend (SessionStart) whose accesses prune pages
// only as PruneOpt says.
func (c *Class) NewSession() {
	c.session++
	c.target = -1
}

// Prunable is heap_page_prune_opt's test (pruneheap.c) for page blk: a
// committed update left a dead version (pd_prune_xid older than every
// snapshot: no other transaction runs between the model's sessions), and
// the page is PD_PAGE_FULL or has less than BLCKSZ/10 free for a tuple
// (the catalogs' fillfactor is 100).
func (c *Class) Prunable(blk int) bool {
	p := &c.Pages[blk]
	return p.Dead > 0 && p.DeadIn < c.session && (p.Full || heapFree(p) < pruneMinFree)
}

// Prune is heap_page_prune on a Prunable page blk: every tuple's
// visibility is checked (HeapTupleSatisfiesVacuum), so every committed
// version on the page is hinted; a moved version's line pointer is set
// dead and a HOT chain's root redirected, their tuples' space reclaimed.
// It returns the line pointers set dead and redirected, and whether the
// record carries a conflict horizon (Page.Horizon).
func (c *Class) Prune(blk int) (ndead, nredirected int, horizon bool) {
	p := &c.Pages[blk]
	c.hint(func(v version) bool { return v.Block == blk })
	ndead, nredirected, horizon = p.DeadRoots, p.HotRoots, p.Horizon
	p.Free += p.Dead
	p.Dead, p.DeadRoots, p.HotRoots, p.Full, p.Horizon = 0, 0, 0, false, false
	return ndead, nredirected, horizon
}

// Visits is the pages an index scan for key k reaches, in TID order:
// those of the versions a non-HOT update left with live index entries, and
// the current version's.
func (c *Class) Visits(k Key) []int {
	seen := map[int]bool{}
	if r, ok := c.rows[k]; ok {
		seen[r.Block] = true
	}
	for v := range c.killable {
		if v.Key == k {
			seen[v.Block] = true
		}
	}
	var out []int
	for i := range c.Pages {
		if seen[i] {
			out = append(out, i)
		}
	}
	return out
}

// Reaches is the pages a lookup of the keys reaches (Visits: a HOT
// chain's older versions share its page, a moved version's index entry
// leads to its old page until a scan kills it), and kills the entries of
// versions dead to all (KillDead; the index's pages are not modelled).
func (c *Class) Reaches(keys ...Key) []int {
	var out []int
	for _, k := range keys {
		out = append(out, c.Visits(k)...)
	}
	c.KillDead(keys...)
	return out
}

// KillDead is an index scan for the keys finding the versions a committed
// non-HOT update left dead to every snapshot (heap_hot_search_buffer's
// all_dead): the scan marks their entries LP_DEAD (_bt_killitems), which
// later scans skip. It returns how many it killed.
func (c *Class) KillDead(keys ...Key) int {
	n := 0
	for v, s := range c.killable {
		if s >= c.session {
			continue
		}
		for _, k := range keys {
			if v.Key == k {
				delete(c.killable, v)
				n++
				break
			}
		}
	}
	return n
}

// Restart is a server restart: the FSM page is read back from disk, with
// the fp_next_slot it was last written with (the shutdown checkpoint wrote
// it if it was dirtied).
func (c *Class) Restart() {
	c.FSMEvicted()
	c.target = -1
}

// FSMEvicted: the FSM page left shared buffers (written first if dirty)
// and will be read back with the fp_next_slot on disk.
func (c *Class) FSMEvicted() {
	if c.dirty {
		c.onDisk = c.next
	}
	c.next, c.dirty = c.onDisk, false
}

// Insert is heap_insert of key's row of tupLen bytes; it returns the page.
func (c *Class) Insert(k Key, tupLen int) int {
	blk := c.place(maxAlign(tupLen))
	c.rows[k] = Row{blk, tupLen}
	c.unhinted[version{k, blk}] = c.session
	return blk
}

// Update is heap_update of key's row to tupLen bytes: on its own page when
// the page has room (a HOT update: pg_class's indexed columns do not
// change), else on a page RelationGetBufferForTuple finds; the old version
// is dead on its page. It returns the new page; ok is false for a row this
// model did not place.
func (c *Class) Update(k Key, tupLen int) (int, bool) {
	r, ok := c.rows[k]
	if !ok {
		return 0, false
	}
	old := &c.Pages[r.Block]
	old.Dead += maxAlign(r.Len)
	old.DeadIn = c.session
	c.unhinted[version{k, r.Block}] = c.session
	n := maxAlign(tupLen)
	blk := r.Block
	if heapFree(old) >= n {
		c.add(blk, n)
		old.HotRoots++
	} else {
		old.DeadRoots++
		old.Full = true // heap_update's PageSetFull: the old page could use pruning
		c.killable[version{k, r.Block}] = c.session
		blk = c.place(n)
	}
	c.rows[k] = Row{blk, tupLen}
	c.unhinted[version{k, blk}] = c.session
	return blk, true
}

// Row is where key's row lies.
func (c *Class) Row(k Key) (Row, bool) {
	r, ok := c.rows[k]
	return r, ok
}

// Hole is page blk's pd_upper − pd_lower, which its image leaves out.
func (c *Class) Hole(blk int) int { return c.Pages[blk].Free }

// Commit is the commit of the session's transaction: its row versions can
// be hinted by the session's own later statements.
func (c *Class) Commit() {
	for v, s := range c.unhinted {
		if s == c.session {
			c.unhinted[v] = -1
		}
	}
}

// HeapScan is a heap scan of pg_class (the relcache init file's rebuild,
// vac_update_datfrozenxid at the end of VACUUM): it hints every committed
// row version; it returns the pages it hinted.
func (c *Class) HeapScan() []int {
	return c.hint(func(version) bool { return true })
}

// LookUp is a session's lookups of the relations' rows (the relcache
// built for a table, its indexes, its TOAST table): the versions of those
// rows it visits are hinted; it returns the pages it hinted.
func (c *Class) LookUp(keys ...Key) []int {
	return c.hint(func(v version) bool {
		for _, k := range keys {
			if v.Key == k {
				return true
			}
		}
		return false
	})
}

// hint hints the committed unhinted versions which says, returning their
// pages in order.
func (c *Class) hint(which func(version) bool) []int {
	pages := map[int]bool{}
	for v, s := range c.unhinted {
		if s < c.session && which(v) {
			pages[v.Block] = true
			delete(c.unhinted, v)
		}
	}
	var out []int
	for i := range c.Pages {
		if pages[i] {
			out = append(out, i)
		}
	}
	return out
}

// heapFree is PageGetHeapFreeSpace (bufpage.c): the room for one more tuple
// after its line pointer.
func heapFree(p *Page) int { return max(0, p.Free-itemIDSize) }

// add is PageAddItem of n (MAXALIGNed) bytes: an unused line pointer reused
// when there is one.
func (c *Class) add(blk, n int) {
	p := &c.Pages[blk]
	p.Free -= n
	if p.Unused > 0 {
		p.Unused--
	} else {
		p.Free -= itemIDSize
	}
}

// place is RelationGetBufferForTuple (hio.c) for a tuple of n bytes: the
// session's target block if it has room, else the FSM's page
// (GetPageWithFreeSpace), the last page when the FSM knows none; a page
// found too small is recorded with its real free space and the FSM asked
// again (RecordAndGetPageWithFreeSpace); with none left, a new page.
func (c *Class) place(n int) int {
	need := spaceNeededToCat(n)
	c.Extended = false
	blk := c.target
	if blk < 0 {
		blk = c.searchFromRoot(need)
	}
	if blk < 0 && len(c.Pages) > 0 {
		blk = len(c.Pages) - 1
	}
	for blk >= 0 {
		if free := heapFree(&c.Pages[blk]); n <= free {
			break
		} else {
			if c.setLeaf(blk, spaceAvailToCat(free)) {
				c.dirty = true // fsm_set_avail's MarkBufferDirtyHint
				c.FSMDirtied = append(c.FSMDirtied, FSMLeaf)
			}
			// fsm_set_and_search: the leaf page first, then from the root.
			if blk = c.search(need); blk < 0 {
				blk = c.searchFromRoot(need)
			}
		}
	}
	if blk < 0 {
		// RelationAddBlocks: a new page, not in the FSM until VACUUM records it.
		blk, c.Extended = len(c.Pages), true
		c.Pages = append(c.Pages, Page{Free: emptyPageFree})
		c.Profile = append(c.Profile, -1)
	}
	c.target = blk
	c.add(blk, n)
	return blk
}

// The FSM's blocks of a catalog under 4,069 pages: the root (level 2), one
// page on level 1, the leaf page (level 0), as fsm_logical_to_physical
// numbers them.
const (
	FSMRoot = 0
	FSMLeaf = 2
)

// TakeFSMDirtied returns and forgets FSMDirtied.
func (c *Class) TakeFSMDirtied() []int {
	d := c.FSMDirtied
	c.FSMDirtied = nil
	return d
}

// searchFromRoot is fsm_search (freespace.c) for a category: the search
// descends from the root when the upper pages say the leaf page has one;
// finding the leaf page without it (its values lowered since they were
// propagated), it corrects the level-1 page's slot and then the root's
// (fsm_set_avail, MarkBufferDirtyHint each) and gives up. On the leaf page
// it is fsm_search_avail (search).
func (c *Class) searchFromRoot(need int) int {
	if c.upper < need {
		return -1
	}
	if slot := c.search(need); slot >= 0 {
		return slot
	}
	if c.upper != int(c.nodes[0]) {
		c.upper = int(c.nodes[0])
		c.FSMDirtied = append(c.FSMDirtied, 1, FSMRoot)
	}
	return -1
}

// spaceNeededToCat is fsm_space_needed_to_cat (freespace.c).
func spaceNeededToCat(n int) int {
	return min(255, (n+catStep-1)/catStep)
}

// spaceAvailToCat is fsm_space_avail_to_cat (freespace.c).
func spaceAvailToCat(avail int) int {
	if avail >= maxRequest {
		return 255
	}
	return min(254, avail/catStep)
}

func parentOf(x int) int  { return (x - 1) / 2 }
func leftChild(x int) int { return 2*x + 1 }

// rightNeighbor is rightneighbor (fsmpage.c): one node to the right on the
// same level, wrapping to the level's leftmost node.
func rightNeighbor(x int) int {
	x++
	if (x+1)&x == 0 {
		x = parentOf(x)
	}
	return x
}

// setLeaf is fsm_set_avail (fsmpage.c): the leaf's value, and each parent
// the larger of its children up to the root; false when the value was
// already so (the page is not dirtied).
func (c *Class) setLeaf(slot, cat int) bool {
	n := nonLeafNodes + slot
	if c.nodes[n] == uint8(cat) {
		return false
	}
	c.nodes[n] = uint8(cat)
	for n > 0 {
		n = parentOf(n)
		l := leftChild(n)
		v := c.nodes[l]
		if l+1 < nodesPerPage && c.nodes[l+1] > v {
			v = c.nodes[l+1]
		}
		if c.nodes[n] == v {
			break
		}
		c.nodes[n] = v
	}
	return true
}

// search is fsm_search_avail (fsmpage.c) on the leaf page with advancenext:
// from fp_next_slot, step right and climb until a node has the category,
// then descend preferring the left child; fp_next_slot moves past the slot
// found. -1 when no page has it.
func (c *Class) search(minCat int) int {
	if int(c.nodes[0]) < minCat {
		return -1
	}
	target := c.next
	if target < 0 || target >= leafNodes {
		target = 0
	}
	n := nonLeafNodes + target
	for n > 0 && int(c.nodes[n]) < minCat {
		n = parentOf(rightNeighbor(n))
	}
	for n < nonLeafNodes {
		l := leftChild(n)
		if l < nodesPerPage && int(c.nodes[l]) >= minCat {
			n = l
		} else {
			n = l + 1
		}
	}
	slot := n - nonLeafNodes
	c.next = slot + 1
	return slot
}
