package bufmgr

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTruncateRel: smgrtruncate to 995 of a 1,000-block relation with blocks
// 990…999 in 16 buffers drops exactly the five buffers of blocks 995…999
// (to the free list, as DropRelationBuffers does on 18), keeps 990…994 and
// cuts the relation to 995 blocks; truncating to a size not below the
// current one changes nothing.
func TestTruncateRel(t *testing.T) {
	p, be := newPool(t, 16, false)
	for blk := 990; blk < 1000; blk++ {
		b, _, err := p.ReadBuffer(be, tag(blk), nil)
		require.NoError(t, err)
		p.Unpin(be, b)
	}
	free := p.Control().FreeListLen()
	p.TruncateRel(1, 995)
	require.Equal(t, 995, p.NBlocks(1))
	require.Equal(t, free+5, p.Control().FreeListLen())
	for blk := 990; blk < 995; blk++ {
		b, hit, err := p.ReadBuffer(be, tag(blk), nil)
		require.NoError(t, err)
		require.True(t, hit, "block %d stays", blk)
		p.Unpin(be, b)
	}
	p.TruncateRel(1, 2000)
	require.Equal(t, 995, p.NBlocks(1))
	require.NoError(t, p.CheckInvariants(nil, nil))
}
