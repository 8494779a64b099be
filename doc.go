// Package pgbufsim is a deterministic, faithful simulator of PostgreSQL's
// shared buffer manager. See README.md. The packages, bottom to top: pg
// (vocabulary), wal and strategy, storage (the OS page cache, readahead and
// the device below smgr), bufmgr, heap, trace (block-access trace files),
// sim (the cluster and the scenario commands), viz (plots and the animated
// pool map), scenario (the file format), verify (a real server beside the
// simulator), bench, and cmd/pgbufsim; internal/rng is the seeded PRNG.
package pgbufsim
