package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// animate writes the page and says how many frames it holds; bad paths are
// errors (status 1) naming what is wrong, a missing -o is a usage error.
func TestAnimateCmd(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.scn")
	require.NoError(t, os.WriteFile(p, []byte("cluster version=18 shared_buffers=128kB catalog_pins=off\ntable t pages=4 tuples_per_page=4\ninsert t\n"), 0o644))
	out := filepath.Join(dir, "s.html")
	var o, e bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"animate", p, "-o", out}, &o, &e), e.String())
	require.Regexp(t, `s\.html: \d+ frames\n$`, o.String())
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Contains(t, string(b), "<title>pgbufsim animate: s.scn</title>")

	e.Reset()
	require.Equal(t, 1, run(context.Background(), []string{"animate", p, "-o", filepath.Join(dir, "no", "s.html")}, &o, &e))
	require.Contains(t, e.String(), "directory "+filepath.Join(dir, "no")+" does not exist")
	e.Reset()
	require.Equal(t, 1, run(context.Background(), []string{"animate", p, "-o", filepath.Join(dir, "s.png")}, &o, &e))
	require.Contains(t, e.String(), "must end in .html")
	require.Equal(t, 2, run(context.Background(), []string{"animate", p}, &o, &e))
	e.Reset()
	var h bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"help"}, &h, &e))
	require.Contains(t, h.String(), "pgbufsim animate FILE.scn -o out.html")
}
