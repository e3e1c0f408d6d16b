package network

import (
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"

	"hostfall/client"
	"hostfall/game"
	"hostfall/internal/testwait"
	"hostfall/p2p/transport"
	"hostfall/session"
)

const testVersion = "network-test"

func init() {
	// Before any host starts: Start lowers it for relay and internet peers,
	// and a write while other tests' hosts run would race with their reads.
	transport.TrustOneObserver()
	if os.Getenv("HOSTFALL_TEST_LOG") == "" {
		// go-libp2p logs an error when a closing host's listener stops; quiet.
		transport.RouteLibp2pLogs(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError + 4}))
	}
}

func testLog() *slog.Logger {
	level := slog.LevelError
	if os.Getenv("HOSTFALL_TEST_LOG") != "" {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
}

// tclient is a Client on its own loopback host, with everything it reported.
type tclient struct {
	*Client
	t    *testing.T
	name string
	dir  string

	mu     sync.Mutex
	events []client.Event
	world  []game.Event
}

// newClient starts a client on a new loopback host with a fresh identity;
// tweak adjusts its options.
func newClient(t *testing.T, name string, tweak func(*Options)) *tclient {
	t.Helper()
	return newClientOn(t, name, transport.Options{}, tweak)
}

// newClientOn is newClient on a host built with hopt (listen addresses and
// logger are the test's; the identity too, unless hopt names one).
func newClientOn(t *testing.T, name string, hopt transport.Options, tweak func(*Options)) *tclient {
	t.Helper()
	if hopt.Identity == nil {
		k, _, err := crypto.GenerateEd25519Key(nil)
		if err != nil {
			t.Fatal(err)
		}
		hopt.Identity = k
	}
	hopt.Logger = testLog()
	hopt.Listen = []string{"/ip4/127.0.0.1/tcp/0", "/ip4/127.0.0.1/udp/0/quic-v1"}
	h, err := transport.NewHost(t.Context(), hopt)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	opt := Options{Host: h, GameVersion: testVersion, Logger: testLog(),
		ReplayDir: filepath.Join(dir, "replays"), ReportDir: filepath.Join(dir, "desync"), SaveDir: filepath.Join(dir, "saves"),
		Session: session.Config{CountdownTicks: 2}, JoinTimeout: 10 * time.Second}
	if tweak != nil {
		tweak(&opt)
	}
	c, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	tc := &tclient{Client: c, t: t, name: name, dir: dir}
	t.Cleanup(func() {
		c.Close()
		h.Close()
	})
	return tc
}

// collect drains the client's events and world events into the logs.
func (c *tclient) collect() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.events = c.Events(c.events)
	c.world = c.WorldEvents(c.world)
}

// find returns the first collected event of kind that ok accepts.
func (c *tclient) find(kind client.EventKind, ok func(client.Event) bool) (client.Event, bool) {
	c.collect()
	c.mu.Lock()
	defer c.mu.Unlock()
	i := slices.IndexFunc(c.events, func(e client.Event) bool { return e.Kind == kind && (ok == nil || ok(e)) })
	if i < 0 {
		return client.Event{}, false
	}
	return c.events[i], true
}

// await waits, d at most, for an event of kind that ok accepts (nil: any)
// and returns it; what names it when the wait fails.
func (c *tclient) await(what string, d time.Duration, kind client.EventKind, ok func(client.Event) bool) client.Event {
	c.t.Helper()
	var e client.Event
	testwait.For(c.t, what, d, func() bool {
		var found bool
		e, found = c.find(kind, ok)
		return found
	})
	return e
}

func (c *tclient) all(kind client.EventKind) []client.Event {
	c.collect()
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []client.Event
	for _, e := range c.events {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

func (c *tclient) lobby() session.Lobby {
	l, _ := c.Lobby()
	return l
}

// turn is the turn of the client's world, -1 before the game loads.
func (c *tclient) turn() int {
	t := -1
	c.View(func(w *game.World, _ time.Time) { t = w.Turn() })
	return t
}

// list puts the session c hosts into browser b under id.
func list(t *testing.T, b *Static, c *tclient, id string) {
	t.Helper()
	li, addr, ok := c.Listing(id)
	if !ok {
		t.Fatalf("%s is in no session to list", c.name)
	}
	b.Add(li, addr)
}
