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

// Key names a pg_class row.
type Key struct {
	Rel  pg.RelID
	Kind Kind
}

// Page is one pg_class heap page.
type Page struct {
	Free   int // pd_upper − pd_lower
	Unused int // LP_UNUSED line pointers PageAddItem can reuse
	Dead   int // bytes of tuples an update left dead (pruning reclaims them)
	DeadIn int // the session that left them (pruned only from a later one)
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
	target  int                 // this session's rd_targblock (-1: none)
	session int
	rows    map[Key]Row
	// unhinted: row versions (a key's on a page) whose inserting or
	// updating transaction no visibility check has hinted yet, with the
	// session that wrote them (hinted only once it has committed).
	unhinted map[version]int
}

type version struct {
	Key   Key
	Block int
}

// New is pg_class as verify's setup leaves it on version v (catalog.PgClassPages).
func New(v pg.Version) *Class {
	c := &Class{target: -1, rows: map[Key]Row{}, unhinted: map[version]int{}}
	for i, p := range catalog.PgClassPages(v) {
		c.Pages = append(c.Pages, Page{Free: p.Free, Unused: p.Unused})
		c.Profile = append(c.Profile, p.Profile)
		c.setLeaf(i, p.FSMCat)
	}
	return c
}

// RowLen is t_len of a pg_class row of rowData bytes (vacwal.PgClassRow).
func RowLen(rowData int) int { return tupleHeaderLen + rowData }

func maxAlign(n int) int { return (n + 7) &^ 7 }

// SessionStart is a new backend: no target block in its relcache; its
// catalog lookups reach the pages of the rows earlier sessions updated, and
// heap_page_prune_opt prunes those left with under BLCKSZ/10 free.
func (c *Class) SessionStart() {
	c.session++
	c.target = -1
	for i := range c.Pages {
		p := &c.Pages[i]
		if p.Dead > 0 && p.DeadIn < c.session && p.Free < pruneMinFree {
			p.Free += p.Dead
			p.Dead = 0
			c.hint(func(v version) bool { return v.Block == i }) // pruning checks every tuple's visibility
		}
	}
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
	} else {
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
	blk := c.target
	if blk < 0 {
		blk = c.search(need)
	}
	if blk < 0 && len(c.Pages) > 0 {
		blk = len(c.Pages) - 1
	}
	for blk >= 0 {
		if free := heapFree(&c.Pages[blk]); n <= free {
			break
		} else {
			c.setLeaf(blk, spaceAvailToCat(free))
			c.dirty = true // fsm_set_avail's MarkBufferDirtyHint
			blk = c.search(need)
		}
	}
	if blk < 0 {
		// RelationAddBlocks: a new page, not in the FSM until VACUUM records it.
		blk = len(c.Pages)
		c.Pages = append(c.Pages, Page{Free: emptyPageFree})
		c.Profile = append(c.Profile, -1)
	}
	c.target = blk
	c.add(blk, n)
	return blk
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
// the larger of its children up to the root.
func (c *Class) setLeaf(slot, cat int) {
	n := nonLeafNodes + slot
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
