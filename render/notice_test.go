package render

import (
	"testing"
	"time"

	"hostfall/client"
	"hostfall/render/ui"
)

// A notice said again while it shows counts instead of stacking a line per
// key press; another notice, or the same one after it faded, is a new line;
// four lines at most.
func TestAddNotice(t *testing.T) {
	t0 := time.Unix(100, 0)
	gold := func(at time.Duration) notice { return notice{text: "Not enough gold.", err: true, at: t0.Add(at)} }
	var ns []notice
	for i := range 5 {
		ns = addNotice(ns, gold(time.Duration(i)*200*time.Millisecond))
	}
	if len(ns) != 1 || ns[0].times != 5 || !ns[0].at.Equal(t0.Add(800*time.Millisecond)) {
		t.Fatalf("five presses: %+v, want one line said 5 times, refreshed", ns)
	}
	ns = addNotice(ns, notice{text: "Nothing selected.", at: t0.Add(time.Second)})
	ns = addNotice(ns, gold(2*time.Second))
	if len(ns) != 3 || ns[2].times != 1 {
		t.Fatalf("after another notice: %+v, want a new gold line", ns)
	}
	ns = addNotice(ns, gold(2*time.Second+noticeTime))
	if len(ns) != 4 || ns[3].times != 1 {
		t.Fatalf("the same after it faded: %+v, want a new line", ns)
	}
	ns = addNotice(ns, notice{text: "x", at: t0.Add(20 * time.Second)})
	if len(ns) != 4 || ns[3].text != "x" {
		t.Fatalf("a fifth line: %+v, want the newest four", ns)
	}
}

// The game's notices stay clear of the chat: its open input line and its
// lines, a long system line among them (play-test: the input covered "We
// are under attack!", "Replay saved to …" ran over other notices).
func TestNoticesClearOfChat(t *testing.T) {
	for _, size := range shotSizes {
		h := newSizedHarness(t, gameClient(t), size.w, size.h)
		h.frame(nil)
		a := h.a
		a.addChat(chatLine{text: "Replay saved to /home/ann/.local/share/hostfall/replays/2025-06-01-skirmish-with-a-long-name.hfreplay.", sys: true, at: a.now})
		h.frame(func(in *ui.Input) { in.Press(ui.KeyEnter) })
		g := a.game
		g.notices = addNotice(g.notices, notice{text: "We are under attack!", err: true, at: a.now})
		g.notices = addNotice(g.notices, notice{text: "Not enough gold.", err: true, at: a.now})
		h.frame(nil)
		if !g.ui.ChatOpen {
			t.Fatal("Enter did not open the chat")
		}
		chat := g.ui.Layout.Chat
		var found int
		for _, b := range a.text[fontBold].boxes {
			if b.s != "We are under attack!" && b.s != "Not enough gold." {
				continue
			}
			found++
			if b.r.Intersects(chat) {
				t.Errorf("%v: notice %q at %v overlaps the chat at %v", size, b.s, b.r, chat)
			}
		}
		if found != 2 {
			t.Fatalf("%v: %d notices drawn, want 2", size, found)
		}
	}
}

// The network panel says a network game with nobody else in it is solo
// (play-test: it said "LAN / relay"), a LAN game LAN, and names a relay
// only when a player is reached through one.
func TestNetMode(t *testing.T) {
	me := client.PeerStatus{Name: "Ann", Self: true, Host: true}
	for _, tt := range []struct {
		st   client.NetStatus
		want string
	}{
		{client.NetStatus{}, "offline game (no network)"},
		{client.NetStatus{Online: true, Peers: []client.PeerStatus{me}}, "solo: no other players"},
		{client.NetStatus{Online: true, Peers: []client.PeerStatus{me, {Name: "Bo"}}}, "LAN"},
		{client.NetStatus{Online: true, Peers: []client.PeerStatus{me, {Name: "Bo", Path: client.PathDirect}}}, "LAN"},
		{client.NetStatus{Online: true, Peers: []client.PeerStatus{me, {Name: "Bo", Path: client.PathRelayed}}}, "relay"},
		{client.NetStatus{Online: true, Peers: []client.PeerStatus{me, {Name: "Bo", Path: client.PathRelayed}, {Name: "Cy"}}}, "LAN and relay"},
	} {
		if got := netMode(&tt.st); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.st, got, tt.want)
		}
	}
}
