package scenario

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/cockroachdb/datadriven"
)

// NameDataLen is NAMEDATALEN (pg_config_manual.h): an identifier keeps at
// most NameDataLen-1 = 63 bytes.
const NameDataLen = 64

// identifierArgs are, by command, the arguments that are SQL identifiers
// (relation names): the first positional word ("" below), every
// positional word after the first ("*"), or a key's value.
var identifierArgs = map[string][]string{
	"table": {""}, "insert": {""}, "copy": {""}, "truncate": {""}, "evict": {""},
	"scan": {""}, "vacuum": {""}, "analyze": {""}, "index_scan": {""},
	"index": {"", "on"}, "show": {"*"}, "replay": {"relation"},
}

// truncateIdentifier models truncate_identifier (scansup.c): an identifier
// of NAMEDATALEN bytes or more is cut to 63 bytes at a character boundary
// (pg_mbcliplen), with the NOTICE PostgreSQL gives.
func truncateIdentifier(id string) (string, string) {
	if len(id) < NameDataLen {
		return id, ""
	}
	n := NameDataLen - 1
	for n > 0 && !utf8.RuneStart(id[n]) {
		n--
	}
	shown := id
	if len(id) > 200 {
		shown = fmt.Sprintf("%s…(%d bytes)", id[:n], len(id))
	}
	return id[:n], fmt.Sprintf("NOTICE:  identifier %q will be truncated to %q", shown, id[:n])
}

// identifiers refuses a NUL byte anywhere in a command (PostgreSQL refuses
// one in a query's text) and a key given twice, and truncates the command's identifiers as
// PostgreSQL does; it returns the arguments to run and the notices.
func identifiers(cmd string, args []datadriven.CmdArg) ([]datadriven.CmdArg, []string, error) {
	for _, a := range args {
		for _, s := range append([]string{a.Key}, a.Vals...) {
			if strings.IndexByte(s, 0) >= 0 {
				return nil, nil, fmt.Errorf("%s: invalid byte sequence for encoding \"UTF8\": 0x00 (a NUL byte in %q; PostgreSQL refuses one anywhere in a statement)", cmd, s)
			}
		}
	}
	first := map[string]string{}
	words := map[string]bool{}
	for _, a := range args {
		if positional(a) {
			if words[a.Key] && cmd != "show" {
				return nil, nil, fmt.Errorf("%s: %q given twice on one line; give it once", cmd, a.Key)
			}
			words[a.Key] = true
			continue
		}
		v := strings.Join(a.Vals, ",")
		if f, dup := first[a.Key]; dup {
			what := "option"
			if cmd == "cluster" || cmd == "set" {
				what = "setting"
			}
			return nil, nil, fmt.Errorf("%s=%s: given twice on one line (first as %s=%s); give each %s once", a.Key, v, a.Key, f, what)
		}
		first[a.Key] = v
	}
	which, ok := identifierArgs[cmd]
	if !ok {
		return args, nil, nil
	}
	var notices []string
	out := append([]datadriven.CmdArg(nil), args...)
	trunc := func(s string) string {
		t, notice := truncateIdentifier(s)
		if notice != "" {
			notices = append(notices, notice)
		}
		return t
	}
	for i := range out {
		a := &out[i]
		for _, w := range which {
			switch {
			case w == "" && i == 0 && positional(*a):
				a.Key = trunc(a.Key)
			case w == "*" && i > 0 && positional(*a):
				a.Key = trunc(a.Key)
			case w != "" && w != "*" && a.Key == w && len(a.Vals) == 1:
				a.Vals = []string{trunc(a.Vals[0])}
			}
		}
	}
	return out, notices, nil
}
