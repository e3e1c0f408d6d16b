package ui

import (
	"math"
	"testing"

	"hostfall/game"
)

func replayInput(set func(in *Input)) *Input {
	in := &Input{Now: t0, DT: 1.0 / 60, MouseIn: true, Mouse: V(-1, -1)}
	set(in)
	return in
}

func TestReplayKeys(t *testing.T) {
	r := NewReplay(NewLayout(1024, 768), 4, -1)
	if r.SpeedFactor() != 1 || r.Paused || r.Follow != -1 || r.Track {
		t.Fatalf("new replay: speed %v paused %v follow %d track %v", r.SpeedFactor(), r.Paused, r.Follow, r.Track)
	}
	steps := []struct {
		name   string
		key    Key
		shift  bool
		speed  float64
		paused bool
		follow int
	}{
		{"space pauses", KeySpace, false, 1, true, -1},
		{"space again plays", KeySpace, false, 1, false, -1},
		{"plus", KeyPlus, false, 2, false, -1},
		{"plus", KeyPlus, false, 4, false, -1},
		{"plus", KeyPlus, false, 8, false, -1},
		{"plus stops at 8×", KeyPlus, false, 8, false, -1},
		{"minus", KeyMinus, false, 4, false, -1},
		{"digit 2 follows player 1", Key2, false, 4, false, 1},
		{"digit 9 is no player", Key9, false, 4, false, 1},
		{"tab: the next player", KeyTab, false, 4, false, 2},
		{"tab", KeyTab, false, 4, false, 3},
		{"tab wraps to everyone", KeyTab, false, 4, false, -1},
		{"shift-tab goes back", KeyTab, true, 4, false, 3},
		{"zero: everyone", Key0, false, 4, false, -1},
	}
	for _, s := range steps {
		r.Update(replayInput(func(in *Input) {
			in.Press(s.key)
			in.Keys[KeyShift] = s.shift
		}))
		if r.SpeedFactor() != s.speed || r.Paused != s.paused || r.Follow != s.follow {
			t.Fatalf("%s: speed %v paused %v follow %d; want %v %v %d", s.name, r.SpeedFactor(), r.Paused, r.Follow, s.speed, s.paused, s.follow)
		}
	}
	for range 10 {
		r.Update(replayInput(func(in *Input) { in.Press(KeyMinus) }))
	}
	if r.SpeedFactor() != 0.25 {
		t.Fatalf("slowest speed %v, want 0.25", r.SpeedFactor())
	}
}

func TestReplayClicks(t *testing.T) {
	r := NewReplay(NewLayout(1024, 768), 3, -1)
	l := r.Layout
	click := func(p Vec) *ReplayResult {
		return r.Update(replayInput(func(in *Input) { in.Click(MouseLeft, p) }))
	}
	res := click(V(l.Progress.Min.X+l.Progress.W()*0.25, l.Progress.Center().Y))
	if math.Abs(res.Seek-0.25) > 0.01 || !res.Mouse {
		t.Fatalf("progress bar click: %+v, want a seek to 0.25", res)
	}
	if res := click(l.Pause.Center()); !r.Paused || !res.Mouse || !res.Click || res.Seek >= 0 {
		t.Fatalf("pause button: paused %v, %+v", r.Paused, res)
	}
	click(l.Faster.Center())
	click(l.Faster.Center())
	click(l.Slower.Center())
	if r.SpeedFactor() != 2 {
		t.Fatalf("speed %v after faster, faster, slower", r.SpeedFactor())
	}
	if res := click(l.PlayerRow(3).Center()); r.Follow != 2 || !r.Track || !res.Mouse {
		t.Fatalf("player row 3: follow %d track %v", r.Follow, r.Track)
	}
	if click(l.PlayerRow(0).Center()); r.Follow != -1 {
		t.Fatalf("row 0: follow %d, want everyone", r.Follow)
	}
	if res := click(V(l.Bar.Max.X-2, l.Bar.Center().Y)); !res.Mouse || res.Click {
		t.Fatalf("a click on the bar's background: %+v, want it taken without a click sound", res)
	}
	if res := click(V(300, 300)); res.Mouse {
		t.Fatal("a click on the map was taken by the controls")
	}
	if l.Players.Intersects(l.Bar) || !NewLayout(1024, 768).Map.Contains(l.Players.Max) {
		t.Errorf("player list %v: want it on the map, clear of the bar %v", l.Players, l.Bar)
	}
}

func TestReplayCameraTracksTheArmy(t *testing.T) {
	sc := &Scene{MapW: 128, MapH: 128}
	add := func(owner game.PlayerID, k game.Kind, x, y float64) {
		sc.Units = append(sc.Units, Unit{ID: game.UnitID(len(sc.Units) + 1), Owner: owner, Kind: k, Pos: V(x, y), Building: k.IsBuilding()})
	}
	add(1, game.Barracks, 20, 20)
	add(1, game.Worker, 22, 22)
	for i := range 5 { // the main army
		add(1, game.Soldier, 80+float64(i), 60)
	}
	add(1, game.Soldier, 10, 110) // a straggler
	add(2, game.Soldier, 40, 40)
	sc.Index()
	c, ok := ArmyCenter(sc, 1)
	if !ok || c.Sub(V(82, 60)).Len() > 0.01 {
		t.Fatalf("army centre %v %v, want the group of five at (82, 60)", c, ok)
	}

	r := NewReplay(NewLayout(1024, 768), 3, 1)
	cam := NewCamera(NewLayout(1024, 768).Map, 128, 128, V(30, 30))
	for range 120 { // two seconds at 60 frames a second
		r.Steer(&cam, sc, 1.0/60)
	}
	if d := cam.Center.Sub(V(82, 60)).Len(); d > 1 {
		t.Errorf("after 2 s the camera is at %v, %.1f tiles from the army", cam.Center, d)
	}
	// Untracked (the viewer moved the camera), it stays put.
	r.Track = false
	cam.LookAt(V(30, 30))
	r.Steer(&cam, sc, 1)
	if cam.Center != V(30, 30) {
		t.Errorf("untracked camera moved to %v", cam.Center)
	}
	r.Update(replayInput(func(in *Input) { in.Press(KeyC) }))
	if !r.Track {
		t.Error("C did not bring the camera back to the army")
	}
	if _, ok := ArmyCenter(sc, 5); ok {
		t.Error("a player with nothing has an army centre")
	}
}

// A spectator selects and looks but gives no orders, and its menu is the
// replay's.
func TestSpectatorGivesNoOrders(t *testing.T) {
	f := newFixture(t)
	f.g.Spectator = true
	workers := f.own(game.Worker)
	if len(workers) == 0 {
		t.Fatal("no workers in the fixture")
	}
	f.click(f.screen(t, workers[0].ID))
	if !f.g.Sel.Has(workers[0].ID) {
		t.Fatal("a spectator cannot select")
	}
	for _, r := range []*Result{f.rightClick(V(200, 200)), f.key(KeyB), f.key(KeyA), f.key(KeyEnter), f.press(f.g.Layout.Button(0).Center())} {
		if len(r.Commands) != 0 || r.Say != nil {
			t.Fatalf("a spectator issued %+v", r.Commands)
		}
	}
	if f.g.Mode != ModeSelect || f.g.ChatOpen {
		t.Fatalf("spectator mode %v, chat %v", f.g.Mode, f.g.ChatOpen)
	}
	if r := f.pickMenu(t, 1); r.Menu != MenuRestart {
		t.Fatalf("menu choice %v, want restart", r.Menu)
	}
}

func TestReplaySpeedFromTheCommandLine(t *testing.T) {
	r := NewReplay(NewLayout(1024, 768), 2, -1)
	for _, s := range []struct{ in, want float64 }{{8, 8}, {0.25, 0.25}, {2.5, 2}, {3, 4}, {1, 1}, {100, 8}} {
		r.SetSpeedFactor(s.in)
		if r.SpeedFactor() != s.want {
			t.Errorf("SetSpeedFactor(%v): %v, want %v", s.in, r.SpeedFactor(), s.want)
		}
	}
}

func TestProgressText(t *testing.T) {
	if got := ProgressText(600, 1200, 400, 1000); got != "Turn 600 / 1200 · 0:20 / 0:50" {
		t.Errorf("ProgressText = %q", got)
	}
	for s, want := range map[float64]string{0.25: "0.25×", 1: "1×", 8: "8×"} {
		if got := SpeedText(s); got != want {
			t.Errorf("SpeedText(%v) = %q, want %q", s, got, want)
		}
	}
}
