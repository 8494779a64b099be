package trace

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
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

// ReadIDs returns the object ids Read returns, batch for batch, with the
// same counts and errors, on random traces (a truncated last record
// included) and batch sizes.
func TestReadIDsMatchesRead(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for round := 0; round < 50; round++ {
		recs := make([]Record, r.IntN(3000))
		for i := range recs {
			recs[i] = Record{Time: uint32(i), ObjID: r.Uint64(), Size: 8192, NextAccess: -1}
		}
		var b bytes.Buffer
		if err := WriteOracle(&b, recs); err != nil {
			t.Fatal(err)
		}
		raw := b.Bytes()
		if r.IntN(3) == 0 && len(raw) > 0 {
			raw = raw[:len(raw)-1-r.IntN(RecordSize-1)]
		}
		size, batch := 1+r.IntN(700), 1+r.IntN(700)
		a, c := NewOracleReaderSize("t", bytes.NewReader(raw), size), NewOracleReaderSize("t", bytes.NewReader(raw), size)
		got, ids := make([]Record, batch), make([]uint64, batch)
		for {
			n, err := a.Read(got)
			m, err2 := c.ReadIDs(ids)
			if n != m || fmt.Sprint(err) != fmt.Sprint(err2) {
				t.Fatalf("round %d: Read %d, %v; ReadIDs %d, %v", round, n, err, m, err2)
			}
			for i := 0; i < n; i++ {
				if got[i].ObjID != ids[i] {
					t.Fatalf("round %d: record %d: id %d, ReadIDs %d", round, i, got[i].ObjID, ids[i])
				}
			}
			if err != nil {
				break
			}
		}
	}
}
