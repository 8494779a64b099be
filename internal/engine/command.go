package engine

import (
	"errors"
	"fmt"

	"github.com/pgbufsim/pgbufsim/catalog"
	"github.com/pgbufsim/pgbufsim/heap"
)

// ErrDown is returned by every call between a crash and Recover.
var ErrDown = errors.New("the server is down after the crash (run recover first)")

// Command runs one client command: the down check, the session that pins
// only catalog pages (kind, when session), fn, then the after-command
// bookkeeping (a crash that fired during it, a WAL error).
func (c *Cluster) Command(name string, kind catalog.Kind, session bool, fn func() error) error {
	if session {
		// The session starts before anything is checked, as a client connects
		// before its command is parsed.
		if err := c.session(kind); err != nil {
			return err
		}
	}
	if c.crash.down {
		return fmt.Errorf("%s: %w", name, ErrDown)
	}
	err := fn()
	c.afterCommand()
	if err == nil && c.wal.Err() != nil {
		return fmt.Errorf("%s: %w", name, c.wal.Err())
	}
	return err
}

// Statement runs a statement after the client's pause: its result carries
// how EXPLAIN words it for this version.
func (c *Cluster) Statement(name string, run func() (*StmtResult, error)) (*StmtResult, error) {
	var res *StmtResult
	err := c.Command(name, 0, false, func() error {
		c.advanceTo(c.now + c.costs.InterCommandNs)
		r, err := run()
		if err != nil {
			return err
		}
		r.IOTimings, r.Version = c.S.Bool("track_io_timing"), int(c.S.Version)
		res = r
		return nil
	})
	return res, err
}

// TableNamed looks a table up by name.
func (c *Cluster) TableNamed(name string) (*heap.Relation, error) {
	r, ok := c.byName[name]
	if !ok {
		return nil, fmt.Errorf("relation %q does not exist", name)
	}
	c.cat.LookUpNext(r.ID) // the session looks up the table's pg_class row and its indexes'
	for _, ix := range c.sortedIndexes(r) {
		c.cat.LookUpNext(ix.ID)
	}
	return r, nil
}

// Failed is an argument error found before a command ran: what the
// after-command bookkeeping would have noted stays noted.
func (c *Cluster) Failed(err error) error {
	c.afterCommand()
	return err
}

// TableFor looks up a statement's table, refusing while the server is down.
func (c *Cluster) TableFor(cmd, table string) (*heap.Relation, error) {
	if c.crash.down {
		return nil, c.Failed(fmt.Errorf("%s: %w", cmd, ErrDown))
	}
	r, err := c.TableNamed(table)
	if err != nil {
		return nil, c.Failed(fmt.Errorf("%s %s: %w", cmd, table, err))
	}
	return r, nil
}
