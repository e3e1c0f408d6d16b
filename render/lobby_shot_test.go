package render

import (
	"fmt"
	"image"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopxl/pixel/v2"
	"github.com/gopxl/pixel/v2/backends/opengl"

	"hostfall/client"
	"hostfall/client/fake"
	"hostfall/render/ui"
	"hostfall/session"
)

// Window sizes the screens must lay out for: the smallest we support, the
// default, a wide one.
var shotSizes = []struct{ w, h int }{{800, 600}, {1024, 768}, {1280, 800}}

// sizedHarness draws into a w×h canvas, so the one test window (1024×768)
// takes pictures of any window size.
type sizedHarness struct {
	*harness
	cv *opengl.Canvas
}

func newSizedHarness(t *testing.T, c Client, w, h int) *sizedHarness {
	t.Helper()
	testWindow(t) // the GL context, or skip
	cv := opengl.NewCanvas(pixel.R(0, 0, float64(w), float64(h)))
	a, err := NewApp(cv, float64(w), float64(h), c, Options{PlayerName: "Ann", Library: noFiles{}})
	if err != nil {
		t.Fatal(err)
	}
	return &sizedHarness{harness: &harness{t: t, a: a, now: t0}, cv: cv}
}

// shot takes the picture of the last frame and saves it as NAME.png in
// the artifact directory (and testdata/shots with -update).
func (h *sizedHarness) shot(name string) *image.RGBA {
	h.t.Helper()
	img := canvasImage(h.cv)
	save(h.t, filepath.Join(h.t.ArtifactDir(), name+".png"), img)
	if *update {
		save(h.t, filepath.Join("testdata", "shots", name+".png"), img)
	}
	return img
}

// textProblems lists the strings of a's last frame (outside its modal
// layer) whose boxes overlap another's or leave the window.
func textProblems(a *App) []string {
	var boxes []textBox
	for _, t := range a.text {
		boxes = append(boxes, t.boxes...)
	}
	return boxProblems(boxes, a.w, a.h)
}

// boxProblems lists the boxes that overlap by more than a pixel, or leave
// a w×h window.
func boxProblems(boxes []textBox, w, h float64) []string {
	var out []string
	for i, b := range boxes {
		if b.r.Min.X < 0 || b.r.Min.Y < 0 || b.r.Max.X > w || b.r.Max.Y > h {
			out = append(out, fmt.Sprintf("%q at %v leaves the %.0f×%.0f window", b.s, b.r, w, h))
		}
		for _, c := range boxes[i+1:] {
			if b.r.Inset(1).Intersects(c.r.Inset(1)) {
				out = append(out, fmt.Sprintf("%q at %v overlaps %q at %v", b.s, b.r, c.s, c.r))
			}
		}
	}
	return out
}

func TestBoxProblems(t *testing.T) {
	box := func(s string, x, y, w, h float64) textBox { return textBox{s, ui.XYWH(x, y, w, h)} }
	for _, tt := range []struct {
		name  string
		boxes []textBox
		want  int
	}{
		{"side by side", []textBox{box("Player", 10, 10, 50, 18), box("Slot", 60, 10, 30, 18)}, 0},
		{"lines one under the other", []textBox{box("a", 10, 10, 50, 18), box("b", 10, 28, 50, 18)}, 0},
		{"headers over each other", []textBox{box("Player", 10, 10, 50, 18), box("Slot", 40, 12, 30, 18)}, 1},
		{"cut off at the bottom", []textBox{box("slot 8", 10, 590, 50, 18)}, 1},
		{"off the left", []textBox{box("x", -3, 10, 20, 18)}, 1},
	} {
		if got := boxProblems(tt.boxes, 800, 600); len(got) != tt.want {
			t.Errorf("%s: %q, want %d problems", tt.name, got, tt.want)
		}
	}
}

// eightSlots is a full lobby of eight: three players (a long name among
// them), four bots in two teams, an open slot.
func eightSlots() session.Lobby {
	l := fake.Lobby("Friday LAN party", 8)
	l.MapSeed, l.MapSize, l.Password, l.AwayBot = 4821, 96, true, 1
	l.Slots[0] = session.Slot{Kind: session.SlotHuman, Peer: "ann", Name: "Ann", Color: 0, Team: 1, Ready: true}
	l.Slots[1] = session.Slot{Kind: session.SlotHuman, Peer: "bo", Name: "Bo", Color: 1, Team: 2}
	l.Slots[2] = session.Slot{Kind: session.SlotHuman, Peer: "cy", Name: "Cyrillus the Magnificent", Color: 2, Team: 1, Ready: true}
	for i := 3; i < 7; i++ {
		l.Slots[i] = session.Slot{Kind: session.SlotBot, Name: fmt.Sprintf("Bot %d", i+1), Color: uint8(i), Team: uint8(1 + i%2), Ready: true, BotLevel: uint8(i % 3)}
	}
	l.Slots[7] = session.Slot{Kind: session.SlotOpen, Color: 7}
	return l
}

// The lobby with its map choice in windows of every size, as the host and
// as a guest sees it: every slot's row, no text over other text or out of
// the window, names whole where they fit.
func TestShotLobbySizes(t *testing.T) {
	for _, sz := range shotSizes {
		for _, who := range []struct {
			name string
			me   int
		}{{"host", 0}, {"guest", 1}} {
			name := fmt.Sprintf("lobby-%s-%dx%d", who.name, sz.w, sz.h)
			t.Run(name, func(t *testing.T) {
				c := fake.New()
				l := eightSlots()
				c.SetLobby(l, who.me)
				c.SetStatus(client.NetStatus{Online: true, Host: "Ann", Peers: []client.PeerStatus{
					{Name: "Ann", Slot: 0, Host: true, Self: who.me == 0}, {Name: "Bo", Slot: 1, Self: who.me == 1}, {Name: "Cyrillus", Slot: 2}}})
				c.Push(client.Event{Kind: client.EvChat, Name: "Bo", Text: "hi all, ready in a minute"},
					client.Event{Kind: client.EvChat, Name: "Cyrillus the Magnificent", Text: "bots on team 2 are mine"})
				h := newSizedHarness(t, c, sz.w, sz.h)
				h.frame(nil)
				h.frame(nil)
				img := h.shot(name)
				ls := h.a.lobby
				checkSlots(t, img, &ls.lay, l)
				checkPreview(t, img, ls, l)
				if p := textProblems(h.a); len(p) > 0 {
					t.Errorf("text problems:\n%s", strings.Join(p, "\n"))
				}
				drawn := drawnStrings(h.a)
				wants := []string{"Ann  (you)", "Bo", "Bot 4", "Bot 7", "Seed 4821", "Size 96×96", "Normal", "Easy bot plays"}
				if who.me == 1 {
					wants[0], wants[1] = "Ann", "Bo  (you)"
				}
				for _, want := range wants {
					if !drawn[want] {
						t.Errorf("%q is not drawn whole", want)
					}
				}
				if who.me == 0 {
					if ls.v.start != "Waiting for Bo to be ready." {
						t.Errorf("the host's start is held by %q", ls.v.start)
					}
					textIn(t, img, "why Start is greyed", ls.lay.reason, 60)
				}
			})
		}
	}
}

// drawnStrings is the set of strings a's last frame drew (outside its
// modal layer).
func drawnStrings(a *App) map[string]bool {
	out := map[string]bool{}
	for _, ts := range [][numFonts]*textLayer{a.text, a.floatTxt} {
		for _, t := range ts {
			for _, b := range t.boxes {
				out[b.s] = true
			}
		}
	}
	return out
}

// The browser in windows of every size: the games' names whole, no text
// over other text.
func TestShotBrowserSizes(t *testing.T) {
	for _, sz := range shotSizes {
		name := fmt.Sprintf("browser-%dx%d", sz.w, sz.h)
		t.Run(name, func(t *testing.T) {
			c := fake.New()
			c.SetSessions(twoSessions()...)
			h := newSizedHarness(t, c, sz.w, sz.h)
			h.frame(nil)
			h.frame(nil)
			h.shot(name)
			if p := textProblems(h.a); len(p) > 0 {
				t.Errorf("text problems:\n%s", strings.Join(p, "\n"))
			}
			drawn := drawnStrings(h.a)
			for _, want := range []string{"Friday LAN party", "Ranked practice", "Ann", "Bo", "no password"} {
				if !drawn[want] {
					t.Errorf("%q is not drawn whole", want)
				}
			}
		})
	}
}

// The lobby's layout fits every window size without a window: all eight
// rows, nothing of a row over another thing of it, no control of the
// settings over another, the panels apart.
func TestLobbyLayoutFits(t *testing.T) {
	for _, sz := range append(shotSizes, struct{ w, h int }{1920, 1080}) {
		for _, invite := range []int{0, 2} {
			var l lobbyLayout
			w, h := float64(sz.w), float64(sz.h)
			l.set(w, h, invite, 8)
			where := fmt.Sprintf("%.0f×%.0f with %d invite lines", w, h, invite)
			if len(l.rows) != 8 {
				t.Errorf("%s: %d of 8 rows", where, len(l.rows))
				continue
			}
			apart(t, where, []ui.Rect{l.slots, l.setup, l.chat, l.buttons})
			apart(t, where, []ui.Rect{l.preview, l.seed, l.size, l.random, l.speed, l.away})
			apart(t, where, []ui.Rect{l.leave, l.reason, l.start})
			for i, r := range l.rows {
				apart(t, fmt.Sprintf("%s, row %d", where, i), []ui.Rect{r.swatch, r.name, r.kind, r.team, r.ready, r.kick})
				if r.row.Max.Y > l.slots.Max.Y || r.name.W() < 100 {
					t.Errorf("%s: row %d at %v, its name %.0f wide, in the table %v", where, i, r.row, r.name.W(), l.slots)
				}
			}
			if l.buttons.Max.Y > h || l.chat.H() < 120 {
				t.Errorf("%s: buttons %v, chat %v", where, l.buttons, l.chat)
			}
		}
	}
}

// apart fails when two of rs overlap.
func apart(t *testing.T, where string, rs []ui.Rect) {
	t.Helper()
	for i, a := range rs {
		for j, b := range rs[i+1:] {
			if a.Intersects(b) {
				t.Errorf("%s: %v (%d) overlaps %v (%d)", where, a, i, b, i+1+j)
			}
		}
	}
}

// The browser's layout fits every window size: the create panel holds its
// fields and buttons, nothing under the table overlaps.
func TestBrowserLayoutFits(t *testing.T) {
	for _, sz := range append(shotSizes, struct{ w, h int }{1920, 1080}) {
		var l browserLayout
		l.set(float64(sz.w), float64(sz.h), 2, barRejoin)
		where := fmt.Sprintf("%d×%d", sz.w, sz.h)
		for _, r := range []ui.Rect{l.name, l.gameName, l.password, l.fewer, l.more, l.internet, l.createBtn} {
			if r.Intersect(l.create) != r {
				t.Errorf("%s: %v sticks out of the create panel %v", where, r, l.create)
			}
		}
		apart(t, where, []ui.Rect{l.table, l.create, l.join, l.code, l.joinCode})
		apart(t, where, []ui.Rect{l.name, l.gameName, l.password, l.fewer, l.players, l.more, l.internet, l.createBtn})
		if w := l.col(tcHost) - l.col(tcGame); w < 140 {
			t.Errorf("%s: the games' names get %.0f pixels", where, w)
		}
	}
}
