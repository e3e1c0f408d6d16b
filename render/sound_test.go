package render

import (
	"slices"
	"sync"
	"testing"

	"hostfall/game"
	"hostfall/render/ui"
)

// recorder is a Sounds that keeps the cues it is given.
type recorder struct {
	mu    sync.Mutex
	reqs  []played
	view  [2]float64
	music [][]string
}

// played is one cue, as the window names it.
type played struct {
	name      string
	origin    uint64
	selection bool
	at        bool
	x, y      float64
}

func (r *recorder) Cue(name string, origin uint64, selection, at bool, x, y float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reqs = append(r.reqs, played{name, origin, selection, at, x, y})
}

func (r *recorder) SetViewPoint(x, y float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.view = [2]float64{x, y}
}

func (r *recorder) Music(names ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.music = append(r.music, names)
}

func (r *recorder) takeMusic() [][]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.music
	r.music = nil
	return out
}

func (r *recorder) take() []played {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.reqs
	r.reqs = nil
	return out
}

// The game screen names its sounds to Options.Sound (package sound's Cuer
// turns them into requests): a selected unit's voice (a selection, from
// that unit) and its acknowledgement of an order at full volume, fights
// placed on the map,
// and the listener follows the camera.
func TestGameSounds(t *testing.T) {
	rec := &recorder{}
	c := gameClient(t)
	w := testWindow(t)
	a, err := NewApp(w, 1024, 768, c, Options{Sound: rec})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, a: a, now: t0}
	h.frame(nil)
	g := a.game
	var worker *ui.Unit
	for i := range g.sc.Units {
		if u := &g.sc.Units[i]; u.Own && u.Kind == game.Worker && g.ui.Layout.Map.Inset(20).Contains(g.ui.Cam.ToScreen(u.Pos)) {
			worker = u
			break
		}
	}
	if worker == nil {
		t.Fatal("no worker of player 0 on screen")
	}
	id, pos := worker.ID, worker.Pos
	p := g.ui.Cam.ToScreen(pos)
	rec.take()
	h.frame(func(in *ui.Input) { in.Click(ui.MouseLeft, p) })
	got := rec.take()
	// Voices answer the player who clicked: full volume, not placed on the map.
	if want := (played{"worker.select", uint64(id), true, false, pos.X, pos.Y}); len(got) != 1 || got[0] != want {
		t.Fatalf("selecting a worker played %+v", got)
	}
	h.frame(func(in *ui.Input) { in.Click(ui.MouseRight, p.Add(ui.V(-100, 0))) })
	got = rec.take()
	if len(got) != 1 || got[0].name != "worker.ack" || got[0].origin != uint64(id) || got[0].selection || got[0].at {
		t.Fatalf("an order played %+v", got)
	}
	if cmds := c.Proposed(); len(cmds) != 1 || cmds[0].Kind != game.CmdMove || cmds[0].Units[0] != id {
		t.Fatalf("proposed %+v", cmds)
	}
	// A fight the player sees is heard where it happens.
	start := h.a.game.ui.Cam.Center
	c.PushWorld(game.Event{Kind: game.EvAttack, Player: 0, UnitKind: game.Soldier, Pos: game.Point{X: int32(pos.X * game.TileSize), Y: int32(pos.Y * game.TileSize)}})
	h.frame(nil)
	got = rec.take()
	if len(got) != 1 || got[0].name != "soldier.attack" || !got[0].at || got[0].origin != 0 {
		t.Fatalf("a visible attack played %+v", got)
	}
	if rec.view != [2]float64{start.X, start.Y} {
		t.Fatalf("listener at %v, want the camera's centre %v", rec.view, start)
	}
	win.Update()
}

// Each screen asks once for its music: the game track and the ambience in
// play, the menu track back in the browser; nothing per frame.
func TestScreenMusic(t *testing.T) {
	rec := &recorder{}
	c := gameClient(t)
	a, err := NewApp(testWindow(t), 1024, 768, c, Options{Sound: rec})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, a: a, now: t0}
	h.frame(nil)
	h.frame(nil)
	if got := rec.takeMusic(); len(got) != 1 || !slices.Equal(got[0], []string{"music.game", "ambience.wind"}) {
		t.Fatalf("in play the window asked for %v, want [[music.game ambience.wind]] once", got)
	}
	c.Leave()
	h.frame(nil)
	h.frame(nil)
	if got := rec.takeMusic(); len(got) != 1 || !slices.Equal(got[0], []string{"music.menu"}) {
		t.Fatalf("back in the browser the window asked for %v, want [[music.menu]] once", got)
	}
}
