package storage

// Kernel readahead (mm/readahead.c, the on-demand algorithm of Linux 5.x–6.x),
// in 4 kB pages. A window is [start, start+size); its last async pages are
// read ahead of need, and the page where they begin carries the readahead
// mark, so that reaching it starts the next window while the reader is still
// consuming this one.

// initSize is get_init_ra_size: the first window of a sequential stream.
func initSize(req, maxPages int64) int64 {
	n := int64(1)
	for n < req {
		n <<= 1
	}
	switch {
	case n <= maxPages/32:
		n *= 4
	case n <= maxPages/4:
		n *= 2
	default:
		n = maxPages
	}
	return n
}

// nextSize is get_next_ra_size: the window grows ×4 while small, ×2 up to half
// the maximum, then stays at the maximum.
func nextSize(cur, maxPages int64) int64 {
	switch {
	case cur < maxPages/16:
		return 4 * cur
	case cur <= maxPages/2:
		return 2 * cur
	}
	return maxPages
}

func (s *Storage) maxPages(req int64) int64 {
	m := int64(s.cfg.ReadAheadKB / 4)
	// A request longer than the window is read whole (ondemand_readahead lets
	// it reach the device's optimal I/O size; filemap_read loops otherwise).
	return max(m, min(req, int64(s.cfg.MaxRequestKB/4)))
}

// syncReadahead is page_cache_sync_ra for a read missing block b with reqBlocks
// blocks asked from b on.
func (s *Storage) syncReadahead(now int64, ra *raState, f int32, b uint32, reqBlocks int64) {
	index, req := int64(b)*2, reqBlocks*2
	if s.cfg.ReadAheadKB == 0 { // readahead off: read what was asked (force_page_cache_ra)
		s.readPages(now, f, index, req, 0)
		return
	}
	maxP := s.maxPages(req)
	switch {
	case index == 0:
		s.initial(ra, index, req, maxP)
	case index == ra.start+ra.size-ra.async || index == ra.start+ra.size:
		// The expected index: sequential, ramp up and push the window forward.
		ra.start += ra.size
		ra.size = nextSize(ra.size, maxP)
		ra.async = ra.size
	case ra.prev >= 0 && index-ra.prev >= 0 && index-ra.prev <= 1:
		// A sequential cache miss: the read starts where the last one ended.
		s.initial(ra, index, req, maxP)
	default:
		// try_context_readahead: pages just before index are cached, as a
		// sequential stream (perhaps another process's) would leave them.
		if h := s.historyPages(f, b, maxP); h > 0 {
			if h >= index {
				h *= 2
			}
			ra.start, ra.size, ra.async = index, min(h+req, maxP), 1
			break
		}
		// A standalone small random read: read as is, keep the state.
		s.readPages(now, f, index, req, 0)
		return
	}
	s.readit(now, ra, f, index, maxP)
}

func (s *Storage) initial(ra *raState, index, req, maxP int64) {
	ra.start = index
	ra.size = initSize(req, maxP)
	if ra.size > req {
		ra.async = ra.size - req
	} else {
		ra.async = ra.size
	}
}

// readit reads the window; when the read would hit the mark it just set (the
// window is all lookahead and starts here), the next window is merged in.
func (s *Storage) readit(now int64, ra *raState, f int32, index, maxP int64) {
	if index == ra.start && ra.size == ra.async {
		add := nextSize(ra.size, maxP)
		if ra.size+add <= maxP {
			ra.async = add
			ra.size += add
		} else {
			ra.size = maxP
			ra.async = maxP / 2
		}
	}
	s.readPages(now, f, ra.start, ra.size, ra.async)
}

// asyncReadahead is page_cache_async_ra, on reaching marked block b.
func (s *Storage) asyncReadahead(now int64, ra *raState, f int32, b uint32, reqBlocks int64) {
	if s.cfg.ReadAheadKB == 0 {
		return
	}
	index, req := int64(b)*2, reqBlocks*2
	maxP := s.maxPages(req)
	if index == ra.start+ra.size-ra.async || index == ra.start+ra.size {
		ra.start += ra.size
		ra.size = nextSize(ra.size, maxP)
		ra.async = ra.size
		s.readit(now, ra, f, index, maxP)
		return
	}
	// A marked page without a matching state (interleaved readers): the
	// cached run after it stands for the old window; ramp up from it.
	next := s.nextMissPage(f, b, maxP)
	if next < 0 || next-index > maxP {
		return
	}
	ra.start = next
	ra.size = nextSize(next-index+req, maxP)
	ra.async = ra.size
	s.readit(now, ra, f, index, maxP)
}

// historyPages is count_history_pages: how many pages right before block b
// are cached, up to maxP.
func (s *Storage) historyPages(f int32, b uint32, maxP int64) int64 {
	var n int64
	for blk := int64(b) - 1; blk >= 0 && n < maxP; blk-- {
		if s.cache.lookup(f, uint32(blk)) == 0 {
			break
		}
		n += 2
	}
	return min(n, maxP)
}

// nextMissPage is page_cache_next_miss from the page after block b's pages:
// the first page not cached, within maxP pages, or -1.
func (s *Storage) nextMissPage(f int32, b uint32, maxP int64) int64 {
	for blk := int64(b) + 1; (blk-int64(b))*2 <= maxP+1; blk++ {
		if s.cache.lookup(f, uint32(blk)) == 0 {
			return blk * 2
		}
	}
	return -1
}
