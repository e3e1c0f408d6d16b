package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A run with a pass, a failure, a skip by design and a skip for want of a
// tool: the stream shows the failure's output, the summary lists both
// skips with their reasons, and -require-all fails on the second alone.
func TestStreamAndSummary(t *testing.T) {
	in := strings.Join([]string{
		`{"Action":"run","Package":"p","Test":"TestA"}`,
		`{"Action":"pass","Package":"p","Test":"TestA","Elapsed":0.7}`,
		`{"Action":"output","Package":"p","Test":"TestB","Output":"    b_test.go:9: want 2, got 3\n"}`,
		`{"Action":"fail","Package":"p","Test":"TestB"}`,
		`{"Action":"output","Package":"p","Test":"TestSoak","Output":"    soak_test.go:4: opt-in: run with -soak=N\n"}`,
		`{"Action":"output","Package":"p","Test":"TestSoak","Output":"--- SKIP: TestSoak (0.00s)\n"}`,
		`{"Action":"skip","Package":"p","Test":"TestSoak"}`,
		`{"Action":"output","Package":"p","Test":"TestX","Output":"    x_test.go:7: Xvfb is not installed\n"}`,
		`{"Action":"skip","Package":"p","Test":"TestX"}`,
		`{"Action":"fail","Package":"p","Elapsed":1.5}`,
	}, "\n")
	rec := filepath.Join(t.TempDir(), "outcomes")
	var out bytes.Buffer
	if code := stream(strings.NewReader(in), &out, rec, "plain"); code != 1 {
		t.Errorf("stream exit %d, want 1 for a failed test", code)
	}
	for _, want := range []string{"want 2, got 3", "FAIL\tp\t1.500s"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("stream output lacks %q:\n%s", want, out.String())
		}
	}
	for _, tc := range []struct {
		requireAll bool
		want       int
	}{{false, 1}, {true, 1}} {
		var sum bytes.Buffer
		if code := summarize(rec, tc.requireAll, 8, &sum); code != tc.want {
			t.Errorf("summary (require-all %v) exit %d, want %d", tc.requireAll, code, tc.want)
		}
		for _, want := range []string{"  p TestSoak: opt-in: run with -soak=N", "! p TestX: Xvfb is not installed", "1 passed, 1 failed, 1 skipped, 1 not run",
			"slowest packages", "      1.5s p [plain]", "slowest tests", "      0.7s p TestA [plain]"} {
			if !strings.Contains(sum.String(), want) {
				t.Errorf("summary lacks %q:\n%s", want, sum.String())
			}
		}
	}
	// Without the failure, only -require-all fails, and only for TestX.
	clean := strings.ReplaceAll(in, `"Action":"fail","Package":"p","Test":"TestB"`, `"Action":"pass","Package":"p","Test":"TestB"`)
	rec2 := filepath.Join(t.TempDir(), "outcomes")
	stream(strings.NewReader(clean), &bytes.Buffer{}, rec2, "")
	if code := summarize(rec2, false, 8, &bytes.Buffer{}); code != 0 {
		t.Errorf("a run with skips only: exit %d, want 0", code)
	}
	if code := summarize(rec2, true, 8, &bytes.Buffer{}); code != 1 {
		t.Errorf("-require-all with a skip for want of Xvfb: exit %d, want 1", code)
	}
	_ = os.Remove(rec2)
}

// FuzzStream: any input, JSON or not, is printed or skipped, never a crash.
func FuzzStream(f *testing.F) {
	f.Add(`{"Action":"skip","Package":"p","Test":"T"}`)
	f.Add("# build failed\n{\"Action\":\"output\"}")
	f.Fuzz(func(t *testing.T, in string) {
		stream(strings.NewReader(in), &bytes.Buffer{}, "", "")
	})
}

// As go test's -exec program, testsum passes on the exit status and records
// the CPU the program used under the import path of the directory it ran in;
// the summary shows it beside that package's wall time.
func TestExecRecordsCPU(t *testing.T) {
	mod := t.TempDir()
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module example.org/m\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(mod, "a", "b")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	rec := filepath.Join(t.TempDir(), "outcomes")
	busy := `i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; exit 3`
	if code := execMeasured(rec, "race", []string{"sh", "-c", busy}); code != 3 {
		t.Errorf("exit status %d, want the program's 3", code)
	}
	pkg := `{"Action":"pass","Package":"example.org/m/a/b","Elapsed":9.5}`
	var out bytes.Buffer
	if code := stream(strings.NewReader(pkg), &out, rec, "race"); code != 0 {
		t.Fatalf("stream exit %d", code)
	}
	out.Reset()
	summarize(rec, false, 8, &out)
	line := ""
	for l := range strings.Lines(out.String()) {
		if strings.Contains(l, "example.org/m/a/b [race]") {
			line = l
		}
	}
	var wall, cpu float64
	if _, err := fmt.Sscanf(strings.TrimSpace(line), "%fs %fs cpu", &wall, &cpu); err != nil || wall != 9.5 || cpu <= 0 {
		t.Errorf("package line %q: want 9.5s wall and some CPU (%v)\n%s", line, err, out.String())
	}
}
