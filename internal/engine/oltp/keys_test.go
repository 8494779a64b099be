package oltp

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/pgbench"
)

// clientKeys draws one pgbench client's transactions (package pgbench,
// proven key for key against the real pgbench).
type clientKeys struct {
	c      *pgbench.Client
	script Builtin
	scale  int
}

func (k clientKeys) Next() (Txn, error) { return k.c.Next(k.script, k.scale) }

// newTestKeys is the one client of `pgbench -c 1 --random-seed=seed`.
func newTestKeys(t testing.TB, seed uint64, scale int, script Builtin) Keys {
	cs, err := pgbench.NewClients(18, seed, 1)
	if err != nil {
		t.Fatal(err)
	}
	return clientKeys{cs[0], script, scale}
}
