package cluster

import "github.com/pgbufsim/pgbufsim/bufmgr"

// Observer watches the buffer manager step by step: every free-list pop,
// clock-hand tick, usage decrement, victim, ring reuse and escape,
// StrategyRejectBuffer, hint-bit image, WAL flush and write, in the order
// the scheduler runs them (see bufmgr.Event). The scenario language's
// `trace` and the recordings that `pgbufsim plot` and `animate` draw are
// observers. An observer must not call back into the cluster.
type Observer interface {
	BufferEvent(ev bufmgr.Event)
}

// SetObserver installs o (nil: none). Without an observer the pool runs its
// untraced hot paths.
func (c *Cluster) SetObserver(o Observer) {
	if o == nil {
		c.e.Pool().SetTracer(nil)
		return
	}
	c.e.Pool().SetTracer(o.BufferEvent)
}
