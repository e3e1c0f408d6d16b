package offline

import (
	"strings"
	"testing"
	"time"

	"hostfall/client"
	"hostfall/game"
	"hostfall/internal/frames"
	"hostfall/internal/testwait"
	"hostfall/match"
	"hostfall/savegame"
	"hostfall/session"
)

// waitFor polls cond for at most 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	testwait.For(t, what, 10*time.Second, cond)
}

func TestOfflineGame(t *testing.T) {
	c := New(Options{Name: "Ann", Countdown: 2})
	defer c.Close()
	defer frames.Read(c)() // a window's reads, each frame
	if err := c.Join("x", client.JoinOptions{}); err == nil || !strings.Contains(err.Error(), "network") {
		t.Fatalf("join without a network: %v", err)
	}
	if _, ok := c.Lobby(); ok {
		t.Fatal("in a lobby before creating one")
	}
	if err := c.Create(client.CreateOptions{Name: "Practice", MaxPlayers: 4, MapSeed: 7}); err != nil {
		t.Fatal(err)
	}
	l, ok := c.Lobby()
	if !ok || l.Name != "Practice" || len(l.Slots) != 4 || l.Slots[0].Name != "Ann" || c.Slot() != 0 {
		t.Fatalf("lobby %+v slot %d", l, c.Slot())
	}
	if err := c.Start(); err == nil {
		t.Fatal("a game alone started")
	}
	for s := 1; s < 4; s++ {
		if err := c.SetSlot(s, session.SlotBot, 1); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Say(0, "hello"); err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the game to start", func() bool { return c.View(func(*game.World, time.Time) {}) && c.Status().Turn > 0 })
	me, ok := c.Me()
	if !ok || me != 0 || len(c.Players()) != 4 || !c.Players()[1].Bot {
		t.Fatalf("me %v %v players %+v", me, ok, c.Players())
	}
	var evs []client.Event
	evs = c.Events(evs)
	kinds := map[client.EventKind]bool{}
	for _, e := range evs {
		kinds[e.Kind] = true
	}
	if !kinds[client.EvChat] || !kinds[client.EvCountdown] {
		t.Fatalf("events %+v lack chat or countdown", evs)
	}

	// Order a worker somewhere; it walks.
	var worker game.UnitID
	var from game.Point
	c.View(func(w *game.World, _ time.Time) {
		us := w.Units()
		for i := range us.Len() {
			if us.Alive(i) && us.Owner(i) == me && us.Kind(i) == game.Worker {
				worker, from = us.ID(i), us.Pos(i)
				break
			}
		}
	})
	if err := c.Propose(game.Command{Player: me, Kind: game.CmdMove, Units: []game.UnitID{worker}, X: 64, Y: 64}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the worker to move", func() bool {
		moved := false
		c.View(func(w *game.World, stepped time.Time) {
			u, ok := w.Unit(worker)
			moved = ok && u.Pos != from && !stepped.IsZero()
		})
		return moved
	})
	st := c.Status()
	if st.Online || st.Turn == 0 || st.Host != "Ann" || st.TurnMillis != 50 {
		t.Fatalf("status %+v", st)
	}

	// Pausing stops the turns.
	c.SetPaused(true)
	time.Sleep(30 * time.Millisecond)
	t1 := c.Status().Turn
	time.Sleep(150 * time.Millisecond)
	if t2 := c.Status().Turn; t2 != t1 {
		t.Fatalf("paused game went from turn %d to %d", t1, t2)
	}
	c.SetPaused(false)
	waitFor(t, "turns after the pause", func() bool { return c.Status().Turn > t1 })

	c.Leave()
	if _, ok := c.Lobby(); ok {
		t.Fatal("still in the lobby after leaving")
	}
	if c.View(func(*game.World, time.Time) {}) {
		t.Fatal("a world after leaving")
	}
}

// The world's events wait for the window however many turns pass between
// two reads: the first worker is trained 200 turns into a game, about a
// second at a 1 ms tick.
func TestWorldEventsKept(t *testing.T) {
	c := New(Options{Countdown: 1, Tick: time.Millisecond})
	defer c.Close()
	if err := c.Skirmish(client.CreateOptions{MapSeed: 3, MapSize: 64}, []uint8{1}); err != nil {
		t.Fatal(err)
	}
	var evs []game.Event
	waitFor(t, "a unit trained", func() bool {
		evs = c.WorldEvents(evs)
		for _, e := range evs {
			if e.Kind == game.EvTrained {
				return true
			}
		}
		return false
	})
}

// The offline game saves from the pause menu's Saver and loads back: the
// loaded game starts from the saved world and goes on from the next turn.
func TestOfflineSaveAndLoad(t *testing.T) {
	dir := t.TempDir()
	c := New(Options{Name: "Ann", Countdown: 2, SaveDir: dir})
	defer c.Close()
	if _, err := c.Save(); err == nil {
		t.Fatal("saved outside a game")
	}
	if err := c.Skirmish(client.CreateOptions{Name: "Practice", MapSeed: 7, MapSize: 64}, []uint8{1, 0}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "turn 30", func() bool { return c.Status().Turn >= 30 })
	c.SetPaused(true)
	path, err := c.Save()
	if err != nil {
		t.Fatal(err)
	}
	var turn int
	var hash uint64
	c.View(func(w *game.World, _ time.Time) { turn, hash = w.Turn(), w.Hash() })
	c.Leave()
	if !strings.HasPrefix(path, dir) || !strings.HasSuffix(path, ".hfsave") {
		t.Fatalf("save path %s", path)
	}

	sv, err := savegame.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if h, err := match.CheckSaved(sv.Saved); err != nil || h != hash || sv.Turn() != uint64(turn) {
		t.Fatalf("the save holds turn %d hash %016x (%v); the game was at turn %d hash %016x", sv.Turn(), h, err, turn, hash)
	}

	d := New(Options{Name: "Ann", Countdown: 2})
	defer d.Close()
	if err := d.Load(path); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the saved world", func() bool { return d.View(func(*game.World, time.Time) {}) })
	d.View(func(w *game.World, _ time.Time) {
		if w.Turn() < turn {
			t.Fatalf("the loaded game is at turn %d, before the saved turn %d", w.Turn(), turn)
		}
	})
	waitFor(t, "the loaded game to go on", func() bool { return d.Status().Turn > uint64(turn)+5 })
	if me, ok := d.Me(); !ok || me != 0 || len(d.Players()) != 3 {
		t.Fatalf("me %v %v players %+v", me, ok, d.Players())
	}
}

// The lobby's settings make the game: the map of the seed and size chosen,
// a bot in the team chosen, turns of the speed chosen.
func TestOfflineLobbySetup(t *testing.T) {
	c := New(Options{Name: "Ann", Countdown: 1})
	defer c.Close()
	if err := c.Create(client.CreateOptions{Name: "Practice", MaxPlayers: 3, MapSeed: 7}); err != nil {
		t.Fatal(err)
	}
	for s := 1; s < 3; s++ {
		if err := c.SetSlot(s, session.SlotBot, 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Configure(client.Setup{MapSeed: 4821, MapSize: 64, TurnTicks: 3}); err != nil {
		t.Fatal(err)
	}
	if err := c.EditBot(2, session.SlotEdit{Color: 5, Team: 1}); err != nil {
		t.Fatal(err)
	}
	if err := c.EditSlot(session.SlotEdit{Name: "Ann", Team: 1}); err != nil {
		t.Fatal(err)
	}
	if err := c.Kick(1); err == nil {
		t.Error("a bot was kicked: kicks are for players")
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the game", func() bool { return c.Status().Turn > 0 })
	c.View(func(w *game.World, _ time.Time) {
		if cfg := w.Config(); cfg.Seed != 4821 || cfg.Width != 64 || !w.Allied(0, 2) || w.Allied(0, 1) {
			t.Errorf("game of seed %d, %d tiles, Ann and bot 3 allied %v, Ann and bot 2 %v", cfg.Seed, cfg.Width, w.Allied(0, 2), w.Allied(0, 1))
		}
	})
	if ms := c.Status().TurnMillis; ms != 30 {
		t.Errorf("turns of %d ms, want 30", ms)
	}
}

// Escape's pause is a command in an offline game too: the world stands
// still while the turns go on, a save made while paused loads paused, and
// a resume there lets it move again.
func TestOfflinePauseIsSavedAndLoaded(t *testing.T) {
	dir := t.TempDir()
	c := New(Options{Name: "Ann", Countdown: 2, SaveDir: dir})
	defer c.Close()
	if err := c.Skirmish(client.CreateOptions{Name: "Practice", MapSeed: 7, MapSize: 64}, []uint8{1, 0}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "turn 30", func() bool { return c.Status().Turn >= 30 })
	if err := c.Propose(game.Command{Player: 0, Kind: game.CmdPause}); err != nil {
		t.Fatal(err)
	}
	read := func(c *Client) (p game.Pause, turn, clock int) {
		c.View(func(w *game.World, _ time.Time) { p, turn, clock = w.Paused(), w.Turn(), w.Time() })
		return p, turn, clock
	}
	waitFor(t, "the pause", func() bool { p, _, _ := read(c); return p.Paused })
	_, turn, clock := read(c)
	waitFor(t, "turns while paused", func() bool { _, tn, _ := read(c); return tn > turn+10 })
	if p, _, now := read(c); now != clock || p.By != 0 {
		t.Fatalf("paused by %d; game time %d → %d", p.By, clock, now)
	}
	path, err := c.Save()
	if err != nil {
		t.Fatal(err)
	}
	c.Leave()

	d := New(Options{Name: "Ann", Countdown: 2})
	defer d.Close()
	if err := d.Load(path); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the saved world", func() bool { return d.View(func(*game.World, time.Time) {}) })
	waitFor(t, "turns after the load", func() bool { _, tn, _ := read(d); return tn > turn+20 })
	if p, _, now := read(d); !p.Paused || p.By != 0 || now != clock {
		t.Fatalf("the loaded game: %+v, game time %d (saved at %d)", p, now, clock)
	}
	if err := d.Propose(game.Command{Player: 0, Kind: game.CmdResume}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the loaded game to move", func() bool { p, _, now := read(d); return !p.Paused && now > clock })
}
