// Package pgbench models the parts of PostgreSQL's pgbench (15 to 19) that
// decide which rows a benchmark touches and what `pgbench -i` builds, so a
// simulated run can be held to the real one key for key:
//
//   - PRNG is pg_prng (pg_prng.c): xoroshiro128**, seeded by splitmix64,
//     with the bitmask-rejection range draw pgbench's random() uses.
//   - NewRun and NewClients are pgbench's seeding from --random-seed: one
//     base sequence seeds each client's state, then :default_seed, then
//     each thread's three states; Client.Next draws a builtin script's
//     \set variables (aid, bid, tid, delta) in script order, from the
//     client's own state whatever the interleaving of the clients.
//   - The builtin scripts' text (TPCBLikeScript, …), what the setup
//     connection asks first (SetupQueries), InitSQL (the statements
//     `pgbench -i -s N -F F` sends on each version: 17 loads branches and
//     tellers by COPY, 15 and 16 by one INSERT a row) and Tables (the four
//     tables' columns, rows, exact heap tuple lengths and pages).
//
// The seeding and the draws are the same in 15, 16, 17, 18 and 19 (read in
// each version's pgbench.c and pg_prng.c, and run on 15, 18 and 19). Every
// figure here is checked against real pgbench runs kept in testdata. The
// package is a leaf: it imports nothing of the simulator.
package pgbench
