package main

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

// docs/ARCHITECTURE.md names every package of the module in its table, and
// every package its table names exists: the document cannot drift from the
// code. Nothing in the repository's documents points outside it.
func TestArchitectureNamesEveryPackage(t *testing.T) {
	doc, err := os.ReadFile("docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "list", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var have []string
	for _, p := range strings.Fields(string(out)) {
		have = append(have, strings.TrimPrefix(strings.TrimPrefix(p, "hostfall"), "/"))
	}
	var named []string
	cell := regexp.MustCompile("`([a-z0-9/]+)`")
	for _, line := range strings.Split(string(doc), "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		first := strings.SplitN(line, "|", 3)[1]
		for _, m := range cell.FindAllStringSubmatch(first, -1) {
			named = append(named, strings.TrimPrefix(m[1], "hostfall"))
		}
	}
	for _, p := range have {
		if !slices.Contains(named, p) {
			t.Errorf("docs/ARCHITECTURE.md does not name package %q", "hostfall/"+p)
		}
	}
	for _, p := range named {
		if !slices.Contains(have, p) {
			t.Errorf("docs/ARCHITECTURE.md names package %q, which does not exist", p)
		}
	}
	for _, f := range []string{"README.md", "docs/ARCHITECTURE.md"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "../shared") {
			t.Errorf("%s points outside the repository (../shared)", f)
		}
	}
}

// The "may import" column of docs/ARCHITECTURE.md names exactly the packages
// of ours that each row's packages import (their code, not their tests), under
// any of the builds we make: Linux and Windows, with and without cgo.
func TestArchitectureImports(t *testing.T) {
	doc, err := os.ReadFile("docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	imports := ourImports(t)
	cell := regexp.MustCompile("`([a-z0-9/]+)`")
	for _, line := range strings.Split(string(doc), "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(line, "|")
		if len(cells) != 5 {
			t.Errorf("table row has %d cells, want 3 (a | inside a cell?): %.60s", len(cells)-2, line)
			continue
		}
		row := strings.TrimSpace(cells[1])
		var pkgs []string
		for _, m := range cell.FindAllStringSubmatch(cells[1], -1) {
			pkgs = append(pkgs, strings.TrimPrefix(m[1], "hostfall"))
		}
		have := map[string]bool{}
		for _, p := range pkgs {
			for _, q := range imports[p] {
				have[q] = true
			}
		}
		named := map[string]bool{}
		for _, m := range cell.FindAllStringSubmatch(cells[3], -1) {
			if _, ok := imports[m[1]]; !ok {
				t.Errorf("%s: its may import column names %q, which is not a package of ours", row, m[1])
			}
			named[m[1]] = true
		}
		for q := range have {
			if !named[q] {
				t.Errorf("%s imports %q; its may import column does not name it", row, q)
			}
		}
		for q := range named {
			if !have[q] {
				t.Errorf("%s: its may import column names %q, which it does not import", row, q)
			}
		}
	}
}

// ourImports maps each package of the module (its path without "hostfall/",
// the root as "") to the packages of the module its non-test files import.
func ourImports(t *testing.T) map[string][]string {
	t.Helper()
	builds := [][]string{
		{"GOOS=linux", "CGO_ENABLED=1"}, {"GOOS=linux", "CGO_ENABLED=0"},
		{"GOOS=windows", "CGO_ENABLED=1"}, {"GOOS=windows", "CGO_ENABLED=0"},
	}
	outs := make([][]byte, len(builds))
	errs := make([]error, len(builds))
	var wg sync.WaitGroup
	for i, build := range builds {
		wg.Go(func() {
			// -e: a cgo-only dependency has no files without cgo.
			cmd := exec.Command("go", "list", "-e", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "./...")
			cmd.Env = append(os.Environ(), build...)
			outs[i], errs[i] = cmd.Output()
		})
	}
	wg.Wait()
	imports := map[string][]string{}
	for i, out := range outs {
		if errs[i] != nil {
			t.Fatalf("go list (%v): %v", builds[i], errs[i])
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Fields(line)
			p := ours(f[0])
			if _, ok := imports[p]; !ok {
				imports[p] = nil
			}
			for _, q := range f[1:] {
				if q == "hostfall" || strings.HasPrefix(q, "hostfall/") {
					if q := ours(q); !slices.Contains(imports[p], q) {
						imports[p] = append(imports[p], q)
					}
				}
			}
		}
	}
	return imports
}

func ours(importPath string) string {
	return strings.TrimPrefix(strings.TrimPrefix(importPath, "hostfall"), "/")
}
