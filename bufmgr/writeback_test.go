package bufmgr

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/strategy"
	"github.com/stretchr/testify/require"
)

// The checkpointer's WritebackContext at checkpoint_flush_after = 4 blocks:
// BufferSync writes the dirty buffers in tag order; after every 4 written
// the 4 tags are handed to the kernel (one sync_file_range per run of
// consecutive blocks, their page-cache pages clean at once), and what is
// left pending at the end goes too. Dirty blocks 0, 1, 2, 5, 6, 9: the
// first batch {0, 1, 2, 5} is two runs (0–2 and 5), the end's {6, 9} two
// more; pg_stat_io counts 6 writebacks (the tags), the page cache holds no
// dirty page before any fsync, and the checkpointer spent 4 calls' cost.
func TestCheckpointWritebacks(t *testing.T) {
	p, be := newPool(t, 32, false)
	p.FlushAfter[Checkpointer] = 4
	for _, blk := range []int{0, 1, 2, 5, 6, 9} {
		b, _, err := p.ReadBuffer(be, tag(blk), nil)
		require.NoError(t, err)
		p.MarkBufferDirty(be, b)
		p.Unpin(be, b)
	}
	st := p.cfg.Storage
	ckpt := NewBackend(Checkpointer, be.Now)
	before := ckpt.Now
	require.Equal(t, 6, p.BufferSync(ckpt, false))
	require.Equal(t, int64(6), p.Stats.Rel[Checkpointer][strategy.Normal][OpWritebacks])
	require.Equal(t, 0, st.DirtyPages(), "every written page was handed to the kernel for write-back")
	require.Equal(t, int64(6), st.Stats.WrittenBack)
	perWrite := p.cfg.Costs.WritePageNs
	require.Equal(t, 6*perWrite+4*p.cfg.Costs.WritebackNs, ckpt.Now-before)
	require.Empty(t, ckpt.writeback)
}

// With flush_after 0 (backend_flush_after's default) nothing is scheduled:
// the written pages stay dirty in the page cache until an fsync.
func TestNoWritebacksWhenOff(t *testing.T) {
	p, be := newPool(t, 32, false)
	for blk := range 3 {
		b, _, err := p.ReadBuffer(be, tag(blk), nil)
		require.NoError(t, err)
		p.MarkBufferDirty(be, b)
		p.Unpin(be, b)
	}
	require.Equal(t, 3, p.BufferSync(NewBackend(Checkpointer, be.Now), false))
	require.Equal(t, int64(0), p.Stats.Rel[Checkpointer][strategy.Normal][OpWritebacks])
	require.Equal(t, 3, p.cfg.Storage.DirtyPages())
}
