package scenario

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/cluster"
	"github.com/pgbufsim/pgbufsim/pg"
)

// Example: table big rows=131072 tuple_bytes=1832 autovacuum=off
func (e *Env) cmdTable(args []datadriven.CmdArg) (Output, error) {
	if len(args) == 0 || !positional(args[0]) {
		return Output{}, errorf("table: expected a name: table NAME rows=N ...")
	}
	spec := cluster.TableSpec{Name: args[0].Key}
	name := spec.Name
	if _, ok := e.C.Table(name); ok {
		return Output{}, errorf("table %s: relation %q already exists", name, name)
	}
	for _, a := range args[1:] {
		if positional(a) {
			return Output{}, errorf("table %s: unexpected %q (expected key=value)", name, a.Key)
		}
		if a.Key == "columns" {
			spec.Columns = append([]string{}, a.Vals...)
			continue
		}
		val, err := argVal(a)
		if err != nil {
			return Output{}, err
		}
		// num parses a whole number of at least lo; the engine checks the rest of the range.
		num := func(lo int64) (int64, error) {
			n, err := strconv.ParseInt(val, 10, 64)
			if ne, isNum := err.(*strconv.NumError); isNum && ne.Err == strconv.ErrRange && !strings.HasPrefix(val, "-") {
				return 0, &pg.SettingError{Name: a.Key, Value: val, Allowed: fmt.Sprintf("out of range: at most %d (a 64-bit integer); %s", int64(math.MaxInt64), cluster.TableOptionAllowed(a.Key))}
			}
			if err != nil {
				hint := "not a whole number in digits"
				if f, ferr := strconv.ParseFloat(val, 64); ferr == nil && f == math.Trunc(f) && math.Abs(f) < 1e18 {
					hint = fmt.Sprintf("write it in digits (%s=%d)", a.Key, int64(f))
				}
				return 0, &pg.SettingError{Name: a.Key, Value: val, Allowed: hint + "; " + cluster.TableOptionAllowed(a.Key)}
			}
			if n < lo {
				return 0, &pg.SettingError{Name: a.Key, Value: val, Allowed: cluster.TableOptionAllowed(a.Key)}
			}
			return n, nil
		}
		var n int64
		switch a.Key {
		case "rows":
			n, err = num(1)
			spec.Rows = n
		case "pages":
			n, err = num(1)
			spec.Pages = n
		case "tuple_bytes":
			n, err = num(24)
			spec.TupleBytes = int(n)
		case "tuples_per_page":
			n, err = num(1)
			if err == nil && n > 291 {
				err = &pg.SettingError{Name: a.Key, Value: val, Allowed: cluster.TableOptionAllowed(a.Key)}
			}
			spec.TuplesPerPage = int(n)
		case "fillfactor":
			n, err = num(10)
			if err == nil && n > 100 {
				err = &pg.SettingError{Name: a.Key, Value: val, Allowed: cluster.TableOptionAllowed(a.Key)}
			}
			spec.Fillfactor = int(n)
		case "content":
			if val != "x" && val != "md5" {
				err = &pg.SettingError{Name: a.Key, Value: val, Allowed: cluster.TableOptionAllowed(a.Key)}
			}
			spec.Content = val
		case "autovacuum":
			switch val {
			case "on", "true":
				spec.Autovacuum = cluster.Bool(true)
			case "off", "false":
				spec.Autovacuum = cluster.Bool(false)
			default:
				err = &pg.SettingError{Name: a.Key, Value: val, Allowed: "must be on or off"}
			}
		default:
			err = errorf("table %s: unknown option %q (rows, pages, tuple_bytes, columns, tuples_per_page, fillfactor, content, autovacuum)", name, a.Key)
		}
		if err != nil {
			return Output{}, err
		}
	}
	info, err := e.C.CreateTable(spec)
	if err != nil {
		return Output{}, err
	}
	text := fmt.Sprintf("ok: %d bytes a tuple, %d tuples a page, hole %d bytes", info.TupleBytes, info.TuplesPerPage, info.Hole)
	return Output{Text: text, JSON: map[string]any{"tuple_bytes": info.TupleBytes, "tuples_per_page": info.TuplesPerPage}, Result: info}, nil
}
