package beacon

import (
	"os"
	"slices"
	"testing"
	"time"

	"hostfall/internal/netns"
)

// childEnv names the test a re-executed test binary runs in a namespace.
const childEnv = "HFBEACON_CHILD"

// inNamespace runs the calling test again inside a fresh namespace with
// one link on a switch, since broadcast needs a real interface and the test
// must not touch the machine's. It reports whether this process is that
// child and should run the body.
func inNamespace(t *testing.T) bool {
	t.Helper()
	if os.Getenv(childEnv) == t.Name() {
		return true
	}
	if why := netns.Usable(); why != "" {
		t.Skip(why)
	}
	lab, err := netns.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(lab.Close)
	ns, err := lab.Namespace("beacon")
	if err != nil {
		t.Fatal(err)
	}
	sw, err := lab.Switch("sw", "10.87.0")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sw.Plug(ns); err != nil {
		t.Fatal(err)
	}
	cmd := ns.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), childEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	t.Logf("inside namespace %s:\n%s", ns.Name, out)
	if err != nil {
		t.Fatalf("the test failed inside the namespace: %v", err)
	}
	return false
}

// An announcer and a listener over real broadcast: the listener's query is
// answered at once, updates arrive, and the goodbye comes on Close.
func TestAnnounceAndListen(t *testing.T) {
	if !inNamespace(t) {
		return
	}
	cfg := Config{Port: Port + 1} // not the game's own port: a game may run here
	a, err := Announce([]string{"txtvers=1", "name=first"}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	heard := make(chan Heard, 64)
	start := time.Now()
	l, err := Listen(t.Context(), cfg, func(h Heard) { heard <- h })
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	wait := func(what string, ok func(Heard) bool) time.Duration {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			select {
			case h := <-heard:
				if ok(h) {
					return time.Since(start)
				}
			case <-deadline:
				t.Fatalf("no %s within 10 s", what)
			}
		}
	}
	took := wait("announcement", func(h Heard) bool { return h.Kind == KindAnnounce && h.Instance == a.instance })
	t.Logf("first announcement heard %.1f ms after opening", float64(took.Microseconds())/1000)
	start = time.Now()
	if err := a.Update([]string{"txtvers=1", "name=second"}); err != nil {
		t.Fatal(err)
	}
	took = wait("update", func(h Heard) bool { return slices.Contains(h.TXT, "name=second") })
	t.Logf("update heard after %.1f ms", float64(took.Microseconds())/1000)
	start = time.Now()
	a.Close()
	wait("goodbye", func(h Heard) bool { return h.Kind == KindGoodbye && h.Instance == a.instance })
}
