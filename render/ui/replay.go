package ui

import (
	"fmt"
	"math"
	"strconv"

	"hostfall/game"
)

// Speeds are the replay viewer's playback speeds, slowest first; 1 is the
// rate the game was played at.
var Speeds = [...]float64{0.25, 0.5, 1, 2, 4, 8}

// normalSpeed is the index of 1× in Speeds.
const normalSpeed = 2

// SpeedText names a speed: "0.25×", "1×", "8×".
func SpeedText(s float64) string {
	return strconv.FormatFloat(s, 'f', -1, 64) + "×"
}

// ProgressText is the replay's position in words: "Turn 600 / 1200 ·
// 0:30 / 1:00", the turns and the game clock now and at the end (time and
// length in ticks of game.World.Time, the clock the players saw, which
// stood still while the game was paused).
func ProgressText(turn, turns uint64, time, length int) string {
	return fmt.Sprintf("Turn %d / %d · %s / %s", turn, turns, clockText(time), clockText(length))
}

func clockText(ticks int) string {
	s := ticks / game.ClockRate
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// ReplayLayout is where the replay viewer's controls are: the bar takes the
// command card's place (a spectator gives no orders), the player list sits
// at the top right of the map.
type ReplayLayout struct {
	Bar      Rect // the whole control box
	Progress Rect // the progress bar; a click there seeks
	Slower   Rect
	Pause    Rect
	Faster   Rect
	Players  Rect // the player list: row 0 is every player, row i+1 player i
	RowH     float64
}

// Sizes of the replay controls.
const (
	replayRowH    = 24.0
	replayListW   = 250.0
	replayListTop = 30.0 // the list's title line
)

// NewReplayLayout places the controls for layout l and n players.
func NewReplayLayout(l Layout, n int) ReplayLayout {
	r := ReplayLayout{Bar: l.Card, RowH: replayRowH}
	r.Progress = XYWH(l.Card.Min.X, l.Card.Min.Y+58, l.Card.W(), 12)
	r.Slower, r.Pause, r.Faster = l.Button(6), l.Button(7), l.Button(8)
	r.Players = XYWH(l.Map.Max.X-pad-replayListW, l.Map.Min.Y+pad, replayListW, replayListTop+float64(n+1)*replayRowH+pad)
	return r
}

// PlayerRow returns row i of the player list: 0 is "all players", i > 0
// is game player i-1.
func (l ReplayLayout) PlayerRow(i int) Rect {
	return XYWH(l.Players.Min.X+4, l.Players.Min.Y+replayListTop+float64(i)*l.RowH, l.Players.W()-8, l.RowH)
}

// Replay is the replay viewer's controls: pause, speed, whose view shows,
// and a camera that follows that player's army. Like Game it never
// touches a window: Update takes the frame's input and the screen applies
// the fields to the client (speed, pause) and to the camera (Steer).
type Replay struct {
	Layout  ReplayLayout
	Players int  // players in the game
	Paused  bool // the viewer paused playback (the pause menu pauses apart from this)
	Speed   int  // index into Speeds
	// Follow is the game player whose view shows, fog of war included, or
	// -1: every player's units, no fog.
	Follow int
	// Track makes the camera follow the followed player's army; moving the
	// camera by hand stops it, C (or picking the player again) restarts it.
	Track bool

	res ReplayResult
}

// ReplayResult is what one frame asked of the replay beyond the fields.
type ReplayResult struct {
	Seek  float64 // a click on the progress bar: the fraction of the replay to go to; negative for none
	Mouse bool    // the mouse press was on the controls, not on the map
	Click bool    // a control took the press: the window sounds a click
}

// NewReplay returns the controls of a replay of n players, at the recorded
// speed, following player follow (-1: all players).
func NewReplay(l Layout, n, follow int) *Replay {
	r := &Replay{Players: n, Speed: normalSpeed}
	r.Resize(l)
	r.SetFollow(follow)
	return r
}

// Resize places the controls for a new layout.
func (r *Replay) Resize(l Layout) { r.Layout = NewReplayLayout(l, r.Players) }

// SpeedFactor returns the playback speed (1 is the recorded rate).
func (r *Replay) SpeedFactor() float64 { return Speeds[r.Speed] }

// SetSpeedFactor picks the speed of Speeds nearest to s.
func (r *Replay) SetSpeedFactor(s float64) {
	for i, v := range Speeds {
		if math.Abs(math.Log2(v/s)) < math.Abs(math.Log2(Speeds[r.Speed]/s)) {
			r.Speed = i
		}
	}
}

// SetFollow shows player p's view (-1: every player) and tracks its army.
func (r *Replay) SetFollow(p int) {
	if p < -1 || p >= r.Players {
		return
	}
	r.Follow, r.Track = p, p >= 0
}

// Me returns the player whose view the screen shows; ok is false for the
// view of every player without fog.
func (r *Replay) Me() (game.PlayerID, bool) {
	if r.Follow < 0 {
		return 0, false
	}
	return game.PlayerID(r.Follow), true
}

// Update handles the replay's keys and clicks: Space pauses, + and -
// change the speed, 0 shows every player, 1…8 and Tab follow a player,
// C brings the camera back to the followed army; the bar's buttons, the
// progress bar and the player list take clicks.
func (r *Replay) Update(in *Input) *ReplayResult {
	r.res = ReplayResult{Seek: -1}
	switch {
	case in.Hit[KeySpace]:
		r.Paused = !r.Paused
	case in.Hit[KeyPlus]:
		r.Speed = min(r.Speed+1, len(Speeds)-1)
	case in.Hit[KeyMinus]:
		r.Speed = max(r.Speed-1, 0)
	case in.Hit[KeyTab]:
		r.cycle(in.Shift())
	case in.Hit[KeyC]:
		r.Track = r.Follow >= 0
	}
	for d := range min(r.Players, 9) + 1 {
		if in.Hit[Digit(d)] {
			r.SetFollow(d - 1)
		}
	}
	if in.Pressed[MouseLeft] {
		r.click(in.Mouse)
	}
	return &r.res
}

// cycle follows the next player (all, 1, 2, …, all), or the previous one.
func (r *Replay) cycle(back bool) {
	n := r.Players + 1
	step := 1
	if back {
		step = n - 1
	}
	r.SetFollow((r.Follow+1+step)%n - 1)
}

func (r *Replay) click(m Vec) {
	l := &r.Layout
	switch {
	case l.Progress.Inset(-4).Contains(m):
		r.res.Seek = min(max((m.X-l.Progress.Min.X)/l.Progress.W(), 0), 1)
	case l.Slower.Contains(m):
		r.Speed = max(r.Speed-1, 0)
	case l.Pause.Contains(m):
		r.Paused = !r.Paused
	case l.Faster.Contains(m):
		r.Speed = min(r.Speed+1, len(Speeds)-1)
	case l.Players.Contains(m):
		for i := range r.Players + 1 {
			if l.PlayerRow(i).Contains(m) {
				r.SetFollow(i - 1)
			}
		}
	case !l.Bar.Contains(m):
		return
	default: // the bar's background
		r.res.Mouse = true
		return
	}
	r.res.Mouse, r.res.Click = true, true
}

// trackRate is how much of the way to the followed army the camera goes
// in a second (exponentially: it glides, and a far jump takes a moment).
const trackRate = 4.0

// Steer moves the camera toward the followed player's army when tracking;
// dt is the frame's length in seconds.
func (r *Replay) Steer(cam *Camera, sc *Scene, dt float64) {
	if !r.Track || r.Follow < 0 {
		return
	}
	to, ok := ArmyCenter(sc, game.PlayerID(r.Follow))
	if !ok {
		return
	}
	f := 1 - math.Exp(-trackRate*dt)
	cam.LookAt(cam.Center.Lerp(to, f))
}

// armyRadius is how far (in tiles) units count as one group for the camera.
const armyRadius = 8.0

// ArmyCenter returns where player p's army is: the middle of the largest
// group of its fighting units, or of its workers when it has no fighters,
// or of its buildings when it has no units left.
func ArmyCenter(sc *Scene, p game.PlayerID) (Vec, bool) {
	var fighters, workers, buildings []Vec
	for i := range sc.Units {
		u := &sc.Units[i]
		switch {
		case u.Owner != p:
		case u.Building:
			buildings = append(buildings, u.Pos)
		case u.Kind == game.Worker:
			workers = append(workers, u.Pos)
		default:
			fighters = append(fighters, u.Pos)
		}
	}
	for _, ps := range [][]Vec{fighters, workers, buildings} {
		if len(ps) > 0 {
			return densest(ps), true
		}
	}
	return Vec{}, false
}

// densest returns the middle of the points within armyRadius of the point
// that has the most of them (the first such point on a tie).
func densest(ps []Vec) Vec {
	best, bestN := 0, -1
	for i, a := range ps {
		n := 0
		for _, b := range ps {
			if a.Sub(b).Len() <= armyRadius {
				n++
			}
		}
		if n > bestN {
			best, bestN = i, n
		}
	}
	var c Vec
	for _, b := range ps {
		if ps[best].Sub(b).Len() <= armyRadius {
			c = c.Add(b)
		}
	}
	return c.Scale(1 / float64(bestN))
}
