package main

import (
	"testing"
)

// Every module compiled into a release binary has a licence file the
// release can ship, for each target the release builds (the Windows and
// Linux game, the server build without cgo): a new dependency without one
// fails here, not when a release is made.
func TestEveryCompiledModuleHasALicence(t *testing.T) {
	for _, target := range [][]string{
		{"GOOS=linux", "GOARCH=amd64", "CGO_ENABLED=1"},
		{"GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=1"},
		{"GOOS=linux", "GOARCH=arm64", "CGO_ENABLED=0"},
		{"GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0"},
	} {
		mods, err := compiledModules("hostfall", target...)
		if err != nil {
			t.Fatal(err)
		}
		if len(mods) < 10 {
			t.Fatalf("%v: go list found only %d modules compiled in", target, len(mods))
		}
		for _, m := range mods {
			if files := m.licenseFiles(); len(files) == 0 {
				t.Errorf("%v: %s@%s has no licence file in %s", target, m.Path, m.Version, m.Dir)
			}
		}
		t.Logf("%v: %d modules, each with its licence", target, len(mods))
	}
}
