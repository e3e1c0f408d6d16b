package relay

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/p2p/internal/p2ptest"
	"hostfall/p2p/rendezvous"
	"hostfall/p2p/transport"
)

// jsPointDir holds the third-party rendezvous point the tests run
// (scripts/deps.sh installs its packages).
const jsPointDir = "../../tools/rendezvous-js"

// jsTool finds node and the installed JS packages, or skips the test.
func jsTool(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed; run scripts/deps.sh --test")
	}
	if _, err := os.Stat(filepath.Join(jsPointDir, "node_modules", "@canvas-js", "libp2p-rendezvous")); err != nil {
		t.Skipf("the JS rendezvous packages are not installed (%v); run scripts/deps.sh --test", err)
	}
	return node
}

// startJSPoint runs a rendezvous point we did not write: canvas-js's
// @canvas-js/libp2p-rendezvous on js-libp2p, in node, on loopback. It
// stops with the test (its stdin closes).
func startJSPoint(t *testing.T) peer.AddrInfo {
	t.Helper()
	cmd := exec.Command(jsTool(t), "server.js")
	cmd.Dir = jsPointDir
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	line := make(chan string, 1)
	go func() {
		r := bufio.NewReader(out)
		s, _ := r.ReadString('\n')
		line <- s
		_, _ = io.Copy(io.Discard, r)
	}()
	var s string
	select {
	case s = <-line:
	case <-time.After(30 * time.Second):
		t.Fatal("the JS rendezvous point did not start within 30 s")
	}
	addr, ok := strings.CutPrefix(strings.TrimSpace(s), "listening ")
	if !ok {
		t.Fatalf("the JS rendezvous point said %q", s)
	}
	ai, err := transport.ParseAddr(addr)
	if err != nil {
		t.Fatalf("the JS rendezvous point's address %q: %v", addr, err)
	}
	return ai
}

// The directory served by a third-party rendezvous point: our hosts
// register there and our player lists and resolves them, as with our own.
func TestDirectoryThirdPartyPoint(t *testing.T) {
	directoryScenario(t, startJSPoint(t))
}

// Our rendezvous point serves a third-party client: canvas-js's registers
// and discovers a Go peer registered before it, and a Go peer discovers it.
func TestThirdPartyClientOnOurPoint(t *testing.T) {
	node := jsTool(t)
	relay, _ := newTestRelay(t, Options{})
	goPeer := p2ptest.NewHost(t)
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	const ns = "hostfall/interop"
	if _, err := rendezvous.Register(ctx, goPeer.LibP2P(), relay.AddrInfo(), ns, time.Minute, nil); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, node, "client.js", relay.Addrs()[0].String(), ns)
	cmd.Dir = jsPointDir
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the JS client: %v", err)
	}
	var got struct {
		ID    string
		TTL   int
		Peers []string
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("the JS client said %q: %v", out, err)
	}
	if got.TTL != 120 || !slices.Equal(got.Peers, []string{goPeer.ID().String()}) {
		t.Fatalf("the JS client was granted %d s and found %v; want 120 s and the Go peer %s", got.TTL, got.Peers, goPeer.ID())
	}
	regs, err := rendezvous.Discover(ctx, p2ptest.NewHost(t).LibP2P(), relay.AddrInfo(), ns, 0)
	if err != nil || len(regs) != 2 || regs[1].Peer.ID.String() != got.ID || len(regs[1].Peer.Addrs) == 0 {
		t.Fatalf("discovered %+v, %v; want the Go peer, then the JS client %s with its addresses", regs, err, got.ID)
	}
}
