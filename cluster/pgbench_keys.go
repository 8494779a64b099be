package cluster

import (
	"github.com/pgbufsim/pgbufsim/internal/engine/oltp"
	"github.com/pgbufsim/pgbufsim/pgbench"
)

// clientKeys is one pgbench client drawing the builtin script's \set lines
// (package pgbench: pg_prng, seeded as pgbench seeds each client).
type clientKeys struct {
	c      *pgbench.Client
	script oltp.Builtin
	scale  int
}

func (k clientKeys) Next() (oltp.Txn, error) { return k.c.Next(k.script, k.scale) }

// pgbenchKeys is the clients of `pgbench -c clients -j 1 --random-seed=seed` on version v.
func pgbenchKeys(v, clients int, seed uint64, scale int, script oltp.Builtin) ([]oltp.Keys, error) {
	cs, err := pgbench.NewClients(v, seed, clients)
	if err != nil {
		return nil, err
	}
	out := make([]oltp.Keys, len(cs))
	for i, c := range cs {
		out[i] = clientKeys{c, script, scale}
	}
	return out, nil
}
