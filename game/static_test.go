package game_test

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// forbiddenImports may not appear in the simulation: clocks, global or
// unseeded randomness, I/O, unordered map helpers, and concurrency.
var forbiddenImports = map[string]string{
	"time":         "a clock",
	"math/rand":    "global randomness (use game.RNG)",
	"math/rand/v2": "unseeded randomness (use game.RNG)",
	"os":           "I/O",
	"net":          "I/O",
	"io":           "I/O",
	"maps":         "map iteration in random order",
	"sync":         "concurrency",
	"unsafe":       "memory layout that differs by architecture",
}

// checkSource reports every rule the Go files of one package break:
// floats (types or literals) anywhere, forbidden imports, go statements,
// and range over a map.
func checkSource(fset *token.FileSet, path string, files []*ast.File, imp types.Importer) ([]string, *types.Package) {
	var problems []string
	report := func(n ast.Node, format string, args ...any) {
		problems = append(problems, fmt.Sprintf("%s: %s", fset.Position(n.Pos()), fmt.Sprintf(format, args...)))
	}
	for _, f := range files {
		for _, im := range f.Imports {
			p := strings.Trim(im.Path.Value, `"`)
			for bad, why := range forbiddenImports {
				if p == bad || strings.HasPrefix(p, bad+"/") && bad != "math/rand" {
					report(im, "imports %s (%s)", p, why)
				}
			}
		}
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	conf := types.Config{Importer: imp}
	pkg, err := conf.Check(path, fset, files, info)
	if err != nil {
		problems = append(problems, fmt.Sprintf("type check: %v", err))
		return problems, nil
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				report(n, "starts a goroutine")
			case *ast.RangeStmt:
				if _, isMap := info.TypeOf(n.X).Underlying().(*types.Map); isMap {
					report(n, "ranges over a map (random order)")
				}
			case *ast.BasicLit:
				if n.Kind == token.FLOAT || n.Kind == token.IMAG {
					report(n, "floating-point literal %s", n.Value)
				}
			case ast.Expr:
				if tv, ok := info.Types[n]; ok && tv.Type != nil && hasFloat(tv.Type) {
					report(n, "floating-point type %s", tv.Type)
					return false
				}
			}
			return true
		})
	}
	return problems, pkg
}

// hasFloat reports whether t is or directly holds a float or complex type.
func hasFloat(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&(types.IsFloat|types.IsComplex) != 0
	case *types.Array:
		return hasFloat(u.Elem())
	case *types.Slice:
		return hasFloat(u.Elem())
	case *types.Pointer:
		return hasFloat(u.Elem())
	case *types.Struct:
		for i := range u.NumFields() {
			if hasFloat(u.Field(i).Type()) {
				return true
			}
		}
	}
	return false
}

// stdImporter type-checks the standard library from source, once for all
// tests. (The default importer would run the go command, which is slow to
// start and unreliable under the qemu emulation of the 32-bit test run.)
var stdImporter = importer.ForCompiler(token.NewFileSet(), "source", nil)

// A test binary built with -trimpath (make test builds so) knows no GOROOT,
// and the source importer finds the standard library there: ask the go
// command once.
func init() {
	if build.Default.GOROOT != "" {
		return
	}
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		build.Default.GOROOT = strings.TrimSpace(string(out))
	}
}

type moduleImporter struct {
	pkgs map[string]*types.Package
	std  types.Importer
}

func (m moduleImporter) Import(path string) (*types.Package, error) {
	if p, ok := m.pkgs[path]; ok {
		return p, nil
	}
	return m.std.Import(path)
}

// emptyImporter imports every package as an empty one: enough for the
// checker's own tests, whose imports are only there to be found.
type emptyImporter struct{}

func (emptyImporter) Import(path string) (*types.Package, error) {
	p := types.NewPackage(path, path[strings.LastIndex(path, "/")+1:])
	p.MarkComplete()
	return p, nil
}

func parseDir(t *testing.T, fset *token.FileSet, dir string) []*ast.File {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// TestDeterministicSource checks the sources of game and game/ai against the
// rules that keep the simulation deterministic across peers and machines.
func TestDeterministicSource(t *testing.T) {
	fset := token.NewFileSet()
	pkgs := map[string]*types.Package{}
	for _, p := range []struct{ path, dir string }{{"hostfall/game", "."}, {"hostfall/game/ai", "ai"}} {
		problems, pkg := checkSource(fset, p.path, parseDir(t, fset, p.dir), moduleImporter{pkgs, stdImporter})
		for _, pr := range problems {
			t.Error(pr)
		}
		if pkg != nil {
			pkgs[p.path] = pkg
		}
	}
}

// TestCheckerCatches makes sure the checker finds what it looks for.
func TestCheckerCatches(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"float field", "type S struct{ x float64 }", "floating-point type"},
		{"float literal", "var x = 1.5", "floating-point literal"},
		{"float conversion", "func f(i int) int { return int(float32(i)) }", "floating-point type float32"},
		{"time", `import "time"; var _ = time.Now`, "imports time"},
		{"math/rand", `import "math/rand"; var _ = rand.Int`, "imports math/rand"},
		{"math/rand/v2", `import "math/rand/v2"; var _ = rand.Int`, "imports math/rand/v2"},
		{"os", `import "os"; var _ = os.Exit`, "imports os"},
		{"net/http", `import "net/http"; var _ = http.Get`, "imports net/http"},
		{"goroutine", "func f() { go f() }", "starts a goroutine"},
		{"range map", "func f(m map[int]int) (s int) { for k := range m { s += k }; return }", "ranges over a map"},
		{"clean", "func f(s []int) (n int) { for _, v := range s { n += v }; return }", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, "x.go", "package x; "+tc.src, 0)
			if err != nil {
				t.Fatal(err)
			}
			problems, _ := checkSource(fset, "x", []*ast.File{f}, emptyImporter{})
			got := strings.Join(problems, "\n")
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Fatalf("problems:\n%s\nwant one containing %q", got, tc.want)
			}
		})
	}
}
