package bufmgr

import (
	"github.com/pgbufsim/pgbufsim/internal/cores"
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
//
// 19 reworked the distance (read_stream.c, 19: 8ca147d582, f63ca33790,
// 6e36930f9a, cceb1bf45e) with the same max_pinned_buffers: a read-ahead
// distance that doubles only when the consumer actually had to wait for a
// read (a synchronous read counts as a wait), and a separate combine
// distance, doubled by every read I/O up to io_combine_limit, that decides
// when a pending read is big enough to start. Both decay by one for a read
// that needed no I/O while none is in flight, but only after max_pinned
// such reads since the last I/O (distance_decay_holdoff). At distance 1
// with one buffer pinned the stream takes the fast path, which performs a
// miss synchronously in the backend (READ_BUFFERS_SYNCHRONOUSLY).
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

	// 19 (read_stream.c): distance is readahead_distance; these are the rest.
	combineDistance int            // combine_distance
	holdoff         int            // distance_decay_holdoff
	fastPath        bool           // fast_path: one buffer pinned, distances 1, nothing in flight
	seqUntil        pg.BlockNumber // seq_until_processed (advice)
}

type streamEntry struct {
	b      pg.Buffer
	blk    pg.BlockNumber
	ioLen  int          // >0 on the first buffer of a read I/O: its length in blocks
	doneAt int64        // completion time of an asynchronous read
	burst  *cores.Burst // its I/O worker's CPU, while it may still move
	sync   bool         // read already performed by the backend (19's fast path, READ_BUFFERS_SYNCHRONOUSLY)
}

// NewReadStream begins a stream over rel for backend be with ring r.
func (p *Pool) NewReadStream(be *Backend, r *strategy.Ring, rel pg.RelID, cfg StreamConfig, next func() (pg.BlockNumber, bool)) *ReadStream {
	s := &ReadStream{p: p, be: be, ring: r, rel: rel, next: next, cfg: cfg, distance: 1, seqBlock: pg.InvalidBlockNumber,
		combineDistance: 1, seqUntil: pg.InvalidBlockNumber}
	switch {
	case cfg.Version >= 18: // and 19: the same max_pinned_buffers (read_stream_begin_impl)
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
	if s.cfg.Version >= 19 {
		return s.next19()
	}
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
	e := s.pop()
	if e.ioLen > 0 { // WaitReadBuffers
		before := s.be.Now
		if s.p.io.Async() {
			e.doneAt = s.p.io.Cores().Await(e.burst, e.doneAt, s.be.Now)
			if e.doneAt > s.be.Now {
				s.be.Waited += e.doneAt - s.be.Now
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

// pop takes the oldest pinned buffer off the queue.
func (s *ReadStream) pop() streamEntry {
	e := s.queue[s.head]
	s.head++
	if s.head > 256 && s.head*2 > len(s.queue) {
		n := copy(s.queue, s.queue[s.head:])
		s.queue = s.queue[:n]
		s.head = 0
	}
	return e
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

// addBlock is the step read_stream_look_ahead takes with the next block (17,
// 18 and 19 alike): it extends the pending read when the block follows it;
// otherwise the pending read is started and the block becomes the new
// pending read — unless the read could not start or the I/Os are all in
// flight, when the block is kept for later and the look-ahead stops.
func (s *ReadStream) addBlock(blk pg.BlockNumber) (stop bool, err error) {
	if s.pendingN > 0 && s.pendingStart+pg.BlockNumber(s.pendingN) == blk {
		s.pendingN++
		return false, nil
	}
	for s.pendingN > 0 {
		started, err := s.startPending()
		if err != nil {
			return true, err
		}
		if !started || s.iosInFlight == s.maxIOs {
			s.ungot = append(s.ungot, blk)
			return true, nil
		}
	}
	s.pendingStart, s.pendingN = blk, 1
	return false, nil
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
		if stop, err := s.addBlock(blk); stop || err != nil {
			return err
		}
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
	advise := s.cfg.Advice && s.pendingStart != s.seqBlock
	if s.cfg.Version >= 19 && s.cfg.Advice {
		// 19: advice for a jump only if buffers are already pinned ahead of
		// the consumer, and for the sequential run after a jump until the
		// consumer reaches it (seq_until_processed).
		if s.pendingStart == s.seqBlock {
			advise = s.seqUntil != pg.InvalidBlockNumber
		} else {
			s.seqUntil = s.pendingStart
			advise = s.pinned() > 0
		}
	}
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
		switch {
		case s.cfg.Version < 19:
			if s.distance > 1 {
				s.distance--
			}
		case s.iosInFlight > 0: // 19: no decay while reads are in flight
		case s.holdoff > 0:
			s.holdoff--
		default:
			if s.distance > 1 {
				s.distance--
			}
			if s.combineDistance > 1 {
				s.combineDistance--
			}
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
	if advise {
		s.p.io.Advise(s.be, pg.BufferTag{Rel: s.rel, Block: s.pendingStart}, got)
	}
	s.seqBlock = s.pendingStart + pg.BlockNumber(got)
	s.p.CountRead(s.be, s.ring, got)
	s.queue[first].ioLen = got
	if s.p.io.Async() {
		s.queue[first].doneAt, s.queue[first].burst = s.p.io.StartAsync(s.be.Now, pg.BufferTag{Rel: s.rel, Block: s.pendingStart}, got)
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

// next19 is read_stream_next_buffer of 19.
func (s *ReadStream) next19() (pg.Buffer, pg.BlockNumber, bool, error) {
	if s.fastPath {
		return s.nextFast()
	}
	if s.pinned() == 0 {
		if s.distance == 0 && s.pendingN == 0 {
			return pg.InvalidBuffer, 0, false, nil
		}
		if err := s.lookAhead19(); err != nil {
			return pg.InvalidBuffer, 0, false, err
		}
		if s.pinned() == 0 {
			return pg.InvalidBuffer, 0, false, nil
		}
	}
	e := s.pop()
	if e.ioLen > 0 { // WaitReadBuffers
		before := s.be.Now
		neededWait := true // a synchronous read counts as a wait
		switch {
		case e.sync: // performed when it was started
		case s.p.io.Async():
			e.doneAt = s.p.io.Cores().Await(e.burst, e.doneAt, s.be.Now)
			neededWait = e.doneAt > s.be.Now
			s.be.Waited += max(0, e.doneAt-s.be.Now)
			s.be.Now = max(s.be.Now, e.doneAt)
		default:
			s.be.Now = s.p.io.SyncRead(s.be, pg.BufferTag{Rel: s.rel, Block: e.blk}, e.ioLen)
		}
		s.p.countReadTime(s.be, s.ring, s.be.Now-before)
		s.iosInFlight--
		if s.distance > 0 && neededWait {
			s.distance = min(s.distance*2, s.maxPinned)
		}
		s.holdoff = s.maxPinned
		if s.combineDistance > 0 && s.combineDistance < s.combine {
			s.combineDistance = min(s.combineDistance*2, s.combine, s.maxPinned)
		}
		if s.cfg.Advice && e.blk == s.seqUntil {
			s.seqUntil = pg.InvalidBlockNumber
		}
	}
	if err := s.lookAhead19(); err != nil {
		return e.b, e.blk, true, err
	}
	s.fastPath = s.iosInFlight == 0 && s.pinned() == 1 && s.distance == 1 && s.combineDistance == 1 && s.pendingN == 0
	return e.b, e.blk, true, nil
}

// nextFast is 19's fast path: hand out the one pinned buffer and pin the
// next block in its place; a miss is read at once, in the backend
// (StartReadBuffer with READ_BUFFERS_SYNCHRONOUSLY), and ends the fast path.
func (s *ReadStream) nextFast() (pg.Buffer, pg.BlockNumber, bool, error) {
	e := s.pop()
	blk, ok := s.getBlock()
	if !ok {
		s.ended, s.distance, s.combineDistance, s.fastPath = true, 0, 0, false
		return e.b, e.blk, true, nil
	}
	t := pg.BufferTag{Rel: s.rel, Block: blk}
	b, hit, err := s.p.PinForRead(s.be, t, s.ring)
	if err != nil {
		s.fastPath = false
		return e.b, e.blk, true, err
	}
	if hit {
		s.queue = append(s.queue, streamEntry{b: b, blk: blk})
		return e.b, e.blk, true, nil
	}
	if s.cfg.Advice {
		s.p.io.Advise(s.be, t, 1)
	}
	s.p.CountRead(s.be, s.ring, 1)
	before := s.be.Now
	s.be.Now = s.p.io.SyncRead(s.be, t, 1)
	s.p.countReadTime(s.be, s.ring, s.be.Now-before)
	s.queue = append(s.queue, streamEntry{b: b, blk: blk, ioLen: 1, sync: true})
	s.iosInFlight = 1
	s.seqBlock = blk + 1
	s.fastPath = false
	return e.b, e.blk, true, nil
}

// shouldLookAhead is read_stream_should_look_ahead (19).
func (s *ReadStream) shouldLookAhead() bool {
	if s.distance == 0 || s.iosInFlight >= s.maxIOs {
		return false
	}
	if s.pendingN > 0 && s.pinned() == 0 && s.pendingN < s.combineDistance {
		return true // keep building a read too small to be worth starting
	}
	return s.pinned()+s.pendingN < s.distance
}

// shouldIssueNow is read_stream_should_issue_now (19).
func (s *ReadStream) shouldIssueNow() bool {
	switch {
	case s.pendingN == 0 || s.iosInFlight >= s.maxIOs:
		return false
	case s.distance == 0 || s.pendingN >= s.combineDistance:
		return true
	}
	return s.pinned() == 0 && !s.shouldLookAhead()
}

// lookAhead19 is read_stream_look_ahead (19).
func (s *ReadStream) lookAhead19() error {
	for s.shouldLookAhead() {
		if s.shouldIssueNow() {
			if _, err := s.startPending(); err != nil {
				return err
			}
			continue
		}
		blk, ok := s.getBlock()
		if !ok {
			s.ended, s.distance, s.combineDistance = true, 0, 0
			break
		}
		if stop, err := s.addBlock(blk); stop || err != nil {
			return err
		}
	}
	if s.shouldIssueNow() {
		if _, err := s.startPending(); err != nil {
			return err
		}
	}
	return nil
}
