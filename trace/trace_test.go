package trace

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func readAll(t *testing.T, o *OracleReader) ([]Record, error) {
	var all []Record
	buf := make([]Record, 3) // small batches: records straddle reads
	for {
		n, err := o.Read(buf)
		all = append(all, buf[:n]...)
		if err == io.EOF {
			return all, nil
		}
		if err != nil {
			return all, err
		}
	}
}

// Records written are read back unchanged; NextAccess links each request to
// the same object's next one: ids 5 7 5 5 7 9 → next 2 4 3 −1 −1 −1.
func TestOracleRoundTrip(t *testing.T) {
	ids := []uint64{5, 7, 5, 5, 7, 9}
	recs := make([]Record, len(ids))
	for i, id := range ids {
		recs[i] = Record{Time: uint32(i), ObjID: id, Size: 8192}
	}
	SetNextAccess(recs)
	require.Equal(t, []int64{2, 4, 3, -1, -1, -1}, []int64{recs[0].NextAccess, recs[1].NextAccess, recs[2].NextAccess, recs[3].NextAccess, recs[4].NextAccess, recs[5].NextAccess})
	var b bytes.Buffer
	require.NoError(t, WriteOracle(&b, recs))
	require.Equal(t, len(ids)*RecordSize, b.Len())
	got, err := readAll(t, NewOracleReader("t", &b))
	require.NoError(t, err)
	require.Equal(t, recs, got)
}

// A file cut 10 bytes into its fifth record: 4 whole records are read, then
// the error names offset 4·24 = 96 and the 10 bytes found.
func TestOracleTruncated(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteOracle(&b, make([]Record, 5)))
	cut := b.Bytes()[:4*RecordSize+10]
	got, err := readAll(t, NewOracleReader("x.oracleGeneral", bytes.NewReader(cut)))
	require.Len(t, got, 4)
	require.EqualError(t, err, "x.oracleGeneral: truncated oracleGeneral trace: the record at byte offset 96 has 10 of its 24 bytes (file size 106 is not a multiple of 24)")
}

func TestCSV(t *testing.T) {
	src := "relation,block,op\nbig,3\n\n# comment\nhot,0,write\nbig,4294967294,read\n"
	c := NewCSVReader("t.csv", strings.NewReader(src))
	var got []Access
	for {
		a, err := c.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		got = append(got, a)
	}
	require.Equal(t, []Access{{2, "big", 3, false}, {5, "hot", 0, true}, {6, "big", 4294967294, false}}, got)

	for src, want := range map[string]string{
		"big,3\nbig\n":        `t.csv:2: "big": expected relation,block or relation,block,op`,
		"big,-1\n":            `t.csv:1: "big,-1": block must be a block number from 0 to 4294967294`,
		"a,1\nb,2\nc,3,del\n": `t.csv:3: "c,3,del": op "del": must be read or write`,
		",4\n":                `t.csv:1: ",4": empty relation name`,
	} {
		c := NewCSVReader("t.csv", strings.NewReader(src))
		var err error
		for err == nil {
			_, err = c.Next()
		}
		require.EqualError(t, err, want)
	}
}

func TestParseFormat(t *testing.T) {
	f, err := ParseFormat("oracleGeneral")
	require.NoError(t, err)
	require.Equal(t, OracleGeneral, f)
	_, err = ParseFormat("parquet")
	require.EqualError(t, err, "format=parquet: unknown trace format (oraclegeneral or csv)")
}
