package catprof

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

// What --prunes --append reads back of its own output: every kind measured
// (one that pruned nothing too), each prune's three lengths, and the
// pgbench kinds' first hints, indexed into the profile's pages (a page the
// profile lacks: -1), a page the kind prunes among them.
func TestPrunesAndHintsRoundTrip(t *testing.T) {
	prunes := map[string][]PruneRec{
		"scan":         {{Page: "pg_proc/17", Image: 7671, Hint: 7909, Plain: 58}},
		"table":        {},
		"pgbenchSetup": {{Page: "pg_proc/20", Image: 7843, Hint: 8137, Plain: 56}},
	}
	hints := map[string][]string{"pgbenchSetup": {"pg_statistic/0/0"}, "pgbenchSelectOnly": {"pg_am/0/9", "pg_type/0/1"}}
	var b bytes.Buffer
	b.WriteString("package catalog\n\n")
	WritePrunesGo(&b, "15.18", 15, prunes)
	pages, err := ProfilePages([]byte(oldProfile))
	require.NoError(t, err)
	require.Equal(t, []string{"pg_class/0/0", "pg_type/0/1", "pg_proc/0/2"}, pages)
	WriteHintsGo(&b, 15, hints, prunes, append(pages, "pg_statistic/0/0", "pg_proc/0/20"))
	src := b.Bytes()
	require.Contains(t, string(src), `PgbenchSelectOnly: {{"pg_am/0/9", -1, ""}, {"pg_type/0/1", 1, ""}},`)
	require.Contains(t, string(src), `PgbenchSetup: {{"pg_proc/0/20", 4, "pg_proc/20"}, {"pg_statistic/0/0", 3, ""}},`, "a pruned page, with its prune")
	require.Equal(t, prunes, ReadPrunesGo(src), "the hints' lines are not read as prunes")
	require.Equal(t, hints, ReadHintsGo(src))
	require.Empty(t, ReadHintsGo([]byte(oldProfile)))
}
