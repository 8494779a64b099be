package oltp

import (
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
)

// page is the state of one heap page of a table that OLTP traffic updates,
// beyond what heap.Relation keeps: its line pointers by state and the tuples
// with storage, so that its free space, what pruning frees and logs, and its
// image's hole follow the page as PostgreSQL lays it out (bufpage.c,
// pruneheap.c). Every tuple of a pgbench table has the same length.
type page struct {
	nline    uint16 // line pointers (pd_lower = 24 + 4·nline)
	unused   uint16 // LP_UNUSED line pointers, reusable by the next tuple
	redirect uint16 // LP_REDIRECT
	lpdead   uint16 // LP_DEAD (no storage, until VACUUM)
	live     uint16 // tuples with storage that are some row's current version
	dead     uint16 // tuples with storage that no snapshot can see once their deleter is older than every snapshot
	// What the next prune does, by chain: rows still here whose root holds a
	// dead tuple (→ LP_REDIRECT), rows whose root is a redirect and whose
	// chain has dead members (the redirect is re-pointed), chains whose row
	// left the page with the root still a tuple or a redirect (→ LP_DEAD).
	rootsToRedirect, staleRedirects, departNormal, departRedirect uint16
	gen                                                           uint32 // prunes so far (a row's root became a redirect if the page was pruned since it died)
	pruneXid                                                      uint32 // pd_prune_xid as the transaction number that set it (0: none)
	full                                                          bool   // PD_PAGE_FULL: an UPDATE found no room here
	// unhinted is the last transaction that left tuples here whose hint
	// bits a later reader sets (0: all hinted); used for pages a seq scan reads whole.
	unhinted uint32
}

// freeSpace is pd_upper − pd_lower.
func (p *page) freeSpace(width int) int {
	return pg.BLCKSZ - heap.SizeOfPageHeaderData - heap.SizeOfItemID*int(p.nline) - width*int(p.live+p.dead)
}

// heapFreeSpace is PageGetHeapFreeSpace (bufpage.c): PageGetFreeSpace (the
// free space less one line pointer), or 0 when the line pointer array is at
// MaxHeapTuplesPerPage with none unused.
func (p *page) heapFreeSpace(width int) int {
	if int(p.nline) >= heap.MaxHeapTuplesPerPage && p.unused == 0 {
		return 0
	}
	return max(p.freeSpace(width)-heap.SizeOfItemID, 0)
}

// addItem is PageAddItem of a new tuple: an unused line pointer if there
// is one (PageHasFreeLinePointers), else a new one.
func (p *page) addItem() {
	if p.unused > 0 {
		p.unused--
	} else {
		p.nline++
	}
	p.live++
}

// prunable is PageIsPrunable: pd_prune_xid set by a transaction older than
// xid, the oldest any snapshot needs (one client: the running transaction).
func (p *page) prunable(xid uint32) bool { return p.pruneXid != 0 && p.pruneXid < xid }

// pruneOutcome is what heap_page_prune does to a page whose dead tuples are
// all removable: the line pointers it sets redirected, dead and unused.
type pruneOutcome struct{ redirected, dead, unused int }

// prune applies heap_page_prune to the page and reports what its WAL record
// lists (nothing to do: zero outcome).
func (p *page) prune() pruneOutcome {
	o := pruneOutcome{
		redirected: int(p.rootsToRedirect) + int(p.staleRedirects),
		dead:       int(p.departNormal) + int(p.departRedirect),
		unused:     int(p.dead) - int(p.rootsToRedirect) - int(p.departNormal),
	}
	p.redirect += p.rootsToRedirect
	p.redirect -= p.departRedirect
	p.lpdead += p.departNormal + p.departRedirect
	p.unused += uint16(o.unused)
	p.dead = 0
	p.rootsToRedirect, p.staleRedirects, p.departNormal, p.departRedirect = 0, 0, 0, 0
	p.gen++
	p.pruneXid = 0
	p.full = false
	return o
}

// empty reports whether the outcome changes no line pointer.
func (o pruneOutcome) empty() bool { return o.redirected == 0 && o.dead == 0 && o.unused == 0 }
