package ui

import (
	"fmt"
	"math"
	"testing"
	"time"

	"hostfall/game"
)

func near(a, b Vec) bool { return math.Abs(a.X-b.X) < 1e-6 && math.Abs(a.Y-b.Y) < 1e-6 }

func TestCameraLimits(t *testing.T) {
	view := R(0, 28, 1024, 592) // 1024×564 pixels
	tests := []struct {
		name       string
		mapW, mapH int
		zoom       float64
		center     Vec
		wantZoom   float64
		wantCenter Vec
	}{
		{"inside stays", 128, 128, 32, V(64, 64), 32, V(64, 64)},
		{"top-left corner", 128, 128, 32, V(0, 0), 32, V(16, 8.8125)},
		{"bottom-right corner", 128, 128, 32, V(500, 500), 32, V(112, 119.1875)},
		{"zoom capped in", 128, 128, 500, V(64, 64), MaxZoom, V(64, 64)},
		{"zoom out stops when the map fits", 128, 128, 1, V(3, 3), 564.0 / 128, V(64, 64)},
		{"small map is centred", 32, 32, 4, V(0, 0), 564.0 / 32, V(16, 16)},
		{"zoom never below MinZoom", 512, 512, 1, V(256, 256), MinZoom, V(256, 256)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Camera{Center: tt.center, Zoom: tt.zoom, View: view, MapW: float64(tt.mapW), MapH: float64(tt.mapH)}
			c.Clamp()
			if math.Abs(c.Zoom-tt.wantZoom) > 1e-9 || !near(c.Center, tt.wantCenter) {
				t.Fatalf("zoom %v centre %v, want %v %v", c.Zoom, c.Center, tt.wantZoom, tt.wantCenter)
			}
			v := c.Visible()
			if v.W() < c.MapW && (v.Min.X < -1e-9 || v.Max.X > c.MapW+1e-9) {
				t.Fatalf("view %v shows beyond the map's width", v)
			}
			if v.H() < c.MapH && (v.Min.Y < -1e-9 || v.Max.Y > c.MapH+1e-9) {
				t.Fatalf("view %v shows beyond the map's height", v)
			}
		})
	}
}

func TestCameraMapping(t *testing.T) {
	c := NewCamera(R(0, 28, 1024, 592), 128, 128, V(40, 50))
	for _, s := range []Vec{V(0, 28), V(512, 310), V(1023, 591), V(100, 400)} {
		if got := c.ToScreen(c.ToWorld(s)); !near(got, s) {
			t.Errorf("screen %v → world → screen %v", s, got)
		}
	}
	if got := c.ToScreen(V(40, 50)); !near(got, V(512, 310)) {
		t.Errorf("the centre maps to %v, want the view's centre", got)
	}
	// Zooming keeps the world point under the pointer where it was.
	p := V(200, 150)
	before := c.ToWorld(p)
	c.ZoomAt(p, 1.5)
	if after := c.ToWorld(p); !near(before, after) {
		t.Errorf("zoom moved the point under the pointer: %v → %v", before, after)
	}
	c.Pan(V(-1e6, 0))
	if v := c.Visible(); math.Abs(v.Min.X) > 1e-9 {
		t.Errorf("panning far left leaves the view at x=%v, want 0", v.Min.X)
	}
}

func TestScrollDir(t *testing.T) {
	win := R(0, 0, 1024, 768)
	tests := []struct {
		mouse Vec
		keys  []Key
		want  Vec
	}{
		{V(500, 400), nil, V(0, 0)},
		{V(0, 400), nil, V(-1, 0)},
		{V(1023, 767), nil, V(1, 1)},
		{V(500, 1), nil, V(0, -1)},
		{V(500, 400), []Key{KeyRight, KeyUp}, V(1, -1)},
	}
	for _, tt := range tests {
		in := Input{Mouse: tt.mouse, MouseIn: true}
		for _, k := range tt.keys {
			in.Keys[k] = true
		}
		if got := ScrollDir(&in, win); got != tt.want {
			t.Errorf("mouse %v keys %v: %v, want %v", tt.mouse, tt.keys, got, tt.want)
		}
	}
}

func TestMinimapMapping(t *testing.T) {
	tests := []struct {
		name       string
		mapW, mapH float64
		area       Rect
	}{
		{"square", 128, 128, XYWH(8, 600, 160, 160)},
		{"wide map is letterboxed", 256, 128, XYWH(8, 640, 160, 80)},
		{"tall map is pillarboxed", 64, 128, XYWH(48, 600, 80, 160)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := Minimap{Box: XYWH(8, 600, 160, 160), MapW: tt.mapW, MapH: tt.mapH}
			if a := m.Area(); !near(a.Min, tt.area.Min) || !near(a.Max, tt.area.Max) {
				t.Fatalf("area %v, want %v", a, tt.area)
			}
			if got := m.ToScreen(V(0, 0)); !near(got, tt.area.Min) {
				t.Errorf("map corner at %v, want %v", got, tt.area.Min)
			}
			if got := m.ToScreen(V(tt.mapW, tt.mapH)); !near(got, tt.area.Max) {
				t.Errorf("far corner at %v, want %v", got, tt.area.Max)
			}
			mid := V(tt.mapW/2, tt.mapH/2)
			if got := m.ToWorld(m.ToScreen(mid)); !near(got, mid) {
				t.Errorf("round trip of the centre: %v", got)
			}
			if got := m.ToWorld(V(-50, -50)); got != V(0, 0) {
				t.Errorf("a point off the minimap maps to %v, want the clamped corner", got)
			}
		})
	}
	// The camera frame covers what the camera shows.
	c := NewCamera(R(0, 28, 1024, 592), 128, 128, V(64, 64))
	m := Minimap{Box: XYWH(8, 600, 160, 160), MapW: 128, MapH: 128}
	fr := m.Frame(&c)
	v := c.Visible()
	if !near(fr.Min, m.ToScreen(v.Min)) || !near(fr.Max, m.ToScreen(v.Max)) {
		t.Fatalf("frame %v does not match the view %v", fr, v)
	}
	if math.Abs(fr.W()-1024/32.0*1.25) > 1e-9 {
		t.Fatalf("frame width %v, want 32 tiles at 1.25 px a tile", fr.W())
	}
}

func TestMinimapClickMovesCamera(t *testing.T) {
	f := newFixture(t)
	target := V(30, 40)
	f.frame(func(in *Input) {
		in.Mouse = f.g.Mini.ToScreen(target)
		in.Pressed[MouseLeft], in.Down[MouseLeft] = true, true
	})
	if !near(f.g.Cam.Center, target) {
		t.Fatalf("camera at %v after a minimap click, want %v", f.g.Cam.Center, target)
	}
	// Dragging on the minimap follows the pointer.
	f.frame(func(in *Input) { in.Mouse = f.g.Mini.ToScreen(V(60, 60)) })
	if !near(f.g.Cam.Center, V(60, 60)) {
		t.Fatalf("camera at %v while dragging on the minimap", f.g.Cam.Center)
	}
}

// A, then a click on the minimap attack-moves the selection there; the
// camera stays where it was (play-test: it used to jump instead).
func TestAttackMoveOnMinimap(t *testing.T) {
	f := newFixture(t)
	bs := f.screen(t, f.own(game.Base)[0].ID)
	f.drag(bs.Add(V(-100, -100)), bs.Add(V(100, 100)))
	cam := f.g.Cam.Center
	f.key(KeyA)
	target := V(30, 40)
	r := f.press(f.g.Mini.ToScreen(target))
	if len(r.Commands) != 1 || r.Commands[0].Kind != game.CmdAttackMove || len(r.Commands[0].Units) != 4 {
		t.Fatalf("A then a minimap click gave %+v, want one attack-move of the 4 workers", r.Commands)
	}
	if c := r.Commands[0]; c.X != 30 || c.Y != 40 {
		t.Fatalf("attack-move to (%d, %d), want (30, 40)", c.X, c.Y)
	}
	if f.g.Cam.Center != cam || f.g.Mode != ModeSelect {
		t.Fatalf("camera %v (was %v), mode %v: want it unmoved and targeting over", f.g.Cam.Center, cam, f.g.Mode)
	}
}

func TestBoxSelection(t *testing.T) {
	f := newFixture(t)
	workers := f.own(game.Worker)
	bases := f.own(game.Base)
	if len(workers) != 4 || len(bases) != 1 {
		t.Fatalf("fixture: %d workers, %d bases", len(workers), len(bases))
	}
	base := f.screen(t, bases[0].ID)
	// A box over the whole start selects the workers, not the base.
	r := f.drag(base.Add(V(-100, -100)), base.Add(V(100, 100)))
	if !sameSet(f.g.Sel.IDs, ids(workers)) {
		t.Fatalf("box over the start selected %v, want the workers %v", f.g.Sel.IDs, ids(workers))
	}
	if len(r.Cues) != 1 || !r.Cues[0].Selection || r.Cues[0].Sound != "worker.select" {
		t.Fatalf("cues %+v, want one worker selection voice", r.Cues)
	}
	if r.Cues[0].Origin != f.g.Sel.IDs[0] {
		t.Fatalf("the voice's origin is %v, want the first selected unit %v", r.Cues[0].Origin, f.g.Sel.IDs[0])
	}
	// A box over the base's corner, away from the workers, selects the base.
	f.drag(base.Add(V(-44, -44)), base.Add(V(-36, -36)))
	if len(f.g.Sel.IDs) != 1 || f.g.Sel.IDs[0] != bases[0].ID {
		t.Fatalf("box on the base's corner selected %v, want the base", f.g.Sel.IDs)
	}
	// Two workers, then shift adds a third.
	w0, w1, w2 := f.screen(t, workers[0].ID), f.screen(t, workers[1].ID), f.screen(t, workers[2].ID)
	f.drag(w0.Add(V(-5, -5)), w0.Add(V(5, 5)))
	f.drag(w1.Add(V(-5, -5)), w1.Add(V(5, 5)), KeyShift)
	f.drag(w2.Add(V(-5, -5)), w2.Add(V(5, 5)), KeyShift)
	want := []game.UnitID{workers[0].ID, workers[1].ID, workers[2].ID}
	if !sameSet(f.g.Sel.IDs, want) {
		t.Fatalf("shift-boxes selected %v, want %v", f.g.Sel.IDs, want)
	}
	// A box over empty ground clears the selection.
	far := f.g.Cam.ToScreen(V(60, 60))
	if !f.g.Layout.Map.Contains(far) {
		far = f.g.Layout.Map.Min.Add(V(20, 20))
	}
	f.drag(far, far.Add(V(10, 10)))
	if len(f.g.Sel.IDs) != 0 {
		t.Fatalf("empty box left %v selected", f.g.Sel.IDs)
	}
}

func TestBoxSelectPrefersOwnUnits(t *testing.T) {
	sc := &Scene{Units: []Unit{
		{ID: 1, Kind: game.Base, Pos: V(10, 10), Size: 3, Building: true, Own: true, Ally: true},
		{ID: 2, Kind: game.Soldier, Pos: V(12.5, 10.5), Size: 1},
		{ID: 3, Kind: game.Worker, Pos: V(8.5, 8.5), Size: 1, Own: true, Ally: true},
	}}
	sc.Index()
	tests := []struct {
		box  Rect
		want []game.UnitID
	}{
		{R(7, 7, 14, 14), []game.UnitID{3}}, // own unit over building and enemy
		{R(9, 9, 11, 11), []game.UnitID{1}}, // own building over nothing else
		{R(12, 10, 13, 11), []game.UnitID{2}},
		{R(40, 40, 41, 41), nil},
	}
	for _, tt := range tests {
		if got := sc.BoxSelect(tt.box); !sameSet(got, tt.want) {
			t.Errorf("box %v: %v, want %v", tt.box, got, tt.want)
		}
	}
}

func TestClickAndDoubleClick(t *testing.T) {
	f := newFixture(t)
	workers := f.own(game.Worker)
	w0 := f.screen(t, workers[0].ID)
	r := f.click(w0)
	if len(f.g.Sel.IDs) != 1 || f.g.Sel.IDs[0] != workers[0].ID {
		t.Fatalf("click selected %v, want %v", f.g.Sel.IDs, workers[0].ID)
	}
	if len(r.Cues) != 1 || r.Cues[0].Origin != workers[0].ID || !r.Cues[0].Selection {
		t.Fatalf("click cues %+v", r.Cues)
	}
	// The second click within DoubleClick selects every worker on screen.
	f.click(w0)
	if !sameSet(f.g.Sel.IDs, ids(workers)) {
		t.Fatalf("double-click selected %v, want all workers", f.g.Sel.IDs)
	}
	// Shift-click takes one out again.
	f.in.Now = f.in.Now.Add(time.Second)
	f.click(f.screen(t, workers[1].ID), KeyShift)
	if len(f.g.Sel.IDs) != 3 || f.g.Sel.Has(workers[1].ID) {
		t.Fatalf("shift-click left %v", f.g.Sel.IDs)
	}
	// Slow clicks are two single clicks.
	f.in.Now = f.in.Now.Add(time.Second)
	f.click(w0)
	f.in.Now = f.in.Now.Add(time.Second)
	f.click(w0)
	if len(f.g.Sel.IDs) != 1 {
		t.Fatalf("two slow clicks selected %d units", len(f.g.Sel.IDs))
	}
}

func TestControlGroups(t *testing.T) {
	f := newFixture(t)
	workers := f.own(game.Worker)
	base := f.own(game.Base)[0]
	f.drag(f.screen(t, workers[0].ID).Add(V(-5, -5)), f.screen(t, workers[0].ID).Add(V(5, 5)))
	f.drag(f.screen(t, workers[1].ID).Add(V(-5, -5)), f.screen(t, workers[1].ID).Add(V(5, 5)), KeyShift)
	f.key(Key1, KeyCtrl)
	f.click(f.screen(t, base.ID))
	f.key(Key2, KeyCtrl)
	if !sameSet(f.g.Groups[1], []game.UnitID{workers[0].ID, workers[1].ID}) || !sameSet(f.g.Groups[2], []game.UnitID{base.ID}) {
		t.Fatalf("groups %v / %v", f.g.Groups[1], f.g.Groups[2])
	}
	f.in.Now = f.in.Now.Add(time.Second)
	r := f.key(Key1)
	if !sameSet(f.g.Sel.IDs, f.g.Groups[1]) {
		t.Fatalf("recalling 1 selected %v", f.g.Sel.IDs)
	}
	if len(r.Cues) != 1 || !r.Cues[0].Selection {
		t.Fatalf("recall cues %+v, want a selection voice", r.Cues)
	}
	// Shift+2 adds the selection to group 2.
	f.key(Key2, KeyShift)
	if len(f.g.Groups[2]) != 3 {
		t.Fatalf("group 2 after shift+2: %v", f.g.Groups[2])
	}
	// Pressing 1 twice quickly centres the view on the group.
	f.g.Cam.LookAt(V(20, 20))
	f.in.Now = f.in.Now.Add(time.Second)
	f.key(Key1)
	f.key(Key1)
	c, _ := centroid(f.g.Sel.Units(f.sc, nil))
	if !near(f.g.Cam.Center, c) {
		t.Fatalf("double 1 left the camera at %v, want the group at %v", f.g.Cam.Center, c)
	}
	// A member the scene no longer has is dropped from the group on recall.
	gone := workers[0].ID
	sc := &Scene{}
	for _, u := range f.sc.Units {
		if u.ID != gone {
			sc.Units = append(sc.Units, u)
		}
	}
	sc.Index()
	if got := f.g.Groups.Recall(1, sc); len(got) != 1 || got[0] != workers[1].ID {
		t.Fatalf("recall without the dead worker: %v", got)
	}
	// An empty group changes nothing.
	f.in.Now = f.in.Now.Add(time.Second)
	before := append([]game.UnitID(nil), f.g.Sel.IDs...)
	f.key(Key7)
	if !sameSet(before, f.g.Sel.IDs) {
		t.Fatalf("recalling an empty group changed the selection")
	}
}

func TestOrders(t *testing.T) {
	me := game.PlayerID(0)
	worker := &Unit{ID: 10, Kind: game.Worker, Own: true, Ally: true, Size: 1}
	soldier := &Unit{ID: 11, Kind: game.Soldier, Own: true, Ally: true, Size: 1}
	base := &Unit{ID: 12, Kind: game.Base, Own: true, Ally: true, Building: true, Built: true, Size: 3}
	site := &Unit{ID: 13, Kind: game.Barracks, Own: true, Ally: true, Building: true, Size: 3}
	enemy := &Unit{ID: 20, Kind: game.Soldier, Owner: 1, Size: 1}
	friend := &Unit{ID: 21, Kind: game.Soldier, Owner: 2, Ally: true, Size: 1}
	foe := &Unit{ID: 22, Kind: game.Worker, Owner: 1, Size: 1}
	type cmd struct {
		kind  game.CommandKind
		units []game.UnitID
	}
	tests := []struct {
		name    string
		sel     []*Unit
		target  *Unit
		terrain game.Terrain
		want    []cmd
	}{
		{"move", []*Unit{worker, soldier}, nil, game.Grass, []cmd{{game.CmdMove, []game.UnitID{10, 11}}}},
		{"attack an enemy", []*Unit{worker, soldier, base}, enemy, game.Grass, []cmd{{game.CmdAttack, []game.UnitID{10, 11}}}},
		{"an ally is not attacked", []*Unit{soldier}, friend, game.Grass, []cmd{{game.CmdMove, []game.UnitID{11}}}},
		{"workers gather, soldiers walk", []*Unit{worker, soldier}, nil, game.GoldField, []cmd{{game.CmdGather, []game.UnitID{10}}, {game.CmdMove, []game.UnitID{11}}}},
		{"soldiers on gold just walk", []*Unit{soldier}, nil, game.GoldField, []cmd{{game.CmdMove, []game.UnitID{11}}}},
		{"buildings set a rally point", []*Unit{base}, nil, game.Grass, []cmd{{game.CmdRally, []game.UnitID{12}}}},
		{"an unfinished building has none", []*Unit{site}, nil, game.Grass, nil},
		{"enemy units are not ordered", []*Unit{foe}, nil, game.Grass, nil},
		{"nothing selected", nil, nil, game.Grass, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Orders(me, tt.sel, tt.target, 5, 6, tt.terrain)
			if len(got) != len(tt.want) {
				t.Fatalf("%d commands %+v, want %d", len(got), got, len(tt.want))
			}
			for i, c := range got {
				w := tt.want[i]
				if c.Kind != w.kind || !sameSet(c.Units, w.units) || c.Player != me {
					t.Fatalf("command %d: %v %v, want %v %v", i, c.Kind, c.Units, w.kind, w.units)
				}
				if c.Kind == game.CmdAttack && c.Target != tt.target.ID {
					t.Fatalf("attack target %v", c.Target)
				}
				if c.Kind != game.CmdAttack && (c.X != 5 || c.Y != 6) {
					t.Fatalf("command at (%d, %d), want (5, 6)", c.X, c.Y)
				}
				if _, err := c.MarshalBinary(); err != nil {
					t.Fatalf("command does not encode: %v", err)
				}
			}
		})
	}
}

func TestOrdersChunked(t *testing.T) {
	var sel []*Unit
	for i := range 600 {
		sel = append(sel, &Unit{ID: game.UnitID(i + 1), Kind: game.Soldier, Own: true, Ally: true})
	}
	cmds := Orders(0, sel, nil, 1, 1, game.Grass)
	if len(cmds) != 3 || len(cmds[0].Units) != game.MaxCommandUnits || len(cmds[2].Units) != 600-2*game.MaxCommandUnits {
		t.Fatalf("600 units gave %d commands", len(cmds))
	}
}

func TestOrdersFromInput(t *testing.T) {
	f := newFixture(t)
	workers := f.own(game.Worker)
	base := f.own(game.Base)[0]
	bs := f.screen(t, base.ID)
	f.drag(bs.Add(V(-100, -100)), bs.Add(V(100, 100)))

	// Right click on open ground: move, with the first worker's acknowledgement.
	dest := bs.Add(V(-200, 0))
	r := f.rightClick(dest)
	if len(r.Commands) != 1 || r.Commands[0].Kind != game.CmdMove || len(r.Commands[0].Units) != 4 {
		t.Fatalf("right click: %+v", r.Commands)
	}
	tx, ty := f.g.Cam.Tile(dest)
	if int(r.Commands[0].X) != tx || int(r.Commands[0].Y) != ty {
		t.Fatalf("move to (%d, %d), want (%d, %d)", r.Commands[0].X, r.Commands[0].Y, tx, ty)
	}
	if len(r.Cues) != 1 || r.Cues[0].Sound != "worker.ack" || r.Cues[0].Origin != f.g.Sel.IDs[0] {
		t.Fatalf("ack cues %+v", r.Cues)
	}

	// A, then a left click: attack-move.
	f.key(KeyA)
	if f.g.Mode != ModeAttack {
		t.Fatalf("A did not start targeting")
	}
	r = f.press(dest)
	if len(r.Commands) != 1 || r.Commands[0].Kind != game.CmdAttackMove {
		t.Fatalf("attack-move: %+v", r.Commands)
	}

	// S stops.
	r = f.key(KeyS)
	if len(r.Commands) != 1 || r.Commands[0].Kind != game.CmdStop {
		t.Fatalf("stop: %+v", r.Commands)
	}

	// B, then a click on open explored ground: build a base there with the
	// workers (the game sends the nearest); not enough gold is said at once.
	f.key(KeyR)
	if f.g.Mode != ModePlace || f.g.Place != game.Barracks {
		t.Fatalf("R did not start placing barracks (mode %v)", f.g.Mode)
	}
	site := f.g.Cam.ToScreen(base.Pos.Add(V(-6, 0)))
	r = f.press(site)
	if len(r.Commands) != 1 || r.Commands[0].Kind != game.CmdBuild || r.Commands[0].Build != game.Barracks {
		t.Fatalf("build: %+v (notices %+v)", r.Commands, r.Notices)
	}
	x0, y0 := PlaceOrigin(game.Barracks, f.g.Cam.ToWorld(site))
	if int(r.Commands[0].X) != x0 || int(r.Commands[0].Y) != y0 {
		t.Fatalf("build at (%d, %d), want (%d, %d)", r.Commands[0].X, r.Commands[0].Y, x0, y0)
	}
	if f.g.Mode != ModeSelect {
		t.Fatalf("placing did not end after the click")
	}
	r = f.key(KeyB) // a base costs 400, the player has 200
	if len(r.Commands) != 0 || f.g.Mode == ModePlace || len(r.Notices) == 0 {
		t.Fatalf("a base without the gold: mode %v, commands %+v", f.g.Mode, r.Commands)
	}

	// The base: W trains a worker; a right click sets its rally point.
	f.in.Now = f.in.Now.Add(time.Second)
	f.click(bs)
	r = f.key(KeyW)
	if len(r.Commands) != 1 || r.Commands[0].Kind != game.CmdTrain || r.Commands[0].Build != game.Worker || r.Commands[0].Units[0] != base.ID {
		t.Fatalf("train: %+v", r.Commands)
	}
	r = f.rightClick(dest)
	if len(r.Commands) != 1 || r.Commands[0].Kind != game.CmdRally {
		t.Fatalf("rally: %+v", r.Commands)
	}

	// The same through the command card's button.
	r = f.frame(func(in *Input) {
		in.Mouse = f.g.Layout.Button(0).Center()
		in.Pressed[MouseLeft], in.Down[MouseLeft] = true, true
	})
	if len(r.Commands) != 1 || r.Commands[0].Kind != game.CmdTrain {
		t.Fatalf("card button: %+v", r.Commands)
	}
	for _, c := range r.Commands {
		if _, err := c.MarshalBinary(); err != nil {
			t.Fatal(err)
		}
	}
	_ = workers
}

func TestEscapeAndMenu(t *testing.T) {
	f := newFixture(t)
	if r := f.pickMenu(t, 4); r.Menu != MenuLeave {
		t.Fatalf("menu choice %v, want leave", r.Menu)
	}
	f.key(KeyEscape)
	if f.g.MenuOpen {
		t.Fatal("Escape did not close the menu")
	}
}

// Every player's menu has the same entries in the same places: "Save
// game" is the host's and greyed for a joiner, so a joiner's Leave game is
// where the host's is; choosing Save closes the menu.
func TestMenuSameForHostAndJoiner(t *testing.T) {
	f := newFixture(t)
	f.g.Pause = PauseState{CanPause: true, Left: 2}
	f.g.CanSave = true
	f.key(KeyEscape)
	host := f.g.Menu()
	f.g.CanSave = false
	joiner := f.g.Menu()
	if len(host) != 6 || len(joiner) != len(host) {
		t.Fatalf("host's menu %+v, joiner's %+v", host, joiner)
	}
	for i := range host {
		if host[i].Choice != joiner[i].Choice || host[i].Label != joiner[i].Label && i != 2 {
			t.Errorf("entry %d: host's %+v, joiner's %+v", i, host[i], joiner[i])
		}
	}
	if host[2].Choice != MenuSave || host[2].Off || !joiner[2].Off || host[4].Choice != MenuLeave || host[5].Choice != MenuQuit {
		t.Fatalf("host's menu %+v, joiner's %+v", host, joiner)
	}
	// A greyed entry takes no click.
	if r := f.frame(func(in *Input) { in.Mouse = f.g.Layout.MenuButton(2).Center(); in.Pressed[MouseLeft] = true }); r.Menu != MenuNone || !f.g.MenuOpen {
		t.Fatalf("a joiner's Save game: choice %v, menu open %v", r.Menu, f.g.MenuOpen)
	}
	f.g.CanSave = true
	r := f.frame(func(in *Input) { in.Mouse = f.g.Layout.MenuButton(2).Center(); in.Pressed[MouseLeft] = true })
	if r.Menu != MenuSave || f.g.MenuOpen {
		t.Fatalf("menu choice %v, open %v; want save, closed", r.Menu, f.g.MenuOpen)
	}
	// Once the game is over, nothing to pause or save.
	f.g.Ended = true
	if m := f.g.Menu(); len(m) != 4 || m[1].Choice != MenuOptions || m[2].Choice != MenuLeave || m[3].Choice != MenuQuit {
		t.Fatalf("menu after the end %+v", m)
	}
}

// Leaving or quitting a game the player still plays asks once: the
// question's second button or Escape goes back to the menu, its first
// does it; a game that is over (or one the player only watches) asks
// nothing.
func TestLeaveAsksOnce(t *testing.T) {
	for _, choice := range []MenuChoice{MenuLeave, MenuQuit} {
		f := newFixture(t)
		f.g.AskLeave = true
		entry := 4
		if choice == MenuQuit {
			entry = 5
		}
		if r := f.pickMenu(t, entry); r.Menu != MenuNone || f.g.Confirm != choice {
			t.Fatalf("%v: choice %v, asking %v", choice, r.Menu, f.g.Confirm)
		}
		if r := f.frame(func(in *Input) { in.Mouse = f.g.Layout.ConfirmButton(1).Center(); in.Pressed[MouseLeft] = true }); r.Menu != MenuNone || f.g.Confirm != MenuNone || !f.g.MenuOpen {
			t.Fatalf("%v, Stay: choice %v, asking %v, menu open %v", choice, r.Menu, f.g.Confirm, f.g.MenuOpen)
		}
		f.frame(func(in *Input) { in.Mouse = f.g.Layout.MenuButton(entry).Center(); in.Pressed[MouseLeft] = true })
		if r := f.key(KeyEscape); r.Menu != MenuNone || f.g.Confirm != MenuNone || !f.g.MenuOpen {
			t.Fatalf("%v, Escape: choice %v, asking %v, menu open %v", choice, r.Menu, f.g.Confirm, f.g.MenuOpen)
		}
		f.frame(func(in *Input) { in.Mouse = f.g.Layout.MenuButton(entry).Center(); in.Pressed[MouseLeft] = true })
		if r := f.frame(func(in *Input) { in.Mouse = f.g.Layout.ConfirmButton(0).Center(); in.Pressed[MouseLeft] = true }); r.Menu != choice {
			t.Fatalf("%v, yes: choice %v", choice, r.Menu)
		}
		f.g.AskLeave, f.g.Ended = false, true
		f.g.MenuOpen = false
		if r := f.pickMenu(t, 2); r.Menu != MenuLeave {
			t.Fatalf("after the end, Leave game: choice %v, asking %v", r.Menu, f.g.Confirm)
		}
	}
}

func TestChatLine(t *testing.T) {
	f := newFixture(t)
	f.key(KeyEnter)
	if !f.g.ChatOpen {
		t.Fatal("Enter did not open the chat line")
	}
	f.frame(func(in *Input) { in.Typed = "gg wp" })
	f.frame(func(in *Input) { in.Press(KeyBackspace) })
	f.key(KeyTab)
	r := f.key(KeyEnter)
	if r.Say == nil || r.Say.Text != "gg w" || !r.Say.Team {
		t.Fatalf("chat: %+v", r.Say)
	}
	// While typing, letters are not hotkeys.
	f.key(KeyEnter)
	r = f.frame(func(in *Input) { in.Press(KeyS); in.Typed = "s" })
	if len(r.Commands) != 0 || f.g.Chat.Text != "s" {
		t.Fatalf("typing S issued %v", r.Commands)
	}
}

// A workshop's card trains catapults and researches both upgrades; its
// research button sends the research command to the selected workshops.
func TestWorkshopCard(t *testing.T) {
	f := newFixture(t)
	ws := &Unit{ID: 99, Kind: game.Workshop, Own: true, Ally: true, Building: true, Built: true, Size: 3}
	card := Card([]*Unit{ws}, &defaultKeys)
	for _, tc := range []struct {
		i    int
		act  Action
		key  Key
		kind game.Kind
		up   game.Upgrade
	}{
		{0, ActTrain, KeyC, game.Catapult, game.UpNone},
		{1, ActResearch, KeyW, game.KindNone, game.UpWeapons},
		{2, ActResearch, KeyE, game.KindNone, game.UpArmor},
	} {
		if b := card[tc.i]; b.Action != tc.act || b.Key != tc.key || b.Kind != tc.kind || b.Upgrade != tc.up {
			t.Errorf("button %d is %+v", tc.i, b)
		}
	}
	f.g.sel = []*Unit{ws}
	f.g.res = Result{}
	f.g.press(card[2], f.w)
	if c := f.g.res.Commands; len(c) != 1 || c[0].Kind != game.CmdResearch || c[0].Upgrade != game.UpArmor || c[0].Units[0] != 99 {
		t.Fatalf("research button: %+v", c)
	}
	worker := Card([]*Unit{{ID: 1, Kind: game.Worker, Own: true, Ally: true}}, &defaultKeys)
	if worker[5].Kind != game.Tower || worker[6].Kind != game.Workshop {
		t.Fatalf("a worker's card lacks the tower or the workshop: %+v", worker)
	}
}

// Escape opens the menu, and pauses only where pauses are not counted (alone
// against bots); the menu offers a pause while the game runs and a resume
// to whoever may resume.
func TestPauseKeysAndMenu(t *testing.T) {
	kinds := func(r *Result) []game.CommandKind {
		var ks []game.CommandKind
		for _, c := range r.Commands {
			ks = append(ks, c.Kind)
		}
		return ks
	}
	for _, tc := range []struct {
		name   string
		state  PauseState
		escape []game.CommandKind // what Escape sends
		second MenuChoice         // the menu's second entry
		label  string
	}{
		{"running, 2 pauses left", PauseState{CanPause: true, Left: 2}, nil, MenuPause, "Pause (2 left)"},
		{"running, alone with bots", PauseState{CanPause: true, Left: -1}, []game.CommandKind{game.CmdPause}, MenuPause, "Pause the game"},
		{"running, no pauses left", PauseState{}, nil, MenuPause, "No pauses left"},
		{"paused, may resume", PauseState{Paused: true, CanResume: true, Left: 2}, nil, MenuUnpause, "Resume the game"},
		{"paused by another", PauseState{Paused: true, Left: 2}, nil, MenuUnpause, "Resume the game"},
		{"countdown: may pause again", PauseState{Paused: true, CanPause: true, Left: 1}, nil, MenuPause, "Pause (1 left)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.g.Pause = tc.state
			r := f.key(KeyEscape)
			if !f.g.MenuOpen || fmt.Sprint(kinds(r)) != fmt.Sprint(tc.escape) {
				t.Fatalf("Escape: menu open %v, commands %v; want %v", f.g.MenuOpen, kinds(r), tc.escape)
			}
			m := f.g.Menu()
			if m[0].Choice != MenuResume || m[1].Choice != tc.second || m[1].Label != tc.label {
				t.Fatalf("menu %+v", m)
			}
			r = f.frame(func(in *Input) {
				in.Mouse = f.g.Layout.MenuButton(1).Center()
				in.Pressed[MouseLeft] = true
			})
			switch {
			case m[1].Off:
				if len(r.Commands) != 0 || !f.g.MenuOpen {
					t.Fatalf("greyed %q: %+v, menu open %v", m[1].Label, r.Commands, f.g.MenuOpen)
				}
			case tc.second == MenuPause:
				if len(r.Commands) != 1 || r.Commands[0].Kind != game.CmdPause || r.Commands[0].Player != f.g.Me || !f.g.MenuOpen {
					t.Fatalf("Pause: %+v, menu open %v", r.Commands, f.g.MenuOpen)
				}
			case tc.second == MenuUnpause:
				if len(r.Commands) != 1 || r.Commands[0].Kind != game.CmdResume || f.g.MenuOpen {
					t.Fatalf("Resume: %+v, menu open %v", r.Commands, f.g.MenuOpen)
				}
			}
		})
	}
}

// While the game is paused, orders stay home: no command, no unit answers,
// a notice says why; Escape's menu still works.
func TestOrdersHeldWhilePaused(t *testing.T) {
	f := newFixture(t)
	base := f.own(game.Base)[0]
	bs := f.screen(t, base.ID)
	f.drag(bs.Add(V(-100, -100)), bs.Add(V(100, 100)))
	f.g.Pause = PauseState{Paused: true, CanResume: true}
	r := f.rightClick(bs.Add(V(-200, 0)))
	if len(r.Commands) != 0 || len(r.Notices) != 1 || r.Notices[0].Text != "The game is paused." {
		t.Fatalf("a right click while paused: commands %+v, notices %+v", r.Commands, r.Notices)
	}
	for _, c := range r.Cues {
		if c.Sound != SoundError {
			t.Fatalf("cue %q while paused", c.Sound)
		}
	}
	if r := f.pickMenu(t, 1); len(r.Commands) != 1 || r.Commands[0].Kind != game.CmdResume {
		t.Fatalf("Resume the game while paused: %+v", r.Commands)
	}
	f.g.Pause = PauseState{}
	if r := f.rightClick(bs.Add(V(-200, 0))); len(r.Commands) != 1 {
		t.Fatalf("a right click after the pause: %+v", r.Commands)
	}
}
