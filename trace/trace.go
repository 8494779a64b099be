// Package trace reads and writes block-access traces: libCacheSim's
// oracleGeneral binary format, so the public cache-trace collections can be
// replayed through PostgreSQL's clock sweep, and a CSV of
// relation,block[,op] lines for traces taken from a PostgreSQL server. It
// models nothing of PostgreSQL itself: the replay (package replay) makes each
// access one ReadBuffer of one block with no strategy, an unpin after it
// (bufmgr.c's ReadBufferExtended and ReleaseBuffer), and a write also
// MarkBufferDirty, so the victims are freelist.c's.
//
// # oracleGeneral
//
// A sequence of 24-byte little-endian records with no header: u32 timestamp,
// u64 object id, u32 object size, i64 next access (the index of the object's
// next request, −1 when there is none). A file whose length is not a multiple
// of 24 is truncated, and is refused naming the offset of the partial record.
//
// # CSV
//
// One access a line: relation,block or relation,block,op with op read or
// write; blank lines and lines starting with '#' are skipped, and so is a first
// line starting with "relation" before any access (a header). Errors name the line.
package trace

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// RecordSize is the size of one oracleGeneral record in bytes.
const RecordSize = 24

// Record is one oracleGeneral request.
type Record struct {
	Time       uint32
	ObjID      uint64
	Size       uint32
	NextAccess int64 // index of the object's next request, −1 if none
}

// Format is a trace file format.
type Format uint8

// Trace formats.
const (
	OracleGeneral Format = iota
	CSV
)

// Formats lists the accepted format names, for error messages.
const Formats = "oraclegeneral or csv"

// ParseFormat maps a format name (case-insensitive) to a Format.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "oraclegeneral":
		return OracleGeneral, nil
	case "csv":
		return CSV, nil
	}
	return 0, fmt.Errorf("format=%s: unknown trace format (%s)", s, Formats)
}

// OracleReader reads oracleGeneral records in batches.
type OracleReader struct {
	name string
	r    io.Reader
	buf  []byte
	off  int64 // byte offset of the next record
}

// NewOracleReader reads records from r; name is used in errors.
func NewOracleReader(name string, r io.Reader) *OracleReader {
	return NewOracleReaderSize(name, r, 4096)
}

// NewOracleReaderSize is NewOracleReader reading up to records records per
// call (one read of the underlying reader each): a whole-trace pass decodes
// in big blocks.
func NewOracleReaderSize(name string, r io.Reader, records int) *OracleReader {
	return &OracleReader{name: name, r: r, buf: make([]byte, max(1, records)*RecordSize)}
}

// Read fills recs with the next records and returns how many it read. At the
// end of the trace it returns 0, io.EOF; a partial final record is an error
// naming its byte offset.
func (o *OracleReader) Read(recs []Record) (int, error) {
	want := len(recs) * RecordSize
	if want > len(o.buf) {
		want = len(o.buf) - len(o.buf)%RecordSize
	}
	n, err := io.ReadFull(o.r, o.buf[:want])
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = nil
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return 0, fmt.Errorf("%s: %w", o.name, err)
	}
	whole := n / RecordSize
	for i := 0; i < whole; i++ {
		b := o.buf[i*RecordSize:]
		recs[i] = Record{
			Time:       binary.LittleEndian.Uint32(b),
			ObjID:      binary.LittleEndian.Uint64(b[4:]),
			Size:       binary.LittleEndian.Uint32(b[12:]),
			NextAccess: int64(binary.LittleEndian.Uint64(b[16:])),
		}
	}
	o.off += int64(whole * RecordSize)
	if rest := n - whole*RecordSize; rest > 0 {
		return whole, fmt.Errorf("%s: truncated oracleGeneral trace: the record at byte offset %d has %d of its %d bytes (file size %d is not a multiple of %d)",
			o.name, o.off, rest, RecordSize, o.off+int64(rest), RecordSize)
	}
	if whole == 0 {
		return 0, io.EOF
	}
	return whole, nil
}

// ReadIDs is Read keeping only each record's object id: what a replay
// needs, decoded without building whole records. Its errors are Read's.
func (o *OracleReader) ReadIDs(ids []uint64) (int, error) {
	want := len(ids) * RecordSize
	if want > len(o.buf) {
		want = len(o.buf) - len(o.buf)%RecordSize
	}
	n, err := io.ReadFull(o.r, o.buf[:want])
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = nil
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return 0, fmt.Errorf("%s: %w", o.name, err)
	}
	whole := n / RecordSize
	b := o.buf[:whole*RecordSize]
	for i := range ids[:whole] {
		ids[i] = binary.LittleEndian.Uint64(b[i*RecordSize+4:])
	}
	o.off += int64(whole * RecordSize)
	if rest := n - whole*RecordSize; rest > 0 {
		return whole, fmt.Errorf("%s: truncated oracleGeneral trace: the record at byte offset %d has %d of its %d bytes (file size %d is not a multiple of %d)",
			o.name, o.off, rest, RecordSize, o.off+int64(rest), RecordSize)
	}
	if whole == 0 {
		return 0, io.EOF
	}
	return whole, nil
}

// WriteOracle writes records in oracleGeneral format.
func WriteOracle(w io.Writer, recs []Record) error {
	var b [RecordSize]byte
	bw := bufio.NewWriter(w)
	for _, r := range recs {
		binary.LittleEndian.PutUint32(b[0:], r.Time)
		binary.LittleEndian.PutUint64(b[4:], r.ObjID)
		binary.LittleEndian.PutUint32(b[12:], r.Size)
		binary.LittleEndian.PutUint64(b[16:], uint64(r.NextAccess))
		if _, err := bw.Write(b[:]); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// SetNextAccess fills every record's NextAccess with the index of the next
// request for the same object (−1 for the last one), as libCacheSim's
// oracle formats carry it.
func SetNextAccess(recs []Record) {
	next := make(map[uint64]int64)
	for i := len(recs) - 1; i >= 0; i-- {
		id := recs[i].ObjID
		if n, ok := next[id]; ok {
			recs[i].NextAccess = n
		} else {
			recs[i].NextAccess = -1
		}
		next[id] = int64(i)
	}
}

// Access is one CSV line: a block of a named relation, read or written.
type Access struct {
	Line     int
	Relation string
	Block    uint32
	Write    bool
}

// CSVReader reads relation,block[,op] lines.
type CSVReader struct {
	name string
	sc   *bufio.Scanner
	line int
	seen bool // a data (or header) line has been read
}

// NewCSVReader reads accesses from r; name is used in errors.
func NewCSVReader(name string, r io.Reader) *CSVReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	return &CSVReader{name: name, sc: sc}
}

// Next returns the next access, or io.EOF after the last one. A bad line is
// an error naming the file and line.
func (c *CSVReader) Next() (Access, error) {
	for c.sc.Scan() {
		c.line++
		line := strings.TrimSpace(c.sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		if first := !c.seen; first {
			c.seen = true
			if strings.HasPrefix(line, "relation") {
				continue
			}
		}
		f := strings.Split(line, ",")
		bad := func(why string) (Access, error) {
			return Access{}, fmt.Errorf("%s:%d: %q: %s", c.name, c.line, line, why)
		}
		if len(f) < 2 || len(f) > 3 {
			return bad("expected relation,block or relation,block,op")
		}
		a := Access{Line: c.line, Relation: strings.TrimSpace(f[0])}
		if a.Relation == "" {
			return bad("empty relation name")
		}
		blk, err := strconv.ParseUint(strings.TrimSpace(f[1]), 10, 32)
		if err != nil || blk == 0xFFFFFFFF {
			return bad("block must be a block number from 0 to 4294967294")
		}
		a.Block = uint32(blk)
		if len(f) == 3 {
			switch op := strings.TrimSpace(f[2]); op {
			case "read", "r", "":
			case "write", "w":
				a.Write = true
			default:
				return bad(fmt.Sprintf("op %q: must be read or write", op))
			}
		}
		return a, nil
	}
	if err := c.sc.Err(); err != nil {
		return Access{}, fmt.Errorf("%s:%d: %w", c.name, c.line+1, err)
	}
	return Access{}, io.EOF
}
