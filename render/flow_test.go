package render

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hostfall/client/offline"
	"hostfall/game"
	"hostfall/render/ui"
	"hostfall/session"
)

// TestOfflineFlow plays through the window against the offline client, in
// real time: create a game in the browser, put a bot in the lobby, start,
// then order the workers about on the battlefield and see them go.
func TestOfflineFlow(t *testing.T) {
	saves := t.TempDir()
	c := offline.New(offline.Options{Name: "Ann", Countdown: 2, SaveDir: saves})
	defer c.Close()
	h := newHarness(t, c)
	frame := func(set func(in *ui.Input)) {
		h.now = time.Now()
		h.frame(set)
		win.Update()
		time.Sleep(5 * time.Millisecond)
	}
	until := func(what string, cond func() bool) {
		t.Helper()
		for range 600 {
			if cond() {
				return
			}
			frame(nil)
		}
		t.Fatalf("timed out waiting for %s", what)
	}

	frame(nil)
	if h.a.screen != scrBrowser {
		t.Fatalf("the window opened on screen %v, want the browser", h.a.screen)
	}
	frame(func(in *ui.Input) { in.Click(ui.MouseLeft, h.a.browser.lay.createBtn.Center()) })
	until("the lobby", func() bool { return h.a.screen == scrLobby })
	frame(nil)
	frame(func(in *ui.Input) { in.Click(ui.MouseLeft, h.a.lobby.lay.rows[1].kind.Center()) })
	until("a bot in slot 1", func() bool {
		l, _ := c.Lobby()
		return len(l.Slots) > 1 && l.Slots[1].Kind == session.SlotBot
	})
	frame(nil)
	save(t, filepath.Join(t.ArtifactDir(), "flow-lobby.png"), Screenshot(win))
	frame(func(in *ui.Input) { in.Click(ui.MouseLeft, h.a.lobby.lay.start.Center()) })
	until("the game", func() bool { return h.a.screen == scrGame && h.a.game.sc != nil && c.Status().Turn > 0 })

	g := h.a.game
	var workers []*ui.Unit
	for i := range g.sc.Units {
		if u := &g.sc.Units[i]; u.Own && u.Kind == game.Worker {
			workers = append(workers, u)
		}
	}
	if len(workers) != 4 {
		t.Fatalf("%d own workers in the scene", len(workers))
	}
	// Box-select around the base, then right-click 5 tiles to the left.
	center := g.ui.Cam.ToScreen(workers[0].Pos)
	a, b := center.Add(ui.V(-150, -150)), center.Add(ui.V(150, 150))
	frame(func(in *ui.Input) { in.Mouse, in.Pressed[ui.MouseLeft], in.Down[ui.MouseLeft] = a, true, true })
	frame(func(in *ui.Input) { in.Mouse, in.Down[ui.MouseLeft] = a.Lerp(b, 0.5), true })
	frame(func(in *ui.Input) { in.Mouse, in.Released[ui.MouseLeft] = b, true })
	if len(g.ui.Sel.IDs) != 4 {
		t.Fatalf("the box selected %d units, want the 4 workers", len(g.ui.Sel.IDs))
	}
	id := g.ui.Sel.IDs[0]
	dest := g.ui.Cam.ToScreen(workers[0].Pos.Add(ui.V(-5, 0)))
	tx, ty := g.ui.Cam.Tile(dest)
	frame(func(in *ui.Input) { in.Click(ui.MouseRight, dest) })
	until("the workers to walk there", func() bool {
		done := false
		c.View(func(w *game.World, _ time.Time) {
			if u, ok := w.Unit(id); ok {
				x, y := u.Pos.Tile()
				done = absInt(x-tx) <= 2 && absInt(y-ty) <= 2
			}
		})
		return done
	})
	save(t, filepath.Join(t.ArtifactDir(), "flow-game.png"), Screenshot(win))

	// Escape pauses the offline game (a command, as in a network game) and
	// opens the menu: the turns go on, the game time stands still.
	frame(func(in *ui.Input) { in.Press(ui.KeyEscape) })
	if !g.ui.MenuOpen {
		t.Fatal("Escape did not open the menu")
	}
	until("the pause", func() bool { return g.pause.Paused && g.pause.By == 0 })
	clock := func() (n int) { c.View(func(w *game.World, _ time.Time) { n = w.Time() }); return n }
	pausedAt, turn := clock(), c.Status().Turn
	time.Sleep(200 * time.Millisecond)
	if now := c.Status().Turn; now == turn || clock() != pausedAt {
		t.Fatalf("paused: turn %d → %d, game time %d → %d", turn, now, pausedAt, clock())
	}
	// The host's menu offers "Resume the game", then "Save game": it writes
	// a save and closes the menu.
	if m := g.ui.Menu(); len(m) != 6 || m[1].Choice != ui.MenuUnpause || m[2].Choice != ui.MenuSave {
		t.Fatalf("menu %+v, want Resume the game second and Save game third", m)
	}
	frame(nil)
	save(t, filepath.Join(t.ArtifactDir(), "flow-menu.png"), Screenshot(win))
	frame(func(in *ui.Input) { in.Click(ui.MouseLeft, g.ui.Layout.MenuButton(2).Center()) })
	if g.ui.MenuOpen || len(g.notices) == 0 || !strings.HasPrefix(g.notices[len(g.notices)-1].text, "Game saved to "+saves) {
		t.Fatalf("after Save game: menu open %v, notices %+v", g.ui.MenuOpen, g.notices)
	}
	if files, _ := filepath.Glob(filepath.Join(saves, "*.hfsave")); len(files) != 1 {
		t.Fatalf("save files %v", files)
	}
	// Resume the game: after the countdown the world moves again.
	frame(func(in *ui.Input) { in.Press(ui.KeyEscape) })
	frame(func(in *ui.Input) { in.Click(ui.MouseLeft, g.ui.Layout.MenuButton(1).Center()) })
	until("the game to move again", func() bool { return !g.pause.Paused && clock() > pausedAt })
	// Leave goes back to the browser.
	frame(func(in *ui.Input) { in.Press(ui.KeyF10) })
	frame(func(in *ui.Input) { in.Click(ui.MouseLeft, g.ui.Layout.MenuButton(4).Center()) })
	if g.ui.Confirm != ui.MenuLeave || h.a.screen != scrGame {
		t.Fatalf("Leave game in a running game: asking %v, screen %v; want the question first", g.ui.Confirm, h.a.screen)
	}
	frame(func(in *ui.Input) { in.Click(ui.MouseLeft, g.ui.Layout.ConfirmButton(0).Center()) })
	until("the browser again", func() bool { return h.a.screen == scrBrowser })
}
