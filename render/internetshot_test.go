package render

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"hostfall/client"
	"hostfall/client/fake"
	"hostfall/render/ui"
)

// internetSizes are the window sizes the internet screens are checked at:
// the smallest supported and a large one.
var internetSizes = []struct{ w, h int }{{800, 600}, {1280, 800}}

// The browser of a client that can play over the internet, with no game on
// the LAN: the "Internet game" checkbox, off, and the hint that says what it
// is for; a click ticks it and Create game asks for an internet game; the
// client's progress shows in the status line, a failure in red, and no text
// runs over other text.
func TestShotInternetBrowser(t *testing.T) {
	for _, sz := range internetSizes {
		name := fmt.Sprintf("browser-internet-%dx%d", sz.w, sz.h)
		t.Run(name, func(t *testing.T) {
			c := fake.New()
			c.SetStatus(client.NetStatus{Online: true, Internet: client.InternetStatus{Available: true}})
			h := newSizedHarness(t, c, sz.w, sz.h)
			h.frame(nil)
			h.frame(nil)
			b := h.a.browser
			img := h.shot(name)
			noProblems(t, h.a)
			drawn := drawnStrings(h.a)
			for _, want := range []string{"Internet game", "Create game", "No games found yet. Create one, or join with an invite code."} {
				if !drawn[want] {
					t.Errorf("%q is not drawn whole", want)
				}
			}
			if !slices.ContainsFunc(keys(drawn), func(s string) bool {
				return strings.Contains(s, "Internet game") && strings.HasPrefix(s, "Nobody else on this network?")
			}) {
				t.Error("the empty table does not say how to play with friends elsewhere")
			}
			box := ui.XYWH(b.lay.internet.Min.X, b.lay.internet.Min.Y+2, 18, 18)
			if n := count(img, box.Inset(4), like(rgb8(colAccent), 20)); n > 0 {
				t.Fatalf("the checkbox is ticked before a click (%d pixels)", n)
			}

			h.frame(func(in *ui.Input) { in.Click(ui.MouseLeft, b.lay.internet.Center()) })
			h.frame(nil)
			img = h.shot(name + "-ticked")
			if !b.internet {
				t.Fatal("a click did not tick Internet game")
			}
			if n := count(img, box.Inset(4), like(rgb8(colAccent), 20)); n < 60 {
				t.Errorf("the ticked checkbox shows %d pixels of its mark", n)
			}

			c.SetStatus(client.NetStatus{Online: true, Internet: client.InternetStatus{Available: true, On: true, Text: "Publishing your game… (3 relays)"}})
			h.frame(nil)
			if b.msg != "Publishing your game… (3 relays)" || b.msgErr {
				t.Errorf("the status line says %q (error %v)", b.msg, b.msgErr)
			}
			failed := "No game with that code: check it with the host (8 letters and digits like K7Q2-9XPM; case and dashes do not matter) — a code stops working when its game ends."
			c.SetStatus(client.NetStatus{Online: true, Internet: client.InternetStatus{Available: true, On: true, Failed: true, Text: failed}})
			h.frame(nil)
			img = h.shot(name + "-failed")
			if b.msg != failed || !b.msgErr {
				t.Errorf("the status line says %q (error %v), want the failure in red", b.msg, b.msgErr)
			}
			noProblems(t, h.a)
			if n := count(img, b.lay.bottom, like(rgb8(colBad), 30)); n < 100 {
				t.Errorf("the failure has %d red pixels", n)
			}

			h.frame(func(in *ui.Input) { in.Click(ui.MouseLeft, b.lay.createBtn.Center()) })
			if calls := c.Calls(); !slices.Contains(calls, "create Ann's game (internet)") {
				t.Errorf("Create game with the box ticked called %q", calls)
			}
		})
	}
}

// A client without internet play (offline, a relay of one's own) shows no
// checkbox, and its create asks for no internet game.
func TestBrowserNoInternetBox(t *testing.T) {
	c := fake.New()
	h := newSizedHarness(t, c, 800, 600)
	h.frame(nil)
	if drawnStrings(h.a)["Internet game"] {
		t.Error("the checkbox shows on a client that cannot play over the internet")
	}
	b := h.a.browser
	h.frame(func(in *ui.Input) { in.Click(ui.MouseLeft, b.lay.internet.Center()) })
	if b.internet {
		t.Error("a click where the checkbox would be ticked it")
	}
}

// A short code typed into the code field asks the client to find it on
// the internet, and the status line says so at once; a long one is an
// invite code as before.
func TestBrowserInputShortCode(t *testing.T) {
	for _, tt := range []struct{ typed, code, wait string }{
		{"k7q2-9xpm", "k7q2-9xpm", "Finding K7Q2-9XPM on the internet…"},
		{" K7Q29XPM ", "K7Q29XPM", "Finding K7Q29XPM on the internet…"},
		{"HF1-" + strings.Repeat("a", 90), "HF1-" + strings.Repeat("a", 90), "Joining by invite code…"},
	} {
		b := browserFor()
		enter := ui.Input{}
		enter.Press(ui.KeyEnter)
		b.input(ptr(click(b.lay.code.Center())))
		b.input(&ui.Input{Typed: tt.typed})
		got := b.input(&enter)
		want := []browserIntent{{act: browserJoinCode, code: tt.code, join: client.JoinOptions{PlayerName: "Ann"}, wait: tt.wait}}
		if !slices.Equal(got, want) {
			t.Errorf("%q: intents %+v, want %+v", tt.typed, got, want)
		}
	}
}

// The lobby of an internet game: the host sees the short code big and
// whole beside its label, can copy it with Ctrl+C, and the slot table
// makes room for it and the line of progress under it; a guest sees how
// the host is reached; the network panel (F3) says it for each player.
func TestShotInternetLobby(t *testing.T) {
	const code = "K7Q2-9XPM"
	for _, sz := range internetSizes {
		for _, who := range []struct {
			name string
			me   int
			st   client.NetStatus
		}{
			{"host", 0, client.NetStatus{Online: true, Host: "Ann", Invite: code, Internet: client.InternetStatus{Available: true, On: true,
				Text: "Your game is on the internet (3 relays): friends type its code " + code + " into their game list"}, Peers: []client.PeerStatus{
				{Name: "Ann", Slot: 0, Host: true, Self: true}, {Name: "Bo", Slot: 1, PingMillis: 41, Path: client.PathDirect},
				{Name: "Cyrillus", Slot: 2, PingMillis: 180, Path: client.PathRelayed}}}},
			{"failed", 0, client.NetStatus{Online: true, Host: "Ann", Internet: client.InternetStatus{Available: true, Failed: true,
				Text: "Could not reach the public libp2p network: check this machine's internet connection, or start Hostfall with --bootstrap naming DHT peers that answer (or play through a relay of your own with --relay)."},
				Peers: []client.PeerStatus{{Name: "Ann", Slot: 0, Host: true, Self: true}}}},
			{"guest", 1, client.NetStatus{Online: true, Host: "Ann", Internet: client.InternetStatus{Available: true, On: true,
				Text: "Connected through a relay — trying to go direct"}, Peers: []client.PeerStatus{
				{Name: "Ann", Slot: 0, Host: true, PingMillis: 180, Path: client.PathRelayed}, {Name: "Bo", Slot: 1, Self: true}}}},
			// Hole punching failed: a public relay carries the game, its
			// circuit renewed three times so far.
			{"limited", 1, client.NetStatus{Online: true, Host: "Ann", Internet: client.InternetStatus{Available: true, On: true,
				Text: "Connected through a relay — trying to go direct"}, Peers: []client.PeerStatus{
				{Name: "Ann", Slot: 0, Host: true, PingMillis: 180.4, Path: client.PathRelayed, Limited: true, Renewed: 3},
				{Name: "Bo", Slot: 1, Self: true}}}},
			// No direct path to the host, but a player of the game relays.
			{"player-relay", 1, client.NetStatus{Online: true, Host: "Ann", Internet: client.InternetStatus{Available: true, On: true,
				Text: "Connected through a relay that carries games (another player's of this game, or your own) — trying to go direct"}, Peers: []client.PeerStatus{
				{Name: "Ann", Slot: 0, Host: true, PingMillis: 80.2, Path: client.PathRelayed, Via: "Cyrillus"},
				{Name: "Bo", Slot: 1, Self: true}, {Name: "Cyrillus", Slot: 2, PingMillis: 40.1, Path: client.PathDirect}}}},
		} {
			name := fmt.Sprintf("lobby-internet-%s-%dx%d", who.name, sz.w, sz.h)
			t.Run(name, func(t *testing.T) {
				c := fake.New()
				c.SetLobby(eightSlots(), who.me)
				c.SetStatus(who.st)
				h := newSizedHarness(t, c, sz.w, sz.h)
				h.frame(nil)
				h.frame(nil)
				img := h.shot(name)
				noProblems(t, h.a)
				ls := h.a.lobby
				drawn := drawnStrings(h.a)
				if got := strings.Join(ls.v.netLines, " "); got != who.st.Internet.Text {
					t.Errorf("the progress shows as %q, want %q whole", got, who.st.Internet.Text)
				}
				for _, line := range ls.v.netLines {
					if !drawn[line] {
						t.Errorf("the progress line %q is not drawn whole", line)
					}
				}
				lines := len(ls.v.netLines)
				if who.st.Invite != "" {
					lines += inviteShortLines
					if !drawn[code] || !ls.v.short {
						t.Errorf("the short code is not drawn whole (short %v)", ls.v.short)
					}
					x := 32 + h.a.text[fontSmall].width("Invite code") + 12
					if n := count(img, ui.XYWH(x, 86, h.a.text[fontTitle].width(code), 28), like(rgb8(colAccent), 40)); n < 300 {
						t.Errorf("the short code has %d pixels of its big letters", n)
					}
					var copied string
					h.a.clip = func(s string) { copied = s }
					h.frame(func(in *ui.Input) { in.Press(ui.KeyCtrl); in.Press(ui.KeyC) })
					if copied != code {
						t.Errorf("Ctrl+C copied %q, want %q", copied, code)
					}
				}
				if want := 96 + inviteLineH*float64(lines); ls.lay.slots.Min.Y != want {
					t.Errorf("the slots start at %v, want %v under the code and the progress", ls.lay.slots.Min.Y, want)
				}
				checkSlots(t, img, &ls.lay, eightSlots())

				h.frame(func(in *ui.Input) { in.Press(ui.KeyF3) })
				h.frame(nil)
				h.shot(name + "-net")
				drawn = drawnStrings(h.a)
				wants := []string{"internet (public libp2p network)", "via relay"}
				switch who.name {
				case "failed":
					wants = []string{"LAN (the internet failed)", "—"}
				case "limited":
					wants = []string{"internet (public libp2p network)", "relay · renewed 3", "180.4 ms"}
				case "player-relay":
					wants = []string{"internet (public libp2p network)", "via Cyrillus's relay", "direct"}
				}
				for _, want := range wants {
					if !drawn[want] {
						t.Errorf("the network panel does not show %q", want)
					}
				}
			})
		}
	}
}

// noProblems fails on text over other text or out of the window.
func noProblems(t *testing.T, a *App) {
	t.Helper()
	if p := textProblems(a); len(p) > 0 {
		t.Errorf("text problems:\n%s", strings.Join(p, "\n"))
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func ptr[T any](v T) *T { return &v }
