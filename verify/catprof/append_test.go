package catprof

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const oldProfile = `package catalog

// Measured by ` + "`pgbufsim catalog-profile`" + ` on PostgreSQL 18beta1: 3 catalog pages;
// 0 pages not shared between databases were still at usage 5 before the statements ran (pins on them are not seen).
// A digit is a page's pins; a letter a–f is 0–5 pins on a page the session dirties.
//
// Pages (relation/fork/block), most pinned first:
//
//	pg_class/0/0 pg_type/0/1 pg_proc/0/2
var PG18 = Profile{
	Pages:            3,
	VacuumWindowHits: 25,
	// A note written by hand.
	TableGrowthPages: 1,
	Kinds: map[Kind]string{
		Scan:    "52",
		Session: "311",
	},
}
`

// A later measurement of a new kind over pages in another order, one of them
// new: the file keeps its pages, kinds and notes; the new page goes last;
// the new kind's pins are rewritten in the file's page order (pg_type 2,
// pg_class 1, the new pg_am 4, dirtied: 'e'); the counts follow (4 pages);
// measured counts the file predates are added after its page count.
func TestAppendGoKeepsTheFile(t *testing.T) {
	p := &CatalogProfile{
		Pages: []string{"pg_type/0/1", "pg_am/0/0", "pg_class/0/0", "pg_proc/0/2"},
		Kinds: map[string][]int8{"statTables": {2, 14, 1, 0}, "scan": {9, 9, 9, 9}},
		// Counts the file lacks are added; one it has is kept.
		VacuumIndexWindowHits: 15, VacuumNextIndexWindowHits: 9, VacuumWindowHits: 99,
	}
	require.Equal(t, map[string]bool{"scan": true, "session": true}, OldKinds([]byte(oldProfile)))
	out, err := p.AppendGo([]byte(oldProfile))
	require.NoError(t, err)
	s := string(out)
	require.Contains(t, s, "PostgreSQL 18beta1: 4 catalog pages;")
	require.Contains(t, s, "\tNames: []string{\n\t\t\"pg_class/0/0\", \"pg_type/0/1\", \"pg_proc/0/2\", \"pg_am/0/0\",\n\t},\n")
	again, err := ProfilePages(out)
	require.NoError(t, err)
	require.Equal(t, []string{"pg_class/0/0", "pg_type/0/1", "pg_proc/0/2", "pg_am/0/0"}, again, "the Names slice reads back as the page list")
	require.Contains(t, s, "\tPages:                     4,\n\tVacuumIndexWindowHits:     15,\n\tVacuumNextIndexWindowHits: 9,\n\tNames: []string{\n")
	require.Contains(t, s, "\t},\n\tVacuumWindowHits: 25,\n", "a count the file has is kept")
	require.Contains(t, s, "// A note written by hand.")
	require.Contains(t, s, `Scan:       "52",`, "a kind already there is kept as it was")
	require.Contains(t, s, `StatTables: "120e",`)
	require.Equal(t, 1, strings.Count(s, "Scan:"))
}
