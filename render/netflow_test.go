package render

import (
	"image"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"hostfall/client"
	"hostfall/client/network"
	"hostfall/game"
	"hostfall/p2p/transport"
	"hostfall/render/ui"
)

// Two players' windows on the network client, driven by synthetic input
// through the whole flow: Ann creates a game in the browser, Bo finds it in
// his and joins, says he is ready, Ann starts. Both windows wait for each
// other's game screen (the load barrier covers loading): while Bo's window
// has not drawn its game, turn 1 does not begin and Ann sees "waiting for
// Bo"; once it has, the game runs on both with the host kept, and both end
// at the turn limit with one hash. Each App draws into the test's one
// window in turn; the screenshots are in the test's artifact directory.
func TestNetFlowTwoWindows(t *testing.T) {
	testWindow(t) // skip early without a display
	transport.RouteLibp2pLogs(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError + 4}))
	const limit = 60
	lan := &network.Static{}
	ann := loopbackClientOn(t, transport.Options{}, nil, func(o *network.Options) { o.WaitScreen, o.TurnLimit = true, limit })
	bo := loopbackClientOn(t, transport.Options{}, lan, func(o *network.Options) { o.WaitScreen = true })
	ha := newHarness(t, ann)
	hb := newHarnessAs(t, bo, "Bo")
	frame := liveFrame
	until := func(what string, cond func() bool, hs ...*harness) { t.Helper(); framesUntil(t, what, cond, hs...) }
	shot := func(h *harness, name string) *image.RGBA { return liveShot(t, h, name) }

	frame(ha, nil)
	frame(ha, func(in *ui.Input) { in.Click(ui.MouseLeft, ha.a.browser.lay.createBtn.Center()) })
	until("Ann's lobby", func() bool { return ha.a.screen == scrLobby }, ha)
	li, addr, ok := ann.Listing("ann-game")
	if !ok {
		t.Fatal("Ann's client lists no game of its own")
	}
	lan.Add(li, addr)

	// Bo: the game shows in his browser; a click selects it, "Join game" joins.
	until("the game in Bo's browser", func() bool { return len(bo.Sessions()) == 1 }, hb)
	bl := hb.a.browser.lay
	row := ui.XYWH(bl.list.Min.X+1, bl.list.Min.Y, bl.list.W()-2, bl.rowH)
	frame(hb, func(in *ui.Input) { in.Click(ui.MouseLeft, row.Center()) })
	shot(hb, "netflow-browser")
	frame(hb, func(in *ui.Input) { in.Click(ui.MouseLeft, ui.XYWH(32, bl.bottom.Min.Y, 140, 34).Center()) })
	until("Bo in Ann's lobby", func() bool { return bo.Slot() == 1 && hb.a.screen == scrLobby }, hb, ha)
	frame(hb, func(in *ui.Input) { in.Click(ui.MouseLeft, hb.a.lobby.lay.start.Center()) }) // "Ready"
	until("Bo ready in Ann's lobby", func() bool {
		l, _ := ann.Lobby()
		return len(l.Slots) > 1 && l.Slots[1].Ready
	}, ha, hb)
	shot(ha, "netflow-lobby")
	frame(ha, func(in *ui.Input) { in.Click(ui.MouseLeft, ha.a.lobby.lay.start.Center()) })

	// Only Ann's window draws: her game screen is up, Bo's is not, so the
	// game waits for Bo, and says so.
	until("Ann's game screen", func() bool { return ha.a.game != nil && ha.a.game.shown }, ha)
	until("Ann told to wait for Bo", func() bool { return waitingFor(ha.a, "Bo") }, ha)
	if turn := ann.Status().Turn; turn != 0 {
		t.Fatalf("turn %d began before Bo's game screen was up", turn)
	}
	img := shot(ha, "netflow-waiting")
	// The banner, centred under the top bar: its stripe in the waiting
	// colour, the text light on dark.
	banner := ui.R(300, ui.TopBarH+4, 724, ui.TopBarH+46)
	if n := count(img, banner, like(rgb8(colWaiting), 30)); n < 40 {
		t.Errorf("the waiting banner: %d pixels of its colour in %v", n, banner)
	}
	textIn(t, img, "the waiting banner's text", banner, 300)

	until("both at the turn limit", func() bool { return ann.Status().Turn >= limit && bo.Status().Turn >= limit }, hb, ha)
	until("both views at the end", func() bool { return viewTurn(ann) >= limit && viewTurn(bo) >= limit }, hb, ha)
	for _, h := range []*harness{ha, hb} {
		img := shot(h, "netflow-game-"+h.a.opt.PlayerName)
		if h.a.screen != scrGame || h.a.game == nil || h.a.game.sc == nil {
			t.Errorf("%s's window is not on the game screen", h.a.opt.PlayerName)
		}
		// Each sees the end screen of a game that reached its turn limit.
		if g := h.a.game; g == nil || g.end != endTimeUp || g.overlay() != overEnd || !overStrings(h.a)["Time's up"] {
			t.Errorf("%s's screen at the turn limit is not the end screen", h.a.opt.PlayerName)
		}
		textIn(t, img, h.a.opt.PlayerName+"'s end title", ui.XYWH(312, 768*0.18, 400, 70), 300)
	}
	var hashA, hashB uint64
	ann.View(func(w *game.World, _ time.Time) { hashA = w.Hash() })
	bo.View(func(w *game.World, _ time.Time) { hashB = w.Hash() })
	if hashA != hashB {
		t.Errorf("Ann ended with hash %016x, Bo with %016x", hashA, hashB)
	}
	if st := bo.Status(); st.Host != "Ann" || st.Epoch != 1 {
		t.Errorf("Bo sees %q hosting in generation %d, want Ann in the first", st.Host, st.Epoch)
	}
	for _, c := range []*network.Client{ann, bo} {
		for _, ev := range c.Events(nil) {
			if ev.Kind == client.EvHostChanged || ev.Kind == client.EvLeft || ev.Kind == client.EvPlayerLeft {
				t.Errorf("an event that must not happen: %+v", ev)
			}
		}
	}
}

// newHarnessAs is newHarness for another player's window.
func newHarnessAs(t *testing.T, c Client, name string) *harness {
	t.Helper()
	a, err := NewApp(testWindow(t), 1024, 768, c, Options{PlayerName: name})
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, a: a, now: t0}
}

// waitingFor reports whether the window shows "waiting for" name.
func waitingFor(a *App, name string) bool {
	for _, w := range a.banners.waiting {
		if w.name == name {
			return true
		}
	}
	return false
}

func viewTurn(c Client) int {
	turn := -1
	c.View(func(w *game.World, _ time.Time) { turn = w.Turn() })
	return turn
}

// liveFrame draws one frame of h's App at the real clock, with the input
// set gives it, and shows it: what a window does each frame.
func liveFrame(h *harness, set func(in *ui.Input)) {
	h.now = time.Now()
	h.frame(set)
	win.Update()
	time.Sleep(5 * time.Millisecond)
}

// framesUntil draws frames of hs until cond holds, for at most 1,500 rounds.
func framesUntil(t *testing.T, what string, cond func() bool, hs ...*harness) {
	t.Helper()
	for range 1500 {
		if cond() {
			return
		}
		for _, h := range hs {
			liveFrame(h, nil)
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// liveShot draws a frame of h and saves it in the test's artifact directory.
func liveShot(t *testing.T, h *harness, name string) *image.RGBA {
	h.now = time.Now()
	h.frame(nil)
	img := Screenshot(win)
	win.Update()
	save(t, filepath.Join(t.ArtifactDir(), name+".png"), img)
	return img
}
