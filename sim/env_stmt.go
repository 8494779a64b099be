package sim

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/bufmgr"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/pg"
)

// stmt wraps a statement: the client's pause before it, then its result as text and JSON.
func (e *Env) stmt(run func() (*StmtResult, error)) (Output, error) {
	e.C.advanceTo(e.C.now + costs.InterCommandNs)
	r, err := run()
	if err != nil {
		return Output{}, err
	}
	r.IOTimings, r.Version = e.C.S.Bool("track_io_timing"), int(e.C.S.Version)
	return Output{Text: r.Text(), JSON: r.JSON()}, nil
}

func (e *Env) oneTable(cmd string, args []datadriven.CmdArg) (*heap.Relation, []datadriven.CmdArg, error) {
	if len(args) == 0 || !positional(args[0]) {
		return nil, nil, fmt.Errorf("%s: expected a table name", cmd)
	}
	r, err := e.table(args[0].Key)
	if err != nil {
		return nil, nil, fmt.Errorf("%s %s: %w", cmd, args[0].Key, err)
	}
	return r, args[1:], nil
}

func (e *Env) cmdInsert(args []datadriven.CmdArg) (Output, error) {
	r, rest, err := e.oneTable("insert", args)
	if err != nil {
		return Output{}, err
	}
	if err := e.C.keyIndexesMaintainable(r); err != nil {
		return Output{}, fmt.Errorf("insert %s: %w", r.Name, err)
	}
	n := r.Declared
	for _, a := range rest {
		if a.Key != "rows" {
			return Output{}, fmt.Errorf("insert %s: unknown option %q (rows)", r.Name, a.Key)
		}
		v, err := argVal(a)
		if err != nil {
			return Output{}, err
		}
		if n, err = strconv.ParseInt(v, 10, 64); err != nil || n < 1 {
			return Output{}, fmt.Errorf("insert %s: rows=%s: must be a whole number of rows, at least 1", r.Name, v)
		}
	}
	return e.stmt(func() (*StmtResult, error) { return e.C.insertSelect(r, n) })
}

func (e *Env) cmdCopy(args []datadriven.CmdArg) (Output, error) {
	r, rest, err := e.oneTable("copy", args)
	if err != nil {
		return Output{}, err
	}
	if err := e.C.keyIndexesMaintainable(r); err != nil {
		return Output{}, fmt.Errorf("copy %s: %w", r.Name, err)
	}
	n, freeze := r.Declared, false
	for _, a := range rest {
		switch {
		case a.Key == "freeze" && positional(a):
			freeze = true
		case a.Key == "rows":
			v, err := argVal(a)
			if err != nil {
				return Output{}, err
			}
			if n, err = strconv.ParseInt(v, 10, 64); err != nil || n < 1 {
				return Output{}, fmt.Errorf("copy %s: rows=%s: must be a whole number of rows, at least 1", r.Name, v)
			}
		default:
			return Output{}, fmt.Errorf("copy %s: unknown option %q (freeze, rows)", r.Name, a.Key)
		}
	}
	return e.stmt(func() (*StmtResult, error) { return e.C.copyFrom(r, n, freeze) })
}

func (e *Env) cmdAnalyze(args []datadriven.CmdArg) (Output, error) {
	r, rest, err := e.oneTable("analyze", args)
	if err != nil {
		return Output{}, err
	}
	if len(rest) > 0 {
		return Output{}, fmt.Errorf("analyze %s: takes no options", r.Name)
	}
	return e.stmt(func() (*StmtResult, error) { return e.C.analyze(r) })
}

func (e *Env) cmdBegin(args []datadriven.CmdArg) (Output, error) {
	if len(args) > 0 {
		return Output{}, fmt.Errorf("begin: takes no arguments")
	}
	if e.C.txn.active {
		return Output{}, fmt.Errorf("begin: there is already a transaction in progress")
	}
	e.C.txn = transaction{active: true, created: map[pg.RelID]bool{}}
	return Output{Text: "BEGIN", JSON: map[string]any{}}, nil
}

func (e *Env) cmdCommit(args []datadriven.CmdArg) (Output, error) {
	if len(args) > 0 {
		return Output{}, fmt.Errorf("commit: takes no arguments")
	}
	c := e.C
	if !c.txn.active {
		return Output{}, fmt.Errorf("commit: there is no transaction in progress")
	}
	wrote := c.txn.wrote
	c.txn = transaction{}
	be := bufmgr.NewBackend(bufmgr.ClientBackend, c.now)
	c.endStatement(be, wrote)
	c.finish([]*participant{{be: be}})
	c.foldWAL(be)
	return Output{Text: "COMMIT", JSON: map[string]any{}}, nil
}

func (e *Env) cmdCheckpoint(args []datadriven.CmdArg) (Output, error) {
	if len(args) > 0 {
		return Output{}, fmt.Errorf("checkpoint: takes no arguments")
	}
	return e.stmt(e.C.checkpoint)
}

func (e *Env) cmdEvict(args []datadriven.CmdArg) (Output, error) {
	if len(args) != 1 || !positional(args[0]) {
		return Output{}, fmt.Errorf("evict: expected 'evict all' or 'evict TABLE'")
	}
	if args[0].Key == "all" {
		return e.stmt(func() (*StmtResult, error) { return e.C.evict(nil) })
	}
	r, err := e.table(args[0].Key)
	if err != nil {
		return Output{}, fmt.Errorf("evict %s: %w", args[0].Key, err)
	}
	return e.stmt(func() (*StmtResult, error) { return e.C.evict(r) })
}

func (e *Env) cmdScan(args []datadriven.CmdArg) (Output, error) {
	r, rest, err := e.oneTable("scan", args)
	if err != nil {
		return Output{}, err
	}
	repeat := 1
	for _, a := range rest {
		if a.Key != "repeat" {
			return Output{}, fmt.Errorf("scan %s: unknown option %q (repeat)", r.Name, a.Key)
		}
		v, err := argVal(a)
		if err != nil {
			return Output{}, err
		}
		if repeat, err = strconv.Atoi(v); err != nil || repeat < 1 || repeat > 1000 {
			return Output{}, fmt.Errorf("scan %s: repeat=%s: must be between 1 and 1000", r.Name, v)
		}
	}
	var texts []string
	var last Output
	for i := 0; i < repeat; i++ {
		o, err := e.stmt(func() (*StmtResult, error) { return e.C.seqScan(r) })
		if err != nil {
			return Output{}, err
		}
		texts = append(texts, o.Text)
		last = o
	}
	if repeat == 1 {
		return last, nil
	}
	return Output{Text: strings.Join(texts, "\n"), JSON: last.JSON}, nil
}

func (e *Env) cmdVacuum(args []datadriven.CmdArg) (Output, error) {
	r, rest, err := e.oneTable("vacuum", args)
	if err != nil {
		return Output{}, err
	}
	freeze := false
	for _, a := range rest {
		if a.Key != "freeze" || !positional(a) {
			return Output{}, fmt.Errorf("vacuum %s: unknown option %q (freeze)", r.Name, a.Key)
		}
		freeze = true
	}
	if e.C.txn.active {
		return Output{}, fmt.Errorf("vacuum %s: VACUUM cannot run inside a transaction block", r.Name)
	}
	return e.stmt(func() (*StmtResult, error) { return e.C.vacuum(r, freeze) })
}

func (e *Env) cmdMark(args []datadriven.CmdArg) (Output, error) {
	if len(args) != 1 || !positional(args[0]) {
		return Output{}, fmt.Errorf("mark: expected one name")
	}
	c := e.C
	c.marks[args[0].Key] = mark{lsn: c.wal.InsertLSN(), io: c.pool.Stats, wal: c.wal.Total, statWAL: c.statWAL(), time: c.now, changes: c.rowChanges}
	return Output{Text: "ok", JSON: map[string]any{}}, nil
}

func (e *Env) cmdTruncate(args []datadriven.CmdArg) (Output, error) {
	r, rest, err := e.oneTable("truncate", args)
	if err != nil {
		return Output{}, err
	}
	if len(rest) > 0 {
		return Output{}, fmt.Errorf("truncate %s: takes no options", r.Name)
	}
	if e.C.hasIndex(r) {
		return Output{}, fmt.Errorf("truncate %s: truncating an indexed table is not modelled yet", r.Name)
	}
	// DropRelationBuffers: every buffer of the old relfilenode goes to the head of the free list.
	e.C.pool.DropRelBuffers(r.ID)
	if e.C.txn.active {
		e.C.txn.created[r.ID] = true // a new relfilenode in this transaction
	}
	r.Truncate()
	// The new relfilenode comes with no free space map and no visibility map.
	for _, f := range []pg.ForkNumber{pg.FSMFork, pg.VMFork} {
		e.C.pool.DropRelBuffers(e.C.fork(r, f))
	}
	for k := range e.C.fsmUpper {
		if k[0] == int(r.ID) {
			delete(e.C.fsmUpper, k)
		}
	}
	return Output{Text: fmt.Sprintf("ok: free list now %d buffers", e.C.pool.Control().FreeListLen()),
		JSON: map[string]any{"free_list": e.C.pool.Control().FreeListLen()}}, nil
}
