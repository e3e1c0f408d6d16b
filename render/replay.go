package render

import (
	"fmt"
	"strings"

	"hostfall/client"
	"hostfall/game"
	"hostfall/render/ui"
)

// The replay viewer is the game screen in spectator mode over a
// client.Replayer: ui.Replay holds the controls' logic, this file applies
// it to the client and the camera and draws the controls, the player list,
// problems and the end of the replay.

// replayView is the game screen's replay state.
type replayView struct {
	cl      client.Replayer
	ctl     *ui.Replay // nil until the world is loaded
	st      client.ReplayStatus
	res     ui.ReplayResult
	outcome string // who won, once the recorded game is over
}

// newReplayView returns the replay state when the client plays a replay
// (nil otherwise). It asks the client now, outside the View lock: the
// client's own lock comes before the world's.
func newReplayView(c client.Client) *replayView {
	rc, ok := c.(client.Replayer)
	if !ok {
		return nil
	}
	return &replayView{cl: rc, st: rc.Replay()}
}

// initReplay makes the replay's controls for world w (under the View lock,
// from init: it must not call the client).
func (g *gameScreen) initReplay(w *game.World) {
	r := g.rp
	if r == nil {
		return
	}
	follow := r.st.Follow
	if follow < -1 || follow >= w.NumPlayers() {
		follow = -1
	}
	r.ctl = ui.NewReplay(g.ui.Layout, w.NumPlayers(), follow)
	r.ctl.Paused = r.st.Paused
	r.ctl.SetSpeedFactor(r.st.Speed)
	g.ui.Spectator = true
	// Open on a base, not the map's (often empty) centre: the followed
	// player's, or the first player's when watching everyone.
	if starts := w.Starts(); len(starts) > 0 {
		g.ui.Cam.LookAt(ui.WorldPos(starts[max(follow, 0)%len(starts)]))
	}
}

// replayInput runs the replay's controls on the frame's input; a press on
// the controls is theirs, not the map's.
func (g *gameScreen) replayInput(in *ui.Input) {
	r := g.rp
	if r == nil || r.ctl == nil {
		return
	}
	r.res = ui.ReplayResult{Seek: -1}
	if !g.ui.MenuOpen {
		r.ctl.Resize(g.ui.Layout)
		r.res = *r.ctl.Update(in)
		if r.res.Click {
			g.a.click()
		}
		if r.res.Mouse {
			in.Pressed[ui.MouseLeft], in.Released[ui.MouseLeft] = false, false
		}
	}
	g.me, g.hasMe = r.ctl.Me()
}

// replayCamera follows the army of the followed player, unless the viewer
// moved the camera this frame (a pan, or a zoom toward the pointer).
func (g *gameScreen) replayCamera(before ui.Camera, in *ui.Input) {
	if g.rp == nil {
		return
	}
	cam := &g.ui.Cam
	if cam.Center != before.Center { // a pan, or the wheel zooming toward the pointer: the player steers now (C follows again)
		g.rp.ctl.Track = false
	}
	g.rp.ctl.Steer(cam, g.sc, in.DT)
}

// replayRead takes the outcome from the world (under the View lock).
func (g *gameScreen) replayRead(w *game.World) {
	g.rp.outcome = ""
	team, won := w.Winner()
	switch {
	case won:
		var names []string
		for p := range w.NumPlayers() {
			if w.Player(game.PlayerID(p)).Team == team {
				names = append(names, g.playerName(game.PlayerID(p)))
			}
		}
		g.rp.outcome = joinNames(names) + " won."
	case w.Over():
		g.rp.outcome = "A draw: the last armies fell together."
	}
}

func joinNames(ns []string) string {
	if len(ns) <= 1 {
		return strings.Join(ns, "")
	}
	return strings.Join(ns[:len(ns)-1], ", ") + " and " + ns[len(ns)-1]
}

// replayAct hands the controls' state to the client (outside the View
// lock: a seek plays turns) and does the menu's choice.
func (g *gameScreen) replayAct(menu ui.MenuChoice) {
	r := g.rp
	switch menu {
	case ui.MenuRestart:
		r.cl.Seek(0)
		g.ui.MenuOpen, g.watching = false, false
	case ui.MenuOptions: // over the menu, which keeps the replay paused
		g.a.openOptions()
	case ui.MenuQuit:
		g.a.closeReplay()
	}
	if paused := r.ctl.Paused || g.ui.MenuOpen; paused != r.st.Paused {
		r.cl.SetPaused(paused)
	}
	if s := r.ctl.SpeedFactor(); s != r.st.Speed {
		r.cl.SetSpeed(s)
	}
	if r.res.Seek >= 0 {
		r.cl.Seek(r.res.Seek)
		g.watching = false
	}
	r.st = r.cl.Replay()
}

// replayHelp is the top bar's key reminder in a replay, longest first.
var replayHelp = []string{"Space pause · + - speed · Tab or 0–8 follow · C camera · F10 menu", "Space pause · + - speed · Tab follow · F10 menu"}

// drawReplay draws the controls where the command card is, the player list
// and any problem.
func (g *gameScreen) drawReplay() {
	g.drawReplayBar()
	g.drawReplayPlayers()
	g.drawReplayProblem()
}

func (g *gameScreen) drawReplayBar() {
	a, r := g.a, g.rp
	l := r.ctl.Layout
	bold, small := a.text[fontBold], a.text[fontSmall]
	x0, x1, y := l.Bar.Min.X, l.Bar.Max.X, l.Bar.Min.Y
	bold.text("REPLAY", x0, y, alignLeft, colAccent)
	state, sc := "playing", colGood
	switch {
	case r.st.Stopped:
		state, sc = "stopped", colBad
	case r.st.Over:
		state, sc = "over", colText
	case r.st.Paused:
		state, sc = "paused", colAccent
	}
	bold.text(state, x1, y, alignRight, sc)
	y += 26
	small.text("speed", x0, y+3, alignLeft, colDim)
	bold.text(ui.SpeedText(r.st.Speed), x0+44, y, alignLeft, colText)
	check, cc := fmt.Sprintf("%d hashes match", r.st.Checked), colDim
	if r.st.Problem != "" {
		check, cc = "hash mismatch", colBad
	}
	small.text(check, x1, y+3, alignRight, cc)
	f := 0.0
	if r.st.Turns > 0 {
		f = float64(r.st.Turn) / float64(r.st.Turns)
	}
	bar(a.hud, l.Progress, f, colAccent, colHPBack)
	a.hud.outline(l.Progress.Inset(-1), 1, colBorder)
	small.text(small.fit(ui.ProgressText(r.st.Turn, r.st.Turns, r.st.Time, r.st.Length), l.Bar.W()), x0, l.Progress.Max.Y+4, alignLeft, colText)
	pause := "Pause"
	if r.ctl.Paused {
		pause = "Play"
	}
	for _, b := range []struct {
		r     ui.Rect
		label string
		key   string
	}{{l.Slower, "Slower", "-"}, {l.Pause, pause, "Space"}, {l.Faster, "Faster", "+"}} {
		bg := colButton
		if b.r.Contains(a.in.Mouse) {
			bg = colButtonHi
		}
		a.hud.rect(b.r, bg)
		a.hud.outline(b.r, 1, colBorder)
		small.text(b.label, b.r.Center().X, b.r.Max.Y-18, alignCenter, colText)
		bold.text(b.key, b.r.Center().X, b.r.Min.Y+4, alignCenter, colAccent)
	}
}

func (g *gameScreen) drawReplayPlayers() {
	a, r := g.a, g.rp
	l := r.ctl.Layout
	bold, small := a.text[fontBold], a.text[fontSmall]
	a.top.rect(l.Players, rgba(10, 12, 18, 0.85))
	a.top.outline(l.Players, 1, colBorder)
	bold.text("Follow", l.Players.Min.X+10, l.Players.Min.Y+6, alignLeft, colAccent)
	small.text("click, Tab or 0–8", l.Players.Max.X-10, l.Players.Min.Y+9, alignRight, colDim)
	for i := range r.ctl.Players + 1 {
		row := l.PlayerRow(i)
		if i-1 == r.ctl.Follow {
			a.top.rect(row, colPanelHi)
			a.top.outline(row, 1, colAccent)
		} else if row.Contains(a.in.Mouse) {
			a.top.rect(row, colHover)
		}
		ty := row.Min.Y + (row.H()-small.height())/2
		small.text(fmt.Sprint(i), row.Min.X+6, ty, alignLeft, colDim)
		if i == 0 {
			small.text("All players · no fog", row.Min.X+44, ty, alignLeft, colText)
			continue
		}
		p := game.PlayerID(i - 1)
		swatch(a.top, ui.XYWH(row.Min.X+22, row.Min.Y+5, 14, 14), g.colors[p%game.MaxPlayers])
		name, c := small.fit(g.playerName(p), 120), colText
		info := ""
		if int(p) < len(g.infos) {
			pi := g.infos[p]
			info = plural(pi.Units, "unit", "units")
			if pi.Out {
				info, c = "out", colDim
			}
		}
		small.text(name, row.Min.X+44, ty, alignLeft, c)
		small.text(info, row.Max.X-6, ty, alignRight, colDim)
	}
}

// drawReplayProblem shows what went wrong with the replay, in a red box at
// the top left of the map, until the replay starts over.
func (g *gameScreen) drawReplayProblem() {
	if g.rp.st.Problem == "" {
		return
	}
	a := g.a
	small := a.text[fontSmall]
	lay := g.ui.Layout
	w := min(lay.Map.W()-g.rp.ctl.Layout.Players.W()-40, 560)
	lines := small.wrap(g.rp.st.Problem, w-20)
	r := ui.XYWH(lay.Map.Min.X+8, lay.Map.Min.Y+8, w, 32+float64(len(lines))*16)
	a.top.rect(r, rgba(40, 10, 12, 0.92))
	a.top.outline(r, 1, colBad)
	title := "Replay problem"
	if g.rp.st.Stopped {
		title = "Playback stopped"
	}
	a.text[fontBold].text(title, r.Min.X+10, r.Min.Y+6, alignLeft, colBad)
	for i, s := range lines {
		small.text(s, r.Min.X+10, r.Min.Y+28+float64(i)*16, alignLeft, colText)
	}
}

// drawReplayEnd is the end of the replay: who won, the table of the game,
// and what next (endButtons).
func (g *gameScreen) drawReplayEnd() {
	r := g.rp
	title, sub := "Replay over", r.outcome
	if sub == "" {
		sub = fmt.Sprintf("The recording ends at turn %d before anyone won.", r.st.Turn)
	}
	if r.st.Stopped {
		title, sub = "Playback stopped", "The rest of this replay cannot be played."
	}
	g.drawEndTable(title, colAccent, sub)
	g.drawEndButtons()
}
