// Package heap models the heap access method's side of the buffer story:
// PostgreSQL's page layout (how many tuples fit, where pd_lower and pd_upper
// end up, hence the hole a full-page image leaves out) and each page's
// hint-bit, visibility-map and free-space state. It holds state and layout
// arithmetic only; the statements of internal/engine read and change it while
// they pin and dirty the pages through package bufmgr.
//
// # Page layout
//
// A heap page is a 24-byte header (PageHeaderData, bufpage.h), a 4-byte line
// pointer per tuple growing up from pd_lower, and MAXALIGNed tuples
// (HeapTupleHeaderData, htup_details.h) growing down from pd_upper.
// Shape.TuplesPerPage is how many tuples INSERT puts on a page: one more
// while MAXALIGN(len) and a line pointer fit above the fillfactor reserve
// (RelationGetBufferForTuple in hio.c, PageGetHeapFreeSpace in bufpage.c);
// Shape.Hole is pd_upper − pd_lower, the bytes XLogRecordAssemble leaves out
// of a full-page image. PageBytes builds the page itself, byte for byte, for
// what only real bytes answer: how well its image compresses.
//
// # Hint bits and visibility
//
// A page's flags record whether every tuple carries HEAP_XMIN_COMMITTED
// (SetHintBits in heapam_visibility.c, which calls MarkBufferDirtyHint), the
// page's PD_ALL_VISIBLE bit with the visibility map's all-visible and
// all-frozen bits (visibilitymap.c), and pd_prune_xid (which 19 sets on
// every insert, heap_insert and heap_multi_insert, and clears when the page
// is pruned, pruneheap.c, or set all-visible). An unhinted insert clears the
// first three; CountVisibility is pg_visibility_map_summary.
//
// # Free space and statistics
//
// Each page's free space map value is a category of freespace.c
// (FSMValue); Relation also carries rd_targblock (where heap_insert tries
// first) and pg_class's relpages, reltuples and relallvisible as VACUUM and
// ANALYZE last set them (vac_update_relstats).
package heap
