// Package pgbufsim is a deterministic, faithful simulator of PostgreSQL's
// shared buffer manager. See README.md. The packages, bottom to top: pg
// (vocabulary), wal and strategy, storage (the OS page cache, readahead and
// the device below smgr), bufmgr, heap, guc (settings by PostgreSQL name),
// freespace (FSM and VM), planner (cost functions), internal/engine (the
// cluster's state and executor on a simulated clock), cluster (the typed
// API), replay and trace (block-access traces), scenario (the scenario
// language over cluster; scenario/scenariotest for golden suites), viz
// (plots and the animated pool map), verify (a real server beside the
// simulator), diagnose (a real plan explained), bench, and cmd/pgbufsim;
// internal/rng is the seeded PRNG.
package pgbufsim
