// Package pg is pgbufsim's shared vocabulary: the PostgreSQL types that every
// other package speaks, size and duration parsing, the typed setting error,
// and the integer arithmetic of c.h. It imports nothing else of the project,
// like pebble's internal/base.
//
// # Buffers, pages and positions
//
// Buffer is a 1-based shared buffer number with InvalidBuffer = 0 (buf.h).
// A page is named by a BufferTag (buf_internals.h): a relation, a fork
// (ForkNumber, relpath.h: main, free space map, visibility map) and a
// BlockNumber (block.h). RelID stands in for the RelFileLocator
// (relfilelocator.h), with 0 for the system catalogs. LSN is XLogRecPtr
// (xlogdefs.h), printed as pg_lsn prints it. Version is a major version,
// MinVersion to MaxVersion.
//
// # The buffer state word
//
// BufState is a buffer descriptor's packed state (buf_internals.h): the
// shared refcount in the low 18 bits, the usage count in the next 4, the
// flags (BM_DIRTY, BM_VALID, …) above, with the masks bufmgr.c and
// freelist.c use. PostgreSQL 19's 64-bit word is kept at 32 bits here; the
// type's doc says why that changes nothing the model shows.
//
// # Alignment
//
// MaxAlign, MaxAlignDown, ShortAlign and TypeAlign are c.h's MAXALIGN,
// MAXALIGN_DOWN, SHORTALIGN and TYPEALIGN for a 64-bit platform, and
// DivCeil is the ceiling division PostgreSQL spells (n + d − 1) / d; all are
// generic over every integer type (golang.org/x/exp/constraints), so a
// tuple length, a file offset and a WAL byte position round in their own
// types.
//
// # Settings
//
// ParseSize, FormatSize and ParseDuration read and print memory and time
// settings with guc.c's units (parse_int, convert_to_base_unit: B, kB, MB,
// GB and TB in powers of 1024; us, ms, s, min, h and d). SettingError is a
// bad value for one named setting together with what would be accepted.
package pg
