package main

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
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
