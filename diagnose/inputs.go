package diagnose

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/pgbufsim/pgbufsim/guc"
)

// ParseSettings reads the server's settings in any of the forms a DBA has at
// hand: psql's `SHOW ALL` (name | setting | description), a pg_settings CSV
// export with a header naming `name` and `setting` (and `unit`, applied), a
// JSON object of name → value, or postgresql.conf lines `name = value`.
// Values come back in PostgreSQL's own notation ("128MB", "1h", "on").
func ParseSettings(file string, data []byte) (map[string]string, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, &InputError{file, "empty settings file; save SHOW ALL or SELECT name, setting, unit FROM pg_settings"}
	}
	out := map[string]string{}
	if data[0] == '{' {
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			return nil, &InputError{file, fmt.Sprintf("not a JSON object of settings: %v", err)}
		}
		for k, v := range m {
			out[strings.ToLower(k)] = withUnit(fmt.Sprint(v), "")
		}
		return out, nil
	}
	lines := strings.Split(string(data), "\n")
	first := strings.ToLower(strings.TrimSpace(lines[0]))
	switch {
	case strings.Contains(first, "|"):
		for i, l := range lines {
			if !strings.Contains(l, "|") {
				continue // the dashed rule, "(N rows)"
			}
			f := strings.Split(l, "|")
			name := strings.ToLower(strings.TrimSpace(f[0]))
			if i == 0 && name == "name" {
				continue
			}
			if len(f) < 2 || name == "" {
				return nil, &InputError{fmt.Sprintf("%s:%d", file, i+1), "expected `name | setting | description` (psql's SHOW ALL)"}
			}
			out[name] = withUnit(strings.TrimSpace(f[1]), "")
		}
	case strings.Contains(first, ",") && strings.Contains(first, "name") && strings.Contains(first, "setting"):
		err := readCSV(file, data, "", nil, func(get func(string) string) error {
			out[strings.ToLower(get("name"))] = withUnit(get("setting"), get("unit"))
			return nil
		})
		if err != nil {
			return nil, err
		}
	default:
		for i, l := range lines {
			l = strings.TrimSpace(l)
			if j := strings.IndexByte(l, '#'); j >= 0 {
				l = strings.TrimSpace(l[:j])
			}
			if l == "" {
				continue
			}
			name, val, ok := strings.Cut(l, "=")
			if !ok {
				if f := strings.Fields(l); len(f) == 2 {
					// "name value", or "name: value" as YAML-ish notes write it.
					name, val, ok = strings.TrimSuffix(f[0], ":"), f[1], true
				}
			}
			if !ok {
				return nil, &InputError{fmt.Sprintf("%s:%d", file, i+1), fmt.Sprintf("cannot read %q: expected `name = value` (postgresql.conf), `name | setting | description` (SHOW ALL) or a pg_settings CSV with a header", l)}
			}
			out[strings.ToLower(strings.TrimSpace(name))] = withUnit(strings.Trim(strings.TrimSpace(val), "'"), "")
		}
	}
	if len(out) == 0 {
		return nil, &InputError{file, "no settings found"}
	}
	var names []string
	for name := range out {
		if name == "server_version" || name == "server_version_num" || guc.Lookup(name) != nil || guc.NotModelled(name) {
			return out, nil
		}
		names = append(names, name)
	}
	sort.Strings(names)
	return nil, &InputError{file, fmt.Sprintf("no PostgreSQL setting in it (read %d %s, such as %q); expected SHOW ALL output, a pg_settings CSV or postgresql.conf lines", len(names), map[bool]string{true: "name", false: "names"}[len(names) == 1], names[0])}
}

// withUnit turns pg_settings' setting and unit ("16384" and "8kB", or
// "16384 8kB" as one string) into the notation postgresql.conf accepts.
func withUnit(v, unit string) string {
	if unit == "" {
		if f := strings.Fields(v); len(f) == 2 {
			if _, err := strconv.ParseFloat(f[0], 64); err == nil {
				v, unit = f[0], f[1]
			}
		}
	}
	if unit == "" {
		return v
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return v
	}
	switch unit {
	case "8kB":
		return strconv.FormatInt(n*8, 10) + "kB"
	case "16MB": // pre-11 WAL sizes
		return strconv.FormatInt(n*16, 10) + "MB"
	case "B", "kB", "MB", "GB", "TB", "ms", "s", "min", "h", "d":
		return strconv.FormatInt(n, 10) + unit
	}
	return v
}

// ServerVersion is the major version in server_version or
// server_version_num ("18.6", "18beta1", "180006"), or 0.
func ServerVersion(settings map[string]string) int {
	if s := settings["server_version_num"]; len(s) >= 5 {
		if n, err := strconv.Atoi(s); err == nil {
			return n / 10000
		}
	}
	s := settings["server_version"]
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	n, _ := strconv.Atoi(s[:i])
	return n
}

// Buffercache is a pg_buffercache export summarised.
type Buffercache struct {
	NBuffers int
	Used     int
	Dirty    int
	// ByRel is buffers per relation: relname when the export has one (joined
	// with pg_class), else the relfilenode.
	ByRel map[string]int
	Usage [6]int
}

// Largest is the relations holding the most buffers, most first.
func (b *Buffercache) Largest() []string {
	var rels []string
	for r := range b.ByRel {
		rels = append(rels, r)
	}
	sort.Slice(rels, func(i, j int) bool {
		if b.ByRel[rels[i]] != b.ByRel[rels[j]] {
			return b.ByRel[rels[i]] > b.ByRel[rels[j]]
		}
		return rels[i] < rels[j]
	})
	return rels
}

// ParseBuffercache reads `\copy (SELECT * FROM pg_buffercache) TO 'f.csv'
// CSV HEADER` (a relname column, from a join with pg_class, is used when
// present). One row per buffer: the row count is shared_buffers.
func ParseBuffercache(file string, data []byte) (*Buffercache, error) {
	const how = "export with \\copy (SELECT * FROM pg_buffercache) TO 'file.csv' CSV HEADER"
	b := &Buffercache{ByRel: map[string]int{}}
	hasName := false
	err := readCSV(file, data, how, func(col map[string]int, head []string) error {
		for _, need := range []string{"bufferid", "relfilenode", "isdirty", "usagecount"} {
			if _, ok := col[need]; !ok {
				return fmt.Errorf("no %q column in the header %q; %s", need, strings.Join(head, ","), how)
			}
		}
		_, hasName = col["relname"]
		return nil
	}, func(get func(string) string) error {
		b.NBuffers++
		node := get("relfilenode")
		if node == "" {
			return nil // an unused buffer
		}
		b.Used++
		name := node
		if hasName && get("relname") != "" {
			name = get("relname")
		}
		b.ByRel[name]++
		if d := get("isdirty"); d == "t" || d == "true" {
			b.Dirty++
		}
		if u := get("usagecount"); u != "" {
			n, err := strconv.Atoi(u)
			if err != nil || n < 0 || n > 5 {
				return fmt.Errorf("usagecount %q outside the allowed range 0..5", u)
			}
			b.Usage[n]++
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if b.NBuffers < 16 {
		return nil, &InputError{file, fmt.Sprintf("%d buffers: a pg_buffercache export has one row per shared buffer, at least 16", b.NBuffers)}
	}
	return b, nil
}

// readCSV reads a CSV file with a header: header (if set) checks the columns
// (an error names line 1), then row is called for each record with a getter
// by lower-case column name (an error names the record's line). how says how
// to make the file, for a file that is not CSV at all.
func readCSV(file string, data []byte, how string, header func(col map[string]int, head []string) error, row func(get func(string) string) error) error {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	head, err := r.Read()
	if err != nil {
		msg := fmt.Sprintf("not a CSV file (%v)", err)
		if how != "" {
			msg += "; " + how
		}
		return &InputError{file + ":1", msg}
	}
	col := map[string]int{}
	for i, h := range head {
		col[strings.ToLower(strings.TrimSpace(h))] = i
	}
	if header != nil {
		if err := header(col, head); err != nil {
			return &InputError{file + ":1", err.Error()}
		}
	}
	for line := 2; ; line++ {
		rec, err := r.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return &InputError{fmt.Sprintf("%s:%d", file, line), err.Error()}
		}
		get := func(k string) string {
			if i, ok := col[k]; ok && i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		if err := row(get); err != nil {
			return &InputError{fmt.Sprintf("%s:%d", file, line), err.Error()}
		}
	}
}
