package scenario

import (
	"fmt"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCreateTableCatalogWAL: CREATE TABLE t1 (id int4, pad text) WITH
// (autovacuum_enabled=off) after verify's setup and a checkpoint, then
// CREATE TABLE t2 the same without one, as suite 53 runs them: the
// records, page images and record bytes (pg_waldump's sum of "tot" over
// the CREATE TABLE's records) measured on PostgreSQL 15.18, 18beta1 and
// 19beta1. After the checkpoint every catalog page's first change logs
// its image (22, 25 and 24 of them: 18's and 19's pg_attribute rows
// overflow onto another page, whose FSM pages log hint images); without
// one only pg_class's and pg_index's next pages and the TOAST index's
// metapage do.
func TestCreateTableCatalogWAL(t *testing.T) {
	re := regexp.MustCompile(`records=(\d+) fpi=(\d+) .*record bytes (\d+)\)`)
	for _, c := range []struct {
		v    int
		want [2][3]int
	}{
		{15, [2][3]int{{95, 22, 121605}, {92, 3, 23719}}},
		{18, [2][3]int{{97, 25, 137194}, {92, 3, 23827}}},
		{19, [2][3]int{{97, 24, 149095}, {92, 3, 22907}}},
	} {
		env := &Env{Seed: 1, CheckInvariants: true}
		src := fmt.Sprintf(`cluster version=%d shared_buffers=16MB max_wal_size=1GB checkpoint_timeout=1h autovacuum=off bgwriter_lru_maxpages=0
checkpoint
mark m0
table t1 rows=10000 tuple_bytes=80 autovacuum=off
show wal since=m0
mark m1
table t2 rows=4000 tuple_bytes=40 autovacuum=off
show wal since=m1
`, c.v)
		f, err := Parse("create-table.scn", src)
		require.NoError(t, err)
		var got [][3]int
		for _, st := range f.Steps {
			out, err := env.Exec(st.Cmd, st.Args)
			require.NoError(t, err, st.Text)
			if st.Cmd == "show" {
				m := re.FindStringSubmatch(out.Text)
				require.NotNil(t, m, out.Text)
				var g [3]int
				for i := range g {
					g[i], _ = strconv.Atoi(m[i+1])
				}
				got = append(got, g)
			}
		}
		require.Equal(t, c.want[:], got, "version %d", c.v)
	}
}
