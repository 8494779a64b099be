package scenario

import (
	"strconv"
	"strings"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/cluster"
	"github.com/pgbufsim/pgbufsim/pg"
)

// Example: cluster version=18 shared_buffers=128MB data_checksums=on
func (e *Env) cmdCluster(args []datadriven.CmdArg) (Output, error) {
	if e.C != nil && e.C.InTransaction() {
		// As CREATE DATABASE: initdb is not a statement of the open transaction.
		return Output{}, errorf("cluster cannot run inside a transaction block (begin%s is not committed; commit first)", e.beginAt())
	}
	o := cluster.Options{Version: pg.DefaultVersion, Seed: e.Seed}
	for _, a := range args {
		if a.Key == "version" {
			s, err := argVal(a)
			if err != nil {
				return Output{}, err
			}
			n, err := strconv.Atoi(s)
			if err != nil || n < int(pg.MinVersion) || n > int(pg.MaxVersion) {
				return Output{}, cluster.VersionError(s)
			}
			o.Version = pg.Version(n)
		}
	}
	for _, a := range args {
		if a.Key == "version" {
			continue
		}
		if positional(a) {
			return Output{}, errorf("%s: expected GUC=value", a.Key)
		}
		val, err := argVal(a)
		if err != nil {
			return Output{}, err
		}
		o.Settings = append(o.Settings, cluster.Setting{Name: a.Key, Value: val})
	}
	c, err := cluster.Open(o)
	if err != nil {
		return Output{}, err
	}
	e.C = c
	c.MarksReadIO = e.MarksReadIO
	if e.FreshCatalogs {
		c.FreshCatalogs()
	}
	notices := c.Notices()
	return noticesOutput(notices), nil
}

// noticesOutput is "ok", or the notices for settings accepted but not simulated.
func noticesOutput(notices []string) Output {
	text := "ok"
	if len(notices) > 0 {
		text = strings.Join(notices, "\n")
	}
	return Output{Text: text, JSON: map[string]any{"notices": notices}, Result: Notices(notices)}
}
