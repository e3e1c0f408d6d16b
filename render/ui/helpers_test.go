package ui

import (
	"testing"
	"time"

	"hostfall/game"
)

var t0 = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// fixture is a four-player world a few turns in (so fog has been computed),
// the scene player 0 sees, and a 1024×768 game screen looking at its base.
type fixture struct {
	w  *game.World
	ex Extractor
	sc *Scene
	g  *Game
	in Input
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	w, err := game.NewWorld(game.FreeForAll(7, 4))
	if err != nil {
		t.Fatal(err)
	}
	for range 8 {
		w.Step(nil)
	}
	f := &fixture{w: w}
	f.sc = f.ex.Extract(w, 0, false, 1)
	wd, ht := w.Size()
	f.g = NewGame(1024, 768, wd, ht, 0, WorldPos(w.Starts()[0]))
	f.in = Input{Now: t0, MouseIn: true}
	return f
}

// frame runs one Update with the input prepared by set, then moves time on.
func (f *fixture) frame(set func(in *Input)) *Result {
	in := f.in.Next(16 * time.Millisecond)
	in.Keys = [NumKeys]bool{} // each frame names the keys it holds
	if set != nil {
		set(&in)
	}
	f.in = in
	f.sc = f.ex.Extract(f.w, 0, false, 1)
	return f.g.Update(&in, f.sc, f.w)
}

// screen returns the screen position of the unit with the given ID.
func (f *fixture) screen(t *testing.T, id game.UnitID) Vec {
	t.Helper()
	u, ok := f.sc.Find(id)
	if !ok {
		t.Fatalf("unit %v is not in the scene", id)
	}
	return f.g.Cam.ToScreen(u.Pos)
}

// own returns player 0's units of kind k in the scene.
func (f *fixture) own(k game.Kind) []*Unit {
	var out []*Unit
	for i := range f.sc.Units {
		if u := &f.sc.Units[i]; u.Own && u.Kind == k {
			out = append(out, u)
		}
	}
	return out
}

// click presses and releases the left button at p in two frames.
func (f *fixture) click(p Vec, mods ...Key) *Result {
	f.frame(func(in *Input) {
		in.Mouse = p
		in.Pressed[MouseLeft], in.Down[MouseLeft] = true, true
		for _, k := range mods {
			in.Keys[k] = true
		}
	})
	return f.frame(func(in *Input) {
		in.Released[MouseLeft], in.Down[MouseLeft] = true, false
		for _, k := range mods {
			in.Keys[k] = true
		}
	})
}

// drag draws a selection box from a to b.
func (f *fixture) drag(a, b Vec, mods ...Key) *Result {
	f.frame(func(in *Input) {
		in.Mouse = a
		in.Pressed[MouseLeft], in.Down[MouseLeft] = true, true
		for _, k := range mods {
			in.Keys[k] = true
		}
	})
	f.frame(func(in *Input) { in.Mouse = a.Lerp(b, 0.5) })
	return f.frame(func(in *Input) {
		in.Mouse = b
		in.Released[MouseLeft], in.Down[MouseLeft] = true, false
		for _, k := range mods {
			in.Keys[k] = true
		}
	})
}

// press presses the left button at p (and keeps it down).
func (f *fixture) press(p Vec) *Result {
	return f.frame(func(in *Input) {
		in.Mouse = p
		in.Pressed[MouseLeft], in.Down[MouseLeft] = true, true
	})
}

func (f *fixture) rightClick(p Vec) *Result {
	return f.frame(func(in *Input) {
		in.Mouse = p
		in.Pressed[MouseRight], in.Released[MouseRight] = true, true
	})
}

func (f *fixture) key(k Key, mods ...Key) *Result {
	return f.frame(func(in *Input) {
		in.Press(k)
		for _, m := range mods {
			in.Keys[m] = true
		}
	})
}

func ids(us []*Unit) []game.UnitID {
	var out []game.UnitID
	for _, u := range us {
		out = append(out, u.ID)
	}
	return out
}

func sameSet(a, b []game.UnitID) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[game.UnitID]int{}
	for _, x := range a {
		m[x]++
	}
	for _, x := range b {
		m[x]--
	}
	for _, v := range m {
		if v != 0 {
			return false
		}
	}
	return true
}
