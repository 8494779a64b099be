package verify

import (
	"strings"
	"testing"

	"github.com/pgbufsim/pgbufsim/scenario"
	"github.com/stretchr/testify/require"
)

func pgbenchStep(args ...string) *step {
	st := &step{line: 3, text: "pgbench " + strings.Join(args, " "), cmd: "pgbench"}
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		arg := scenario.Arg{Key: k}
		if ok {
			arg.Vals = []string{v}
		}
		st.args = append(st.args, arg)
	}
	return st
}

// The translation refuses a bad pgbench step before any server starts,
// naming the line and the setting.
func TestPgbenchStepRefused(t *testing.T) {
	r := &runner{srv: &Server{Major: 15}}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "builtin=select"}, `builtin="select"`},
		{[]string{"run", "transactions=0"}, "transactions=0"},
		{[]string{"run", "transactions=10", "seed=-1"}, "seed=-1"},
		{[]string{"run", "scale=3"}, "pgbench run does not take scale=3"},
		{[]string{"init", "transactions=3"}, "pgbench init does not take transactions=3"},
		{[]string{"init", "scale=1", "fillfactor=101"}, "fillfactor=101"},
		{[]string{"init"}, "scale=0"},
		{[]string{"init", "scale"}, "scale needs one value"},
		{[]string{"bench"}, "pgbench init or pgbench run"},
		{nil, "pgbench init or pgbench run"},
	} {
		_, err := r.actPgbench(pgbenchStep(c.args...))
		require.ErrorContains(t, err, c.want, "%v", c.args)
	}
	for _, ok := range [][]string{{"init", "scale=10", "fillfactor=90"}, {"run", "transactions=20000", "builtin=select-only", "seed=3", "clients=2"}} {
		_, err := r.actPgbench(pgbenchStep(ok...))
		require.NoError(t, err, "%v", ok)
	}
	_, err := (&runner{srv: &Server{Major: 14}}).actPgbench(pgbenchStep("run", "transactions=1"))
	require.ErrorContains(t, err, "version 14")
}
