package engine

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
)

// vacuumCleanupIndexes is lazy_cleanup_all_indexes after a heap pass that
// found nothing to delete (no btbulkdelete): btvacuumcleanup reads each
// btree's metapage in _bt_vacuum_needs_cleanup (no deleted pages recorded,
// so no index scan) and again in _bt_set_cleanup_info
// (btm_last_cleanup_num_delpages already 0: nothing written, no WAL). With
// no statistics returned, update_relstats_all_indexes leaves the index's
// pg_class row alone (nbtree.c, nbtpage.c, vacuumlazy.c; the same since 14).
func (c *Cluster) vacuumCleanupIndexes(be *bufmgr.Backend, rel *heap.Relation) error {
	for _, ix := range c.sortedIndexes(rel) {
		for i := 0; i < 2; i++ {
			if err := c.readRelease(be, pg.BufferTag{Rel: ix.ID, Block: 0}); err != nil {
				return err
			}
		}
	}
	return nil
}
