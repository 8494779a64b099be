package viz

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pgbufsim/pgbufsim/scenario"
)

// Record runs a scenario with recording on; an error names the file and line.
func Record(name, src string, seed uint64) (*scenario.Env, error) {
	f, err := scenario.Parse(name, src)
	if err != nil {
		return nil, err
	}
	env := &scenario.Env{Seed: seed, Record: true}
	for _, st := range f.Steps {
		if _, err := env.ExecStep(st); err != nil {
			return nil, &scenario.Error{File: name, Line: st.Line, Err: err}
		}
	}
	if err := env.Finish(name); err != nil {
		return nil, err
	}
	return env, nil
}

// CheckOutput checks an output path before any work: its extension names a
// format this package writes and its directory exists.
func CheckOutput(out string, exts ...string) (string, error) {
	ext := strings.TrimPrefix(filepath.Ext(out), ".")
	ok := false
	for _, e := range exts {
		ok = ok || e == ext
	}
	if !ok {
		return "", fmt.Errorf("-o %s: the file name must end in .%s", out, strings.Join(exts, " or ."))
	}
	dir := filepath.Dir(out)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", fmt.Errorf("-o %s: directory %s does not exist", out, dir)
	}
	return ext, nil
}

// PlotFile runs the scenario and writes one file per plot command; it
// returns the paths written.
func PlotFile(name, src, out string, seed uint64) ([]string, error) {
	ext, err := CheckOutput(out, "svg", "png")
	if err != nil {
		return nil, err
	}
	env, err := Record(name, src, seed)
	if err != nil {
		return nil, err
	}
	figs := env.Recording().Figures
	if len(figs) == 0 {
		// No plot command: each relation's buffers and the WAL over the whole run.
		if env.C == nil {
			return nil, fmt.Errorf("%s starts no cluster: nothing to plot", name)
		}
		figs = []scenario.Figure{env.Figure(scenario.DefaultSeries, strings.TrimSuffix(filepath.Base(name), filepath.Ext(name)))}
	}
	var paths []string
	for i, f := range figs {
		b, err := Render(f, ext)
		if err != nil {
			return nil, fmt.Errorf("figure %d: %w", i+1, err)
		}
		p := FigurePath(out, i+1)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return nil, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}
