package scenario_test

import (
	"fmt"

	"github.com/pgbufsim/pgbufsim/scenario"
)

// A scenario file run as `pgbufsim run` runs it: parsed, then each command
// executed in order. In a 16-buffer pool a seq scan of a table above
// NBuffers/4 = 4 pages takes a BULKREAD ring of NBuffers/8 = 2 buffers:
// the 20-page table ends in those 2 (writing the 18 pages the scan dirtied
// with hint bits before reusing their buffers), while the 3-page table,
// scanned without a ring, keeps its 3 buffers and 11 stay unused. Without
// checksums the hints log nothing, so the ring is never abandoned.
func ExampleEnv() {
	src := `cluster version=18 shared_buffers=128kB data_checksums=off catalog_pins=off
table small pages=3 tuples_per_page=4
table big pages=20 tuples_per_page=4
insert small
insert big
restart
scan small
scan big
show buffercache
`
	f, err := scenario.Parse("example.scn", src)
	if err != nil {
		panic(err)
	}
	env := &scenario.Env{Seed: 1, CheckInvariants: true}
	for _, st := range f.Steps {
		out, err := env.Exec(st.Cmd, st.Args)
		if err != nil {
			panic(fmt.Sprintf("%s:%d: %v", "example.scn", st.Line, err))
		}
		if st.Cmd == "scan" || st.Cmd == "show" {
			fmt.Printf("> %s\n%s\n", st.Text, out.Text)
		}
	}
	// Output:
	// > scan small
	// Seq Scan on small  strategy=normal
	//   Buffers: shared read=3 dirtied=3
	//   Execution Time: 0.214 ms (simulated)
	// > scan big
	// Seq Scan on big  strategy=bulkread ring=2 buffers (16kB)
	//   Buffers: shared read=20 dirtied=20 written=18
	//   Ring: rejected dirty buffers=0
	//   Execution Time: 0.466 ms (simulated)
	// > show buffercache
	// relation    buffers   dirty     u0     u1     u2     u3     u4     u5
	// small             3       3      0      3      0      0      0      0
	// big               2       2      0      2      0      0      0      0
	// (unused)         11
}
