package nbtree

import (
	"encoding/binary"

	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
)

// PageBytes builds btree page blk (nbtree.h, itup.h) for compressing its
// image: each item an IndexTupleData (the heap TID, or the child's block
// above the leaves, and t_info = 16) followed by the int4 key; the high key
// first on a non-rightmost page; the 16-byte BTPageOpaqueData at the end.
// The metapage (block 0) holds its BTMetaPageData magic.
func (ix *Index) PageBytes(blk pg.BlockNumber) []byte {
	p := make([]byte, pg.BLCKSZ)
	binary.LittleEndian.PutUint16(p[16:], pg.BLCKSZ-16) // pd_special
	binary.LittleEndian.PutUint16(p[18:], pg.BLCKSZ|4)
	if blk == MetaBlock { // the metapage: BTMetaPageData after the header
		binary.LittleEndian.PutUint32(p[24:], 0x053162)
		binary.LittleEndian.PutUint16(p[12:], uint16(heap.SizeOfPageHeaderData+40))
		binary.LittleEndian.PutUint16(p[14:], pg.BLCKSZ-16)
		return p
	}
	if ix.kt != nil {
		return ix.keyedPageBytes(p, blk)
	}
	tpp := int64(ix.Rel.Shape.TuplesPerPage())
	for lv, pages := range ix.levels {
		for i, pgi := range pages {
			if pgi.blk != blk {
				continue
			}
			rightmost := i == len(pages)-1
			per := LeafKeys
			if lv > 0 {
				per = InnerDownlinks
			}
			n := per
			if rightmost {
				n = ix.right[lv]
			}
			// span is the keys one child of this page covers.
			span := int64(1)
			for l := 1; l <= lv; l++ {
				if l == 1 {
					span = LeafKeys
				} else {
					span *= InnerDownlinks
				}
			}
			type item struct{ blk, off, key uint32 }
			var items []item
			if !rightmost { // the high key: the next page's first key
				items = append(items, item{0, 0, uint32(int64((i+1)*per)*span + 1)})
			}
			for j := 0; j < n; j++ {
				c := int64(i*per + j) // entry index on this level
				if lv == 0 {
					items = append(items, item{uint32(c / tpp), uint32(c%tpp + 1), uint32(c + 1)})
				} else {
					child := ix.levels[lv-1][min(int(c), len(ix.levels[lv-1])-1)].blk
					items = append(items, item{uint32(child), 1, uint32(c*span + 1)})
				}
			}
			upper := pg.BLCKSZ - 16
			for j, it := range items {
				upper -= 16
				t := p[upper : upper+16]
				binary.LittleEndian.PutUint16(t[0:], uint16(it.blk>>16))
				binary.LittleEndian.PutUint16(t[2:], uint16(it.blk))
				binary.LittleEndian.PutUint16(t[4:], uint16(it.off))
				binary.LittleEndian.PutUint16(t[6:], 16)
				binary.LittleEndian.PutUint32(t[8:], it.key)
				binary.LittleEndian.PutUint32(p[heap.SizeOfPageHeaderData+4*j:], uint32(upper)|1<<15|16<<17)
			}
			binary.LittleEndian.PutUint16(p[12:], uint16(heap.SizeOfPageHeaderData+4*len(items)))
			binary.LittleEndian.PutUint16(p[14:], uint16(upper))
			sp := p[pg.BLCKSZ-16:]
			if i > 0 {
				binary.LittleEndian.PutUint32(sp[0:], uint32(pages[i-1].blk))
			}
			if !rightmost {
				binary.LittleEndian.PutUint32(sp[4:], uint32(pages[i+1].blk))
			}
			binary.LittleEndian.PutUint32(sp[8:], uint32(lv))
			flags := uint16(0)
			if lv == 0 {
				flags |= 1 // BTP_LEAF
			}
			if lv == len(ix.levels)-1 {
				flags |= 2 // BTP_ROOT
			}
			binary.LittleEndian.PutUint16(sp[12:], flags)
			return p
		}
	}
	return p
}
