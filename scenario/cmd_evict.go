package scenario

import "github.com/cockroachdb/datadriven"

// Example: evict all
func (e *Env) cmdEvict(args []datadriven.CmdArg) (Output, error) {
	if len(args) != 1 || !positional(args[0]) {
		return Output{}, errorf("evict: expected 'evict all' or 'evict TABLE'")
	}
	if args[0].Key == "all" {
		return stmt(e.C.EvictAll())
	}
	if v := e.C.S.Version; v < 17 {
		// As verify: pg_buffercache_evict is 17+, pg_buffercache_evict_relation 18+.
		return Output{}, errorf("evict %s: PostgreSQL %d's pg_buffercache cannot evict a relation (pg_buffercache_evict is 17+, pg_buffercache_evict_relation 18+); use version=17 or later, or restart", args[0].Key, v)
	}
	return stmt(e.C.Evict(args[0].Key))
}
