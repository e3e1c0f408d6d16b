package render

import (
	"errors"
	"fmt"
	"image"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gopxl/pixel/v2"
	"github.com/gopxl/pixel/v2/backends/opengl"

	"hostfall/client"
	"hostfall/client/fake"
	"hostfall/client/library"
	"hostfall/client/offline"
	"hostfall/game/ai"
	"hostfall/internal/testwait"
	"hostfall/p2p/transport"
	"hostfall/render/ui"
	"hostfall/savegame"
	"hostfall/session"
)

// The browser's Quick game, Load game and Replays, driven by synthetic
// input on real clients (offline, network on loopback, playback) and the
// real library over files in a temporary data dir, in an 800×600 window.

// libHarness is an 800×600 window of App on c with lib, drawn live (the
// clients run on the wall clock).
func libHarness(t *testing.T, c Client, lib Library) *sizedHarness {
	t.Helper()
	testWindow(t)
	cv := opengl.NewCanvas(pixel.R(0, 0, 800, 600))
	a, err := NewApp(cv, 800, 600, c, Options{PlayerName: "Ann", Library: lib})
	if err != nil {
		t.Fatal(err)
	}
	return &sizedHarness{harness: &harness{t: t, a: a, now: time.Now()}, cv: cv}
}

// noFiles is a library with no saves and no replays: the browser's
// shots show its Load game and Replays.
type noFiles struct{}

func (noFiles) Saves() []client.SaveInfo     { return nil }
func (noFiles) Replays() []client.ReplayInfo { return nil }
func (noFiles) OpenReplay(string) (Client, error) {
	return nil, errors.New("no replays here")
}

// live draws a frame at the wall clock's time.
func (h *sizedHarness) live(set func(in *ui.Input)) {
	h.now = time.Now()
	h.frame(set)
	time.Sleep(5 * time.Millisecond)
}

// until draws frames until cond holds (at most ~15 s).
func (h *sizedHarness) until(what string, cond func() bool) {
	h.t.Helper()
	for range 1500 {
		if cond() {
			return
		}
		h.live(nil)
	}
	h.t.Fatalf("timed out waiting for %s", what)
}

func (h *sizedHarness) click(r ui.Rect) {
	h.live(func(in *ui.Input) { in.Click(ui.MouseLeft, r.Center()) })
}

// Quick game: one click, and a game against three easy bots is under way.
func TestQuickGameFromTheBrowser(t *testing.T) {
	c := offline.New(offline.Options{Name: "Ann", Countdown: 1})
	defer c.Close()
	h := libHarness(t, c, nil)
	h.live(nil)
	if !drawnStrings(h.a)["Quick game"] {
		t.Fatal("the browser shows no Quick game button")
	}
	if drawnStrings(h.a)["Load game"] {
		t.Error("Load game shows without a library to list the saves")
	}
	h.click(quickButton(h.a.w))
	h.until("the game under way", func() bool { return h.a.screen == scrGame && c.Status().Turn > 0 })
	l, _ := c.Lobby()
	var bots []ai.Level
	for _, s := range l.Slots {
		if s.Kind == session.SlotBot {
			bots = append(bots, ai.Level(s.BotLevel))
		}
	}
	if !slices.Equal(bots, ai.Quick()) || len(l.Slots) != len(bots)+1 {
		t.Errorf("the quick game has %d slots and the bots %v; want the player and %v", len(l.Slots), bots, ai.Quick())
	}
}

// soloSave plays a few turns of Ann against a bot offline and saves them.
func soloSave(t *testing.T, dir string) string {
	t.Helper()
	c := offline.New(offline.Options{Name: "Ann", Countdown: 1, SaveDir: dir})
	defer c.Close()
	if err := client.Skirmish(c, client.CreateOptions{Name: "Evening", PlayerName: "Ann", MapSize: 64}, []uint8{uint8(ai.Easy)}, true); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "the game to save to run", 10*time.Second, func() bool { return c.Status().Turn >= 5 })
	path, err := c.Save()
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// Load game: two saves, one damaged (listed greyed with its reason, and
// not loadable); the good one, a game of Ann and Bo, opens its lobby
// hosted on the network client, Bo's slot waiting for him.
func TestLoadGameFromTheBrowser(t *testing.T) {
	testWindow(t)
	transport.RouteLibp2pLogs(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError + 4}))
	saves := t.TempDir()
	path := soloSave(t, t.TempDir())
	sv, err := savegame.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sv.Lobby.Slots[1] = session.Slot{Kind: session.SlotHuman, Peer: "12D3KooWBo", Name: "Bo", Color: 1, Ready: true}
	if _, err := savegame.WriteFile(saves, sv); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(saves, "Broken-20260101-120000.hfsave"), []byte("HFSAVE\x01\x00not a game"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := loopbackClientOn(t, transport.Options{}, nil, nil)
	h := libHarness(t, c, &library.Library{SaveDir: saves, ReplayDir: t.TempDir()})
	h.live(nil)
	h.click(loadButton(h.a.w))
	f := &h.a.files
	if f.kind != filesSaves || len(f.rows) != 2 {
		t.Fatalf("Load game shows list %v with %d rows, want the saves' with 2", f.kind, len(f.rows))
	}
	good, bad := 0, 1
	if f.rows[0].problem != "" {
		good, bad = 1, 0
	}
	if f.rows[good].problem != "" || !strings.Contains(f.rows[bad].problem, "damaged") || f.rows[good].players != "Ann and Bo" {
		t.Fatalf("rows %+v: want one good save of Ann and Bo, one damaged", f.rows)
	}
	h.click(f.lay.row(bad))
	h.live(nil)
	img := h.shot("browser-loadgame-800x600")
	if p := append(textProblems(h.a), modalProblems(h.a)...); len(p) > 0 {
		t.Errorf("text problems:\n%s", strings.Join(p, "\n"))
	}
	checkGreyed(t, img, f.lay.row(bad))
	h.click(f.lay.open) // a damaged save cannot be loaded
	if _, ok := c.Lobby(); ok || f.kind != filesSaves {
		t.Fatal("Load took a damaged save")
	}
	h.click(f.lay.row(good))
	h.click(f.lay.open)
	h.until("the resumed game's lobby", func() bool { return h.a.screen == scrLobby })
	l, _ := c.Lobby()
	if l.Resume == 0 || len(l.Slots) < 2 || l.Slots[1].Name != "Bo" || l.Slots[1].Ready || c.Slot() != 0 {
		t.Fatalf("lobby resume %d, slots %+v, mine %d: want the save's, Bo's slot waiting", l.Resume, l.Slots, c.Slot())
	}
	if f.kind != filesClosed {
		t.Error("the list stays open over the lobby")
	}
}

// checkGreyed fails unless row r's text is grey (no bright text).
func checkGreyed(t *testing.T, img *image.RGBA, r ui.Rect) {
	t.Helper()
	r.Min.X += 4 // the selection's stripe
	if n := count(img, r, bright); n > 0 {
		t.Errorf("the damaged save's row has %d pixels of bright text; want it greyed", n)
	}
	if n := count(img, r, like(rgb8(colGreyed), 12)); n < 40 {
		t.Errorf("the damaged save's row has %d greyed pixels", n)
	}
}

// Replays: a recorded game and a damaged file; the good one opens in the
// viewer, and closing the viewer comes back to the browser on the
// browser's own client.
func TestReplaysFromTheBrowser(t *testing.T) {
	testWindow(t)
	dir := t.TempDir()
	data, err := fake.Replay(7, 2, 64, 300)
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"20260101-120000-game-abc.hfreplay": data, "20260102-120000-cut-abc.hfreplay": data[:len(data)/2]} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := offline.New(offline.Options{Name: "Ann"})
	defer c.Close()
	h := libHarness(t, c, &library.Library{SaveDir: t.TempDir(), ReplayDir: dir})
	h.live(nil)
	h.click(replaysButton(h.a.w))
	f := &h.a.files
	if f.kind != filesReplays || len(f.rows) != 2 {
		t.Fatalf("Replays shows list %v with %d rows, want the replays' with 2", f.kind, len(f.rows))
	}
	good := 0
	if f.rows[0].problem != "" {
		good = 1
	}
	if r := f.rows[good]; r.problem != "" || r.extra != "0:15" || f.rows[1-good].problem == "" {
		t.Fatalf("rows %+v: want a good replay of 0:15 (300 turns of 50 ms) and a damaged one", f.rows)
	}
	h.click(f.lay.row(good))
	h.live(nil)
	h.shot("browser-replays-800x600")
	if p := append(textProblems(h.a), modalProblems(h.a)...); len(p) > 0 {
		t.Errorf("text problems:\n%s", strings.Join(p, "\n"))
	}
	h.click(f.lay.open)
	h.until("the replay viewer", func() bool { return h.a.screen == scrGame && h.a.game.rp != nil && h.a.game.rp.ctl != nil })
	if h.a.home != Client(c) {
		t.Fatal("the browser's client is not kept while the replay plays")
	}
	h.live(func(in *ui.Input) { in.Press(ui.KeyF10) })
	g := h.a.game
	if m := g.ui.Menu(); !g.ui.MenuOpen || m[len(m)-1].Label != "Close the replay" {
		t.Fatalf("menu open %v: %+v", g.ui.MenuOpen, m)
	}
	h.click(g.ui.Layout.MenuButton(len(g.ui.Menu()) - 1))
	h.until("the browser again", func() bool { return h.a.screen == scrBrowser })
	if h.a.Quit() || h.a.cl != Client(c) || h.a.home != nil {
		t.Fatalf("after closing the replay: quit %v, on the browser's client %v", h.a.Quit(), h.a.cl == Client(c))
	}
	h.live(nil)
	if !drawnStrings(h.a)["Replays"] {
		t.Error("the browser is not drawn after the replay")
	}

	// Again, to its end: the end screen's "Close the replay" comes back too.
	h.click(replaysButton(h.a.w))
	h.click(f.lay.row(good))
	h.click(f.lay.open)
	h.until("the replay viewer again", func() bool { return h.a.screen == scrGame && h.a.game.rp != nil && h.a.game.rp.ctl != nil })
	h.a.game.rp.cl.Seek(1)
	var end ui.Rect
	h.until("the end of the replay", func() bool {
		for _, b := range h.a.game.ends {
			if b.choice == endCloseReplay {
				end = b.r
				return true
			}
		}
		return false
	})
	h.click(end)
	h.until("the browser after the end", func() bool { return h.a.screen == scrBrowser })
	if h.a.Quit() || h.a.cl != Client(c) {
		t.Fatalf("after the end screen's Close the replay: quit %v, on the browser's client %v", h.a.Quit(), h.a.cl == Client(c))
	}
}

// Load game of a solo save (Ann and a bot) on the network client: no
// lobby to wait in, the game plays on from the saved turn.
func TestLoadSoloGameFromTheBrowser(t *testing.T) {
	testWindow(t)
	transport.RouteLibp2pLogs(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError + 4}))
	saves := t.TempDir()
	path := soloSave(t, saves)
	sv, err := savegame.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := loopbackClientOn(t, transport.Options{}, nil, nil)
	h := libHarness(t, c, &library.Library{SaveDir: saves, ReplayDir: t.TempDir()})
	h.live(nil)
	h.click(loadButton(h.a.w))
	f := &h.a.files
	if len(f.rows) != 1 || f.rows[0].problem != "" {
		t.Fatalf("rows %+v, want the one save", f.rows)
	}
	row := f.lay.row(0)
	h.click(row)
	h.click(row) // a double-click loads it
	h.until("the game from the saved turn on", func() bool { return h.a.screen == scrGame && c.Status().Turn > sv.Turn() })
}

// The list's input without a window: the wheel and the arrow keys scroll
// (the selection stays in view), a damaged file cannot be opened, a
// double-click or Enter opens a good one, Back closes.
func TestFilesInput(t *testing.T) {
	f := &filesView{kind: filesReplays, sel: -1}
	for i := range 40 {
		r := fileRow{path: fmt.Sprint(i), name: fmt.Sprint("game ", i)}
		if i == 1 {
			r.problem = "replay file is truncated"
		}
		f.rows = append(f.rows, r)
	}
	f.lay.set(800, 600)
	shown := f.lay.shown
	if shown < 5 || shown >= 40 {
		t.Fatalf("%d rows fit at 800×600", shown)
	}
	mouse := f.lay.list.Center()
	for _, tc := range []struct {
		what     string
		in       ui.Input
		open     int
		top, sel int
	}{
		{"wheel down", ui.Input{Mouse: mouse, Scroll: -2}, -1, 6, -1},
		{"wheel far up", ui.Input{Mouse: mouse, Scroll: 10}, -1, 0, -1},
		{"wheel far down", ui.Input{Mouse: mouse, Scroll: -100}, -1, 40 - shown, -1},
		{"Down selects the first and shows it", keyIn(ui.KeyDown), -1, 0, 0},
		{"Down again: the damaged one", keyIn(ui.KeyDown), -1, 0, 1},
		{"Enter on it opens nothing", keyIn(ui.KeyEnter), -1, 0, 1},
		{"Up", keyIn(ui.KeyUp), -1, 0, 0},
		{"Enter opens the first", keyIn(ui.KeyEnter), 0, 0, 0},
		{"Back", clickIn(f.lay.back.Center(), t0), -2, 0, 0},
		{"click row 2", clickIn(f.lay.row(2).Center(), t0), -1, 0, 2},
		{"double-click it", clickIn(f.lay.row(2).Center(), t0.Add(100*time.Millisecond)), 2, 0, 2},
	} {
		if got := f.input(&tc.in); got != tc.open || f.top != tc.top || f.sel != tc.sel {
			t.Fatalf("%s: open %d, top %d, selected %d; want %d, %d, %d", tc.what, got, f.top, f.sel, tc.open, tc.top, tc.sel)
		}
	}
	for range shown + 3 { // down past the last row shown: the list follows
		in := keyIn(ui.KeyDown)
		f.input(&in)
	}
	if f.sel != shown+5 || f.top != f.sel-shown+1 {
		t.Fatalf("selected %d with rows %d… shown; want the selection the last row shown", f.sel, f.top)
	}
}

func keyIn(k ui.Key) ui.Input {
	var in ui.Input
	in.Press(k)
	return in
}

func clickIn(p ui.Vec, now time.Time) ui.Input {
	in := ui.Input{Now: now}
	in.Click(ui.MouseLeft, p)
	return in
}

// shelf is a library of fixed lists (the shots of every size).
type shelf struct {
	saves   []client.SaveInfo
	replays []client.ReplayInfo
}

func (s shelf) Saves() []client.SaveInfo     { return s.saves }
func (s shelf) Replays() []client.ReplayInfo { return s.replays }
func (shelf) OpenReplay(string) (Client, error) {
	return nil, errors.New("no replays here")
}

func fullShelf() shelf {
	var s shelf
	for i := range 24 {
		at := t0.Add(-time.Duration(i) * 26 * time.Hour)
		players := []string{"Ann", "Bo", "Bot 3", "Bot 4"}
		if i%3 == 0 {
			players = []string{"Annabelle the Magnificent", "Bartholomew", "Bot 3", "Bot 4", "Bot 5", "Bot 6", "Bot 7", "Bot 8"}
		}
		s.saves = append(s.saves, client.SaveInfo{Path: fmt.Sprint(i), Name: fmt.Sprint("Friday LAN party, round ", i+1), At: at,
			Players: players, Turn: uint64(1200 + 733*i), Time: 1100 + 700*i})
		s.replays = append(s.replays, client.ReplayInfo{Path: fmt.Sprint(i), Name: fmt.Sprint("Skirmish ", i+1), At: at,
			Players: players, Turns: uint64(9000 * (i + 1)), Length: time.Duration(i+1) * 7 * time.Minute})
	}
	s.saves[2].Problem = "save file is damaged: it fails its checksum (cut off or changed)"
	s.saves[2].Name = "Broken-20250529-180000.hfsave"
	s.replays[1].Problem = "replay file is truncated: record 166 is cut off (no end record)"
	return s
}

// The lists in windows of every size, full enough to scroll: no text
// overlaps or leaves the window, the columns' headers show whole.
func TestShotFilesSizes(t *testing.T) {
	for _, sz := range shotSizes {
		for _, kind := range []filesKind{filesSaves, filesReplays} {
			name := fmt.Sprintf("browser-%s-%dx%d", map[filesKind]string{filesSaves: "loadgame", filesReplays: "replays"}[kind], sz.w, sz.h)
			if sz.w == 800 {
				name += "-full" // the live tests take the 800×600 ones
			}
			t.Run(name, func(t *testing.T) {
				h := newSizedHarness(t, fake.New(), sz.w, sz.h)
				h.a.opt.Library = fullShelf()
				h.frame(nil)
				h.a.openFiles(kind)
				h.frame(nil)
				h.frame(func(in *ui.Input) { in.Click(ui.MouseLeft, h.a.files.lay.row(2).Center()) })
				h.frame(nil)
				h.shot(name)
				if p := append(textProblems(h.a), modalProblems(h.a)...); len(p) > 0 {
					t.Errorf("text problems:\n%s", strings.Join(p, "\n"))
				}
				drawn := map[string]bool{}
				for _, tl := range h.a.overTxt {
					for _, b := range tl.boxes {
						drawn[b.s] = true
					}
				}
				for _, want := range []string{filesTitle[kind], "Game", "Date", "Players", filesExtra[kind], "Back", filesOpen[kind]} {
					if !drawn[want] {
						t.Errorf("%q is not drawn whole", want)
					}
				}
			})
		}
	}
}
