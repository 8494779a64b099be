package hostcpu

// ScaleScenario is the step host_time_scale is measured on: seed 000's
// count(*) of a 32,768-page table after a checkpoint, with data checksums
// off, in a 128MB pool that a hot table and four filler tables fill first.
// Its work is what a scan does on every version — reads from the OS page
// cache, each page's hint bits set (no WAL: checksums and wal_log_hints are
// off), the ring's dirty buffers written and reused — so its time on a
// server over its time in the simulator says how much longer the server's
// host takes for the cost model's work (TestF000_13 has the PostgreSQL 18
// reference runs' figure).
const ScaleScenario = `# host_time_scale's calibration step (pgbufsim host-scale).
cluster shared_buffers=128MB data_checksums=off max_wal_size=8GB checkpoint_timeout=1h autovacuum=off bgwriter_lru_maxpages=0
table big rows=131072 tuple_bytes=1832 autovacuum=off
table hot rows=12000 tuple_bytes=1832 autovacuum=off
table fill1 rows=12800 tuple_bytes=1832 autovacuum=off
table fill2 rows=12800 tuple_bytes=1832 autovacuum=off
table fill3 rows=12800 tuple_bytes=1832 autovacuum=off
table fill4 rows=12800 tuple_bytes=1832 autovacuum=off
insert big
insert hot
insert fill1
insert fill2
insert fill3
insert fill4
checkpoint
evict all
scan hot repeat=6
scan fill1
scan fill2
scan fill3
scan fill4
scan big
`
