package cluster

import (
	"fmt"
	"strings"

	"github.com/pgbufsim/pgbufsim/pg"
)

// The pool map (`show pool`, and the frames `pgbufsim animate` steps through)
// draws every buffer, or every group of buffers in a big pool, as a column of
// three characters: the relation its page belongs to (a letter; upper case
// when dirty), its usage count (0–5), and a mark for the clock hand (the next
// buffer ClockSweepTick looks at) and the ring slots of the last statement.
// It is the simulator's view, not a query: it pins nothing.

const (
	poolMapWidth    = 64                // cells a row
	poolMapMaxCells = poolMapWidth * 16 // beyond this, buffers are grouped
)

// PoolMap is one picture of the pool.
type PoolMap struct {
	NBuffers int
	Group    int       // buffers a cell
	Hand     pg.Buffer // the clock hand (1-based)
	Passes   uint64    // complete passes of the clock
	FreeList int       // buffers on the free list
	Page     string    // a cell's relation letter ('.' unused); upper case: dirty
	Usage    string    // a cell's usage count digit (' ' for unused)
	Mark     string    // '^' hand, 'r' ring slot, 'R' the ring's current slot, '*' hand on a ring slot, ' ' none
	Legend   []string  // "a=big", … in letter order, for the relations on the map
}

// relLetters names the pool's relations by letter: each table its name's
// first letter when that is a free lower-case letter (tables in creation
// order), then the other tables, forks and indexes the next free letters, in
// the order show buffercache lists them; "(other)" (the catalogs) is '#',
// and '?' when the letters run out.
func (c *Cluster) relLetters() (map[pg.RelID]byte, []string) {
	letters := map[pg.RelID]byte{pg.CatalogRel: '#'}
	taken := map[byte]bool{}
	type rel struct {
		id   pg.RelID
		name string
	}
	var rest, order []rel
	for _, r := range c.sortedRels() {
		order = append(order, rel{r.ID, r.Name})
		if l := r.Name[0]; l >= 'a' && l <= 'z' && !taken[l] {
			letters[r.ID], taken[l] = l, true
		} else {
			rest = append(rest, rel{r.ID, r.Name})
		}
		for _, f := range []pg.ForkNumber{pg.FSMFork, pg.VMFork} {
			if id, ok := c.forks[[2]int{int(r.ID), int(f)}]; ok {
				rest = append(rest, rel{id, c.RelName(id)})
				order = append(order, rel{id, c.RelName(id)})
			}
		}
		for _, ix := range c.sortedIndexes(r) {
			rest = append(rest, rel{ix.ID, ix.Name})
			order = append(order, rel{ix.ID, ix.Name})
		}
	}
	next := byte('a')
	for _, r := range rest {
		for next <= 'z' && taken[next] {
			next++
		}
		l := byte('?')
		if next <= 'z' {
			l, taken[next] = next, true
		}
		letters[r.id] = l
	}
	var legend []string
	for _, r := range order {
		legend = append(legend, fmt.Sprintf("%c=%s", letters[r.id], r.name))
	}
	return letters, legend
}

// PoolMap draws the pool now.
func (c *Cluster) PoolMap() PoolMap {
	n := c.pool.NBuffers()
	g := 1
	for n > poolMapMaxCells*g {
		g *= 2
	}
	cells := (n + g - 1) / g
	letters, legend := c.relLetters()
	ctl := c.pool.Control()
	m := PoolMap{NBuffers: n, Group: g, Hand: ctl.Hand(), Passes: ctl.CompletePasses, FreeList: ctl.FreeListLen()}
	ring := make([]byte, n+1)
	for _, r := range c.pool.Rings() {
		for i, b := range r.Slots() {
			if b == pg.InvalidBuffer {
				continue
			}
			if i == r.Current() {
				ring[b] = 'R'
			} else if ring[b] == 0 {
				ring[b] = 'r'
			}
		}
	}
	used := map[byte]bool{}
	page, usage, mark := make([]byte, cells), make([]byte, cells), make([]byte, cells)
	for cell := 0; cell < cells; cell++ {
		lo := cell*g + 1
		hi := lo + g - 1
		if hi > n {
			hi = n
		}
		// The relation holding most of the group's buffers (ties: the first in
		// letter order; unused only when it outnumbers each); dirty when most
		// of those are dirty.
		count := map[byte]int{}
		dirty := map[byte]int{}
		usum, valid := 0, 0
		mk := byte(' ')
		for b := pg.Buffer(lo); int(b) <= hi; b++ {
			s := c.pool.State(b)
			l := byte('.')
			if s&pg.FlagValid != 0 {
				l = letters[c.pool.Tag(b).Rel]
				usum += s.Usage()
				valid++
				if s&pg.FlagDirty != 0 {
					dirty[l]++
				}
			}
			count[l]++
			if ring[b] == 'R' || (ring[b] == 'r' && mk == ' ') {
				mk = ring[b]
			}
		}
		best, bestN := byte('.'), 0
		for l, k := range count {
			if l != '.' && (k > bestN || (k == bestN && l < best)) {
				best, bestN = l, k
			}
		}
		if count['.'] > bestN {
			best = '.'
		}
		if best != '.' {
			used[best] = true
			if 2*dirty[best] > count[best] || (g == 1 && dirty[best] > 0) {
				best = upper(best)
			}
			usage[cell] = byte('0' + (2*usum+valid)/(2*valid)) // mean usage, rounded
		} else {
			usage[cell] = ' '
		}
		page[cell] = best
		if int(m.Hand) >= lo && int(m.Hand) <= hi {
			if mk == ' ' {
				mk = '^'
			} else {
				mk = '*'
			}
		}
		mark[cell] = mk
	}
	m.Page, m.Usage, m.Mark = string(page), string(usage), string(mark)
	for _, l := range legend {
		if used[l[0]] && l[0] != '?' || l[0] == '?' && used['?'] {
			m.Legend = append(m.Legend, l)
		}
	}
	if used['#'] {
		m.Legend = append(m.Legend, "#=(other)")
	}
	return m
}

func upper(l byte) byte {
	if l >= 'a' && l <= 'z' {
		return l - 'a' + 'A'
	}
	return l
}

// Text is the map in rows of 64 cells with the legend, under 100 columns.
func (m PoolMap) Text() string {
	var b strings.Builder
	if m.Group == 1 {
		fmt.Fprintf(&b, "pool: %d buffers, one column each; clock hand at buffer %d after %s; free list %d\n",
			m.NBuffers, m.Hand, passes(m.Passes), m.FreeList)
	} else {
		fmt.Fprintf(&b, "pool: %d buffers, one column per %d buffers\nclock hand at buffer %d after %s; free list %d\n",
			m.NBuffers, m.Group, m.Hand, passes(m.Passes), m.FreeList)
	}
	for i := 0; i < len(m.Page); i += poolMapWidth {
		j := i + poolMapWidth
		if j > len(m.Page) {
			j = len(m.Page)
		}
		fmt.Fprintf(&b, "%8d page  %s\n", i*m.Group+1, m.Page[i:j])
		fmt.Fprintf(&b, "%s\n", strings.TrimRight(fmt.Sprintf("%8s usage %s", "", m.Usage[i:j]), " "))
		if mk := strings.TrimRight(m.Mark[i:j], " "); mk != "" {
			fmt.Fprintf(&b, "%8s mark  %s\n", "", mk)
		}
	}
	rels := append(append([]string{}, m.Legend...), ".=unused")
	line := "relations:"
	for _, r := range rels {
		if len(line)+1+len(r) > 98 {
			b.WriteString(line + "\n")
			line = "          "
		}
		line += " " + r
	}
	b.WriteString(line + "\n")
	if m.Group == 1 {
		b.WriteString("page: the buffer's relation, UPPER CASE when dirty; usage: its usage count (0-5)\n")
	} else {
		fmt.Fprintf(&b, "page: the relation holding most of the %d buffers, UPPER CASE when most of those are dirty;\n"+
			"usage: their mean usage count (0-5)\n", m.Group)
	}
	b.WriteString("mark: ^ clock hand, r ring slot of the last statement, R its current slot, * hand on a ring slot")
	return b.String()
}

func passes(n uint64) string {
	if n == 1 {
		return "1 complete pass"
	}
	return fmt.Sprintf("%d complete passes", n)
}
