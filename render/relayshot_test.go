package render

import (
	"image/color"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"

	"hostfall/client"
	"hostfall/client/network"
	"hostfall/internal/codeform"
	"hostfall/internal/testwait"
	"hostfall/p2p/codes"
	"hostfall/p2p/relay"
	"hostfall/p2p/transport"
	"hostfall/render/ui"
	"hostfall/session"
)

// The browser and the lobby with a real relay on loopback: Ann's window
// client hosts through the relay; Bo's browser lists a LAN game and, from
// the relay's directory, Ann's. The shot shows Bo's browser ("relay" in
// the relay's blue); Bo joins Ann's game with a double-click, and Ann's
// lobby shows the short code friends on the relay type, big, as in an
// internet game (a second shot); Ctrl+C copies the long code, which
// works for friends without the relay too.
func TestShotRelayBrowser(t *testing.T) {
	testWindow(t) // skip early without a display
	transport.RouteLibp2pLogs(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError + 4}))
	relay := loopbackRelay(t)
	ann := relayClient(t, relay, nil)
	if err := ann.Create(client.CreateOptions{Name: "Relay night", PlayerName: "Ann", MaxPlayers: 4, MapSeed: 7, MapSize: 64}); err != nil {
		t.Fatal(err)
	}
	lan := &network.Static{}
	lan.Add(client.Listing{ID: "lan-1", Name: "Friday LAN party", Host: "Cy", Players: 2, Max: 8, Source: client.SourceLAN}, transport.AddrInfo{})
	bo := relayClient(t, relay, lan)
	testwait.For(t, "Ann's game in Bo's browser", 15*time.Second, func() bool { return len(bo.Sessions()) == 2 })

	h := newHarness(t, bo)
	h.frame(nil)
	h.frame(nil)
	img := h.shot("browser-relay")
	l := h.a.browser.lay
	row := func(i int) ui.Rect {
		return ui.XYWH(l.list.Min.X+1, l.list.Min.Y+float64(i)*l.rowH, l.list.W()-2, l.rowH)
	}
	where := func(i int) ui.Rect { r := row(i); return ui.R(colX(l.table, -60), r.Min.Y, r.Max.X, r.Max.Y) }
	for i, name := range []string{"the LAN game", "Ann's game"} {
		r := row(i)
		textIn(t, img, name, ui.R(colX(l.table, 34), r.Min.Y, colX(l.table, 34)+90, r.Max.Y), 60)
		if n := count(img, where(i), func(c color.RGBA) bool { return like(rgb8(colDim), 12)(c) || like(rgb8(colRelay), 12)(c) }); n < 10 {
			t.Errorf("%s: %d pixels of text in the Where column", name, n)
		}
	}
	if n := count(img, where(0), like(rgb8(colRelay), 30)); n > 0 {
		t.Errorf("the LAN game's Where column has %d pixels of the relay's blue", n)
	}
	if n := count(img, where(1), like(rgb8(colRelay), 30)); n < 15 {
		t.Errorf("Ann's game's Where column has %d pixels of the relay's blue, want the word relay", n)
	}
	if got := bo.Sessions()[1]; got.Source != client.SourceRelay || got.Name != "Relay night" {
		t.Fatalf("the second listing is %+v, want Ann's game from the relay", got)
	}

	// Bo joins Ann's game from the list, through the relay.
	h.a.browser.name.Text = "Bo"
	h.frame(func(in *ui.Input) { in.Click(ui.MouseLeft, row(1).Center()) })
	h.frame(func(in *ui.Input) { in.Click(ui.MouseLeft, row(1).Center()) })
	testwait.For(t, "Bo in Ann's lobby", 20*time.Second, func() bool { return bo.Slot() == 1 })
	testwait.For(t, "Ann's short code", 15*time.Second, func() bool { return ann.Status().InviteLong != "" })
	testwait.For(t, "Bo in Ann's view of the lobby", 10*time.Second, func() bool {
		lb, _ := ann.Lobby()
		return lb.Slots[1].Kind == session.SlotHuman
	})

	ha := newHarness(t, ann)
	ha.frame(nil)
	ha.frame(nil)
	img = ha.shot("lobby-invite")
	ls := ha.a.lobby
	st := ann.Status()
	code, long := st.Invite, st.InviteLong
	if _, err := codes.ParseCode(code); err != nil || !strings.HasPrefix(long, codeform.LongPrefix) {
		t.Fatalf("Ann's codes %q and %q, want a short code and the long one: %v", code, long, err)
	}
	noProblems(t, ha.a)
	if !ls.v.short || len(ls.v.invite) != 0 || !drawnStrings(ha.a)[code] {
		t.Errorf("the short code %q is not drawn whole and alone (short %v, long lines %q)", code, ls.v.short, ls.v.invite)
	}
	x := 32 + ha.a.text[fontSmall].width("Invite code") + 12
	if n := count(img, ui.XYWH(x, 86, ha.a.text[fontTitle].width(code), 28), like(rgb8(colAccent), 40)); n < 300 {
		t.Errorf("the short code has %d pixels of its big letters", n)
	}
	lay := ls.lay
	if want := 96 + inviteLineH*float64(inviteShortLines); lay.slots.Min.Y != want {
		t.Errorf("slots start at %v, want %v below the short code", lay.slots.Min.Y, want)
	}
	// Bo's row (slot 1) under the header of the table that made room.
	r := lay.rows[1]
	textIn(t, img, "Bo's name in slot 2", ui.R(r.name.Min.X, r.row.Min.Y, r.name.Min.X+36, r.row.Max.Y), 15)

	// Ctrl+C puts the long code on the clipboard, and the player is told
	// which code is for whom.
	var copied string
	ha.a.clip = func(s string) { copied = s }
	ha.frame(func(in *ui.Input) { in.Press(ui.KeyCtrl); in.Press(ui.KeyC) })
	if copied != long {
		t.Errorf("Ctrl+C copied %q, want the long invite code %q", copied, long)
	}
	if last := ha.a.chat[len(ha.a.chat)-1]; !last.sys || !strings.Contains(last.text, "clipboard") || !strings.Contains(last.text, code) {
		t.Errorf("after Ctrl+C the chat says %+v, want a notice of the copy naming the short code", last)
	}
}

// loopbackRelay runs a relay with its directory on a loopback host.
func loopbackRelay(t *testing.T) *transport.Host {
	t.Helper()
	k, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	h, err := transport.NewHost(t.Context(), transport.Options{Identity: k, Listen: []string{"/ip4/127.0.0.1/tcp/0"},
		Libp2p: relay.HostOptions(), Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	rs, err := relay.Start(h, relay.Options{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rs.Close() })
	return h
}

// relayClient is a network client on a loopback host that uses the relay
// as the window does with --relay; lan, if set, lists the LAN's games.
func relayClient(t *testing.T, relay *transport.Host, lan network.Browser) *network.Client {
	t.Helper()
	rc, err := transport.NewRelayClient(relay.Addrs()[0].String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return loopbackClientOn(t, rc.HostOptions(), lan, func(o *network.Options) {
		network.UseRelay(t.Context(), o, network.RelayOptions{Relay: rc, Every: 200 * time.Millisecond})
	})
}
