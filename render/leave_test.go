package render

import (
	"testing"
	"time"

	"hostfall/client"
	"hostfall/client/offline"
	"hostfall/internal/testwait"
	"hostfall/render/ui"
)

// `play`'s skirmish: the menu's Leave game goes back to the browser and
// the window stays open (play-test: it quit the program); the browser's
// Quit then ends the window.
func TestLeaveGameToBrowserThenQuit(t *testing.T) {
	c := offline.New(offline.Options{Name: "Ann", Countdown: 1, SaveDir: t.TempDir()})
	defer c.Close()
	if err := c.Skirmish(client.CreateOptions{Name: "Skirmish", PlayerName: "Ann", MapSeed: 7, MapSize: 64}, []uint8{0}); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, c)
	testwait.For(t, "the skirmish to start", 10*time.Second, func() bool {
		h.now = time.Now()
		h.frame(nil)
		return h.a.screen == scrGame && h.a.game.ui != nil
	})
	g := h.a.game
	h.frame(func(in *ui.Input) { in.Press(ui.KeyEscape) })
	leave := -1
	for i, it := range g.ui.Menu() {
		if it.Choice == ui.MenuLeave {
			leave = i
		}
	}
	if leave < 0 {
		t.Fatalf("the menu %+v has no Leave game", g.ui.Menu())
	}
	h.frame(func(in *ui.Input) { in.Click(ui.MouseLeft, g.ui.Layout.MenuButton(leave).Center()) })
	h.frame(func(in *ui.Input) { in.Click(ui.MouseLeft, g.ui.Layout.ConfirmButton(0).Center()) })
	h.frame(nil)
	if h.a.screen != scrBrowser || h.a.Quit() {
		t.Fatalf("after Leave game: screen %v, quit %v; want the browser, still open", h.a.screen, h.a.Quit())
	}
	h.frame(func(in *ui.Input) { in.Click(ui.MouseLeft, quitButton(h.a.w).Center()) })
	if !h.a.Quit() {
		t.Fatal("the browser's Quit did not quit")
	}
}
