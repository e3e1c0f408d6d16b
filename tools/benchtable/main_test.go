package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sample = `goos: linux
BenchmarkStep/units=10000-2   	     300	   3900000 ns/op	         3.90 ms/tick	     120 B/op
BenchmarkStep/units=10000-2   	     300	   3950000 ns/op	         3.95 ms/tick	     120 B/op
BenchmarkSnapshot-2   	     100	   6000000 ns/op	         6.00 ms	0.40 load-before	3.10 load-after
BenchmarkDiscovery 1 0.42 s
PASS
`

func TestTable(t *testing.T) {
	targets := filepath.Join(t.TempDir(), "targets.txt")
	os.WriteFile(targets, []byte(`# comment
BenchmarkStep/units=10000  ms/tick  <=  4    tick, 10k units
BenchmarkSnapshot          ms       <=  5    snapshot
BenchmarkDiscovery         s        <=  1    discovery
BenchmarkRender            fps      >=  60   render
`), 0o644)
	ts, err := readTargets(targets)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	busyLoad = 1.5
	missed := printTable(&out, parseBench(strings.NewReader(sample)), ts)
	got := out.String()
	for _, want := range []string{
		"BenchmarkStep/units=10000  ms/tick  3.95", // the last run wins, suffix -2 gone
		"MISSED", "NOT RUN", "met",
		"0.40→3.10 busy", // the load column, not two metrics
	} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "load-before") {
		t.Errorf("the load is printed as a metric:\n%s", got)
	}
	if missed != 2 { // snapshot too slow, render not run
		t.Errorf("missed = %d, want 2\n%s", missed, got)
	}
}

func TestBadTargets(t *testing.T) {
	for _, line := range []string{"BenchmarkX ms", "BenchmarkX ms == 4", "BenchmarkX ms <= four"} {
		p := filepath.Join(t.TempDir(), "t.txt")
		os.WriteFile(p, []byte(line+"\n"), 0o644)
		if _, err := readTargets(p); err == nil {
			t.Errorf("%q: want an error", line)
		}
	}
}
