// Package verify runs a scenario on a real PostgreSQL server and on the
// simulator, side by side: a throwaway cluster made with the server's own
// initdb (data in a temporary directory, a unix socket only, no TCP), each
// scenario command translated into SQL, and every figure both sides can
// report (EXPLAIN (ANALYZE, BUFFERS, WAL) counters, pg_buffercache per
// relation, pg_stat_wal and LSN distances, pg_visibility) compared with a
// stated tolerance.
package verify

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/pgbufsim/pgbufsim/pg"
)

// Server is a throwaway PostgreSQL cluster in a temporary directory.
type Server struct {
	Bin     string // the directory holding initdb, pg_ctl, postgres
	Major   int    // the server's major version (15, 16, …)
	Version string // the full version string, e.g. "15.18 (Debian 15.18-0+deb12u1)"
	Root    string // temporary directory: data/, the socket, server.log
	Keep    bool   // leave the (stopped) data directory behind on Close
	// OnNotice receives the notices of every session (set before connecting).
	OnNotice func(msg string)

	// CPUs, when set, pins the server to these CPUs (a taskset -c list):
	// pg_ctl starts the postmaster under it, and every process it forks
	// (backends, parallel workers, I/O workers) inherits the affinity.
	CPUs string

	cred     *syscall.Credential // run the server's programs as this user (when we are root)
	uid, gid int
}

const port = 5432 // only a unix socket in Root is opened, so no clash with other servers

// NewServer checks that bin holds a usable PostgreSQL installation and reads its version.
func NewServer(bin string) (*Server, error) {
	if bin == "" {
		return nil, errors.New("--pgbin: give the directory of PostgreSQL's programs (pg_config --bindir)")
	}
	for _, p := range []string{"initdb", "pg_ctl", "postgres"} {
		st, err := os.Stat(filepath.Join(bin, p))
		if err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
			return nil, fmt.Errorf("--pgbin %s: no %s program there (expected the directory pg_config --bindir prints)", bin, p)
		}
	}
	out, err := exec.Command(filepath.Join(bin, "postgres"), "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("--pgbin %s: postgres --version: %v", bin, err)
	}
	// "postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)"
	m := regexp.MustCompile(`\(PostgreSQL\) ((\d+)\S*.*)`).FindStringSubmatch(strings.TrimSpace(string(out)))
	if m == nil {
		return nil, fmt.Errorf("--pgbin %s: cannot read the version from %q", bin, strings.TrimSpace(string(out)))
	}
	major, _ := strconv.Atoi(m[2])
	s := &Server{Bin: bin, Major: major, Version: m[1], uid: os.Getuid(), gid: os.Getgid()}
	if os.Geteuid() == 0 {
		// initdb and postgres refuse to run as root: use the postgres account.
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, errors.New("running as root, but there is no unprivileged 'postgres' account to run the server as (PostgreSQL refuses root)")
		}
		s.uid, _ = strconv.Atoi(u.Uid)
		s.gid, _ = strconv.Atoi(u.Gid)
		s.cred = &syscall.Credential{Uid: uint32(s.uid), Gid: uint32(s.gid)}
	}
	return s, nil
}

// DataDir is the cluster's data directory.
func (s *Server) DataDir() string { return filepath.Join(s.Root, "data") }

func (s *Server) logPath() string { return filepath.Join(s.Root, "server.log") }

func (s *Server) command(ctx context.Context, prog string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, filepath.Join(s.Bin, prog), args...)
	cmd.Dir = s.Root
	cmd.Env = append(os.Environ(), "LC_ALL=C", "PGTZ=UTC")
	if s.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	}
	return cmd
}

func (s *Server) runProg(ctx context.Context, prog string, args ...string) error {
	var out bytes.Buffer
	cmd := s.command(ctx, prog, args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %v\n%s", prog, strings.Join(args, " "), err, tail(out.String(), 15))
	}
	return nil
}

// Init creates the temporary directory and the cluster (initdb, with data
// checksums when asked), and writes conf: the fixed lines that keep the
// server private (no TCP, socket in Root) followed by the scenario's settings.
func (s *Server) Init(ctx context.Context, checksums bool, conf [][2]string) error {
	root, err := os.MkdirTemp("", "pgbufsim-verify-")
	if err != nil {
		return err
	}
	s.Root = root
	if err := os.Chown(root, s.uid, s.gid); err != nil {
		return err
	}
	if err := os.Chmod(root, 0o700); err != nil {
		return err
	}
	args := []string{"-D", s.DataDir(), "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"}
	if checksums {
		args = append(args, "--data-checksums")
	} else if s.Major >= 18 {
		// 18's initdb turns checksums on unless told not to.
		args = append(args, "--no-data-checksums")
	}
	if err := s.runProg(ctx, "initdb", args...); err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("\n# pgbufsim verify\nlisten_addresses = ''\n")
	fmt.Fprintf(&b, "unix_socket_directories = '%s'\nport = %d\nlogging_collector = off\n", s.Root, port)
	for _, kv := range conf {
		fmt.Fprintf(&b, "%s = '%s'\n", kv[0], strings.ReplaceAll(kv[1], "'", "''"))
	}
	f, err := os.OpenFile(filepath.Join(s.DataDir(), "postgresql.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(b.String()); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Start starts the server and waits until it accepts connections; when it
// does not come up, the error carries the tail of its log.
func (s *Server) Start(ctx context.Context) error {
	args := []string{"-D", s.DataDir(), "-l", s.logPath(), "-w", "-t", "120", "start"}
	var err error
	if s.CPUs != "" {
		err = s.runPinned(ctx, args...)
	} else {
		err = s.runProg(ctx, "pg_ctl", args...)
	}
	if err != nil {
		log, _ := os.ReadFile(s.logPath())
		return fmt.Errorf("the server did not start; the end of its log:\n%s", tail(string(log), 20))
	}
	return nil
}

// runPinned runs pg_ctl with args under taskset -c s.CPUs.
func (s *Server) runPinned(ctx context.Context, args ...string) error {
	taskset, err := exec.LookPath("taskset")
	if err != nil {
		return fmt.Errorf("pinning the server to CPUs %s (the scenario's host_cpus) needs taskset (util-linux): %v", s.CPUs, err)
	}
	var out bytes.Buffer
	cmd := s.command(ctx, "pg_ctl", args...)
	cmd.Args = append([]string{taskset, "-c", s.CPUs, cmd.Path}, args...)
	cmd.Path = taskset
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("taskset -c %s pg_ctl %s: %v\n%s", s.CPUs, strings.Join(args, " "), err, tail(out.String(), 15))
	}
	return nil
}

// Restart is a clean restart (pg_ctl restart -m fast): a shutdown
// checkpoint, then an empty buffer pool.
func (s *Server) Restart(ctx context.Context) error {
	if err := s.runProg(ctx, "pg_ctl", "-D", s.DataDir(), "-m", "fast", "-w", "-t", "120", "stop"); err != nil {
		return err
	}
	return s.Start(ctx)
}

// Close stops the server if it runs and removes the directory (unless
// Keep). It does not use the caller's context: it must work after an
// interrupt cancelled that.
func (s *Server) Close() error {
	if s.Root == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var errs []error
	if _, err := os.Stat(filepath.Join(s.DataDir(), "postmaster.pid")); err == nil {
		if err := s.runProg(ctx, "pg_ctl", "-D", s.DataDir(), "-m", "fast", "-w", "-t", "30", "stop"); err != nil {
			if err2 := s.runProg(ctx, "pg_ctl", "-D", s.DataDir(), "-m", "immediate", "-w", "-t", "30", "stop"); err2 != nil {
				errs = append(errs, err, err2)
			}
		}
	}
	if !s.Keep {
		if err := os.RemoveAll(s.Root); err != nil {
			errs = append(errs, err)
		}
		s.Root = ""
	}
	return errors.Join(errs...)
}

// Connect opens a new session, as psql -c does for each command. Notices
// (VACUUM and ANALYZE VERBOSE's reports) go to OnNotice when set.
func (s *Server) Connect(ctx context.Context) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(s.connString())
	if err != nil {
		return nil, err
	}
	if s.OnNotice != nil {
		cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { s.OnNotice(n.Message + "\n" + n.Detail) }
	}
	return pgx.ConnectConfig(ctx, cfg)
}

func (s *Server) connString() string {
	return fmt.Sprintf("host=%s port=%d user=postgres dbname=postgres sslmode=disable", s.Root, port)
}

func tail(s string, n int) string {
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// WALSummary is what pg_waldump shows between two LSNs.
type WALSummary struct {
	Records int64 // records
	FPI     int64 // block references with a full-page image
	Bytes   int64 // the records' total lengths (EXPLAIN's WAL bytes)
	Types   map[string]int64
}

var reWALRec = regexp.MustCompile(`^rmgr: (\S+)\s+len \(rec/tot\):\s*\d+/\s*(\d+),.*desc: (\S+)`)

// WALDumpRel is WALDump of only the records that reference a block of the
// relation with the given file node (any fork).
func (s *Server) WALDumpRel(ctx context.Context, start, end pg.LSN, filenode uint32) (WALSummary, error) {
	return s.walDump(ctx, start, end, regexp.MustCompile(fmt.Sprintf(`rel \d+/\d+/%d[ ,]`, filenode)))
}

// WALDump reads the flushed WAL from start to end (0: to the end of valid WAL) with pg_waldump.
func (s *Server) WALDump(ctx context.Context, start, end pg.LSN) (WALSummary, error) {
	return s.walDump(ctx, start, end, nil)
}

func (s *Server) walDump(ctx context.Context, start, end pg.LSN, only *regexp.Regexp) (WALSummary, error) {
	w := WALSummary{Types: map[string]int64{}}
	args := []string{"-p", filepath.Join(s.DataDir(), "pg_wal"), "-s", start.String()}
	if end != 0 {
		if end <= start {
			return w, nil
		}
		args = append(args, "-e", end.String())
	}
	var out, errb bytes.Buffer
	cmd := s.command(ctx, "pg_waldump", args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	// Without an end, pg_waldump reads to the end of valid WAL and then
	// reports the invalid record it stopped at: an error status, but the
	// records it printed are complete.
	if err := cmd.Run(); err != nil && (end != 0 || !endOfWAL(errb.String())) {
		return w, fmt.Errorf("pg_waldump %s: %v: %s", strings.Join(args, " "), err, tail(errb.String(), 5))
	}
	for _, line := range strings.Split(out.String(), "\n") {
		m := reWALRec.FindStringSubmatch(line)
		if m == nil || only != nil && !only.MatchString(line) {
			continue
		}
		w.Records++
		n, _ := strconv.ParseInt(m[2], 10, 64)
		w.Bytes += n
		w.Types[m[1]+"/"+m[3]]++
		w.FPI += int64(strings.Count(line, " FPW"))
	}
	return w, nil
}

// endOfWAL reports whether pg_waldump's error is the end of the WAL written
// so far, where xlogreader stops on an incomplete record: a zero length in
// the zeroed rest of a page, no valid first record, or a record continued
// on a page not written yet (a zero-filled page's header: "invalid magic
// number 0000", seen on a loaded host while the WAL writer had written the
// record's first page only).
func endOfWAL(stderr string) bool {
	return strings.Contains(stderr, "invalid record length") || strings.Contains(stderr, "could not find a valid record") ||
		strings.Contains(stderr, "invalid magic number 0000")
}

// ConnString is the libpq connection string of the server's postgres user
// (add " dbname=NAME" for another database).
func (s *Server) ConnString() string { return s.connString() }

// WALLines is pg_waldump's lines for all the WAL the server's pg_wal still
// holds (from its oldest segment to the end of valid WAL).
func (s *Server) WALLines(ctx context.Context) ([]string, error) {
	dir := filepath.Join(s.DataDir(), "pg_wal")
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	first := ""
	for _, e := range ents {
		if n := e.Name(); len(n) == 24 && (first == "" || n < first) {
			first = n
		}
	}
	if first == "" {
		return nil, fmt.Errorf("no WAL segment in %s", dir)
	}
	var out, errb bytes.Buffer
	cmd := s.command(ctx, "pg_waldump", "-p", dir, first)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil && !endOfWAL(errb.String()) {
		return nil, fmt.Errorf("pg_waldump %s: %v: %s", first, err, tail(errb.String(), 5))
	}
	return strings.Split(out.String(), "\n"), nil
}
