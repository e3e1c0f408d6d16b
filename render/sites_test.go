package render

import (
	"testing"

	"hostfall/client"
	"hostfall/client/fake"
	"hostfall/game"
	"hostfall/session"
)

// A worker sent to build: the screen marks the site from the order on,
// before anything stands there (play-test: nothing did).
func TestBuildSiteMarked(t *testing.T) {
	w, err := game.NewWorld(game.FreeForAll(7, 2))
	if err != nil {
		t.Fatal(err)
	}
	var worker game.UnitID
	var base game.Point
	us := w.Units()
	for i := range us.Len() {
		if us.Alive(i) && us.Owner(i) == 0 && us.Kind(i) == game.Worker && worker == 0 {
			worker = us.ID(i)
		}
		if us.Alive(i) && us.Owner(i) == 0 && us.Kind(i) == game.Base {
			base = us.Pos(i)
		}
	}
	bx, by := base.Tile()
	x0, y0, found := 0, 0, false
	for d := 6; d < 20 && !found; d++ {
		for _, c := range [][2]int{{bx - d, by}, {bx + d, by}, {bx, by - d}, {bx, by + d}} {
			if w.CanBuild(0, game.Barracks, c[0], c[1]) == game.ReasonNone {
				x0, y0, found = c[0], c[1], true
				break
			}
		}
	}
	if !found {
		t.Fatal("no free barracks site near the base")
	}
	w.Step([]game.Command{{Player: 0, Kind: game.CmdBuild, Build: game.Barracks, X: int32(x0), Y: int32(y0), Units: []game.UnitID{worker}}})
	if u, _ := w.Unit(worker); u.Order != game.OrderBuild {
		t.Fatalf("the worker's order is %v, want OrderBuild", u.Order)
	}
	c := fake.New()
	l := fake.Lobby("Skirmish", 2)
	l.State = session.StatePlaying
	c.SetLobby(l, 0)
	players := []client.Player{{Name: "You", Slot: 0, Color: 0}, {Name: "Bo", Slot: 1, Color: 1}}
	c.SetGame(w, t0, players, 0)
	h := newHarness(t, c)
	h.frame(nil)
	h.frame(nil)
	h.shot("build-site")
	g := h.a.game
	if g == nil || len(g.sites) != 1 || g.sites[0] != (site{game.Barracks, x0, y0}) {
		t.Fatalf("sites %+v, want the barracks at (%d, %d)", g.sites, x0, y0)
	}
}
