package network

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hostfall/client"
	"hostfall/internal/codeform"
	"hostfall/internal/dhtlab"
	"hostfall/internal/testwait"
	"hostfall/p2p/codes"
	"hostfall/p2p/transport"
	"hostfall/session"
)

// startWithSetup is Start as the commands call it, on loopback, with inet (nil:
// a LAN peer).
func startWithSetup(t *testing.T, name string, inet *codes.InternetConfig) *Client {
	t.Helper()
	return startWith(t, name, Wiring{Internet: inet})
}

// startWith is Start with wi, on loopback, its identity in a directory of the test.
func startWith(t *testing.T, name string, wi Wiring) *Client {
	t.Helper()
	dir := t.TempDir()
	wi.IdentityPath, wi.Listen = filepath.Join(dir, name+".key"), []string{"/ip4/127.0.0.1/tcp/0"}
	opt := Options{GameVersion: testVersion, Logger: testLog(), ReplayDir: filepath.Join(dir, "replays"),
		ReportDir: filepath.Join(dir, "desync"), SaveDir: filepath.Join(dir, "saves"),
		Session: session.Config{CountdownTicks: 2}, JoinTimeout: 20 * time.Second}
	c, err := Start(t.Context(), wi, opt)
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
	if codes.On(c.opt.Host) != nil {
		t.Fatal("a LAN peer started internet play")
	}
	_, err := c.opt.ResolveCode(t.Context(), codes.CodeFor("x", nil).String())
	if !errors.Is(err, codes.ErrNoInternet) {
		t.Fatalf("a short code on a LAN peer: %v", err)
	}
}

// Ann hosts with internet play on a DHT of loopback servers: her status
// offers a short code once it is published; Bo, who knows only the code,
// joins her lobby with it.
func TestStartInternetShortCode(t *testing.T) {
	t.Parallel()
	boot := dhtlab.Loopback(t, 8)
	inet := &codes.InternetConfig{Bootstrap: boot[:2], RelayWait: 200 * time.Millisecond}
	ann := startWithSetup(t, "ann", inet)
	if err := ann.Create(client.CreateOptions{Name: "Internet night", PlayerName: "Ann", MaxPlayers: 2, MapSize: 64}); err != nil {
		t.Fatal(err)
	}
	var code string
	testwait.For(t, "Ann's short code", 15*time.Second, func() bool { code = ann.Status().Invite; return code != "" })
	if !codeform.IsShort(code) {
		t.Fatalf("Ann offers %q, not a short code", code)
	}
	bo := startWithSetup(t, "bo", &codes.InternetConfig{Bootstrap: boot[5:6]})
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	if err := bo.JoinCode(code, client.JoinOptions{PlayerName: "Bo"}); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "Bo in Ann's lobby by the short code "+code, 20*time.Second, func() bool { return ctx.Err() == nil && bo.Slot() == 1 })
}

// The window's client (Wiring.InternetWhenAsked) stays off the public
// network until the player asks: a LAN game publishes nothing; a short
// code typed into the browser starts internet play and, for a code nobody
// published, answers "no game with that code"; a game created with
// Internet gets a short code that another window's client joins by.
func TestInternetWhenAsked(t *testing.T) {
	t.Parallel()
	boot := dhtlab.Loopback(t, 8)
	ann := startWith(t, "ann", Wiring{InternetWhenAsked: &codes.InternetConfig{Bootstrap: boot[:2], RelayWait: 200 * time.Millisecond}})
	bo := startWith(t, "bo", Wiring{InternetWhenAsked: &codes.InternetConfig{Bootstrap: boot[5:6]}})
	for _, c := range []*Client{ann, bo} {
		if codes.On(c.opt.Host) != nil {
			t.Fatal("internet play started before anyone asked for it")
		}
		if got := c.Status().Internet; got != (client.InternetStatus{Available: true}) {
			t.Fatalf("before any ask the status says %+v", got)
		}
	}

	// A code nobody published: Bo's client goes on the internet, looks, and says so.
	missing := codes.CodeFor("nobody", nil).String()
	if err := bo.JoinCode(missing, client.JoinOptions{PlayerName: "Bo"}); err != nil {
		t.Fatal(err)
	}
	var refusal string
	testwait.For(t, "Bo told the code finds no game", 30*time.Second, func() bool {
		for _, ev := range bo.Events(nil) {
			if ev.Kind == client.EvRefused {
				refusal = ev.Text
			}
		}
		return refusal != ""
	})
	if !strings.HasPrefix(refusal, "No game with that code: check it") {
		t.Errorf("the refusal of a missing code says %q", refusal)
	}
	if st := bo.Status().Internet; !st.On || !st.Failed || st.Text != refusal {
		t.Errorf("after the missing code Bo's status is %+v, want on the internet and the refusal", st)
	}
	if codes.On(bo.opt.Host) == nil {
		t.Fatal("a short code did not start internet play")
	}

	// Ann's internet game: published, its short code in her status.
	if err := ann.Create(client.CreateOptions{Name: "Asked for", PlayerName: "Ann", MaxPlayers: 2, MapSize: 64, Internet: true}); err != nil {
		t.Fatal(err)
	}
	var code string
	testwait.For(t, "Ann's short code", 20*time.Second, func() bool { code = ann.Status().Invite; return code != "" })
	if !codeform.IsShort(code) {
		t.Fatalf("Ann offers %q, not a short code", code)
	}
	if st := ann.Status().Internet; !st.On || !strings.Contains(st.Text, "friends type its code "+code) {
		t.Errorf("Ann's status once published: %+v", st)
	}
	if err := bo.JoinCode(strings.ToLower(code), client.JoinOptions{PlayerName: "Bo"}); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "Bo in Ann's lobby by "+code, 30*time.Second, func() bool { return bo.Slot() == 1 })
	testwait.For(t, "Bo told how he reached Ann", 5*time.Second, func() bool {
		return bo.Status().Internet.Text == "Connected directly to the host" // loopback: no relay between them
	})
}

// A LAN game of the window's client touches nothing of the internet, and
// a client with a relay of its own refuses an internet game in a sentence.
func TestInternetNotAsked(t *testing.T) {
	t.Parallel()
	c := startWith(t, "lan", Wiring{InternetWhenAsked: &codes.InternetConfig{Bootstrap: dhtlab.Loopback(t, 1)}}) // never the public list
	if err := c.Create(client.CreateOptions{Name: "LAN only", PlayerName: "Cy", MaxPlayers: 2, MapSize: 64}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if codes.On(c.opt.Host) != nil || c.Status().Invite != "" || c.Status().Internet.On {
		t.Fatalf("a LAN game went on the internet: %+v", c.Status().Internet)
	}
	lan := startWithSetup(t, "plain", nil)
	err := lan.Create(client.CreateOptions{Name: "x", PlayerName: "Di", Internet: true})
	if !errors.Is(err, ErrNoInternetPlay) {
		t.Fatalf("an internet game on a client without internet play: %v", err)
	}
}

func TestProgressText(t *testing.T) {
	code := codes.CodeFor("x", nil)
	for _, tt := range []struct {
		p      codes.Progress
		want   string
		failed bool
	}{
		{codes.Progress{Step: "publishing", Relays: 3}, "publishing your game… (3 relays)", false},
		{codes.Progress{Step: "publishing", Relays: 1}, "publishing your game… (1 relay)", false},
		{codes.Progress{Step: "published", Code: code, Relays: 3}, "your game is on the internet (3 relays): friends type its code " + code.String() + " into their game list", false},
		{codes.Progress{Step: "found", Code: code, Relays: 2}, "found " + code.String() + ": connecting through a relay", false},
		{codes.Progress{Step: "found", Code: code}, "found " + code.String() + ": connecting", false},
		{codes.Progress{Step: "finding", Code: code}, "finding " + code.String() + "…", false},
		{codes.Progress{Step: "relayed-only"}, "no direct path to the other player was found: public relays only introduce players, they do not carry games, so this connection ends within a couple of minutes; to play, use a relay of your own (one of you runs hostfall relay on a machine both can reach, and you both start with --relay), or forward a port to this machine; in a game of three or more, a player who reaches you both relays for you by itself", true},
		{codes.Progress{Step: "unheard-of"}, "", false},
	} {
		got, failed := ProgressText(tt.p)
		if got != tt.want || failed != tt.failed {
			t.Errorf("%s: %q (failed %v), want %q (%v)", tt.p.Step, got, failed, tt.want, tt.failed)
		}
	}
}

// The screens' sentences for how the game is carried: relayed, then
// direct; a joiner that got in says how it reached the host.
func TestInternetPathText(t *testing.T) {
	ip := &inetPlay{in: codes.NewInternet(codes.InternetConfig{Bootstrap: dhtlab.Loopback(t, 1)})}
	for _, tt := range []struct {
		do   func()
		want string
	}{
		{func() { ip.onPath("", transport.PathRelayed) }, "Connected through a relay — trying to go direct"},
		{func() { ip.onPath("", transport.PathDirect) }, "Direct — the game no longer goes through a relay"},
		{func() { ip.joined("") }, "Connected directly to the host"},
	} {
		tt.do()
		if st := ip.status(); st.Text != tt.want || st.Failed || !st.Available {
			t.Errorf("status %+v, want %q", st, tt.want)
		}
	}
	if got, _ := ip.path("not a peer ID"); got != client.PathUnknown {
		t.Errorf("an ID that does not parse is reached %v", got)
	}
	var none *inetPlay
	if got := none.status(); got != (client.InternetStatus{}) {
		t.Errorf("a client without internet play says %+v", got)
	}
}
