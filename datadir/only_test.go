package datadir

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// homeLookup is how a program finds a user's directories by itself: Go's
// os.User*Dir, or the names of the variables behind them.
var homeLookup = regexp.MustCompile(`os\.User(Home|Config|Cache)Dir\(|"(HOME|USERPROFILE|APPDATA|LOCALAPPDATA|XDG_[A-Z_]+)"`)

// Every path the game writes comes from this package: no other package
// compiled into hostfall, for Linux or Windows, looks up a user directory
// by itself (it would miss the Windows conventions and the HOSTFALL_*
// overrides).
func TestOnlyDatadirFindsUserDirectories(t *testing.T) {
	for _, goos := range []string{"linux", "windows"} {
		cmd := exec.Command("go", "list", "-deps", "-f", `{{if and (not .Standard) (eq .Module.Path "hostfall")}}{{.ImportPath}}|{{.Dir}}|{{join .GoFiles " "}} {{join .CgoFiles " "}}{{end}}`, "hostfall")
		cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH=amd64", "CGO_ENABLED=1")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list for %s: %v", goos, err)
		}
		n := 0
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.SplitN(line, "|", 3)
			if len(f) != 3 || f[0] == "hostfall/datadir" {
				continue
			}
			for _, name := range strings.Fields(f[2]) {
				src, err := os.ReadFile(filepath.Join(f[1], name))
				if err != nil {
					t.Fatal(err)
				}
				if m := homeLookup.Find(src); m != nil {
					t.Errorf("%s: %s/%s looks up a user directory (%s): take the path from hostfall/datadir", goos, f[0], name, m)
				}
				n++
			}
		}
		if n < 50 {
			t.Fatalf("%s: only %d files of the program listed", goos, n)
		}
		t.Logf("%s: %d files of the program, none looks up a user directory but datadir's", goos, n)
	}
}
