package main

import (
	"os/exec"
	"strings"
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

// The Windows game's archive names the C runtime that mingw-w64 links in:
// both Debian packages (the runtime and GCC's support library), with the
// mingw-w64 runtime's licence and GCC's runtime library exception.
func TestCRuntimeLicences(t *testing.T) {
	const cc = "x86_64-w64-mingw32-gcc"
	if _, err := exec.LookPath(cc); err != nil {
		t.Skip(cc + " is not installed (scripts/deps.sh --test installs it)")
	}
	var out strings.Builder
	if err := writeCRuntimeLicenses(&out, cc); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Debian package mingw-w64-x86-64-dev ", "Debian package gcc-mingw-w64-x86-64-", "GCC RUNTIME LIBRARY EXCEPTION", "mingw-w64-crt/"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the C runtime's licences do not contain %q", want)
		}
	}
	t.Logf("%d bytes of C runtime licences", out.Len())
}
