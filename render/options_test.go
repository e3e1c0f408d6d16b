package render

import (
	"bytes"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopxl/pixel/v2"
	"github.com/gopxl/pixel/v2/backends/opengl"

	"hostfall/client/fake"
	"hostfall/client/playback"
	"hostfall/game"
	"hostfall/render/ui"
	"hostfall/session/replay"
	"hostfall/settings"
)

// optionsHarness is a w×h window whose settings come from, and are saved
// to, a settings file of the test's own; applied counts the settings the
// options made take effect.
type optionsHarness struct {
	*sizedHarness
	path    string
	applied []settings.Settings
}

func newOptionsHarness(t *testing.T, c Client, w, h int, howTo bool) *optionsHarness {
	t.Helper()
	testWindow(t)
	oh := &optionsHarness{path: filepath.Join(t.TempDir(), "hostfall", "settings.json")}
	s := settings.Load(oh.path, nil)
	s.Name = "Ann"
	o := Options{PlayerName: "Ann", Settings: &s, HowTo: howTo,
		SaveSettings: func(edit func(*settings.Settings)) error {
			saved := settings.Load(oh.path, nil)
			edit(&saved)
			return settings.Save(oh.path, saved)
		},
		OnSettings: func(s settings.Settings) { oh.applied = append(oh.applied, s) }}
	cv := opengl.NewCanvas(pixel.R(0, 0, float64(w), float64(h)))
	a, err := NewApp(cv, float64(w), float64(h), c, o)
	if err != nil {
		t.Fatal(err)
	}
	oh.sizedHarness = &sizedHarness{harness: &harness{t: t, a: a, now: t0}, cv: cv}
	return oh
}

func (h *optionsHarness) click(p ui.Vec) { h.frame(func(in *ui.Input) { in.Click(ui.MouseLeft, p) }) }
func (h *optionsHarness) key(k ui.Key)   { h.frame(func(in *ui.Input) { in.Press(k) }) }

// modalProblems lists the strings of the modal layer (the options, the
// how-to) that overlap or leave the window.
func modalProblems(a *App) []string {
	var boxes []textBox
	for _, t := range a.overTxt {
		boxes = append(boxes, t.boxes...)
	}
	return boxProblems(boxes, a.w, a.h)
}

// From the browser's Options button: a volume down by a step and by a
// click on its bar, a key taken by another command refused in a sentence,
// a free one taken, the colour; each change takes effect at once, Save
// writes them all and closes, and the file holds them.
func TestOptionsFromTheBrowser(t *testing.T) {
	c := fake.New()
	c.SetSessions(twoSessions()...)
	h := newOptionsHarness(t, c, 1024, 768, false)
	h.frame(nil)
	h.click(optionsButton(1024).Center())
	o := &h.a.options
	if !o.open {
		t.Fatal("the Options button did not open the options")
	}
	l := &o.lay
	h.click(l.vol[1].minus.Center()) // effects 100 → 95
	bar := l.vol[3].bar
	h.click(ui.V(bar.Min.X+bar.W()*0.25, bar.Center().Y)) // music → 25
	if d := o.draft.Volume; d.Effects != 95 || d.Music != 25 {
		t.Fatalf("volumes %+v, want effects 95, music 25", d)
	}
	if n := len(h.applied); n == 0 || h.applied[n-1].Volume.Music != 25 {
		t.Fatalf("the volume did not take effect at once: %d changes applied", n)
	}

	h.click(l.keys[ui.BindAttack].Center())
	h.key(ui.KeyS) // Stop's
	if !o.msgErr || !strings.Contains(o.msg, "S is already Stop") || o.keys[ui.BindAttack] != ui.KeyA {
		t.Fatalf("a clash: message %q (error %v), attack on %s", o.msg, o.msgErr, ui.KeyName(o.keys[ui.BindAttack]))
	}
	h.frame(nil)
	img := h.shot("options-refused")
	textIn(t, img, "the refusal", ui.R(l.panel.Min.X+20, l.msgY-10, l.save.Min.X, l.msgY+24), 40)
	h.key(ui.KeyQ)
	if o.listen || o.keys[ui.BindAttack] != ui.KeyQ || h.a.keys[ui.BindAttack] != ui.KeyQ {
		t.Fatalf("attack on %s (in effect %s), still listening %v", ui.KeyName(o.keys[ui.BindAttack]), ui.KeyName(h.a.keys[ui.BindAttack]), o.listen)
	}
	h.click(l.colorNext.Center()) // any → blue
	h.click(l.colorNext.Center()) // → red
	h.click(l.save.Center())
	if o.open {
		t.Fatalf("Save did not close the options: %q", o.msg)
	}
	s := settings.Load(h.path, nil)
	if s.Volume.Effects != 95 || s.Volume.Music != 25 || s.Volume.Master != 80 || s.Keys["attack"] != "Q" || s.Color != 1 || s.Name != "Ann" {
		t.Fatalf("the file holds %+v", s)
	}
}

// Back takes back what changed since the options opened; Escape is Back.
func TestOptionsBack(t *testing.T) {
	h := newOptionsHarness(t, fake.New(), 1024, 768, false)
	h.frame(nil)
	h.click(optionsButton(1024).Center())
	o := &h.a.options
	h.click(o.lay.vol[0].plus.Center())
	h.click(o.lay.sizeNext.Center())
	if h.a.settings.Volume.Master != 85 || h.a.display.w != 1280 {
		t.Fatalf("in effect: master %d, window %+v", h.a.settings.Volume.Master, h.a.display)
	}
	h.key(ui.KeyEscape)
	if o.open || h.a.settings.Volume.Master != 80 || h.a.display.w != 1024 || len(h.applied) < 3 {
		t.Fatalf("after Back: open %v, master %d, window %+v, applied %d", o.open, h.a.settings.Volume.Master, h.a.display, len(h.applied))
	}
	if _, err := filepath.Glob(h.path); err != nil || settings.Load(h.path, nil).Volume.Master != 80 {
		t.Fatal("Back wrote the file")
	}
}

// The options at every window size: nothing over anything else, nothing
// cut off; the pictures are kept (options-WxH.png).
func TestShotOptionsSizes(t *testing.T) {
	for _, sz := range shotSizes {
		name := fmt.Sprintf("options-%dx%d", sz.w, sz.h)
		t.Run(name, func(t *testing.T) {
			c := fake.New()
			c.SetSessions(twoSessions()...)
			h := newOptionsHarness(t, c, sz.w, sz.h, false)
			h.frame(nil)
			h.click(optionsButton(float64(sz.w)).Center())
			h.click(h.a.options.lay.keys[ui.BindTrainArcher].Center()) // a command waiting for its key
			h.frame(nil)
			img := h.shot(name)
			if p := modalProblems(h.a); len(p) > 0 {
				t.Errorf("text problems:\n%s", strings.Join(p, "\n"))
			}
			if p := textProblems(h.a); len(p) > 0 {
				t.Errorf("the browser under it:\n%s", strings.Join(p, "\n"))
			}
			l := &h.a.options.lay
			if l.panel.Min.X < 0 || l.panel.Max.Y > float64(sz.h) || l.resetKeys.Max.Y > l.back.Min.Y-4 {
				t.Errorf("the panel %v, reset %v, back %v do not fit", l.panel, l.resetKeys, l.back)
			}
			textIn(t, img, "the Master volume's label", ui.R(l.left.Min.X, l.vol[0].minus.Min.Y, l.left.Min.X+60, l.vol[0].minus.Max.Y), 30)
			drawn := map[string]bool{}
			for _, t := range h.a.overTxt {
				for _, b := range t.boxes {
					drawn[b.s] = true
				}
			}
			for _, want := range []string{"Options", "Master", "Music", "Full screen", "Ann", "Any free colour", "Build a workshop", "Research armor", "Save", "Back"} {
				if !drawn[want] {
					t.Errorf("%q is not drawn whole", want)
				}
			}
		})
	}
}

// The how-to shows over the first game (of one person against bots; see
// howto_test.go for a game with others) and takes the input until it is
// closed, which is saved; F1 shows it again. The pictures are kept
// (howto-WxH.png) at the smallest and a large size.
func TestHowTo(t *testing.T) {
	for _, sz := range shotSizes {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			c, _ := soloClient(t)
			h := newOptionsHarness(t, c, sz.w, sz.h, true)
			h.frame(nil)
			h.frame(nil)
			if !h.a.howTo.shown {
				t.Fatal("the how-to does not show on the first game")
			}
			img := h.shot(fmt.Sprintf("howto-%dx%d", sz.w, sz.h))
			if p := modalProblems(h.a); len(p) > 0 {
				t.Errorf("text problems:\n%s", strings.Join(p, "\n"))
			}
			hw := &h.a.howTo
			if hw.panel.Max.Y > float64(sz.h) || hw.panel.Min.X < 0 {
				t.Errorf("the how-to %v leaves the window", hw.panel)
			}
			textIn(t, img, "the how-to's lines", hw.panel.Inset(20), 800)
			h.key(ui.KeyEscape)
			if hw.shown || h.a.game.ui.MenuOpen {
				t.Fatalf("Escape: how-to shown %v, menu open %v; want the how-to closed and no menu", hw.shown, h.a.game.ui.MenuOpen)
			}
			if !settings.Load(h.path, nil).HowToSeen {
				t.Error("closing the how-to was not saved")
			}
			h.key(ui.KeyF1)
			if !hw.shown {
				t.Fatal("F1 does not show the how-to again")
			}
			h.click(hw.ok.Center())
			if hw.shown {
				t.Fatal("Got it does not close the how-to")
			}
		})
	}
}

// Hovering a card button shows its tool-tip: the command's name, its cost
// and the player's key for it.
func TestCardTip(t *testing.T) {
	c := gameClient(t)
	h := newOptionsHarness(t, c, 1024, 768, false)
	h.frame(nil)
	g := h.a.game
	var workers []game.UnitID
	for _, u := range g.sc.Units {
		if u.Own && u.Kind == game.Worker {
			workers = append(workers, u.ID)
		}
	}
	g.ui.Sel.Set(workers)
	if err := h.a.keys.Set(ui.BindBuildBarracks, ui.KeyX); err != nil {
		t.Fatal(err)
	}
	h.frame(nil)
	over := g.ui.Layout.Button(4).Center() // barracks
	h.frame(func(in *ui.Input) { in.Mouse, in.MouseIn = over, true })
	h.frame(func(in *ui.Input) { in.Mouse, in.MouseIn = over, true })
	tip := h.a.tip
	want := fmt.Sprintf("%d gold · key X", game.Barracks.Stats().Cost)
	if !tip.shown || tip.title != "Build barracks" || tip.cost != want {
		t.Fatalf("tip %+v, want Build barracks, %q", tip, want)
	}
	img := h.shot("card-tip")
	textIn(t, img, "the tip", ui.XYWH(tip.at.Min.X-20, tip.at.Min.Y-50, tip.at.W()+40, 44), 60)
}

// Entering a lobby asks for the preferred colour when nobody plays it,
// not when someone does; a name typed in the browser is saved then.
func TestPreferredColorAndTypedName(t *testing.T) {
	for _, tt := range []struct {
		name  string
		pref  int
		taken bool
		want  string // the client call, "" for none
	}{
		{"free", 3, false, `edit "Ann" color=3 team=1 ready=true`},
		{"taken by a bot", 2, true, ""},
		{"already mine", 0, false, ""},
		{"no preference", settings.NoColor, false, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := fake.New()
			h := newOptionsHarness(t, c, 1024, 768, false)
			h.a.settings.Color = tt.pref
			h.frame(nil)
			h.a.browser.name.Text = "Annie"
			l := fourSlots()
			if tt.taken {
				l.Slots[2].Color = uint8(tt.pref)
			}
			c.SetLobby(l, 0)
			h.frame(nil)
			h.frame(nil)
			var edits []string
			for _, call := range c.Calls() {
				if strings.HasPrefix(call, "edit") {
					edits = append(edits, call)
				}
			}
			switch {
			case tt.want == "" && len(edits) > 0:
				t.Errorf("asked %q", edits)
			case tt.want != "" && (len(edits) != 1 || edits[0] != tt.want):
				t.Errorf("asked %q, want %q once", edits, tt.want)
			}
			if s := settings.Load(h.path, nil); s.Name != "Annie" {
				t.Errorf("the typed name was not saved: %q", s.Name)
			}
		})
	}
}

// The in-game menu's Options entry opens the options over the game; Back
// returns to the menu, which stays open.
func TestOptionsFromTheGameMenu(t *testing.T) {
	h := newOptionsHarness(t, gameClient(t), 1024, 768, false)
	h.frame(nil)
	h.key(ui.KeyEscape)
	g := h.a.game
	if !g.ui.MenuOpen {
		t.Fatal("Escape did not open the menu")
	}
	entry := -1
	for i, it := range g.ui.Menu() {
		if it.Choice == ui.MenuOptions {
			entry = i
		}
	}
	if entry < 0 {
		t.Fatalf("the menu %+v has no Options", g.ui.Menu())
	}
	h.click(g.ui.Layout.MenuButton(entry).Center())
	if !h.a.options.open {
		t.Fatal("the menu's Options did not open the options")
	}
	h.click(h.a.options.lay.vol[2].minus.Center())
	h.frame(nil)
	h.shot("options-game")
	if p := modalProblems(h.a); len(p) > 0 {
		t.Fatalf("the menu shows through the options: %q", p)
	}
	h.key(ui.KeyEscape)
	if h.a.options.open || !g.ui.MenuOpen || h.a.settings.Volume.Voices != 100 {
		t.Fatalf("after Back: options open %v, menu open %v, voices %d", h.a.options.open, g.ui.MenuOpen, h.a.settings.Volume.Voices)
	}
}

// The replay viewer's menu has Options too, so the volume can be changed
// while watching; the replay stays paused under the options and Back
// returns to its menu.
func TestOptionsFromTheReplayMenu(t *testing.T) {
	data, err := fake.Replay(3, 2, 64, 400)
	if err != nil {
		t.Fatal(err)
	}
	r, err := replay.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c, err := playback.New(r, playback.Options{Follow: 1, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	h := newOptionsHarness(t, c, 1024, 768, false)
	h.frame(nil)
	h.key(ui.KeyEscape)
	g := h.a.game
	if g == nil || g.rp == nil || !g.ui.MenuOpen {
		t.Fatal("Escape did not open the replay's menu")
	}
	entry := -1
	for i, it := range g.ui.Menu() {
		if it.Choice == ui.MenuOptions {
			entry = i
		}
	}
	if entry < 0 {
		t.Fatalf("the replay's menu %+v has no Options", g.ui.Menu())
	}
	h.click(g.ui.Layout.MenuButton(entry).Center())
	if !h.a.options.open {
		t.Fatal("the replay menu's Options did not open the options")
	}
	h.click(h.a.options.lay.vol[0].minus.Center())
	h.frame(nil)
	h.shot("options-replay")
	if p := modalProblems(h.a); len(p) > 0 {
		t.Fatalf("the menu shows through the options: %q", p)
	}
	if h.a.settings.Volume.Master == 100 {
		t.Errorf("the master volume's minus left it at %d", h.a.settings.Volume.Master)
	}
	if st := c.Replay(); !st.Paused {
		t.Errorf("the replay plays on under its options: %+v", st)
	}
	h.key(ui.KeyEscape)
	if h.a.options.open || !g.ui.MenuOpen || !c.Replay().Paused {
		t.Fatalf("after Back: options open %v, menu open %v, replay %+v", h.a.options.open, g.ui.MenuOpen, c.Replay())
	}
}
