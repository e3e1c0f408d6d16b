package render

import (
	"sync"
	"testing"

	"hostfall/game"
	"hostfall/render/ui"
	"hostfall/sound"
)

// recorder is a Sounds that keeps what it is asked to play.
type recorder struct {
	mu   sync.Mutex
	reqs []played
	view [2]float64
}

type played struct {
	req  sound.Request
	x, y float64
	at   bool
}

func (r *recorder) Play(q sound.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reqs = append(r.reqs, played{req: q})
}

func (r *recorder) PlayAt(q sound.Request, x, y float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reqs = append(r.reqs, played{req: q, x: x, y: y, at: true})
}

func (r *recorder) SetViewPoint(x, y float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.view = [2]float64{x, y}
}

func (r *recorder) take() []played {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.reqs
	r.reqs = nil
	return out
}

// The game screen speaks through the sound package: a selected unit's
// voice (a selection, from that unit), its acknowledgement of an order,
// fights placed on the map, and the listener follows the camera.
func TestGameSounds(t *testing.T) {
	_, names, err := sound.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	c := gameClient(t)
	w := testWindow(t)
	a, err := NewApp(w, 1024, 768, c, Options{Sound: rec, Names: names})
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
	if len(got) != 1 || got[0].req.Sound != names.ForName("worker.select") || !got[0].req.Selection ||
		got[0].req.Origin != sound.Origin(id) || !got[0].at || got[0].x != pos.X || got[0].y != pos.Y {
		t.Fatalf("selecting a worker played %+v", got)
	}
	h.frame(func(in *ui.Input) { in.Click(ui.MouseRight, p.Add(ui.V(-100, 0))) })
	got = rec.take()
	if len(got) != 1 || got[0].req.Sound != names.ForName("worker.ack") || got[0].req.Origin != sound.Origin(id) || got[0].req.Selection {
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
	if len(got) != 1 || got[0].req.Sound != names.ForName("soldier.attack") || !got[0].at || got[0].req.Origin != 0 {
		t.Fatalf("a visible attack played %+v", got)
	}
	if rec.view != [2]float64{start.X, start.Y} {
		t.Fatalf("listener at %v, want the camera's centre %v", rec.view, start)
	}
	win.Update()
}
