package verify

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/pg"
	"github.com/pgbufsim/pgbufsim/scenario"
	"github.com/pgbufsim/pgbufsim/wal"
)

// Options configure one verify run.
type Options struct {
	PGBin    string    // PostgreSQL's bin directory
	Keep     bool      // keep the stopped cluster's directory
	Seed     uint64    // the simulator's PRNG seed
	Progress io.Writer // a line per command as it runs on the server; nil for none
	// PlanDir, when set, keeps what the server said for `pgbufsim diagnose`:
	// each EXPLAIN (ANALYZE, BUFFERS, WAL, FORMAT JSON) as NAME-LLINE-CMD.json,
	// pg_buffercache right after it (in a session of its own) as
	// NAME-LLINE-CMD.buffercache.csv, and pg_settings as NAME-settings.csv.
	PlanDir string
}

// step is one command as both sides run it: the scenario line, possibly
// rewritten for the server's version (see rewrite).
type step struct {
	line int
	text string // as shown in the report
	cmd  string
	args []scenario.Arg
	sim  any // the simulator's JSON result

	lsnBefore, lsnAfter pg.LSN    // the simulator's WAL insert position around the command
	walBefore, walAfter wal.Usage // the simulator's pg_stat_wal around it
	pages               int64     // for insert: the simulated relation's size afterwards
	// keyed is, for insert and copy, the simulated size of each of the
	// table's indexes on hashint4 keys afterwards.
	keyed map[string]int64
	io    bufmgr.IOStats // the simulator's pg_stat_io after the command
}

// Run verifies one scenario: the simulator first (which also validates the
// file), then the translation of every command (so an untranslatable command
// fails before any server starts), then the real server.
func Run(ctx context.Context, name, src string, o Options) (rep *Report, err error) {
	f, err := scenario.Parse(name, src)
	if err != nil {
		return nil, err
	}
	srv, err := NewServer(o.PGBin)
	if err != nil {
		return nil, err
	}
	if srv.Major < int(pg.MinVersion) || srv.Major > int(pg.MaxVersion) {
		return nil, fmt.Errorf("--pgbin %s: PostgreSQL %d is outside the simulated versions %d to %d", o.PGBin, srv.Major, pg.MinVersion, pg.MaxVersion)
	}
	srv.Keep = o.Keep
	rep = &Report{Scenario: name, Server: srv.Version, Major: srv.Major}
	steps, notes, err := rewrite(f, srv.Major)
	if err != nil {
		return nil, err
	}
	rep.Notes = append(rep.Notes, notes...)

	// The simulator, at the server's major version.
	// The server's catalogs are fresh from the setup's CREATE EXTENSIONs (actCluster).
	env := &scenario.Env{Seed: o.Seed, FreshCatalogs: true}
	for _, st := range steps {
		// A show io (16+) makes every mark read pg_stat_io too (runner.showsIO).
		env.MarksReadIO = env.MarksReadIO || srv.Major >= 16 && st.cmd == "show" && len(st.args) > 0 && st.args[0].Key == "io"
	}
	hashed := map[string]string{} // index on hashint4 keys → its table
	for i := range steps {
		st := &steps[i]
		if on, ok := hashedIndex(st); ok {
			hashed[st.args[0].Key] = on
		}
		if env.C != nil {
			st.lsnBefore, st.walBefore = env.C.WAL().InsertLSN(), env.C.WAL().Total
		}
		out, err := env.Exec(st.cmd, st.args)
		if err != nil {
			return nil, &scenario.Error{File: name, Line: st.line, Err: err}
		}
		st.sim = out.JSON
		st.lsnAfter, st.walAfter = env.C.WAL().InsertLSN(), env.C.WAL().Total
		switch st.cmd {
		case "checkpoint", "copy", "analyze", "index":
			// The server's LSN window opens after the session's first queries
			// and their catalog pruning (actCheckpoint, actCopy, actAnalyze,
			// actIndex), and closes before its last ones.
			st.lsnBefore = env.C.StatementStart()
		}
		st.io = env.C.Pool().Stats
		if st.cmd == "insert" || st.cmd == "copy" {
			if rel, ok := env.C.Relation(st.args[0].Key); ok {
				st.pages = int64(rel.NPages())
			}
			st.keyed = map[string]int64{}
			for ix, on := range hashed {
				if info, ok := env.C.Index(ix); ok && on == st.args[0].Key {
					st.keyed[ix] = int64(info.Pages)
				}
			}
		}
	}
	if env.C == nil {
		return nil, fmt.Errorf("%s: no cluster command", name)
	}
	rep.NBuffers = env.C.S.NBuffers()

	r := &runner{srv: srv, env: env, name: name, rep: rep, progress: o.Progress, planDir: o.PlanDir,
		tables: map[string]*table{}, marks: map[string]realMark{}, rejected: map[string]bool{}, indexes: map[string]string{}}
	acts := make([]action, len(steps))
	for i := range steps {
		a, err := r.translate(&steps[i])
		if err != nil {
			return nil, &scenario.Error{File: name, Line: steps[i].line, Err: err}
		}
		acts[i] = a
	}

	// The real server. It is stopped and its directory removed on every path.
	defer func() {
		if r.txConn != nil {
			r.txConn.Close(context.Background())
		}
		if cerr := srv.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("stopping the server: %w", cerr)
		}
		switch {
		case !o.Keep || srv.Root == "":
		case rep != nil:
			rep.Notes = append(rep.Notes, "kept the stopped cluster in "+srv.Root)
		case err != nil: // a step failed: no report to carry the note
			err = fmt.Errorf("%w (kept the stopped cluster in %s)", err, srv.Root)
		}
	}()
	for i := range steps {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("interrupted: %w", err)
		}
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "%s:%d: %s\n", name, steps[i].line, steps[i].text)
		}
		if err := acts[i](ctx, &steps[i]); err != nil {
			return nil, &scenario.Error{File: name, Line: steps[i].line, Err: fmt.Errorf("on the server: %w", err)}
		}
	}
	return rep, nil
}

// rewrite adapts the scenario to the server: the cluster runs at the
// server's major version; `evict all` becomes a restart where
// pg_buffercache has no eviction function (15, 16), so both sides restart;
// `scan T repeat=N` becomes N scans so every one is compared.
func rewrite(f *scenario.File, major int) ([]step, []string, error) {
	var out []step
	var notes []string
	for _, st := range f.Steps {
		s := step{line: st.Line, text: st.Text, cmd: st.Cmd, args: st.Args}
		switch st.Cmd {
		case "cluster":
			var args []scenario.Arg
			for _, a := range st.Args {
				if a.Key == "version" {
					if len(a.Vals) == 1 && a.Vals[0] != strconv.Itoa(major) {
						notes = append(notes, fmt.Sprintf("line %d: the scenario says version=%s; both sides run PostgreSQL %d (the server's version)", st.Line, a.Vals[0], major))
					}
					continue
				}
				args = append(args, a)
			}
			s.args = append([]scenario.Arg{{Key: "version", Vals: []string{strconv.Itoa(major)}}}, args...)
		case "evict":
			if major < 17 && len(st.Args) == 1 && st.Args[0].Key == "all" {
				s.cmd, s.args, s.text = "restart", nil, "restart (for: "+st.Text+")"
				notes = append(notes, fmt.Sprintf("line %d: PostgreSQL %d's pg_buffercache cannot evict; 'evict all' runs as a restart on both sides (a shutdown checkpoint, then an empty pool)", st.Line, major))
			}
		case "scan":
			n := 1
			var rest []scenario.Arg
			for _, a := range st.Args {
				if a.Key == "repeat" && len(a.Vals) == 1 {
					v, err := strconv.Atoi(a.Vals[0])
					if err != nil || v < 1 || v > 1000 {
						return nil, nil, &scenario.Error{File: f.Name, Line: st.Line, Err: fmt.Errorf("scan: repeat=%s: must be between 1 and 1000", a.Vals[0])}
					}
					n = v
					continue
				}
				rest = append(rest, a)
			}
			for i := 1; i <= n; i++ {
				s2 := s
				s2.args = rest
				if n > 1 {
					s2.text = fmt.Sprintf("%s (%d of %d)", st.Text, i, n)
				}
				out = append(out, s2)
			}
			continue
		}
		out = append(out, s)
	}
	return out, notes, nil
}

// lineText is for error messages.
func lineText(st *step) string { return strings.TrimSpace(st.text) }
