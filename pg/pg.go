package pg

import (
	"fmt"
	"strconv"
	"strings"
)

// BLCKSZ is PostgreSQL's page size (the default build's 8 kB).
const BLCKSZ = 8192

// XLogBlcksz is the WAL page size.
const XLogBlcksz = 8192

// WalSegSize is the default WAL segment size (16 MB).
const WalSegSize = 16 * 1024 * 1024

// Buffer is a 1-based shared buffer number as bufmgr.c uses it; InvalidBuffer is 0.
type Buffer int32

// InvalidBuffer is the zero Buffer.
const InvalidBuffer Buffer = 0

// BlockNumber is a page number within one relation fork.
type BlockNumber uint32

// InvalidBlockNumber marks "no block".
const InvalidBlockNumber BlockNumber = 0xFFFFFFFF

// RelID identifies a simulated relation (our stand-in for a RelFileLocator).
// RelID 0 is PostgreSQL's own catalogs, shown as "(other)" as in the reference data.
type RelID int32

// CatalogRel is the pseudo-relation that holds the system catalog pages.
const CatalogRel RelID = 0

// ForkNumber is MAIN_FORKNUM, FSM_FORKNUM, VISIBILITYMAP_FORKNUM.
type ForkNumber uint8

// Fork numbers.
const (
	MainFork ForkNumber = iota
	FSMFork
	VMFork
)

// BufferTag is what a buffer holds: relation, fork and block.
type BufferTag struct {
	Rel   RelID
	Fork  ForkNumber
	Block BlockNumber
}

// LSN is a WAL position (XLogRecPtr).
type LSN uint64

// String prints an LSN as PostgreSQL does: 0/1E228E70.
func (l LSN) String() string { return fmt.Sprintf("%X/%X", uint64(l)>>32, uint32(l)) }

// Version is a PostgreSQL major version.
type Version int

// Supported versions. DefaultVersion is what a cluster without version=
// gets: the newest released profile, not necessarily MaxVersion (raising
// MaxVersion must not change the output of an existing scenario).
const (
	MinVersion     Version = 15
	MaxVersion     Version = 19
	DefaultVersion Version = 18
)

// BufState is the packed descriptor state word of buf_internals.h (15–18):
// 18 bits of shared refcount, 4 bits of usage count, 10 bits of flags.
//
// PostgreSQL 19 widened the word to 64 bits to hold the content lock
// (BM_LOCK_*) and dropped BM_JUST_DIRTIED. The simulator keeps the 32-bit
// word for every version: refcount, usage count and the flags it models sit
// in the same bits, content locks are not simulated (one process acts at a
// time, and a page write is one step), and 19's missing BM_JUST_DIRTIED is a
// version-gated rule in package bufmgr, not a different layout.
type BufState uint32

// Layout of BufState, as in buf_internals.h.
const (
	RefcountOne   BufState = 1
	RefcountMask  BufState = (1 << 18) - 1
	UsageOne      BufState = 1 << 18
	UsageShift             = 18
	UsageMask     BufState = 0xF << 18
	MaxUsageCount          = 5 // BM_MAX_USAGE_COUNT

	FlagDirty          BufState = 1 << 23 // BM_DIRTY
	FlagValid          BufState = 1 << 24 // BM_VALID
	FlagTagValid       BufState = 1 << 25 // BM_TAG_VALID
	FlagIOInProgress   BufState = 1 << 26 // BM_IO_IN_PROGRESS
	FlagJustDirtied    BufState = 1 << 28 // BM_JUST_DIRTIED (15–18; removed in 19)
	FlagCheckpointNeed BufState = 1 << 30 // BM_CHECKPOINT_NEEDED
	FlagPermanent      BufState = 1 << 31 // BM_PERMANENT
)

// Refcount is the shared pin count.
func (s BufState) Refcount() int { return int(s & RefcountMask) }

// Usage is the clock-sweep usage count (0..5).
func (s BufState) Usage() int { return int((s & UsageMask) >> UsageShift) }

// Has reports whether all of the flags f are set.
func (s BufState) Has(f BufState) bool { return s&f == f }

// WithUsage returns s with its usage count replaced.
func (s BufState) WithUsage(u int) BufState { return s&^UsageMask | BufState(u)<<UsageShift }

// SettingError is a bad value for a named setting, with what would be accepted.
type SettingError struct {
	Name    string
	Value   string
	Allowed string
}

func (e *SettingError) Error() string {
	if e.Value == "" {
		return fmt.Sprintf("%s: %s", e.Name, e.Allowed)
	}
	return fmt.Sprintf("%s=%s: %s", e.Name, e.Value, e.Allowed)
}

// Unit is the base unit of a size GUC, in bytes (1 for bytes, 1024 for kB, 8192 for 8kB blocks).
type Unit int64

// Size units as PostgreSQL's GUC machinery uses them.
const (
	UnitBytes  Unit = 1
	UnitKB     Unit = 1024
	UnitMB     Unit = 1024 * 1024
	UnitBlocks Unit = BLCKSZ
)

// ParseSize parses a memory setting the way postgresql.conf does: a bare
// integer is in the GUC's own unit; otherwise B, kB, MB, GB or TB (PostgreSQL's
// units are case-sensitive and powers of 1024). The result is in the GUC's unit,
// rounded down as PostgreSQL rounds (it rejects nothing that is merely inexact).
func ParseSize(s string, unit Unit) (int64, error) {
	s = strings.TrimSpace(s)
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	num, suffix := s[:i], strings.TrimSpace(s[i:])
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("not a size (want an integer with an optional unit B, kB, MB, GB, TB)")
	}
	var mult int64
	switch suffix {
	case "":
		return n, nil
	case "B":
		mult = 1
	case "kB":
		mult = 1 << 10
	case "MB":
		mult = 1 << 20
	case "GB":
		mult = 1 << 30
	case "TB":
		mult = 1 << 40
	default:
		return 0, fmt.Errorf("unknown unit %q (valid units are B, kB, MB, GB and TB)", suffix)
	}
	if n > (1<<62)/mult {
		return 0, fmt.Errorf("out of range")
	}
	return n * mult / int64(unit), nil
}

// FormatSize prints a byte count in PostgreSQL's preferred unit (largest exact one),
// the way SHOW prints memory settings: 128MB, 752kB, 8kB.
func FormatSize(bytes int64) string {
	switch {
	case bytes != 0 && bytes%(1<<30) == 0:
		return fmt.Sprintf("%dGB", bytes>>30)
	case bytes != 0 && bytes%(1<<20) == 0:
		return fmt.Sprintf("%dMB", bytes>>20)
	case bytes%(1<<10) == 0:
		return fmt.Sprintf("%dkB", bytes>>10)
	}
	return fmt.Sprintf("%dB", bytes)
}

// ParseDuration parses a time setting (us, ms, s, min, h, d); a bare number is in unitMs milliseconds' unit.
// It returns nanoseconds.
func ParseDuration(s string, bareUnitNs int64) (int64, error) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("not a duration (want an integer with an optional unit us, ms, s, min, h, d)")
	}
	var mult int64
	switch strings.TrimSpace(s[i:]) {
	case "":
		mult = bareUnitNs
	case "us":
		mult = 1e3
	case "ms":
		mult = 1e6
	case "s":
		mult = 1e9
	case "min":
		mult = 60e9
	case "h":
		mult = 3600e9
	case "d":
		mult = 86400e9
	default:
		return 0, fmt.Errorf("unknown unit %q (valid units are us, ms, s, min, h and d)", s[i:])
	}
	return n * mult, nil
}
