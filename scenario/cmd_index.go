package scenario

import (
	"strconv"
	"strings"

	"github.com/cockroachdb/datadriven"
	"github.com/pgbufsim/pgbufsim/cluster"
)

// Example: index big_id on=big key=id
func (e *Env) cmdIndex(args []datadriven.CmdArg) (Output, error) {
	if len(args) == 0 || !positional(args[0]) {
		return Output{}, errorf("index: expected a name: index NAME on=TABLE [key=id]")
	}
	spec := cluster.IndexSpec{Name: args[0].Key}
	name := spec.Name
	if _, ok := e.C.Index(name); ok {
		return Output{}, errorf("index %s: relation %q already exists", name, name)
	}
	if _, ok := e.C.Table(name); ok {
		return Output{}, errorf("index %s: relation %q already exists", name, name)
	}
	for _, a := range args[1:] {
		v, err := argVal(a)
		if err != nil {
			return Output{}, err
		}
		switch a.Key {
		case "on":
			if _, ok := e.C.Table(v); !ok {
				return Output{}, errorf("index %s: relation %q does not exist", name, v)
			}
			spec.Table = v
		case "key":
			spec.Column = v
		case "distinct":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 1 {
				return Output{}, errorf("index %s: distinct=%s: expected the number of distinct key values, at least 1", name, v)
			}
			spec.Distinct = n
		case "unique":
			switch strings.ToLower(v) {
			case "on", "true":
				spec.Unique = true
			case "off", "false":
				spec.Unique = false
			default:
				return Output{}, errorf("index %s: unique=%s: expected on or off", name, v)
			}
		case "values":
			if v != "hashint4" {
				return Output{}, errorf("index %s: values=%s: expected hashint4 (each row's key is hashint4(id))", name, v)
			}
			spec.Values = v
		case "correlation":
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || f < -1 || f > 1 {
				return Output{}, errorf("index %s: correlation=%s: expected a number from -1 to 1 (pg_stats.correlation)", name, v)
			}
			spec.Correlation = &f
		default:
			return Output{}, errorf("index %s: unknown option %q (on, key, unique, distinct, correlation, values)", name, a.Key)
		}
	}
	return stmt(e.C.CreateIndex(spec))
}

// Example: index_scan big_id from=1 to=40000
func (e *Env) cmdIndexScan(args []datadriven.CmdArg) (Output, error) {
	if len(args) == 0 || !positional(args[0]) {
		return Output{}, errorf("index_scan: expected an index name: index_scan INDEX key=K | from=A to=B")
	}
	name := args[0].Key
	ix, ok := e.C.Index(name)
	if !ok {
		return Output{}, errorf("index_scan %s: index %q does not exist", name, name)
	}
	q := cluster.IndexQuery{From: -1, To: -1}
	for _, a := range args[1:] {
		v, err := argVal(a)
		if err != nil {
			return Output{}, err
		}
		if a.Key == "order" {
			switch v {
			case "index":
				q.Sorted = false
			case "sorted":
				q.Sorted = true
			default:
				return Output{}, errorf("index_scan %s: order=%s: expected index or sorted", name, v)
			}
			continue
		}
		switch a.Key {
		case "key", "from", "to", "rows", "pages":
		default:
			return Output{}, errorf("index_scan %s: unknown option %q (key, from, to, rows, pages, order)", name, a.Key)
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return Output{}, errorf("index_scan %s: %s=%s: expected a whole number in digits", name, a.Key, v)
		}
		switch a.Key {
		case "key":
			q.From, q.To = n, n
		case "from":
			q.From = n
		case "to":
			q.To = n
		case "rows", "pages":
			if ix.Column == "id" {
				return Output{}, errorf("index_scan %s: %s=: the rows of an id index follow from the table's layout; rows= and pages= declare another key's", name, a.Key)
			}
			if n < 1 {
				return Output{}, errorf("index_scan %s: %s=%d: expected at least 1", name, a.Key, n)
			}
			if a.Key == "rows" {
				q.Rows = n
			} else {
				q.Pages = n
			}
		default:
			return Output{}, errorf("index_scan %s: unknown option %q (key, from, to, rows, pages, order)", name, a.Key)
		}
	}
	return stmt(e.C.IndexScan(name, q))
}
