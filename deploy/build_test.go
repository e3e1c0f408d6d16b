package deploy

import (
	"bytes"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"hostfall/internal/releasetest"
	"hostfall/internal/wine"
)

// archs are the server build's targets, with the ELF machine of each.
var archs = map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64, "386": elf.EM_386}

// servers are the binaries scripts/server.sh built in this test run, one a
// GOARCH, shared by the tests (cross builds cost minutes when cold).
var servers struct {
	mu    sync.Mutex
	dir   string
	built map[string]*serverBuild
}

type serverBuild struct {
	once sync.Once
	path string
	took time.Duration
	err  error
}

// server builds the server binary for arch once per test run with the
// recipe of make server-all.
func server(t *testing.T, arch string) string {
	t.Helper()
	servers.mu.Lock()
	if servers.built == nil {
		servers.built = map[string]*serverBuild{}
	}
	b := servers.built[arch]
	if b == nil {
		b = &serverBuild{}
		servers.built[arch] = b
	}
	servers.mu.Unlock()
	b.once.Do(func() { b.path, b.took, b.err = buildServer("..", arch, "hostfall-server-linux-"+arch) })
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// buildServer runs the scripts/server.sh of the module at src into the
// test run's directory.
func buildServer(src, arch, name string) (string, time.Duration, error) {
	servers.mu.Lock()
	if servers.dir == "" {
		dir, err := os.MkdirTemp("", "hostfall-server-")
		if err != nil {
			servers.mu.Unlock()
			return "", 0, err
		}
		servers.dir = dir
	}
	path := filepath.Join(servers.dir, name)
	servers.mu.Unlock()
	start := time.Now()
	out, err := exec.Command(filepath.Join(src, "scripts/server.sh"), path, arch).CombinedOutput()
	if err != nil {
		return "", 0, fmt.Errorf("scripts/server.sh %s: %v\n%s", arch, err, out)
	}
	return path, time.Since(start), nil
}

func TestMain(m *testing.M) {
	code := m.Run()
	wine.Close()
	if servers.dir != "" {
		os.RemoveAll(servers.dir)
	}
	os.Exit(code)
}

// Every server binary is static: no program interpreter (PT_INTERP) and no
// shared library (DT_NEEDED), so it starts on a machine with no libc, X11,
// OpenGL or ALSA; go version -m shows a build without cgo, with -trimpath,
// for its architecture, and the binary names no directory of this machine.
func TestServerBinariesAreStatic(t *testing.T) {
	t.Parallel() // the builds, the emulated runs and the chroot game overlap
	for arch, machine := range archs {
		t.Run(arch, func(t *testing.T) {
			if arch != "amd64" {
				releasetest.Skip(t, "the linux/"+arch+" server build")
			}
			path := server(t, arch)
			checkStatic(t, path, machine)
			info, err := exec.Command("go", "version", "-m", path).Output()
			if err != nil {
				t.Fatalf("go version -m: %v", err)
			}
			for _, want := range []string{"\tCGO_ENABLED=0\n", "\t-trimpath=true\n", "\tGOARCH=" + arch + "\n", "\tGOOS=linux\n"} {
				if !bytes.Contains(info, []byte("build"+want)) {
					t.Errorf("go version -m does not show build%s%s", strings.TrimSuffix(want, "\n"), info)
				}
			}
			wd, _ := os.Getwd()
			if b, _ := os.ReadFile(path); bytes.Contains(b, []byte(filepath.Dir(wd))) {
				t.Errorf("the binary names the source directory %s: not built with -trimpath", filepath.Dir(wd))
			}
			st, _ := os.Stat(path)
			t.Logf("linux/%s: %d bytes, built in %v", arch, st.Size(), servers.built[arch].took.Round(100*time.Millisecond))
		})
	}
}

// checkStatic fails unless path is an ELF executable for machine that
// needs neither a program interpreter nor a shared library.
func checkStatic(t *testing.T, path string, machine elf.Machine) {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Machine != machine || f.Type != elf.ET_EXEC {
		t.Errorf("%s is a %v %v, want an executable for %v", path, f.Machine, f.Type, machine)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Errorf("%s has a %v program header: it is linked dynamically", path, p.Type)
		}
	}
	libs, err := f.DynString(elf.DT_NEEDED)
	if err != nil {
		t.Fatal(err)
	}
	if len(libs) > 0 {
		t.Errorf("%s needs shared libraries %v", path, libs)
	}
}

// The server build has no window and no speaker: what needs them is
// refused with a sentence that says which build does (exit code 2), and
// -h says which build this is.
func TestServerBuildRefusesTheWindow(t *testing.T) {
	t.Parallel() // the builds, the emulated runs and the chroot game overlap
	bin := server(t, "amd64")
	for _, args := range [][]string{
		{},
		{"browse"},
		{"play"},
		{"play", "--offline"},
		{"host", "--name", "x"},
		{"join", "--addr", "/ip4/127.0.0.1/tcp/1/p2p/12D3KooWHkqrU1SD2soZS6D2n8QJjzuaRjnPRXsiJrebpdHS9iZK"},
		{"join", "--rejoin"},
		{"replay", "x.hfreplay"},
		{"sounds"},
	} {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "DISPLAY=:0") // a display changes nothing: this build has no window
		out, err := cmd.CombinedOutput()
		code := -1
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if code != 2 || !strings.Contains(string(out), "this is the server build of hostfall; the window needs the full build: make build") {
			t.Errorf("hostfall-server %q: exit code %d (want 2), said:\n%s", args, code, out)
		}
	}
	out, err := exec.Command(bin, "-h").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "server build") {
		t.Errorf("hostfall-server -h: %v, does not say it is the server build:\n%s", err, out)
	}
}
