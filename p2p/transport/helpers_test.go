package transport

import (
	"log/slog"
	"os"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
)

func init() {
	if os.Getenv("HOSTFALL_TEST_LOG") == "" {
		// go-libp2p logs an error when a closing host's listener stops; quiet.
		RouteLibp2pLogs(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError + 4}))
	}
}

// testLog is quiet unless HOSTFALL_TEST_LOG is set.
func testLog() *slog.Logger {
	level := slog.LevelError
	if os.Getenv("HOSTFALL_TEST_LOG") != "" {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
}

func writeFile(path string, b []byte) error { return os.WriteFile(path, b, 0o600) }

// newTestHost starts a host on loopback TCP with a fresh identity.
func newTestHost(t testing.TB) *Host {
	t.Helper()
	return newTestHostAt(t, "127.0.0.1")
}

// newTestHostAt starts a host on loopback address ip (127.0.0.0/8), which
// is also the source of its connections (go-libp2p dials from the port it
// listens on), so tests can have peers at several addresses.
func newTestHostAt(t testing.TB, ip string) *Host {
	t.Helper()
	k, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHost(t.Context(), Options{Identity: k, Listen: []string{"/ip4/" + ip + "/tcp/0", "/ip4/" + ip + "/udp/0/quic-v1"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}
