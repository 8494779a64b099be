// Package nbtree models PostgreSQL's btree access method (src/backend/access/nbtree)
// as far as the buffer manager and the WAL see it: which pages an index has,
// which of them a statement pins, and what each change logs.
//
// # Geometry
//
// An index holds 16-byte tuples (an int4 or int8 key after the 8-byte
// IndexTupleData, MAXALIGNed) behind 4-byte line pointers. CREATE INDEX
// builds it bottom-up (nbtsort.c: _bt_buildadd, _bt_blwritepage): leaves
// filled to fillfactor 90, internal pages to 70, each non-rightmost page
// ending in a high key, the metapage (block 0) written last. The counts —
// 367 items on a leaf, 285 on an internal page, 407 on a full rightmost
// page — are what pageinspect shows on PostgreSQL 15 (geometry.go). An index
// on a key with duplicates packs each value's heap TIDs into posting-list
// tuples first (nbtdedup.c, nbtsort.c's maxpostingsize; key.go).
//
// # The ordered key space
//
// Every page covers a range of entries in index order, starting at its
// first entry (its low key; the leftmost page of a level starts at minus
// infinity, as P_LEFTMOST pages do). Each level keeps its pages' low keys in
// an ordered map (a github.com/google/btree), so the page that holds an
// entry is an ordered search — the last page whose low key is at or below it,
// as _bt_binsrch picks a downlink on an internal page (nbtsearch.c) — over a
// structure a page split adds one separator to (space.go).
//
// # Insertion
//
// Ascending inserts (a load's next id) follow _bt_doinsert (nbtinsert.c):
// the fastpath to the cached rightmost leaf, else the descent from the root
// (the metapage read first in a new session, _bt_getroot); a full page
// splits (_bt_split, keeping its fillfactor's worth on the left), its
// downlink goes to the parent (_bt_insert_parent), and a split root gets a
// new root above it (_bt_newroot, nbtpage.c's metapage update). A Writer
// carries the backend: its pins go to the buffer pool and its records to the
// WAL directly, as nbtinsert.c calls bufmgr.c and XLogInsert; what only the
// cluster knows (an image's size under wal_compression, the catalog) comes
// through the Engine interface (insert.go).
//
// # WAL records
//
// The record sizes are pg_waldump's for the nbtxlog.h records the model
// writes — XLOG_BTREE_INSERT_LEAF, INSERT_UPPER, SPLIT_R, NEWROOT — and
// log_newpage's XLOG_FPI for each page CREATE INDEX writes (records.go).
// PageBytes builds a page's bytes (nbtree.h, itup.h) for wal_compression.
package nbtree
