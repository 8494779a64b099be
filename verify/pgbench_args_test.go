package verify

import (
	"strings"
	"testing"

	"github.com/pgbufsim/pgbufsim/pgbench"
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

func TestPgbenchStepArgs(t *testing.T) {
	sub, scale, ff, _, err := parsePgbenchStep(pgbenchStep("init", "scale=10"))
	require.NoError(t, err)
	require.Equal(t, "init", sub)
	require.Equal(t, []string{"-i", "-s", "10", "-F", "100", "-q"}, pgbenchInitArgs(scale, ff))
	_, _, ff, _, err = parsePgbenchStep(pgbenchStep("init", "scale=5", "fillfactor=90"))
	require.NoError(t, err)
	require.Equal(t, 90, ff)

	sub, _, _, run, err := parsePgbenchStep(pgbenchStep("run", "transactions=20000", "builtin=select-only", "seed=3"))
	require.NoError(t, err)
	require.Equal(t, "run", sub)
	require.Equal(t, PgbenchRun{Transactions: 20000, Builtin: pgbench.SelectOnly, Seed: 3, Clients: 1}, run)
	require.Equal(t, []string{"-n", "-c", "1", "-j", "1", "-t", "20000", "--random-seed=3", "-b", "select-only"}, pgbenchRunArgs(run))
	_, _, _, run, err = parsePgbenchStep(pgbenchStep("run", "transactions=10", "clients=4"))
	require.NoError(t, err)
	require.Equal(t, []string{"-n", "-c", "4", "-j", "1", "-t", "10", "--random-seed=0", "-b", "tpcb-like"}, pgbenchRunArgs(run))

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "builtin=select"}, `builtin="select"`},
		{[]string{"run", "seed=-1"}, "seed=-1"},
		{[]string{"run", "scale=3"}, "pgbench run does not take scale=3"},
		{[]string{"init", "transactions=3"}, "pgbench init does not take transactions=3"},
		{[]string{"bench"}, "not pgbench bench"},
		{nil, "pgbench init or pgbench run"},
	} {
		_, _, _, _, err := parsePgbenchStep(pgbenchStep(c.args...))
		require.ErrorContains(t, err, c.want)
	}
	require.ErrorContains(t, checkRunParams(15, PgbenchRun{Transactions: 0, Clients: 1}), "transactions=0")
	require.ErrorContains(t, checkRunParams(15, PgbenchRun{Transactions: 1, Clients: 0}), "clients=0")
	require.ErrorContains(t, checkInitParams(18, 0, 100), "scale=0")
	require.NoError(t, checkRunParams(19, PgbenchRun{Transactions: 1, Clients: 1}))
}
