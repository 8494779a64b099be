package verify

import (
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/stretchr/testify/require"
)

// A what-if variant other than PostgreSQL's own behaviour is refused before
// any server starts; the defaults, spelled out, pass like other machine
// settings (left out of postgresql.conf).
func TestVerifyRefusesWhatIf(t *testing.T) {
	arg := func(k, v string) datadriven.CmdArg { return datadriven.CmdArg{Key: k, Vals: []string{v}} }
	r := &runner{}
	_, err := r.actCluster(&step{cmd: "cluster", args: []datadriven.CmdArg{arg("version", "18"), arg("replacement", "lru")}})
	require.EqualError(t, err, "replacement=lru: a what-if variant of the simulator; a PostgreSQL server cannot run it (compare variants with pgbufsim compare)")
	_, err = r.actCluster(&step{cmd: "cluster", args: []datadriven.CmdArg{arg("ring", "0")}})
	require.Error(t, err, "an invalid value is refused too")
	_, err = r.actCluster(&step{cmd: "cluster", args: []datadriven.CmdArg{
		arg("replacement", "clock"), arg("usage_max", "5"), arg("reject", "pg"), arg("ring", "auto"), arg("freelist", "on")}})
	require.NoError(t, err)
}

// freelist=off is PostgreSQL 19's own behaviour, so a 19 server can run it;
// on 18 it is a what-if.
func TestVerifyFreelistOffOn19(t *testing.T) {
	arg := func(k, v string) datadriven.CmdArg { return datadriven.CmdArg{Key: k, Vals: []string{v}} }
	r := &runner{}
	_, err := r.actCluster(&step{cmd: "cluster", args: []datadriven.CmdArg{arg("version", "19"), arg("freelist", "off")}})
	require.NoError(t, err)
	_, err = r.actCluster(&step{cmd: "cluster", args: []datadriven.CmdArg{arg("version", "18"), arg("freelist", "off")}})
	require.EqualError(t, err, "freelist=off: a what-if variant of the simulator; a PostgreSQL server cannot run it (compare variants with pgbufsim compare)")
}
