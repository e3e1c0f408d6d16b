package network

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"

	"hostfall/client"
	"hostfall/internal/testwait"
	"hostfall/p2p"
	"hostfall/session"
)

// startWithSetup is Start as the commands call it, on loopback, with inet (nil:
// a LAN peer).
func startWithSetup(t *testing.T, name string, inet *p2p.InternetConfig) *Client {
	t.Helper()
	dir := t.TempDir()
	su := Setup{IdentityPath: filepath.Join(dir, name+".key"), Listen: []string{"/ip4/127.0.0.1/tcp/0"}, Internet: inet}
	opt := Options{GameVersion: testVersion, Logger: testLog(), ReplayDir: filepath.Join(dir, "replays"),
		ReportDir: filepath.Join(dir, "desync"), SaveDir: filepath.Join(dir, "saves"),
		Session: session.Config{CountdownTicks: 2}, JoinTimeout: 20 * time.Second}
	c, err := Start(t.Context(), su, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// A LAN peer starts nothing of internet play: its host has no DHT, and a
// short code is refused with what to do.
func TestStartLANOnly(t *testing.T) {
	c := startWithSetup(t, "lan", nil)
	if c.opt.Host.Internet() != nil {
		t.Fatal("a LAN peer started internet play")
	}
	_, err := c.opt.ResolveCode(t.Context(), p2p.CodeFor("x", nil).String())
	if !errors.Is(err, p2p.ErrNoInternet) {
		t.Fatalf("a short code on a LAN peer: %v", err)
	}
}

// Ann hosts with internet play on a DHT of loopback servers: her status
// offers a short code once it is published; Bo, who knows only the code,
// joins her lobby with it.
func TestStartInternetShortCode(t *testing.T) {
	t.Parallel()
	var boot []p2p.AddrInfo
	for range 8 {
		k, _, err := crypto.GenerateEd25519Key(nil)
		if err != nil {
			t.Fatal(err)
		}
		n, err := p2p.NewDHTNode(t.Context(), k, []string{"/ip4/127.0.0.1/tcp/0"}, boot[:min(len(boot), 1)])
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { n.Close() })
		if len(boot) > 0 {
			if err := n.Host.LibP2P().Connect(t.Context(), boot[0]); err != nil {
				t.Fatal(err)
			}
		}
		boot = append(boot, n.Host.AddrInfo())
	}
	inet := &p2p.InternetConfig{Bootstrap: boot[:2], RelayWait: 200 * time.Millisecond}
	ann := startWithSetup(t, "ann", inet)
	if err := ann.Create(client.CreateOptions{Name: "Internet night", PlayerName: "Ann", MaxPlayers: 2, MapSize: 64}); err != nil {
		t.Fatal(err)
	}
	var code string
	testwait.For(t, "Ann's short code", 15*time.Second, func() bool { code = ann.Status().Invite; return code != "" })
	if !p2p.IsShortCode(code) {
		t.Fatalf("Ann offers %q, not a short code", code)
	}
	bo := startWithSetup(t, "bo", &p2p.InternetConfig{Bootstrap: boot[5:6]})
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	if err := bo.JoinCode(code, client.JoinOptions{PlayerName: "Bo"}); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "Bo in Ann's lobby by the short code "+code, 20*time.Second, func() bool { return ctx.Err() == nil && bo.Slot() == 1 })
}
