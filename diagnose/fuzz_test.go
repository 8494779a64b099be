package diagnose

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzDiagnose: any bytes as a plan, a settings file and a buffercache
// export: an error or an answer, never a panic; a plan that parses is
// diagnosed (without the simulations, which TestCorpus and the seed tests run).
func FuzzDiagnose(f *testing.F) {
	for _, glob := range []string{"testdata/pg15/*.json", "testdata/pg18/*_scan*.json", "testdata/seeds/*.json", "testdata/*/*.txt"} {
		files, _ := filepath.Glob(glob)
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte("name,setting,unit\nshared_buffers,16384,8kB\n"))
	f.Add([]byte("bufferid,relfilenode,isdirty,usagecount\n1,16384,t,5\n"))
	f.Add([]byte(" name | setting | description\n shared_buffers | 128MB | x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		set, _ := ParseSettings("s", data)
		bc, _ := ParseBuffercache("b", data)
		p, err := ParsePlan("p", data)
		if err != nil {
			return
		}
		r, err := Diagnose(&Input{PlanFile: "p", Plan: p, Settings: set, Buffercache: bc, NoSimulate: true})
		if err != nil {
			t.Fatalf("a parsed plan must diagnose: %v", err)
		}
		var sb discard
		r.WriteText(&sb)
	})
}

type discard struct{}

func (discard) Write(b []byte) (int, error) { return len(b), nil }
