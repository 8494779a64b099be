package verify

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/pgbufsim/pgbufsim/heap"
	"github.com/pgbufsim/pgbufsim/nbtree"
	"github.com/pgbufsim/pgbufsim/scenario"
)

// table is a scenario table's SQL: columns whose heap tuples have the
// simulated length, and the expressions INSERT … SELECT generates rows with.
type table struct {
	name     string
	cols     []string // column definitions
	exprs    []string // one per column; g is the generate_series value (the implicit id)
	plain    []string // varlena columns stored PLAIN: never compressed or moved out of line
	with     []string // storage parameters
	declared int64    // rows an `insert` loads by default
	next     int64    // the next id
	fields   []string // COPY text-format fields; "g" is the id, "md5" the md5 pad of the row
	rel      *heap.Relation
}

// plainIfLong sets STORAGE PLAIN on a varlena column whose values are too
// long for a 1-byte header (more than 126 bytes of data), so that no row of
// more than TOAST_TUPLE_THRESHOLD is compressed and the simulated length
// holds. Shorter values keep the default storage: with PLAIN, COPY would
// store them with 4-byte headers (heap_fill_tuple packs only packable
// columns), where INSERT … SELECT stores 1-byte ones (its projection's
// descriptor has text's own storage), and the two loads would differ — as
// they do not on an ordinary table.
func (t *table) plainIfLong(col, n string) {
	if v, err := strconv.Atoi(n); err == nil && v > 126 {
		t.plain = append(t.plain, col)
	}
}

// heapTupleHeader is MAXALIGN(SizeofHeapTupleHeader) for a row without nulls.
const heapTupleHeader = 24

// newTable derives the SQL for a `table` command from the simulator's shape:
// columns=(…) become those columns; otherwise (id int4, pad text) with pad's
// length chosen so the tuple has the simulated length (a 1-byte varlena
// header up to 126 bytes, else a 4-byte header at int alignment: 32 + length).
func newTable(st *step, env *scenario.Env) (*table, error) {
	name := st.args[0].Key
	rel, ok := env.C.Relation(name)
	if !ok {
		return nil, fmt.Errorf("table %s: unknown to the simulator", name)
	}
	t := &table{name: name, declared: rel.Declared, next: 1}
	var columns []string
	for _, a := range st.args[1:] {
		switch a.Key {
		case "columns":
			columns = a.Vals
		case "fillfactor":
			t.with = append(t.with, "fillfactor="+a.Vals[0])
		case "autovacuum":
			if v := a.Vals[0]; v == "off" || v == "false" {
				t.with = append(t.with, "autovacuum_enabled=off")
			}
		}
	}
	if columns != nil {
		idDone := false
		for i, c := range columns {
			typ, n, _ := strings.Cut(strings.TrimSpace(c), ":")
			col := fmt.Sprintf("c%d", i+1)
			var expr string
			switch typ {
			case "int2", "int4", "int", "integer", "int8", "bigint":
				expr = "0"
				if !idDone {
					expr, idDone = "g", true
				}
			case "float8":
				expr = "0"
			case "bool", "boolean":
				expr = "true"
			case "date":
				expr = "'2000-01-01'"
			case "timestamp", "timestamptz":
				expr = "'2000-01-01 00:00:00'"
			case "uuid":
				expr = "'00000000-0000-0000-0000-000000000000'"
			case "text", "varchar":
				expr = "repeat('x', " + n + ")"
				t.plainIfLong(col, n)
			case "bytea":
				expr = "convert_to(repeat('x', " + n + "), 'UTF8')"
				t.plainIfLong(col, n)
			default:
				return nil, fmt.Errorf("table %s: no SQL translation for the column type %q", name, typ)
			}
			t.cols = append(t.cols, col+" "+typ)
			t.exprs = append(t.exprs, expr)
			t.fields = append(t.fields, copyField(expr, typ, n))
		}
		return t, nil
	}
	tlen := rel.Shape.TupleLen
	t.cols, t.exprs = []string{"id int4"}, []string{"g"}
	t.fields = []string{"g"}
	if pad := rel.PadLen(); pad >= 0 {
		t.cols = append(t.cols, "pad text")
		t.plainIfLong("pad", strconv.Itoa(pad))
		if rel.Content == "md5" {
			t.exprs = append(t.exprs, fmt.Sprintf("rpad(md5(g::text), %d, md5((g+7)::text))", pad))
			t.fields = append(t.fields, "md5")
			t.rel = rel
		} else {
			t.exprs = append(t.exprs, "repeat('x', "+strconv.Itoa(pad)+")")
			t.fields = append(t.fields, strings.Repeat("x", pad))
		}
	} else if tlen != 28 {
		return nil, fmt.Errorf("table %s: no SQL translation for a %d-byte tuple: (id int4, pad text) gives 28, 29 to 155, or 159 and more bytes", name, tlen)
	}
	return t, nil
}

// copyField is a column's value in COPY's text format, matching the INSERT expression.
func copyField(expr, typ, n string) string {
	switch typ {
	case "text", "varchar":
		l, _ := strconv.Atoi(n)
		return strings.Repeat("x", l)
	case "bytea":
		l, _ := strconv.Atoi(n)
		return `\\x` + strings.Repeat("78", l)
	case "bool", "boolean":
		return "t"
	}
	return strings.Trim(expr, "'")
}

// copyData is rows from..to in COPY's text format.
func (t *table) copyData(from, to int64) io.Reader {
	var b strings.Builder
	for id := from; id <= to; id++ {
		for i, f := range t.fields {
			if i > 0 {
				b.WriteByte('\t')
			}
			if f == "g" {
				b.WriteString(strconv.FormatInt(id, 10))
			} else if f == "md5" {
				b.Write(t.rel.PadText(id))
			} else if f == "hashint4" {
				b.WriteString(strconv.FormatInt(nbtree.RowKey(id), 10))
			} else {
				b.WriteString(f)
			}
		}
		b.WriteByte('\n')
	}
	return strings.NewReader(b.String())
}

// actCreate: CREATE TABLE, varlena columns set to PLAIN storage.
func (t *table) actCreate(r *runner) action {
	return func(ctx context.Context, st *step) error {
		sql := fmt.Sprintf("CREATE TABLE %s (%s)", t.name, strings.Join(t.cols, ", "))
		if len(t.with) > 0 {
			sql += " WITH (" + strings.Join(t.with, ", ") + ")"
		}
		return r.session(ctx, func(conn *pgx.Conn) error {
			if _, err := conn.Exec(ctx, sql); err != nil {
				return err
			}
			for _, c := range t.plain {
				if _, err := conn.Exec(ctx, fmt.Sprintf("ALTER TABLE %s ALTER COLUMN %s SET STORAGE PLAIN", t.name, c)); err != nil {
					return err
				}
			}
			return nil
		})
	}
}
