// Package wine runs hostfall's Windows build under Wine in tests.
//
// A test that needs it:
//
//	func TestX(t *testing.T) {
//		wine.Skip(t)                  // skips, saying why, without wine64 and mingw-w64
//		exe := wine.Build(t)          // hostfall.exe, cross-built once per test binary
//		p := wine.Shared(t)           // one prefix per test binary, in this namespace
//		cmd := p.Command(exe, "sim", "--seed", "3")
//		out, err := cmd.Output()
//	}
//
// and the test binary's TestMain calls wine.Close after m.Run (it stops the
// prefixes' wineservers and removes the build and the prefixes).
//
// Build runs scripts/build.sh, the release's recipe (CGO_ENABLED=1,
// GOOS=windows, CC=x86_64-w64-mingw32-gcc, -trimpath, -H=windowsgui): the
// compiled packages come from Go's build cache shared with make release and
// other test binaries, so a warm build is only a link.
//
// A template prefix (WINEPREFIX) is made once per machine with wineboot
// (tens of seconds) and kept in ~/.cache/hostfall/wine (cache.go); it holds
// a test-only bcryptprimitives.dll in its system32: Wine 8 lacks
// ProcessPrng, which the Go runtime calls at start, and the shim (shim/,
// built here with mingw) forwards it to RtlGenRandom. It is never shipped.
// Every test's prefix is a hard-linked copy of the template (a fraction of
// a second), with registry files of its own.
//
// Wine creates a process's sockets in its wineserver, one per prefix, and
// the wineserver lives in the network namespace of the prefix's first
// process. So a test that runs a Windows peer inside a namespace (ip netns
// exec) gives it a prefix of its own with NewPrefix, whose wineserver then
// starts in that namespace; Shared is for processes in the test's own
// namespace. Prefix.Argv is the command line for a namespace's wrapper (it
// carries the environment with env(1)); Prefix.Command an *exec.Cmd.
// Every command runs with WINEDEBUG=-all, so its stderr is the program's.
package wine

import (
	"embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"hostfall/internal/releasetest"
)

// mingw is the C cross compiler of the Windows build and the shim.
const mingw = "x86_64-w64-mingw32-gcc"

//go:embed shim/bcryptprimitives.c shim/bcryptprimitives.def
var shim embed.FS

// state is what a test binary made: the build, the template prefix, the
// shared prefix and every prefix to stop at Close.
var state struct {
	mu       sync.Mutex
	dir      string // holds the build and the prefixes
	build    onceResult
	template onceResult
	shared   *Prefix
	sharedE  error
	sharedO  sync.Once
	prefixes []*Prefix
}

type onceResult struct {
	once sync.Once
	path string
	took time.Duration
	err  error
}

// Tools are the Wine programs found on this machine.
type Tools struct {
	Loader, Server string // wine64 and wineserver
}

// Find looks for the wine64 loader and its wineserver: $WINE and
// $WINESERVER, then PATH, then the files of Debian's wine64 package
// (Debian 12 keeps its loader off PATH). The error says what to install.
func Find() (Tools, error) {
	var t Tools
	t.Loader = find("WINE", "wine64", "/wine64")
	t.Server = find("WINESERVER", "wineserver64", "/wineserver64")
	if t.Server == "" {
		t.Server = find("WINESERVER", "wineserver", "/wineserver")
	}
	if t.Loader == "" || t.Server == "" {
		return t, errors.New("wine64 is not installed (scripts/deps.sh --test installs it: apt-get install wine64)")
	}
	return t, nil
}

// find is $env, else name on PATH, else the file of package wine64 whose
// path ends with suffix.
func find(env, name, suffix string) string {
	if p := os.Getenv(env); p != "" {
		return p
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	out, err := exec.Command("dpkg", "-L", "wine64").Output()
	if err != nil {
		return ""
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasSuffix(p, suffix) {
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
				return p
			}
		}
	}
	return ""
}

// Missing says why the Windows build cannot run here, or "" when it can.
func Missing() string {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return "the Wine tests run on linux/amd64"
	}
	if _, err := exec.LookPath(mingw); err != nil {
		return mingw + " is not installed (scripts/deps.sh --test installs it: apt-get install gcc-mingw-w64-x86-64)"
	}
	if _, err := Find(); err != nil {
		return err.Error()
	}
	return ""
}

// Skip skips t, saying why, where the Windows build cannot run, with
// -short (a cross-build and Wine cost minutes), and in make test: the
// Windows build is tested by make release-check (internal/releasetest).
func Skip(t testing.TB) {
	t.Helper()
	releasetest.Skip(t, "the Windows build under Wine")
	if testing.Short() {
		t.Skip("cross-builds for Windows and runs it under Wine; skipped with -short")
	}
	if why := Missing(); why != "" {
		t.Skip(why)
	}
}

// workDir is the directory of this test binary's build and prefixes.
func workDir() (string, error) {
	state.mu.Lock()
	defer state.mu.Unlock()
	if state.dir == "" {
		dir, err := os.MkdirTemp("", "hostfall-wine-")
		if err != nil {
			return "", err
		}
		state.dir = dir
	}
	return state.dir, nil
}

// Build cross-builds hostfall for windows/amd64 with scripts/build.sh,
// once per test binary, and returns the exe's path. Tests in parallel
// share the one build.
func Build(t testing.TB) string {
	t.Helper()
	b := &state.build
	b.once.Do(func() {
		start := time.Now()
		b.path, b.err = build()
		b.took = time.Since(start)
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// BuildTime is how long Build took in this test binary (0 before it ran).
func BuildTime() time.Duration { return state.build.took }

func build() (string, error) {
	dir, err := workDir()
	if err != nil {
		return "", err
	}
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	exe := filepath.Join(dir, "hostfall.exe")
	cmd := exec.Command(filepath.Join(root, "scripts", "build.sh"), exe, "windows", "amd64", "full")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("scripts/build.sh for windows/amd64: %v\n%s", err, out)
	}
	return exe, nil
}

// moduleRoot is the directory of the hostfall module the test runs in.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("the test does not run inside the hostfall module")
	}
	return filepath.Dir(mod), nil
}

// Close stops every prefix's wineserver and removes the build and the
// prefixes. A test binary's TestMain calls it after m.Run.
func Close() {
	state.mu.Lock()
	prefixes, dir := state.prefixes, state.dir
	state.prefixes, state.dir = nil, ""
	state.mu.Unlock()
	for _, p := range prefixes {
		p.Kill()
	}
	if t := state.template.path; t != "" {
		(&Prefix{Dir: t, tools: mustTools()}).Kill()
	}
	if dir != "" {
		os.RemoveAll(dir)
	}
}

func mustTools() Tools {
	t, _ := Find()
	return t
}
