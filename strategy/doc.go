// Package strategy models freelist.c: the free list, the clock sweep with
// usage counts, and the buffer access strategies (rings) that bulk operations
// use, sized per PostgreSQL version; and, as what-if variants, the
// replacement policies PostgreSQL used before the clock sweep and one it
// never had.
//
// # Clock sweep
//
// StrategyGetBuffer tries the caller's ring first, then pops the free list
// (filled at startup and by DROP/TRUNCATE through StrategyFreeBuffer, never
// by pg_buffercache eviction), then runs the clock (ClockSweepTick): every
// unpinned buffer the hand passes loses one usage count and the first one
// found at zero is the victim. The hand only moves when the free list is
// empty. After NBuffers pinned buffers in a row with no decrement in between
// it fails with "no unpinned buffers available". PostgreSQL 19 removed the
// free list ("bufmgr: Remove freelist, always use clock-sweep", 2c78940527):
// Control.RemoveFreeList.
//
// # Rings
//
// A ring is a backend-private array of buffer numbers (BufferAccessStrategy),
// sized by GetAccessStrategy and GetAccessStrategyWithSize per version
// (RingBuffers): 256 kB for BULKREAD (18: plus room for the I/O in flight,
// up to the pin limit), 16 MB for BULKWRITE, 256 kB for VACUUM (16 and
// later: vacuum_buffer_usage_limit), never more than an eighth of the pool.
// GetBufferFromRing advances to the next slot and returns its buffer only if
// nobody pins it and its usage count is at most 1; otherwise the caller takes
// a victim from the free list or the clock and it overwrites the slot
// (AddBufferToRing): the old buffer escapes the ring but stays in cache.
// StrategyRejectBuffer lets a BULKREAD ring drop a dirty buffer whose write
// would first need a WAL flush. StreamPinLimit is GetAccessStrategyPinLimit,
// how many of a ring's buffers a read stream may hold (17 and later).
//
// # Replacement policies (what-if)
//
// To ask "what would another policy do?", a pool can run a different
// Replacement in place of the clock sweep (bufmgr.Config.Replacement, the
// simulator setting replacement=): LRU as before 8.0, 2Q as 8.0.2 shipped
// it, ARC as 8.0.0 and 8.0.1 did, and CLOCK-Pro (Jiang, Chen and Zhang,
// 2005), each type's doc giving its lineage. The ring and the free list
// stay in front of it as in StrategyGetBuffer: only the search that runs
// once both are exhausted changes.
//
// A Replacement sees every first pin of a buffer by a backend (Access), every
// page read into a buffer (Load) and every page leaving one (Forget), and is
// asked for a victim (Victim). The calls take buffer numbers and tags by value
// and must not allocate: they run on the pool's hot path.
//
// # Adding a policy
//
// Write one file in this package with a type implementing Replacement and one
// line in the policies table of policy.go, e.g. for a most-recently-used
// policy:
//
//	{"mru", "evict the most recently used page", func(n int) Replacement { return newMRU(n) }},
//
// The setting accepts the new name at once; tests in the file show the
// policy's defining behaviour on a 16-buffer pool. A program that imports
// pgbufsim adds a policy without editing it through Register, from an init
// function; bufmgr.Config{Replacement: name} then builds pools with it
// (ExampleRegister).
//
// # Observing the sweep
//
// Control.Observer, when set, sees every step of StrategyGetBuffer as an
// Event (ring reuse or escape, free-list pop, each buffer the hand passes,
// the victim), for tracing and the teaching displays.
package strategy
