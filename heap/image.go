package heap

import (
	"crypto/md5"
	"encoding/binary"
	"encoding/hex"
	"strconv"

	"github.com/pgbufsim/pgbufsim/pg"
)

// Page contents, for what only real bytes can answer: how well a full-page
// image compresses under wal_compression. The rows are the ones the scenario
// loads (and verify loads the same): the id (1..rows in load order), then the
// pad text of the table's shape, either 'x' repeated or, with content=md5,
// rpad(md5(id::text), n, md5((id+7)::text)) — the reference runs' rows.

// PadText is the pad column of row id.
func (r *Relation) PadText(id int64) []byte {
	n := r.PadLen()
	if n <= 0 {
		return nil
	}
	out := make([]byte, 0, n)
	if r.Content != "md5" {
		for len(out) < n {
			out = append(out, 'x')
		}
		return out
	}
	h := md5.Sum([]byte(strconv.FormatInt(id, 10)))
	out = append(out, hex.EncodeToString(h[:])...)
	fill := md5.Sum([]byte(strconv.FormatInt(id+7, 10)))
	fs := hex.EncodeToString(fill[:])
	for len(out) < n {
		out = append(out, fs...)
	}
	return out[:n]
}

// PageBytes builds page blk as PostgreSQL lays it out (bufpage.h, htup_details.h):
// the 24-byte header, a line pointer per tuple, tuples from the end of the
// page, each a 23-byte header padded to 24 (xmin = xid, no nulls) followed by
// the int4 id and the pad as a varlena. Rows are numbered in load order, the
// page's first row being blk × tuples-a-page + 1. Shapes other than
// (id int4, pad text) get their length in zero bytes.
func (r *Relation) PageBytes(blk pg.BlockNumber, xid uint32, lsn pg.LSN) []byte {
	p := make([]byte, pg.BLCKSZ)
	n := r.Tuples(blk)
	tpp := int64(r.Shape.TuplesPerPage())
	first := int64(blk)*tpp + 1
	upper := pg.BLCKSZ
	for i := 0; i < n; i++ {
		id := first + int64(i)
		tlen := r.Shape.TupleLen
		upper -= pg.MaxAlign(tlen)
		t := p[upper : upper+tlen]
		binary.LittleEndian.PutUint32(t[0:], xid)                   // t_xmin
		binary.LittleEndian.PutUint16(t[12:], uint16(blk>>16))      // t_ctid.ip_blkid
		binary.LittleEndian.PutUint16(t[14:], uint16(blk))          //
		binary.LittleEndian.PutUint16(t[16:], uint16(i+1))          // t_ctid.ip_posid
		binary.LittleEndian.PutUint16(t[18:], 2)                    // t_infomask2: natts
		binary.LittleEndian.PutUint16(t[20:], 0x0800|0x0002|0x0100) // XMAX_INVALID | HASVARWIDTH | XMIN_COMMITTED
		t[22] = 24                                                  // t_hoff
		if tlen >= 28 {
			binary.LittleEndian.PutUint32(t[24:], uint32(id))
		}
		if pad := r.PadText(id); len(pad) > 0 && len(r.Columns) == 0 {
			if len(pad) <= 126 {
				t[28] = byte((len(pad)+1)<<1 | 1)
				copy(t[29:], pad)
			} else {
				binary.LittleEndian.PutUint32(t[28:], uint32(len(pad)+4)<<2)
				copy(t[32:], pad)
			}
		}
		lp := uint32(upper) | 1<<15 | uint32(tlen)<<17 // lp_off, LP_NORMAL, lp_len
		binary.LittleEndian.PutUint32(p[SizeOfPageHeaderData+4*i:], lp)
	}
	binary.LittleEndian.PutUint64(p[0:], uint64(lsn>>32|lsn<<32)) // pd_lsn: xlogid, xrecoff
	binary.LittleEndian.PutUint16(p[12:], uint16(SizeOfPageHeaderData+4*n))
	binary.LittleEndian.PutUint16(p[14:], uint16(upper))
	binary.LittleEndian.PutUint16(p[16:], pg.BLCKSZ)
	binary.LittleEndian.PutUint16(p[18:], pg.BLCKSZ|4)
	return p
}

// WithoutHole is the page as a full-page image stores it: pd_lower..pd_upper cut out.
func WithoutHole(p []byte) (out []byte, hole int) {
	lower := int(binary.LittleEndian.Uint16(p[12:]))
	upper := int(binary.LittleEndian.Uint16(p[14:]))
	if upper <= lower || lower < SizeOfPageHeaderData {
		return p, 0
	}
	out = append(append(make([]byte, 0, len(p)-(upper-lower)), p[:lower]...), p[upper:]...)
	return out, upper - lower
}
