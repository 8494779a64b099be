package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// cpuTime is the process's user + system CPU time in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkExamples runs every shipped example end to end as `pgbufsim run
// FILE` does (read, parse, every command, the text output), one op a whole
// file: the figures the README quotes for the examples come from
//
//	go test ./cmd/pgbufsim -run '^$' -bench Examples -count 10
//
// A sub-benchmark is the file's path under examples/ ("ring-flood",
// "lessons/1-clock-sweep"). cpu-ms/op is the process's CPU time (user +
// system) per run, steadier than the wall clock on a shared machine.
func BenchmarkExamples(b *testing.B) {
	var files []string
	for _, pat := range []string{"../../examples/*.scn", "../../examples/*/*.scn"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		b.Fatal("no examples")
	}
	for _, path := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.ToSlash(path), "../../examples/"), ".scn")
		b.Run(name, func(b *testing.B) {
			var out, errb bytes.Buffer
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				out.Reset()
				errb.Reset()
				if code := run(context.Background(), []string{"run", path}, &out, &errb); code != 0 {
					b.Fatalf("%s: exit %d: %s", path, code, errb.String())
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
			b.ReportMetric(float64(out.Len()), "output_bytes")
		})
	}
}
