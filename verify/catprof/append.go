package catprof

import (
	"fmt"
	"go/format"
	"regexp"
	"sort"
	"strings"
)

// A profile file (catalog/pgNN.go) grows by kinds measured later without
// disturbing the kinds already in it: their strings index its pages in its
// order, which the simulator's pins (and every output that depends on which
// catalog page sits where) follow. AppendGo keeps the file's pages, kinds and
// hand-written notes as they are, appends the pages only the new kinds pin,
// and adds the new kinds over the extended page list.

var (
	reKindLine  = regexp.MustCompile(`(?m)^\t\t([A-Z][A-Za-z0-9]*):\s*"([0-9a-f]*)",$`)
	rePagesLine = regexp.MustCompile(`(?m)^(\tPages:\s*)(\d+),$`)
	reCountLine = regexp.MustCompile(`(: )(\d+)( catalog pages;)`)
)

// OldKinds returns the kinds a profile file holds, lower-cased (what
// MeasureCatalog's skip takes).
func OldKinds(old []byte) map[string]bool {
	out := map[string]bool{}
	for _, m := range reKindLine.FindAllSubmatch(old, -1) {
		out[strings.ToLower(string(m[1]))] = true
	}
	return out
}

// AppendGo returns old (a file WriteGo wrote, perhaps annotated since) with
// the kinds of p it does not have.
func (p *CatalogProfile) AppendGo(old []byte) ([]byte, error) {
	lines := strings.Split(string(old), "\n")
	pages, end, err := pageList(lines)
	if err != nil {
		return nil, err
	}
	have := map[string]int{}
	for i, pg := range pages {
		have[pg] = i
	}
	oldKinds := OldKinds(old)
	var added []string
	for _, pg := range p.Pages {
		if _, ok := have[pg]; !ok {
			have[pg] = len(pages) + len(added)
			added = append(added, pg)
		}
	}
	merged := append(pages[:len(pages):len(pages)], added...)
	var names []string
	for n := range p.Kinds {
		if !oldKinds[strings.ToLower(n)] {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var kinds strings.Builder
	for _, n := range names {
		v := make([]byte, len(merged))
		for i := range v {
			v[i] = '0'
		}
		for i, c := range p.Kinds[n] {
			j := have[p.Pages[i]]
			if c >= 10 {
				v[j] = byte('a' + c - 10)
			} else {
				v[j] = byte('0' + c)
			}
		}
		fmt.Fprintf(&kinds, "\t\t%s: %q,\n", strings.ToUpper(n[:1])+n[1:], strings.TrimRight(string(v), "0"))
	}
	var out []string
	out = append(out, lines[:end]...)
	for i := 0; i < len(added); i += 6 {
		out = append(out, "//\t"+strings.Join(added[i:min(i+6, len(added))], " "))
	}
	out = append(out, lines[end:]...)
	src := strings.Join(out, "\n")
	src = reCountLine.ReplaceAllString(src, fmt.Sprintf("${1}%d${3}", len(merged)))
	src = rePagesLine.ReplaceAllString(src, fmt.Sprintf("${1}%d,", len(merged)))
	// The new kinds go before the Kinds map's closing brace.
	i := strings.LastIndex(src, "\t},\n}")
	if i < 0 {
		return nil, fmt.Errorf("no Kinds map in the profile file")
	}
	src = src[:i] + kinds.String() + src[i:]
	// Measured counts the file predates go after its Pages line.
	var counts strings.Builder
	for _, f := range []struct {
		name string
		v    int
	}{{"VacuumIndexWindowHits", p.VacuumIndexWindowHits}, {"VacuumNextIndexWindowHits", p.VacuumNextIndexWindowHits}} {
		if !regexp.MustCompile(`(?m)^\t` + f.name + `:`).MatchString(src) {
			fmt.Fprintf(&counts, "\t%s: %d,\n", f.name, f.v)
		}
	}
	if loc := rePagesLine.FindStringIndex(src); loc != nil && counts.Len() > 0 {
		src = src[:loc[1]+1] + counts.String() + src[loc[1]+1:]
	}
	res, err := format.Source([]byte(src))
	if err != nil {
		return nil, fmt.Errorf("the merged profile does not parse: %v", err)
	}
	return res, nil
}

// ProfilePages is the page list of a profile file (catalog/pgNN.go), in its order.
func ProfilePages(src []byte) ([]string, error) {
	pages, _, err := pageList(strings.Split(string(src), "\n"))
	return pages, err
}

// pageList reads the page list of a profile file's lines (the comment lines
// after "most pinned first:") and the index of the line after it.
func pageList(lines []string) (pages []string, end int, err error) {
	start := -1
	end = -1
	for i, l := range lines {
		if strings.Contains(l, "most pinned first:") {
			start = i + 1
			continue
		}
		if start >= 0 && end < 0 {
			if l == "//" && len(pages) == 0 {
				continue
			}
			if !strings.HasPrefix(l, "//\t") && !strings.HasPrefix(l, "//   ") {
				end = i
				continue
			}
			pages = append(pages, strings.Fields(strings.TrimPrefix(l, "//"))...)
		}
	}
	if start < 0 || end < 0 {
		return nil, -1, fmt.Errorf("no page list (\"most pinned first:\") in the profile file")
	}
	return pages, end, nil
}
