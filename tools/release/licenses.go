package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
)

// licenseFile is the name of a licence or notice file.
var licenseFile = regexp.MustCompile(`(?i)^(licen[cs]e|copying|notice|unlicense)([-._].*)?$`)

// module is a module compiled in, with the directories of its packages
// that the build compiled.
type module struct {
	Path, Version, Dir string
	pkgDirs            []string
}

// compiledModules runs go list -deps on pkg for the target in the
// environment (GOOS, GOARCH, CGO_ENABLED) and returns the modules other
// than the main one whose packages it compiles, by path.
func compiledModules(pkg string, env ...string) ([]*module, error) {
	cmd := exec.Command("go", "list", "-deps", "-f", "{{with .Module}}{{if not .Main}}{{.Path}}\t{{.Version}}\t{{.Dir}}\t{{$.Dir}}{{end}}{{end}}", pkg)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -deps: %w", err)
	}
	byPath := map[string]*module{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 4 {
			continue
		}
		m := byPath[f[0]]
		if m == nil {
			m = &module{Path: f[0], Version: f[1], Dir: f[2]}
			byPath[f[0]] = m
		}
		m.pkgDirs = append(m.pkgDirs, f[3])
	}
	var mods []*module
	for _, m := range byPath {
		mods = append(mods, m)
	}
	slices.SortFunc(mods, func(a, b *module) int { return strings.Compare(a.Path, b.Path) })
	return mods, sc.Err()
}

// licenseFiles are m's licence files: at its root, in the directories of
// its compiled packages, and in their subdirectories that hold no Go (the
// C sources a cgo package compiles in, as GLFW's), relative to m.Dir.
func (m *module) licenseFiles() []string {
	dirs := []string{m.Dir}
	for _, d := range m.pkgDirs {
		dirs = append(dirs, d)
		subs, _ := os.ReadDir(d)
		for _, s := range subs {
			if s.IsDir() && s.Name() != "testdata" && !hasGo(filepath.Join(d, s.Name())) {
				dirs = append(dirs, filepath.Join(d, s.Name()))
			}
		}
	}
	var files []string
	for _, d := range dirs {
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			if e.Type().IsRegular() && licenseFile.MatchString(e.Name()) {
				rel, err := filepath.Rel(m.Dir, filepath.Join(d, e.Name()))
				if err == nil && !slices.Contains(files, rel) {
					files = append(files, rel)
				}
			}
		}
	}
	slices.Sort(files)
	return files
}

func hasGo(dir string) bool {
	m, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	return len(m) > 0
}

// writeLicenses writes Go's licence and every compiled-in module's, in
// module path order; a module without one is an error that names it.
func writeLicenses(w io.Writer) error {
	mods, err := compiledModules(".")
	if err != nil {
		return err
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %w", err)
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "Hostfall is built with Go and the modules below. Each one's licence and\nnotice files follow, as the module ships them.\n")
	goVersion := strings.TrimSpace(runGo("env", "GOVERSION"))
	if goVersion == "" {
		goVersion = runtime.Version()
	}
	if err := section(bw, "Go "+goVersion+" (its standard library and runtime)", strings.TrimSpace(string(goroot)), []string{"LICENSE"}); err != nil {
		return err
	}
	var missing []string
	for _, m := range mods {
		files := m.licenseFiles()
		if len(files) == 0 {
			missing = append(missing, m.Path+"@"+m.Version)
			continue
		}
		if err := section(bw, m.Path+" "+m.Version, m.Dir, files); err != nil {
			return err
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("no licence file found for %s: look in the module's source and name its licence before shipping it", strings.Join(missing, ", "))
	}
	return bw.Flush()
}

func runGo(args ...string) string {
	out, _ := exec.Command("go", args...).Output()
	return string(out)
}

// section writes one module's files under a heading.
func section(w io.Writer, title, dir string, files []string) error {
	fmt.Fprintf(w, "\n\n==== %s ====\n", title)
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "\n---- %s ----\n\n%s", filepath.ToSlash(f), bytes.TrimRight(b, "\n"))
		fmt.Fprintln(w)
	}
	return nil
}
