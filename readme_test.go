package main

import (
	"context"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The README's command reference names every command and every flag, so
// it cannot fall behind the program: a new flag fails this test until it is
// described there.
func TestREADMEDescribesEveryFlag(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range commandNames() {
		section := referenceSection(string(readme), name)
		if section == "" {
			t.Errorf("README.md has no section \"### `hostfall %s`\" in its command reference", name)
			continue
		}
		for _, f := range commandFlags(t, name) {
			if !strings.Contains(section, "`--"+f) && !strings.Contains(section, "`-"+f+"`") {
				t.Errorf("README.md's section on hostfall %s does not describe --%s", name, f)
			}
		}
	}
}

func commandNames() []string {
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// referenceSection is the text under "### `hostfall NAME" up to the next heading.
func referenceSection(readme, name string) string {
	head := "### `hostfall " + name
	i := strings.Index(readme, head+"`")
	if i < 0 {
		i = strings.Index(readme, head+" ")
	}
	if i < 0 {
		return ""
	}
	rest := readme[i+len(head):]
	if j := strings.Index(rest, "\n#"); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

var flagLine = regexp.MustCompile(`(?m)^  -(\S+)`)

// commandFlags reads a command's flags from its -h output.
func commandFlags(t *testing.T, name string) []string {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = w
	done := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(r)
		done <- b
	}()
	commands[name].run(context.Background(), []string{"-h"})
	os.Stderr = saved
	w.Close()
	out := <-done
	var flags []string
	for _, m := range flagLine.FindAllStringSubmatch(string(out), -1) {
		flags = append(flags, m[1])
	}
	if len(flags) == 0 {
		t.Fatalf("hostfall %s -h lists no flags:\n%s", name, out)
	}
	return flags
}
