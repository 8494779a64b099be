package wal

import (
	"fmt"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// Full-page images under wal_compression (xloginsert.c
// XLogCompressBackupBlock): the page without its hole is compressed for real
// with the named method; the compressed form is kept only when it is shorter
// than the original by more than the 2-byte XLogRecordBlockCompressHeader
// that then records the hole's length.

// SizeOfBlockCompressHeader is XLogRecordBlockCompressHeader (the hole length).
const SizeOfBlockCompressHeader = 2

// Compressor compresses a page image. What compressing costs is the cost
// model's (internal/cost, by Method).
type Compressor interface {
	// Compress returns the compressed length of src.
	Compress(src []byte) int
	// Method is the wal_compression method: pglz, lz4 or zstd.
	Method() string
}

// NewCompressor is the wal_compression method: pglz (also "on"), lz4
// (LZ4_compress_default) or zstd (ZSTD_compress at the default level 3).
func NewCompressor(method string) (Compressor, error) {
	switch method {
	case "pglz", "on":
		return &pglzComp{}, nil
	case "lz4":
		return &lz4Comp{}, nil
	case "zstd":
		enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1))
		if err != nil {
			return nil, err
		}
		return &zstdComp{enc: enc}, nil
	}
	return nil, fmt.Errorf("wal_compression=%s: unknown method (pglz, lz4, zstd)", method)
}

type lz4Comp struct {
	c   lz4.Compressor
	dst []byte
}

func (l *lz4Comp) Compress(src []byte) int {
	if n := lz4.CompressBlockBound(len(src)); cap(l.dst) < n {
		l.dst = make([]byte, n)
	}
	n, err := l.c.CompressBlock(src, l.dst[:cap(l.dst)])
	if err != nil || n == 0 {
		return len(src) // incompressible: stored as is
	}
	return n
}

func (l *lz4Comp) Method() string { return "lz4" }

type zstdComp struct {
	enc *zstd.Encoder
	dst []byte
}

func (z *zstdComp) Compress(src []byte) int {
	z.dst = z.enc.EncodeAll(src, z.dst[:0])
	return len(z.dst)
}

func (z *zstdComp) Method() string { return "zstd" }

// CompressedImage is the image part of a block reference for a page whose
// bytes without the hole are given (hole > 0 if the page had one): the
// compressed length plus the compress header, or the original length when
// compressing does not pay (XLogCompressBackupBlock).
func CompressedImage(c Compressor, withoutHole []byte, hole int) (imageBytes int, compressed bool) {
	orig := len(withoutHole)
	n := c.Compress(withoutHole)
	extra := 0
	if hole > 0 {
		extra = SizeOfBlockCompressHeader
	}
	if n+extra >= orig {
		return orig, false
	}
	return n + extra, true
}
