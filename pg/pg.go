package pg

import (
	"fmt"
	"math"
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

// ParseSize parses a memory setting the way postgresql.conf does; it models
// parse_int and convert_to_base_unit (guc.c). A bare number is in the GUC's
// own unit; otherwise B, kB, MB, GB or TB (case-sensitive, powers of 1024).
// A fractional value is accepted as PostgreSQL accepts it: 1.5MB is first
// rounded to the nearest multiple of the next smaller unit (kB), then to the
// GUC's unit (rint, halves to even), so 1.5MB of 8kB blocks is 192 and 1kB
// is 0 (the GUC's check hook may raise that, as wal_buffers' does).
func ParseSize(s string, unit Unit) (int64, error) {
	val, suffix, ok := ParseNumber(s)
	if !ok {
		return 0, fmt.Errorf("not a size (want a number with an optional unit B, kB, MB, GB, TB)")
	}
	// memory_unit_conversion_table, largest unit first.
	units := []struct {
		name  string
		bytes float64
	}{{"TB", 1 << 40}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"kB", 1 << 10}, {"B", 1}}
	if suffix != "" {
		found := false
		for i, u := range units {
			if u.name != suffix {
				continue
			}
			found = true
			v := val * u.bytes / float64(unit)
			if i+1 < len(units) {
				next := units[i+1].bytes / float64(unit)
				v = math.RoundToEven(v/next) * next
			}
			val = v
		}
		if !found {
			return 0, fmt.Errorf("unknown unit %q (valid units are B, kB, MB, GB and TB)", suffix)
		}
	}
	val = math.RoundToEven(val)
	if math.Abs(val) > 1<<62 {
		return 0, fmt.Errorf("out of range (at most 4194304TB)")
	}
	return int64(val), nil
}

// ParseNumber reads a decimal number (sign, digits, fraction, exponent) and
// what follows it, with surrounding blanks trimmed: strtol's then strtod's
// reading in parse_int (guc.c), less octal and hex.
func ParseNumber(s string) (val float64, suffix string, ok bool) {
	s = strings.TrimSpace(s)
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0, "", false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '-' || s[j] == '+') {
			j++
		}
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k > j {
			i = k
		}
	}
	v, err := strconv.ParseFloat(s[:i], 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, "", false
	}
	return v, strings.TrimSpace(s[i:]), true
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

// MaxDurationNs is the longest duration ParseDuration returns: the
// simulated clock counts nanoseconds in an int64 (about 292 years).
const MaxDurationNs = math.MaxInt64

// ParseDuration parses a time setting (us, ms, s, min, h, d; a bare number
// is in bareUnitNs nanoseconds) and returns nanoseconds. It models
// parse_int and convert_to_base_unit (guc.c): a fractional value is
// accepted (1.5s), rounded to the nearest multiple of the next smaller unit
// (1.5s is 1500ms); the caller rounds to its GUC's own unit. A duration
// longer than 106751d (MaxDurationNs) is out of range, never wrapped.
func ParseDuration(s string, bareUnitNs int64) (int64, error) {
	val, suffix, ok := ParseNumber(s)
	if !ok {
		return 0, fmt.Errorf("not a duration (want a number with an optional unit us, ms, s, min, h, d)")
	}
	// time_unit_conversion_table, largest unit first, in nanoseconds.
	units := []struct {
		name string
		ns   float64
	}{{"d", 86400e9}, {"h", 3600e9}, {"min", 60e9}, {"s", 1e9}, {"ms", 1e6}, {"us", 1e3}}
	ns := val * float64(bareUnitNs)
	if suffix != "" {
		found := false
		for i, u := range units {
			if u.name != suffix {
				continue
			}
			found = true
			ns = val * u.ns
			if i+1 < len(units) {
				ns = math.RoundToEven(ns/units[i+1].ns) * units[i+1].ns
			}
		}
		if !found {
			return 0, fmt.Errorf("unknown unit %q (valid units are us, ms, s, min, h and d)", suffix)
		}
	}
	ns = math.RoundToEven(ns)
	if math.Abs(ns) >= math.MaxInt64 {
		return 0, fmt.Errorf("out of range (at most 106751d, the simulated clock's 292 years)")
	}
	return int64(ns), nil
}
