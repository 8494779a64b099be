package pgbench

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

// TestInitSQLAsLogged compares InitSQL with what each server logged
// (log_statement = all) for `pgbench -i -s 2 -F 90 -q` and `pgbench -i -s 1 -q`.
func TestInitSQLAsLogged(t *testing.T) {
	for _, v := range []int{15, 18, 19} {
		for _, c := range []struct {
			file          string
			scale, ffactr int
		}{{"s2_F90", 2, 90}, {"s1", 1, 100}} {
			var logged []string
			for _, l := range readLines(t, fmt.Sprintf("testdata/init/pg%d_%s.log", v, c.file)) {
				l, ok := strings.CutPrefix(l, "statement: ")
				if !ok {
					l, ok = strings.CutPrefix(l, "execute <unnamed>: ")
				}
				if !ok {
					t.Fatalf("pg%d %s: unexpected log line %q", v, c.file, l)
				}
				logged = append(logged, l)
			}
			got, err := InitSQL(v, c.scale, c.ffactr)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "\n") != strings.Join(logged, "\n") {
				t.Errorf("pg%d -s %d -F %d:\n%s\nthe server logged\n%s", v, c.scale, c.ffactr, strings.Join(got, "\n"), strings.Join(logged, "\n"))
			}
		}
	}
	// 16 inserts like 15, 17 copies like 18 (read in pgbench.c: commit
	// e35cc3b3f2 "pgbench: Use COPY for client-side data generation" is in 17).
	a, _ := InitSQL(16, 2, 90)
	b, _ := InitSQL(15, 2, 90)
	c, _ := InitSQL(17, 2, 90)
	d, _ := InitSQL(18, 2, 90)
	if strings.Join(a, "\n") != strings.Join(b, "\n") || strings.Join(c, "\n") != strings.Join(d, "\n") {
		t.Error("16 should send 15's statements and 17 18's")
	}
	// From scale 20000 aid is a bigint (SCALE_32BIT_THRESHOLD).
	big, _ := InitSQL(18, 20000, 100)
	if big[1] != "create table pgbench_history(tid int,bid int,aid bigint,delta int,mtime timestamp,filler char(22))" ||
		big[3] != "create table pgbench_accounts(aid bigint not null,bid int,abalance int,filler char(84)) with (fillfactor=100)" {
		t.Errorf("scale 20000: %q %q", big[1], big[3])
	}
	steps, _ := Init(15, 3, 100)
	var rows int64
	for _, s := range steps {
		if s.Kind == Copy || s.Kind == Insert {
			rows += s.Rows
		}
	}
	if rows != 300000+30+3 {
		t.Errorf("scale 3 loads %d rows, want 300033", rows)
	}
}

// measured is one server's testdata/init/pgNN_measure.txt.
type measured struct {
	pages  map[[2]int]map[string]int64 // {scale, fillfactor}: relation: main-fork pages
	rowLen map[string]int              // relation: pg_column_size of a row
	row20k map[string]int              // the same at scale 20000 (bigint aid)
	vm     map[string][3]int64         // all_visible, all_frozen, pages (after -s 20 -F 50)
}

func readMeasured(t *testing.T, v int) measured {
	m := measured{pages: map[[2]int]map[string]int64{}, rowLen: map[string]int{}, row20k: map[string]int{}, vm: map[string][3]int64{}}
	var cur [2]int
	atoi := func(s string) int64 {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("pg%d measure: %v", v, err)
		}
		return n
	}
	for _, l := range readLines(t, fmt.Sprintf("testdata/init/pg%d_measure.txt", v)) {
		f := strings.Fields(l)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		switch f[0] {
		case "scale":
			cur = [2]int{int(atoi(f[1])), int(atoi(f[3]))}
			m.pages[cur] = map[string]int64{}
		case "pages":
			m.pages[cur][f[1]] = atoi(f[2])
		case "row":
			m.rowLen[f[1]] = int(atoi(f[2]))
		case "row20000":
			m.row20k[f[1]] = int(atoi(f[2]))
		case "vm":
			m.vm[f[1]] = [3]int64{atoi(f[2]), atoi(f[3]), atoi(f[4])}
		}
	}
	return m
}

// TestTablesAsMeasured holds Tables' tuple lengths, heap page counts and
// frozen loads to what the servers built (pg_column_size of a row,
// pg_relation_size after -i at scale 1, 5, 10 and 20 with fillfactor 100, 90
// and 50, pg_visibility_map after the load).
func TestTablesAsMeasured(t *testing.T) {
	for _, v := range []int{15, 18, 19} {
		m := readMeasured(t, v)
		if len(m.pages) != 6 || len(m.rowLen) != 4 || len(m.vm) != 3 {
			t.Fatalf("pg%d: measurements incomplete: %d inits, %d rows, %d vm", v, len(m.pages), len(m.rowLen), len(m.vm))
		}
		for sf, rels := range m.pages {
			ts, err := Tables(v, sf[0], sf[1])
			if err != nil {
				t.Fatal(err)
			}
			for _, tb := range ts {
				want, ok := rels[tb.Name]
				if !ok {
					t.Fatalf("pg%d %v: no measurement of %s", v, sf, tb.Name)
				}
				if tb.Pages() != want {
					t.Errorf("pg%d -s %d -F %d: %s %d pages (%d rows a page), the server %d", v, sf[0], sf[1], tb.Name, tb.Pages(), tb.RowsPerPage(), want)
				}
				if _, ok := rels[tb.Index]; tb.Key != "" && !ok {
					t.Errorf("pg%d: no index %s measured", v, tb.Index)
				}
				if sf == [2]int{20, 50} && tb.Loader != NoLoad {
					vm := m.vm[tb.Name]
					if vm[0] != vm[2] || (vm[1] == vm[2]) != tb.Frozen {
						t.Errorf("pg%d %s: Frozen %v, the visibility map %v (all_visible all_frozen pages)", v, tb.Name, tb.Frozen, vm)
					}
				}
			}
		}
		ts, _ := Tables(v, 1, 100)
		for _, tb := range ts {
			if tb.TupleLen != m.rowLen[tb.Name] {
				t.Errorf("pg%d %s: TupleLen %d, pg_column_size %d", v, tb.Name, tb.TupleLen, m.rowLen[tb.Name])
			}
		}
		if len(m.row20k) > 0 {
			ts, _ := Tables(v, 20000, 100)
			for _, tb := range ts {
				if want, ok := m.row20k[tb.Name]; ok && tb.TupleLen != want {
					t.Errorf("pg%d scale 20000 %s: TupleLen %d, pg_column_size %d", v, tb.Name, tb.TupleLen, want)
				}
			}
		}
	}
}

// Hand-derived: an accounts row is a 23-byte header MAXALIGNed to 24, then
// aid, bid, abalance (12 bytes) and the 84 blanks with a 1-byte varlena
// header (85), 121 in all; on the page MAXALIGN(121) = 128 plus a 4-byte
// line pointer, so (8192 - 24) / 132 = 61 rows a page and 1,000,000 rows
// (scale 10) take 16,394 pages.
func TestAccountsByHand(t *testing.T) {
	ts, _ := Tables(15, 10, 100)
	a := ts[2]
	if a.Name != "pgbench_accounts" || a.TupleLen != 121 || a.RowsPerPage() != 61 || a.Pages() != 16394 || a.Rows != 1000000 {
		t.Fatalf("%s: t_len %d, %d a page, %d pages, %d rows", a.Name, a.TupleLen, a.RowsPerPage(), a.Pages(), a.Rows)
	}
}

func TestInitBadInput(t *testing.T) {
	for _, c := range []struct {
		v, s, f int
		want    string
	}{{15, 0, 100, "scale=0"}, {15, 1, 9, "fillfactor=9"}, {15, 1, 101, "fillfactor=101"}, {13, 1, 100, "version 13"}} {
		_, err1 := InitSQL(c.v, c.s, c.f)
		_, err2 := Tables(c.v, c.s, c.f)
		for _, err := range []error{err1, err2} {
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%+v: error %v, want one naming %q", c, err, c.want)
			}
		}
	}
}
