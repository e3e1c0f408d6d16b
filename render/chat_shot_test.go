package render

import (
	"strings"
	"testing"

	"hostfall/client"
	"hostfall/client/fake"
	"hostfall/render/ui"
	"hostfall/session"
)

// longNotice is what the network client says at a game's end: one word
// (the path) wider than the chat panel.
const longNotice = "Replay saved to /root/.local/share/hostfall/replays/2026-11-27T10-41-07-friday-lan-party-Ann-Bo.hfreplay; the game's replay goes on in another file."

// TestShotChatFreshAndWrapped: a new lobby starts with an empty chat (the
// lines of the game before stay there), and a line longer than the panel,
// a path among it, wraps inside it instead of running past its border;
// in the game, it wraps too rather than being cut.
func TestShotChatFreshAndWrapped(t *testing.T) {
	c := fake.New()
	h := newHarness(t, c)
	h.frame(nil)
	h.a.addChat(chatLine{name: "Bo", text: "gg, that was close"})
	h.a.addChat(chatLine{sys: true, text: "Bo left the game."})
	h.frame(nil)

	l := fake.Lobby("Friday LAN party", 2)
	l.Slots[0] = session.Slot{Kind: session.SlotHuman, Name: "Ann", Color: 0}
	c.SetLobby(l, 0)
	c.Push(client.Event{Kind: client.EvChat, Name: "Cy", Text: "hi all"})
	h.frame(nil)
	if h.a.screen != scrLobby {
		t.Fatalf("screen %v, want the lobby", h.a.screen)
	}
	var got []string
	for _, ln := range h.a.chat {
		got = append(got, chatText(ln))
	}
	if strings.Join(got, " | ") != "Cy: hi all" {
		t.Fatalf("the new lobby's chat %q; want only what was said in it", got)
	}
	h.a.addChat(chatLine{sys: true, text: longNotice})
	h.frame(nil)
	h.shot("lobby-long-chat")
	panel := h.a.lobby.lay.chat
	lines := 0
	for _, b := range h.a.text[fontSmall].boxes {
		if !panel.Contains(b.r.Min) {
			continue
		}
		if strings.Contains(longNotice, b.s) && len(b.s) > 4 {
			lines++
		}
		if b.r.Max.X > panel.Max.X-8 {
			t.Errorf("%q at %v runs past the chat panel %v", b.s, b.r, panel)
		}
	}
	if lines < 3 {
		t.Errorf("the long line took %d lines, want it wrapped over several", lines)
	}

	c2, _ := duelClient(t, 300, 0, 0)
	h2 := newHarness(t, c2)
	h2.frame(nil)
	h2.a.addChat(chatLine{sys: true, text: longNotice})
	h2.frame(nil)
	h2.frame(func(in *ui.Input) { in.Press(ui.KeyEnter) })
	h2.shot("game-long-chat")
	chat := h2.a.game.ui.Layout.Chat
	var shown []string
	for _, b := range h2.a.text[fontSmall].boxes {
		if b.r.Min.X == chat.Min.X && strings.Contains(longNotice, b.s) {
			shown = append(shown, b.s)
			if b.r.Max.X > chat.Max.X+1 {
				t.Errorf("%q at %v runs past the chat %v", b.s, b.r, chat)
			}
		}
	}
	if strings.Join(shown, "") == "" || strings.Contains(strings.Join(shown, ""), "…") || len(shown) < 2 {
		t.Errorf("the game's chat shows %q; want the whole line, wrapped", shown)
	}
}
