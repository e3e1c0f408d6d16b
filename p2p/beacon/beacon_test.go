package beacon

import (
	"slices"
	"testing"
	"time"

	"hostfall/internal/netns"
)

// inNamespace runs the calling test again inside a fresh namespace (see
// netns.Inside) and reports whether this process is that run.
func inNamespace(t *testing.T) bool {
	t.Helper()
	return netns.Inside(t, "beacon", "10.87.0")
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
