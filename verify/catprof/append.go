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
	src := withNames(lines, pages, added, end)
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

// namesBlock is the Names slice of a profile file, a page a line-ful of
// quoted names.
var (
	reNamesStart = regexp.MustCompile(`^\tNames:\s*\[\]string\{$`)
	reQuoted     = regexp.MustCompile(`"([^"]*)"`)
)

// pageList reads the page list of a profile file's lines: its Names slice
// (end: the index of the slice's closing line), or, in a file written
// before the names were data, the comment lines after "most pinned
// first:" (end: the line after them, negative start so withNames knows).
func pageList(lines []string) (pages []string, end int, err error) {
	for i, l := range lines {
		if !reNamesStart.MatchString(l) {
			continue
		}
		for j := i + 1; j < len(lines); j++ {
			if strings.TrimSpace(lines[j]) == "}," {
				return pages, j, nil
			}
			for _, m := range reQuoted.FindAllStringSubmatch(lines[j], -1) {
				pages = append(pages, m[1])
			}
		}
		return nil, -1, fmt.Errorf("the profile file's Names slice has no end")
	}
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
		return nil, -1, fmt.Errorf("no page list (Names, or \"most pinned first:\") in the profile file")
	}
	return pages, end, nil
}

// withNames is the file's lines with the added pages after its page list:
// appended to its Names slice, or, for a file whose list is comments, the
// comments replaced by a Names slice of them all (after the Pages line).
func withNames(lines, pages, added []string, end int) string {
	var out []string
	if strings.TrimSpace(lines[end]) == "}," {
		out = append(out, lines[:end]...)
		out = append(out, nameLines(added)...)
		out = append(out, lines[end:]...)
		return strings.Join(out, "\n")
	}
	// The comment list: its heading stays ("Pages … most pinned first:"
	// now names the slice), its lines go.
	start := end
	for start > 0 && (strings.HasPrefix(lines[start-1], "//\t") || strings.HasPrefix(lines[start-1], "//   ") || lines[start-1] == "//") && !strings.Contains(lines[start-1], "most pinned first:") {
		start--
	}
	for _, l := range lines[:start] {
		if strings.Contains(l, "most pinned first:") {
			l = "// Names: the pages (relation/fork/block), most pinned first; the kinds' strings index them."
		}
		out = append(out, l)
	}
	for _, l := range lines[end:] {
		out = append(out, l)
		if rePagesLine.MatchString(l) {
			out = append(out, "\tNames: []string{")
			out = append(out, nameLines(append(pages[:len(pages):len(pages)], added...))...)
			out = append(out, "\t},")
		}
	}
	return strings.Join(out, "\n")
}

// nameLines is pages as the Names slice's lines, six a line.
func nameLines(pages []string) []string {
	var out []string
	for i := 0; i < len(pages); i += 6 {
		var q []string
		for _, p := range pages[i:min(i+6, len(pages))] {
			q = append(q, fmt.Sprintf("%q,", p))
		}
		out = append(out, "\t\t"+strings.Join(q, " "))
	}
	return out
}
