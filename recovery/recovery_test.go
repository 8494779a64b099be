package recovery

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/storage"
	"github.com/stretchr/testify/require"
)

// Each rule by hand: R = 0/1000, the end of the WAL 0/5000, storage 1 had
// 10 pages at R. A page write of block 3 logged at 0/2000 (after R) is
// restored from the image its first change after R carried with
// full_page_writes on, and is corrupt with it off unless a hint-bit image
// after R exists; block 12 was added after R (rebuilt); a write of a page
// last logged at 0/800, before R, differs only in hint bits, which an image
// covers when hints are WAL-logged.
func TestFate(t *testing.T) {
	r := Redo{From: 0x1000, To: 0x5000, Sizes: []int{0, 10}, FullPageWrites: true, HintsLogged: true}
	after := storage.PageWrite{File: 1, Block: 3, LSN: 0x2000}
	require.Equal(t, Untouched, r.Fate(after, 0, 0))
	require.Equal(t, Whole, r.Fate(after, 16, 0))
	require.Equal(t, Image, r.Fate(after, 7, 0))
	require.Equal(t, Rebuilt, r.Fate(storage.PageWrite{File: 1, Block: 12, LSN: 0x2000}, 7, 0))
	off := r
	off.FullPageWrites = false
	require.Equal(t, Corrupt, off.Fate(after, 7, 0))
	require.Equal(t, Image, off.Fate(after, 7, 0x3000), "a hint-bit image after R")
	require.Equal(t, Corrupt, off.Fate(after, 7, 0x6000), "an image past the surviving WAL is lost")
	require.Equal(t, Corrupt, off.Fate(after, 7, pg.LSN(0x800)), "an image before R is older than the page")
	before := storage.PageWrite{File: 1, Block: 3, LSN: 0x800}
	require.Equal(t, Image, r.Fate(before, 7, 0))
	noHints := r
	noHints.HintsLogged = false
	require.Equal(t, HintOnly, noHints.Fate(before, 7, 0))
	// A storage recovery knows no size of (created after R) is all new pages.
	require.Equal(t, Rebuilt, r.Fate(storage.PageWrite{File: 5, Block: 0, LSN: 0x2000}, 7, 0))
}
