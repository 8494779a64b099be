package scenario

import (
	"errors"
	"regexp"
	"strings"
	"testing"
)

// FuzzParse: any bytes give a parsed scenario or an error that names the
// file and line ("fuzz.scn:N: …", N a line of the input) — never a panic —
// and a parsed scenario rewritten with its own expected blocks reads back to
// the same commands.
func FuzzParse(f *testing.F) {
	f.Add("cluster version=18\nscan t\n----\nok\n")
	f.Add("table t rows=10 columns=(int4, text:10)\n# comment\n\nshow buffercache t\n----\n----\na\n\nb\n----\n----\n")
	f.Add("----\n")
	f.Add("index_scan i key=\"unterminated\n")
	lineRe := regexp.MustCompile(`^fuzz\.scn:(\d+): `)
	f.Fuzz(func(t *testing.T, src string) {
		file, err := Parse("fuzz.scn", src)
		if err != nil {
			var se *Error
			if !errors.As(err, &se) || !lineRe.MatchString(err.Error()) {
				t.Fatalf("error without file:line: %v", err)
			}
			if se.Line < 1 || se.Line > strings.Count(src, "\n")+1 {
				t.Fatalf("error names line %d of a %d-line input", se.Line, strings.Count(src, "\n")+1)
			}
			return
		}
		outs := make([]string, len(file.Steps))
		for i, st := range file.Steps {
			outs[i] = "ok"
			if st.Expected != nil && *st.Expected != "" && !strings.Contains(*st.Expected, "----") {
				outs[i] = *st.Expected
			}
		}
		again, err := Parse("fuzz.scn", file.Rewrite(outs))
		if err != nil {
			t.Fatalf("rewritten file does not parse: %v", err)
		}
		if len(again.Steps) != len(file.Steps) {
			t.Fatalf("rewritten file has %d commands, the original %d", len(again.Steps), len(file.Steps))
		}
		for i := range again.Steps {
			if again.Steps[i].Cmd != file.Steps[i].Cmd {
				t.Fatalf("command %d: %q became %q", i, file.Steps[i].Cmd, again.Steps[i].Cmd)
			}
		}
	})
}
