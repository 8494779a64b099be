// Package storage models what lies below PostgreSQL's storage manager (md.c):
// the kernel's page cache with its active and inactive lists, the kernel's
// readahead (mm/readahead.c), posix_fadvise(WILLNEED), write-back at fsync,
// and the device with its latency, bandwidth, internal parallelism and, for a
// cloud volume, IOPS and throughput caps. Everything is in simulated time:
// callers pass the time a request is made and get the time it completes.
//
// Units: a block is one 8 kB PostgreSQL page; a file is one relation fork,
// numbered as the buffer pool numbers them. The kernel works in 4 kB pages;
// readahead sizes are computed in 4 kB pages exactly as Linux does and then
// rounded up to whole 8 kB blocks (exact whenever read_ahead_kb is a multiple
// of 8, as the default 128 is).
//
// # Reads
//
// Read is the pread or preadv that mdreadv (md.c; mdread before 17) issues through FileReadV
// (fd.c), served by filemap_read: cached pages are copied, missing ones are
// read through the caller's readahead state, one per open file of a process
// (Reader, the kernel's file_ra_state). Advise is the posix_fadvise that
// mdprefetch issues through FilePrefetch, read without touching that state
// (force_page_cache_ra).
//
// # Page cache
//
// Linux's two LRU lists for file pages (mm/swap.c, mm/vmscan.c): new pages
// enter the inactive list, a second access promotes a page to the active
// list, reclaim takes the inactive tail (writing a dirty page back first),
// and the active list is trimmed when the inactive one runs low. Refault
// detection and the multi-generational LRU are not modelled.
//
// # Readahead
//
// The on-demand algorithm of mm/readahead.c (Linux 5.x–6.x): a miss next to
// the previous read starts a window (get_init_ra_size), the window's marked
// page starts the next one asynchronously (get_next_ra_size), growing to
// read_ahead_kb; a read elsewhere is read alone.
//
// # Write-back
//
// Write is mdwrite's pwrite into the page cache. Sync is the fsync that the
// checkpointer's sync requests end in (ProcessSyncRequests, mdsyncfiletag):
// the dirty pages of a file go to the device, contiguous pages in one request.
//
// # Device
//
// A device profile (Devices, LookupDevice) has an access time, a shorter one
// for a request that continues the previous one, a transfer rate shared by
// its parallel units, and for a cloud volume an IOPS cap; a disk adds seek
// and rotation from its head position.
//
// # Power loss
//
// Crash keeps only what reached the medium: writes completed before the
// power failed are durable, a write under way is torn, and the page cache is
// gone (crash.go).
package storage
