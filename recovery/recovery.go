// Package recovery says what crash recovery makes of a page torn by a power
// loss: StartupXLOG's redo from the last completed checkpoint's redo pointer
// (xlogrecovery.c), XLogReadBufferForRedo restoring full-page images
// (RestoreBlockImage), XLogInitBufferForRedo for pages initialised by a
// record. The engine decides what crashes and runs recovery; this package is
// the rule.
//
// # Crash and recovery
//
// `crash` is a power loss, now or (`crash after=writes:N`) as the N-th data
// page written to the device from then on starts its write. What survives:
//
//   - the WAL flushed by then (XLogFlush before every data page write keeps
//     every page on disk covered by it); records inserted later are lost;
//   - each data page as the last completed device write left it. Shared
//     buffers and the OS page cache, dirty pages included, are gone;
//   - a write in flight is torn: an 8 kB page is 16 sectors of 512 bytes and
//     a seeded subset of them reached the medium (the device may persist an
//     in-flight request's sectors in any order).
//
// `recover` is StartupXLOG's crash recovery: redo from the last completed
// checkpoint's redo pointer R to the end of the surviving WAL. A torn page
// (some but not all of its sectors new) comes out right when redo rewrites it
// whole:
//
//   - from a full-page image after R (XLogReadBufferForRedo →
//     RestoreBlockImage). With full_page_writes=on the first change of every
//     page after R carries one, so a torn version newer than R always has
//     one. Hint-bit images (XLogSaveBufferForHint, REGBUF_FORCE_IMAGE) are
//     taken whatever full_page_writes says, so the pool remembers them;
//   - or from the record that initialised it, for a page added after R
//     (XLOG_HEAP_INIT_PAGE → XLogInitBufferForRedo; a new btree page comes
//     whole in its split record or the index build's images).
//
// Otherwise redo applies records to a page whose sectors mix two versions:
// it is corrupt. With data_checksums the mix fails its checksum (what
// pg_checksums reports; PostgreSQL's redo would stop with "invalid page in
// block …" on the first record that touches it); without checksums nothing
// notices. A torn version not newer than R differs from the disk only in
// hint bits: with checksums or wal_log_hints the first of them after R
// logged an image (restored); without them nothing checks hint bits and the
// next reader sets them again (harmless). A checksum that happens to match
// a torn page (1 in 65,536) is not modelled. The simulator keeps the tables' logical contents
// as the commands left them: only pages, WAL positions and caches crash.
package recovery

import (
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/storage"
)

// Redo is the stretch of WAL crash recovery replays.
type Redo struct {
	From, To pg.LSN // the last completed checkpoint's redo pointer R, the end of the surviving WAL
	// Sizes are every fork's size at R, by storage: pages past it were added after R.
	Sizes []int
	// FullPageWrites: full_page_writes was on over the whole stretch.
	FullPageWrites bool
	// HintsLogged: data_checksums or wal_log_hints (hint bits WAL-logged).
	HintsLogged bool
}

// Fate is what becomes of a torn page.
type Fate uint8

// The fates of a torn page.
const (
	Untouched Fate = iota // no sector of the new version reached the medium: redo brings the old one forward
	Whole                 // all 16 sectors did: a whole version
	Rebuilt               // added after R: rebuilt from the record that initialised it
	HintOnly              // last logged before R and hint bits unlogged: differs in hint bits only
	Image                 // restored from a full-page image after R
	Corrupt               // sectors of two versions and no image to restore
)

// Fate is what recovery makes of page write w, torn with sectorsWritten of
// its 16 sectors new; lastHintImage is the LSN of the page's last hint-bit
// image (0: none), which full_page_writes=off does not suppress.
func (r Redo) Fate(w storage.PageWrite, sectorsWritten int, lastHintImage pg.LSN) Fate {
	size := 0
	if int(w.File) < len(r.Sizes) {
		size = r.Sizes[w.File]
	}
	switch {
	case sectorsWritten == 0:
		return Untouched
	case sectorsWritten == 16:
		return Whole
	case int(w.Block) >= size:
		return Rebuilt
	case w.LSN <= r.From && !r.HintsLogged:
		return HintOnly
	case w.LSN <= r.From:
		// Logged before R, dirtied since only by hint bits: with checksums or
		// wal_log_hints the first of those logged an image.
		return Image
	case r.FullPageWrites, lastHintImage > r.From && lastHintImage <= r.To:
		return Image
	}
	return Corrupt
}
