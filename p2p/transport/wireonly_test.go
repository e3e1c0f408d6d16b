package transport

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The transport uses the session only as its wire: it encodes and decodes
// messages and asks a kind's class (MsgKind.IsKnock, IsGuess), but names
// no kind and no other part of the protocol, so the rule of who may send
// what stays in session. A selector of the session outside this list in
// the transport's code (its tests aside) fails here.
func TestTransportUsesSessionOnlyAsItsWire(t *testing.T) {
	wire := []string{"Message", "MsgKind", "MaxMessageSize", "PeerID", "PeekKind", "UnmarshalMessage"}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		local := ""
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "hostfall/session" {
				local = "session"
				if imp.Name != nil {
					local = imp.Name.Name
				}
			}
		}
		if local == "" {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == local && !slices.Contains(wire, sel.Sel.Name) {
				t.Errorf("%s: the transport uses session.%s, which is not its wire: ask the session for a class of kind instead",
					fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
	}
}
