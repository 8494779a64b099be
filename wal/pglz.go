package wal

// pglz is PostgreSQL's own LZ compressor (common/pg_lzcompress.c,
// pglz_compress with PGLZ_strategy_default), which wal_compression=pglz
// (and =on) uses. Only the output's length matters here, so bytes are
// counted, not written; the search is the same: a hash of the next four
// bytes (as C's signed chars) into lists of the last 4,096 positions, the
// longest match within 4,095 bytes back (stopping early once a match is
// "good enough", that bar lowered 10% a step), tags of 2 or 3 bytes, a
// control byte per 8 items, and failure when the output passes 75% of the
// input or no match came in the first 1 kB.
type pglzComp struct {
	histStart  []int16
	next, prev [pglzHistorySize + 1]int16
	hindex     [pglzHistorySize + 1]int32
	pos        [pglzHistorySize + 1]int32
}

const (
	pglzHistorySize  = 4096
	pglzMaxMatch     = 273
	pglzGoodMatch    = 128 // strategy_default: match_size_good
	pglzGoodDrop     = 10  // match_size_drop
	pglzMinComp      = 25  // min_comp_rate
	pglzFirstSuccess = 1024
	pglzMinInput     = 32
)

func (p *pglzComp) Method() string { return "pglz" }

func pglzHistIdx(s []byte, i, end, mask int) int {
	c := func(k int) int { return int(int8(s[i+k])) } // char is signed on x86
	if end-i < 4 {
		return c(0) & mask
	}
	return ((c(0) << 6) ^ (c(1) << 4) ^ (c(2) << 2) ^ c(3)) & mask
}

// Compress returns pglz's output length for src, or len(src) when pglz gives up.
func (p *pglzComp) Compress(src []byte) int {
	slen := len(src)
	if slen < pglzMinInput {
		return slen
	}
	resultMax := slen * (100 - pglzMinComp) / 100
	hashsz := 8192
	switch {
	case slen < 128:
		hashsz = 512
	case slen < 256:
		hashsz = 1024
	case slen < 512:
		hashsz = 2048
	case slen < 1024:
		hashsz = 4096
	}
	mask := hashsz - 1
	if cap(p.histStart) < hashsz {
		p.histStart = make([]int16, hashsz)
	}
	hs := p.histStart[:hashsz]
	for i := range hs {
		hs[i] = 0
	}
	histNext, recycle := 1, false
	add := func(dp int) {
		h := pglzHistIdx(src, dp, slen, mask)
		me := histNext
		if recycle { // unlink the entry being reused from its old list
			if p.prev[me] == 0 {
				hs[p.hindex[me]] = p.next[me]
			} else {
				p.next[p.prev[me]] = p.next[me]
			}
			if p.next[me] != 0 {
				p.prev[p.next[me]] = p.prev[me]
			}
		}
		p.next[me] = hs[h]
		p.prev[me] = 0
		p.hindex[me] = int32(h)
		p.pos[me] = int32(dp)
		p.prev[hs[h]] = int16(me) // entry 0 is a scribble slot, as in C
		hs[h] = int16(me)
		if histNext++; histNext >= pglzHistorySize+1 {
			histNext, recycle = 1, true
		}
	}
	findMatch := func(dp int) (int, bool) {
		good := pglzGoodMatch
		length := 0
		for h := hs[pglzHistIdx(src, dp, slen, mask)]; h != 0; {
			hp := int(p.pos[h])
			if dp-hp >= 0x0fff {
				break
			}
			thislen := 0
			ip, jp := dp, hp
			if length >= 16 {
				same := true
				for k := 0; k < length; k++ {
					if src[dp+k] != src[hp+k] {
						same = false
						break
					}
				}
				if same {
					thislen = length
					ip += length
					jp += length
					for ip < slen && src[ip] == src[jp] && thislen < pglzMaxMatch {
						thislen++
						ip++
						jp++
					}
				}
			} else {
				for ip < slen && src[ip] == src[jp] && thislen < pglzMaxMatch {
					thislen++
					ip++
					jp++
				}
			}
			if thislen > length {
				length = thislen
			}
			h = p.next[h]
			if h != 0 {
				if length >= good {
					break
				}
				good -= good * pglzGoodDrop / 100
			}
		}
		return length, length > 2
	}
	out := 0  // bytes written
	ctrl := 0 // the control bit about to be used; 0 or 0x100: a new control byte is due
	found := false
	item := func(size int) {
		if ctrl&0xff == 0 {
			out++ // a new control byte
			ctrl = 1
		}
		ctrl <<= 1
		out += size
	}
	for dp := 0; dp < slen; {
		if out >= resultMax || !found && out >= pglzFirstSuccess {
			return slen
		}
		if n, ok := findMatch(dp); ok {
			if n > 17 {
				item(3)
			} else {
				item(2)
			}
			for ; n > 0; n-- {
				add(dp)
				dp++
			}
			found = true
		} else {
			item(1)
			add(dp)
			dp++
		}
	}
	if out >= resultMax {
		return slen
	}
	return out
}
