package diagnose

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A --settings file that holds no PostgreSQL setting is refused, naming what
// it read, instead of being ignored (the report would then say "give
// --settings" of a file it was given).
func TestSettingsFileWithoutSettings(t *testing.T) {
	_, err := ParseSettings("s.txt", []byte("hello world\nfoo bar\n"))
	require.EqualError(t, err, `s.txt: no PostgreSQL setting in it (read 2 names, such as "foo"); expected SHOW ALL output, a pg_settings CSV or postgresql.conf lines`)
	_, err = ParseSettings("s.txt", []byte("colour = blue\n"))
	require.EqualError(t, err, `s.txt: no PostgreSQL setting in it (read 1 name, such as "colour"); expected SHOW ALL output, a pg_settings CSV or postgresql.conf lines`)
	_, err = ParseSettings("s.txt", []byte("shared_buffers is 128MB\n"))
	require.EqualError(t, err, "s.txt:1: cannot read \"shared_buffers is 128MB\": expected `name = value` (postgresql.conf), `name | setting | description` (SHOW ALL) or a pg_settings CSV with a header")
	m, err := ParseSettings("s.txt", []byte("shared_buffers: 128MB\n"))
	require.NoError(t, err)
	require.Equal(t, "128MB", m["shared_buffers"])
	// A real server's setting the simulator does not model still makes it a settings file.
	m, err = ParseSettings("s.txt", []byte("work_mem = 4MB\n"))
	require.NoError(t, err)
	require.Equal(t, "4MB", m["work_mem"])
	// Given, but without shared_buffers: the note says the file lacks it.
	f := &facts{in: &Input{Settings: m}}
	require.Equal(t, "the --settings file has no shared_buffers; give --buffercache", f.giveSettings("shared_buffers", "--buffercache"))
	f = &facts{in: &Input{}}
	require.Equal(t, "give --settings or --buffercache", f.giveSettings("shared_buffers", "--buffercache"))
	require.Equal(t, "give --settings", f.giveSettings("data_checksums"))
}
