package bufmgr

import (
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/strategy"
)

// StreamConfig sizes a read stream (read_stream_begin_impl).
type StreamConfig struct {
	Version        pg.Version
	MaxIOs         int // effective_io_concurrency (maintenance_io_concurrency for VACUUM/ANALYZE)
	IOCombineLimit int // blocks
	PinLimit       int // GetPinLimit() in 18 (MaxProportionalPins); LimitAdditionalPins' base in 17
	NBuffers       int
	// Advice: the stream issues posix_fadvise(WILLNEED) for a read that does
	// not follow the previous one (17, and 18 with io_method=sync), unless
	// the caller promised sequential access (READ_STREAM_SEQUENTIAL).
	Advice bool
}

// ReadStream models read_stream.c (PostgreSQL 17 and 18) for one relation:
// a callback supplies block numbers, consecutive blocks are combined into
// reads of up to io_combine_limit, and every block of a read is pinned — and
// its victim buffer chosen, consuming ring slots — when the read starts, at
// look-ahead time, well before the consumer gets to it. The look-ahead
// distance starts at 1, doubles each time the consumer has to wait for a
// read, and decays by one for each read that needed no I/O. In 18 every read
// is also checked against the backend's pin limit (GetAdditionalPinLimit).
//
// For 15 and 16 there are no read streams: NewReadStream returns a stream of
// distance 1 without combining, which is what one ReadBufferExtended per
// page amounts to.
type ReadStream struct {
	p    *Pool
	be   *Backend
	ring *strategy.Ring
	rel  pg.RelID
	next func() (pg.BlockNumber, bool)

	cfg          StreamConfig
	maxIOs       int
	combine      int
	maxPinned    int
	distance     int
	queue        []streamEntry // pinned buffers not yet handed to the consumer
	head         int
	pendingStart pg.BlockNumber
	pendingN     int
	ungot        []pg.BlockNumber
	iosInFlight  int
	ended        bool
	seqBlock     pg.BlockNumber // seq_blocknum: where a read following the last one would start
}

type streamEntry struct {
	b      pg.Buffer
	blk    pg.BlockNumber
	ioLen  int   // >0 on the first buffer of a read I/O: its length in blocks
	doneAt int64 // completion time of an asynchronous read
}

// NewReadStream begins a stream over rel for backend be with ring r.
func (p *Pool) NewReadStream(be *Backend, r *strategy.Ring, rel pg.RelID, cfg StreamConfig, next func() (pg.BlockNumber, bool)) *ReadStream {
	s := &ReadStream{p: p, be: be, ring: r, rel: rel, next: next, cfg: cfg, distance: 1, seqBlock: pg.InvalidBlockNumber}
	switch {
	case cfg.Version >= 18:
		s.maxIOs = cfg.MaxIOs
		s.combine = cfg.IOCombineLimit
		mp := (cfg.MaxIOs + 1) * cfg.IOCombineLimit
		mp = min(mp, strategy.StreamPinLimit(r, cfg.NBuffers), cfg.PinLimit)
		s.maxPinned = max(1, mp)
	case cfg.Version == 17:
		s.maxIOs = cfg.MaxIOs
		s.combine = cfg.IOCombineLimit
		mp := max(cfg.MaxIOs*4, cfg.IOCombineLimit)
		mp = min(mp, strategy.StreamPinLimit(r, cfg.NBuffers))
		// LimitAdditionalPins at creation: the fair share minus the 8 pins assumed held.
		mp = min(mp, max(1, cfg.PinLimit-8))
		s.maxPinned = max(1, mp)
	default:
		s.maxIOs, s.combine, s.maxPinned = 1, 1, 1
	}
	if s.maxIOs == 0 {
		s.maxIOs = 1
	}
	return s
}

// MaxPinned is the stream's max_pinned_buffers.
func (s *ReadStream) MaxPinned() int { return s.maxPinned }

// Distance is the current look-ahead distance.
func (s *ReadStream) Distance() int { return s.distance }

func (s *ReadStream) pinned() int { return len(s.queue) - s.head }

// Next is read_stream_next_buffer: the next buffer, pinned and read, handed to
// the caller (who must Unpin it), or false at the end of the stream.
func (s *ReadStream) Next() (pg.Buffer, pg.BlockNumber, bool, error) {
	if s.pinned() == 0 {
		if s.ended && s.pendingN == 0 {
			return pg.InvalidBuffer, 0, false, nil
		}
		if err := s.lookAhead(); err != nil {
			return pg.InvalidBuffer, 0, false, err
		}
		if s.pinned() == 0 {
			return pg.InvalidBuffer, 0, false, nil
		}
	}
	e := s.queue[s.head]
	s.head++
	if s.head > 256 && s.head*2 > len(s.queue) {
		n := copy(s.queue, s.queue[s.head:])
		s.queue = s.queue[:n]
		s.head = 0
	}
	if e.ioLen > 0 { // WaitReadBuffers
		before := s.be.Now
		if s.p.io.Async() {
			if e.doneAt > s.be.Now {
				s.be.Now = e.doneAt
			}
		} else {
			s.be.Now = s.p.io.SyncRead(s.be, pg.BufferTag{Rel: s.rel, Block: e.blk}, e.ioLen)
		}
		s.p.countReadTime(s.be, s.ring, s.be.Now-before)
		s.iosInFlight--
		if s.cfg.Version >= 17 {
			s.distance = min(s.distance*2, s.maxPinned)
		}
	}
	if err := s.lookAhead(); err != nil {
		return e.b, e.blk, true, err
	}
	return e.b, e.blk, true, nil
}

func (s *ReadStream) getBlock() (pg.BlockNumber, bool) {
	if n := len(s.ungot); n > 0 {
		b := s.ungot[n-1]
		s.ungot = s.ungot[:n-1]
		return b, true
	}
	if s.ended {
		return 0, false
	}
	return s.next()
}

// lookAhead is read_stream_look_ahead.
func (s *ReadStream) lookAhead() error {
	for s.iosInFlight < s.maxIOs && s.pinned()+s.pendingN < s.distance {
		if s.pendingN == s.combine {
			if _, err := s.startPending(); err != nil {
				return err
			}
			continue
		}
		blk, ok := s.getBlock()
		if !ok {
			s.ended = true
			s.distance = 0
			break
		}
		if s.pendingN > 0 && s.pendingStart+pg.BlockNumber(s.pendingN) == blk {
			s.pendingN++
			continue
		}
		for s.pendingN > 0 {
			started, err := s.startPending()
			if err != nil {
				return err
			}
			if !started || s.iosInFlight == s.maxIOs {
				s.ungot = append(s.ungot, blk)
				return nil
			}
		}
		s.pendingStart, s.pendingN = blk, 1
	}
	if s.pendingN > 0 && (s.pendingN == s.combine || (s.pendingN >= s.distance && s.pinned() == 0) || s.distance == 0) &&
		s.iosInFlight < s.maxIOs {
		if _, err := s.startPending(); err != nil {
			return err
		}
	}
	return nil
}

// startPending is read_stream_start_pending_read + StartReadBuffers: pin the
// leading blocks of the pending read; a leading hit is returned alone with no
// I/O, otherwise the run of misses becomes one read.
func (s *ReadStream) startPending() (bool, error) {
	n := s.pendingN
	if s.cfg.Version >= 18 {
		limit := s.cfg.PinLimit - max(8, s.be.PinCount())
		if limit < 0 {
			limit = 0
		}
		if limit == 0 && s.pinned() == 0 {
			limit = 1
		}
		if limit < n {
			if nd := s.pinned() + limit; s.distance > nd {
				s.distance = nd
			}
			if s.pinned() > 0 {
				return false, nil
			}
			n = limit
		}
	}
	t := pg.BufferTag{Rel: s.rel, Block: s.pendingStart}
	b, hit, err := s.p.PinForRead(s.be, t, s.ring)
	if err != nil {
		return false, err
	}
	if hit {
		s.queue = append(s.queue, streamEntry{b: b, blk: t.Block})
		s.pendingStart++
		s.pendingN--
		if s.distance > 1 {
			s.distance--
		}
		return true, nil
	}
	first := len(s.queue)
	s.queue = append(s.queue, streamEntry{b: b, blk: t.Block})
	got := 1
	for got < n {
		t.Block = s.pendingStart + pg.BlockNumber(got)
		if s.p.Lookup(t) != pg.InvalidBuffer {
			break // a cached block ends the read; it starts the next one
		}
		b, _, err := s.p.PinForRead(s.be, t, s.ring)
		if err != nil {
			return false, err
		}
		s.queue = append(s.queue, streamEntry{b: b, blk: t.Block})
		got++
	}
	if s.cfg.Advice && s.pendingStart != s.seqBlock {
		s.p.io.Advise(s.be, pg.BufferTag{Rel: s.rel, Block: s.pendingStart}, got)
	}
	s.seqBlock = s.pendingStart + pg.BlockNumber(got)
	s.p.CountRead(s.be, s.ring, got)
	s.queue[first].ioLen = got
	if s.p.io.Async() {
		s.queue[first].doneAt = s.p.io.StartAsync(s.be.Now, pg.BufferTag{Rel: s.rel, Block: s.pendingStart}, got)
	}
	s.iosInFlight++
	s.pendingStart += pg.BlockNumber(got)
	s.pendingN -= got
	return true, nil
}

// End is read_stream_end: release every buffer still pinned by the stream.
func (s *ReadStream) End() {
	for ; s.head < len(s.queue); s.head++ {
		s.p.Unpin(s.be, s.queue[s.head].b)
	}
	s.queue = s.queue[:0]
	s.head = 0
}
