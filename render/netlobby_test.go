package render

import (
	"log/slog"
	"os"
	"testing"
	"time"

	"hostfall/client/network"
	"hostfall/game"
	"hostfall/p2p/transport"
	"hostfall/render/ui"
	"hostfall/session"
)

// The lobby driven by synthetic input on the network client: Ann hosts in
// her window, Bo joins in his. Ann picks a bigger map and a random seed,
// the fast speed, puts a bot in a slot and on her team; her Start stays
// greyed, saying whom it waits for, until Bo clicks Ready; then she starts
// and both games are the map, the teams and the speed she chose.
func TestNetLobbyFlow(t *testing.T) {
	testWindow(t) // skip early without a display
	transport.RouteLibp2pLogs(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError + 4}))
	lan := &network.Static{}
	ann := loopbackClientOn(t, transport.Options{}, nil, nil)
	bo := loopbackClientOn(t, transport.Options{}, lan, nil)
	ha := newHarness(t, ann)
	hb := newHarnessAs(t, bo, "Bo")
	frame := liveFrame
	click := func(h *harness, r ui.Rect) { frame(h, func(in *ui.Input) { in.Click(ui.MouseLeft, r.Center()) }) }
	until := func(what string, cond func() bool, hs ...*harness) { t.Helper(); framesUntil(t, what, cond, hs...) }
	lobby := func() session.Lobby { l, _ := ann.Lobby(); return l }
	shot := func(h *harness, name string) { liveShot(t, h, name) }

	frame(ha, nil)
	click(ha, ha.a.browser.lay.createBtn)
	until("Ann's lobby", func() bool { return ha.a.screen == scrLobby }, ha)
	li, addr, ok := ann.Listing("ann-game")
	if !ok {
		t.Fatal("Ann's client lists no game of its own")
	}
	lan.Add(li, addr)
	until("the game in Bo's browser", func() bool { return len(bo.Sessions()) == 1 }, hb)
	bl := hb.a.browser.lay
	click(hb, ui.XYWH(bl.list.Min.X+1, bl.list.Min.Y, bl.list.W()-2, bl.rowH))
	click(hb, bl.join)
	until("Bo in Ann's lobby", func() bool { return bo.Slot() == 1 && hb.a.screen == scrLobby }, hb, ha)

	// Ann sets the game up.
	lay := &ha.a.lobby.lay
	seed := lobby().MapSeed
	click(ha, lay.size)
	until("a map of 192 tiles", func() bool { return lobby().MapSize == 192 }, ha)
	click(ha, lay.random)
	until("a new seed", func() bool { return lobby().MapSeed != seed }, ha)
	seed = lobby().MapSeed
	click(ha, lay.speed)
	until("the fast speed", func() bool { return lobby().TurnTicks == 3 }, ha)
	click(ha, lay.rows[2].kind)
	until("a bot in slot 3", func() bool { return lobby().Slots[2].Kind == session.SlotBot }, ha)
	click(ha, lay.rows[2].team)
	until("the bot on team 1", func() bool { return lobby().Slots[2].Team == 1 }, ha)
	click(ha, lay.rows[0].team)
	until("Ann on team 1", func() bool { return lobby().Slots[0].Team == 1 }, ha)
	until("Bo's lobby shows it", func() bool {
		l, _ := bo.Lobby()
		return l.MapSeed == seed && l.MapSize == 192 && l.TurnTicks == 3 && l.Slots[2].Team == 1
	}, hb, ha)
	shot(ha, "netlobby-host")

	// Start waits for Bo, and says so; a click on it does nothing.
	if got := ha.a.lobby.v.start; got != "Waiting for Bo to be ready." {
		t.Fatalf("Ann's start is held by %q", got)
	}
	click(ha, lay.start)
	for range 20 {
		frame(ha, nil)
	}
	if st := lobby().State; st != session.StateLobby {
		t.Fatalf("a click on the greyed Start put the lobby in %v", st)
	}
	shot(hb, "netlobby-guest")
	click(hb, hb.a.lobby.lay.start) // "Ready"
	until("Start free for Ann", func() bool { return ha.a.lobby.v.start == "" }, ha, hb)
	click(ha, lay.start)
	until("both game screens", func() bool {
		return ha.a.screen == scrGame && hb.a.screen == scrGame && ha.a.game.sc != nil && hb.a.game.sc != nil
	}, ha, hb)

	for _, c := range []*network.Client{ann, bo} {
		var cfg game.Config
		var allied, enemies bool
		c.View(func(w *game.World, _ time.Time) {
			cfg = w.Config()
			allied, enemies = w.Allied(0, 2), !w.Allied(0, 1) && !w.Allied(1, 2)
		})
		if cfg.Seed != seed || cfg.Width != 192 || len(cfg.Players) != 3 {
			t.Errorf("a game of seed %d, %d tiles, %d players; want seed %d, 192 tiles, 3 players", cfg.Seed, cfg.Width, len(cfg.Players), seed)
		}
		if !allied || !enemies {
			t.Errorf("Ann and the bot allied %v, Bo against both %v; want both", allied, enemies)
		}
		if ms := c.Status().TurnMillis; ms != 30 {
			t.Errorf("turns of %d ms, want 30 (fast)", ms)
		}
	}
}
