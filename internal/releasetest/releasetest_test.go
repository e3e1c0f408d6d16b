package releasetest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every test that calls Skip here or wine.Skip (which calls it) matches the
// -run pattern scripts/release-check.sh passes: a gated test left out of it
// would run nowhere.
func TestGatedTestsRunInReleaseCheck(t *testing.T) {
	root := filepath.Join("..", "..")
	script, err := os.ReadFile(filepath.Join(root, "scripts", "release-check.sh"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^release_tests='([^']+)'`).FindSubmatch(script)
	if m == nil {
		t.Fatal("scripts/release-check.sh has no release_tests='…' line")
	}
	run := regexp.MustCompile(string(m[1]))
	p := regexp.MustCompile(`(?m)^release_pkgs=\(([^)]*)\)`).FindSubmatch(script)
	if p == nil {
		t.Fatal("scripts/release-check.sh has no release_pkgs=(…) line")
	}
	pkgs := map[string]bool{}
	for _, dir := range strings.Fields(string(p[1])) {
		pkgs[filepath.Clean(dir)] = true
	}
	gated := gatedTests(t, root)
	if len(gated) == 0 {
		t.Fatal("found no gated test: the search is broken")
	}
	var names []string
	for _, g := range gated {
		if !run.MatchString(g.name) {
			t.Errorf("%s (%s) is gated by releasetest but scripts/release-check.sh's release_tests does not run it", g.name, g.dir)
		}
		if !pkgs[g.dir] {
			t.Errorf("%s is gated by releasetest but its package %s is not in scripts/release-check.sh's release_pkgs", g.name, g.dir)
		}
		names = append(names, g.name)
	}
	t.Logf("%d gated tests: %s", len(gated), strings.Join(names, " "))
}

type gated struct{ name, dir string } // dir: relative to the module root

// gatedTests lists the Test functions under root that call releasetest.Skip
// or wine.Skip.
func gatedTests(t *testing.T, root string) []gated {
	var found []gated
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || !strings.HasPrefix(fn.Name.Name, "Test") || fn.Body == nil {
				continue
			}
			if callsSkip(fn.Body) {
				rel, _ := filepath.Rel(root, filepath.Dir(path))
				found = append(found, gated{fn.Name.Name, filepath.Clean(rel)})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

func callsSkip(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return !found
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Skip" {
			if pkg, ok := sel.X.(*ast.Ident); ok && (pkg.Name == "releasetest" || pkg.Name == "wine") {
				found = true
			}
		}
		return !found
	})
	return found
}
