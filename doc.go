// Package pgbufsim is a deterministic, faithful simulator of PostgreSQL's
// shared buffer manager. See README.md; the packages are pg (vocabulary), wal
// and strategy (bottom), bufmgr, heap, sim (top), scenario and cmd/pgbufsim.
package pgbufsim
