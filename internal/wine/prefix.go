package wine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Prefix is a Wine prefix ready to run the Windows build.
type Prefix struct {
	Dir   string // WINEPREFIX
	tools Tools
}

// Env is the environment a Windows process of p runs with: WINEPREFIX,
// WINEDEBUG=-all (Wine's own messages off) and no Mono or Gecko installer.
func (p *Prefix) Env() []string {
	return []string{"WINEPREFIX=" + p.Dir, "WINEDEBUG=-all", "WINEDLLOVERRIDES=mscoree,mshtml="}
}

// Argv runs exe with args in p through env(1), so that a wrapper such as
// `ip netns exec NS` can run it as it is.
func (p *Prefix) Argv(exe string, args ...string) []string {
	a := append([]string{"env"}, p.Env()...)
	a = append(a, p.tools.Loader, exe)
	return append(a, args...)
}

// Command runs exe with args in p, in this process's environment with
// p's Env added.
func (p *Prefix) Command(exe string, args ...string) *exec.Cmd {
	cmd := exec.Command(p.tools.Loader, append([]string{exe}, args...)...)
	cmd.Env = append(os.Environ(), p.Env()...)
	return cmd
}

// Kill stops p's wineserver and every process of p (wineserver -k) and
// waits for the server to go, 10 s at most.
func (p *Prefix) Kill() {
	if p.tools.Server == "" {
		return
	}
	cmd := exec.Command(p.tools.Server, "-k")
	cmd.Env = append(os.Environ(), p.Env()...)
	_ = cmd.Run() // no server running is fine
	wait := exec.Command(p.tools.Server, "-w")
	wait.Env = cmd.Env
	if err := wait.Start(); err == nil {
		done := make(chan struct{})
		go func() { wait.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			wait.Process.Kill()
		}
	}
}

// Shared is the test binary's prefix for processes in its own network
// namespace; made on first use.
func Shared(t testing.TB) *Prefix {
	t.Helper()
	state.sharedO.Do(func() { state.shared, state.sharedE = newPrefix() })
	if state.sharedE != nil {
		t.Fatal(state.sharedE)
	}
	return state.shared
}

// NewPrefix makes a prefix of t's own (for a process in a network
// namespace: its wineserver starts with its first process, in that
// process's namespace). It is stopped and removed when t ends.
func NewPrefix(t testing.TB) *Prefix {
	t.Helper()
	p, err := newPrefix()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.Kill()
		os.RemoveAll(p.Dir)
	})
	return p
}

// TemplateTime is how long making the template prefix took.
func TemplateTime() time.Duration { return state.template.took }

// newPrefix copies the template (made once) into a new directory.
func newPrefix() (*Prefix, error) {
	tools, err := Find()
	if err != nil {
		return nil, err
	}
	tpl := &state.template
	tpl.once.Do(func() {
		start := time.Now()
		tpl.path, tpl.err = template(tools)
		tpl.took = time.Since(start)
	})
	if tpl.err != nil {
		return nil, tpl.err
	}
	dir, err := workDir()
	if err != nil {
		return nil, err
	}
	dst, err := os.MkdirTemp(dir, "prefix-")
	if err != nil {
		return nil, err
	}
	if err := clone(tpl.path, dst); err != nil {
		return nil, fmt.Errorf("copying the Wine prefix: %w", err)
	}
	p := &Prefix{Dir: dst, tools: tools}
	state.mu.Lock()
	state.prefixes = append(state.prefixes, p)
	state.mu.Unlock()
	return p, nil
}

// template is the prefix every prefix is copied from: the one kept in the
// user's cache for this Wine, shim and account (made by the first test
// binary that needs it; wineboot takes 20–90 s of a busy machine), else,
// with no cache directory, one made in this binary's work directory.
func template(tools Tools) (string, error) {
	if dir, err := cachedTemplate(tools); err == nil {
		return dir, nil
	} else if !errors.Is(err, errNoCache) {
		return "", err
	}
	dir, err := workDir()
	if err != nil {
		return "", err
	}
	return makeTemplate(tools, filepath.Join(dir, "template"))
}

// makeTemplate initialises a prefix in dir with wineboot, installs the
// ProcessPrng shim and stops its wineserver, so that each copy's server
// starts where its first process runs.
func makeTemplate(tools Tools, dir string) (string, error) {
	p := &Prefix{Dir: dir, tools: tools}
	boot := exec.Command(tools.Loader, "wineboot", "--init")
	boot.Env = append(os.Environ(), p.Env()...)
	boot.Env = append(boot.Env, "DISPLAY=") // no window for the set-up
	if out, err := boot.CombinedOutput(); err != nil {
		return "", fmt.Errorf("wineboot --init in %s: %v\n%s", p.Dir, err, out)
	}
	p.Kill() // waits for the registry to be written
	sys32 := filepath.Join(p.Dir, "drive_c", "windows", "system32")
	if err := buildShim(sys32); err != nil {
		return "", err
	}
	return p.Dir, nil
}

// buildShim compiles shim/ into dir/bcryptprimitives.dll with mingw.
func buildShim(dir string) error {
	src, err := os.MkdirTemp("", "hostfall-shim-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(src)
	var files []string
	for _, name := range []string{"bcryptprimitives.c", "bcryptprimitives.def"} {
		b, err := shim.ReadFile("shim/" + name)
		if err != nil {
			return err
		}
		f := filepath.Join(src, name)
		if err := os.WriteFile(f, b, 0o644); err != nil {
			return err
		}
		files = append(files, f)
	}
	args := append([]string{"-O2", "-shared", "-o", filepath.Join(dir, "bcryptprimitives.dll")}, files...)
	out, err := exec.Command(mingw, append(args, "-ladvapi32")...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("building the ProcessPrng shim: %v\n%s", err, out)
	}
	return nil
}

// clone copies the prefix at from to to: directories made, symbolic links
// copied, files hard-linked (nothing writes Wine's installed files in
// place) except the registry, which each prefix's wineserver rewrites, and
// the old server's lock, which is left behind.
func clone(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil || rel == "." {
			return err
		}
		dst := filepath.Join(to, rel)
		switch {
		case d.IsDir():
			return os.Mkdir(dst, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(target, dst)
		case rel == "wineserver":
			return nil
		case strings.HasSuffix(rel, ".reg") && !strings.Contains(rel, string(filepath.Separator)):
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			return os.WriteFile(dst, b, 0o644)
		default:
			if err := os.Link(path, dst); err == nil {
				return nil
			}
			return copyFile(path, dst) // the cache on another file system
		}
	})
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	st, err := os.Stat(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, st.Mode().Perm())
}
