package wal

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// pglz on 8,192 zero bytes, by hand: a literal (nothing to match yet), then
// matches one byte back of at most 273 bytes (PGLZ_MAX_MATCH), 3-byte tags:
// 30 of them cover 8,190 bytes; the last byte has no 3-byte match and goes
// as a literal. 32 items need 4 control bytes: 4 + 1 + 30 × 3 + 1 = 96.
func TestPglzZeros(t *testing.T) {
	c, err := NewCompressor("pglz")
	require.NoError(t, err)
	require.Equal(t, 96, c.Compress(make([]byte, 8192)))
	// Too short to try (min_input_size 32), and incompressible input: given back as is.
	require.Equal(t, 31, c.Compress(make([]byte, 31)))
	noise := make([]byte, 4096)
	x := uint32(1)
	for i := range noise {
		x = x*1664525 + 1013904223
		noise[i] = byte(x >> 24)
	}
	require.Equal(t, 4096, c.Compress(noise))
}

// The image under compression: kept only when the compressed bytes and the
// 2-byte hole length are shorter than the page without its hole.
func TestCompressedImage(t *testing.T) {
	c, err := NewCompressor("lz4")
	require.NoError(t, err)
	n, ok := CompressedImage(c, make([]byte, 8000), 192)
	require.True(t, ok)
	require.Less(t, n, 100)
	_, err = NewCompressor("brotli")
	require.Error(t, err)
}
