package p2p

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// jsPointDir holds the third-party rendezvous point the tests run
// (scripts/deps.sh installs its packages).
const jsPointDir = "../tools/rendezvous-js"

// startJSPoint runs a rendezvous point we did not write: canvas-js's
// @canvas-js/libp2p-rendezvous on js-libp2p, in node, on loopback. It
// stops with the test (its stdin closes).
func startJSPoint(t *testing.T) peer.AddrInfo {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed; run scripts/deps.sh")
	}
	if _, err := os.Stat(filepath.Join(jsPointDir, "node_modules", "@canvas-js", "libp2p-rendezvous")); err != nil {
		t.Skipf("the JS rendezvous point's packages are not installed (%v); run scripts/deps.sh", err)
	}
	cmd := exec.Command(node, "server.js")
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
	ai, err := ParseAddr(addr)
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
