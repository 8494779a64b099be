package catalog

import (
	"fmt"
	"os"
	"testing"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/stretchr/testify/require"
)

// TestPgClassPagesProfile: each measured pg_class page's Profile index names
// pg_class/0/k in the page list catalog-profile wrote into the version's
// profile file (the pages in the order of the profile strings).
func TestPgClassPagesProfile(t *testing.T) {
	for _, v := range []pg.Version{15, 18, 19} {
		src, err := os.ReadFile(fmt.Sprintf("pg%d.go", v))
		require.NoError(t, err)
		require.Contains(t, string(src), "Names: []string{", "version %d: the page names are data", v)
		names := For(v).Names
		require.Len(t, names, For(v).Pages, "version %d", v)
		require.Equal(t, "pg_class/1/2", names[PgClassFSMLeaf(v)], "version %d", v)
		for k, p := range PgClassPages(v) {
			require.Equal(t, fmt.Sprintf("pg_class/0/%d", k), names[p.Profile], "version %d page %d", v, k)
			require.LessOrEqual(t, p.FSMCat, 255)
			require.LessOrEqual(t, p.Free, 8192-24)
		}
		for k, p := range PgIndexPages(v) {
			require.Equal(t, fmt.Sprintf("pg_index/0/%d", k), names[p.Profile], "version %d pg_index page %d", v, k)
		}
	}
}
