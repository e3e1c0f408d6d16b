package netns

import (
	"os"
	"testing"
)

// insideEnv names the test a re-executed test binary runs inside a namespace.
const insideEnv = "HFNETNS_INSIDE"

// Inside runs the calling test again, as a child process of the test binary
// inside a fresh namespace named name with one link per prefix (each on a
// switch of its own, e.g. "10.88.0"), for tests of multicast or broadcast,
// which need real interfaces and must not touch the machine's. It reports
// whether this process is that child, which runs the test's body; the
// parent logs the child's output and fails when it failed. It skips the
// test where namespaces cannot be made.
func Inside(t *testing.T, name string, prefixes ...string) bool {
	t.Helper()
	if os.Getenv(insideEnv) == t.Name() {
		return true
	}
	lab := testLab(t)
	ns, err := lab.Namespace(name)
	if err != nil {
		t.Fatal(err)
	}
	for i, prefix := range prefixes {
		sw, err := lab.Switch("sw"+string(rune('a'+i)), prefix)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sw.Plug(ns); err != nil {
			t.Fatal(err)
		}
	}
	cmd := ns.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), insideEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	t.Logf("inside namespace %s:\n%s", ns.Name, out)
	if err != nil {
		t.Fatalf("the test failed inside the namespace: %v", err)
	}
	return false
}

// testLab starts a lab for test t, closed when t ends; it skips t where
// namespaces cannot be made.
func testLab(t testing.TB) *Lab {
	t.Helper()
	if why := Usable(); why != "" {
		t.Skip(why)
	}
	lab, err := New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(lab.Close)
	return lab
}
