package render

import (
	"fmt"
	"math"
	"time"

	"hostfall/game"
	"hostfall/render/ui"
)

// The game's pause as the window shows it: a panel over the map ("Paused by
// Bo", who may resume, the pauses left) or, while the menu is open, the
// menu's title; the countdown before the world moves again. The pause
// itself is the world's (game/pause.go): every player sees the same.

// readPause takes the world's pause and what the player may do about it
// (update step, under the View lock).
func (g *gameScreen) readPause(w *game.World, out bool) {
	g.pause = w.Paused()
	me := g.hasMe && !out && g.rp == nil && !g.over
	g.others = !me || w.PauseLimited()
	left := 0
	if me {
		left = w.PausesLeft(g.me)
	}
	g.ui.Pause = ui.PauseState{
		Paused:    g.pause.Paused,
		CanPause:  me && left != 0 && (!g.pause.Paused || g.pause.Countdown > 0),
		CanResume: me && w.MayResume(g.me, g.host),
		Left:      left,
	}
	if !g.pause.Paused {
		return
	}
	g.pauseBy = g.playerName(g.pause.By)
	g.byLeft = w.PausesLeft(g.pause.By)
	switch by := g.pause.By; {
	case g.rp != nil:
		g.resumers = "The recorded game waits for its players."
	case int(by) < w.NumPlayers() && w.Player(by).Out:
		g.resumers = "Any player may resume."
	case g.hasMe && by == g.me && g.host:
		g.resumers = "You may resume."
	case g.hasMe && by == g.me:
		g.resumers = "You or the host may resume."
	case g.host && g.hasMe:
		g.resumers = g.pauseBy + " or you (the host) may resume."
	default:
		g.resumers = g.pauseBy + " or the host may resume."
	}
}

// pauseTitle is the overlay's title: who paused, or the countdown.
func (g *gameScreen) pauseTitle() string {
	if n := g.pause.Countdown; n > 0 {
		secs := int(math.Ceil((g.turnLen * time.Duration(n)).Seconds()))
		return fmt.Sprintf("Resuming in %d…", max(secs, 1))
	}
	return "Paused by " + g.pauseBy
}

// pauseHint is the overlay's last line: the pauses left (the pauser's and
// the player's) and the key.
func (g *gameScreen) pauseHint() string {
	left := g.ui.Pause.Left
	switch {
	case g.rp != nil:
		return "+ plays the replay faster"
	case g.pause.Countdown > 0 && g.ui.Pause.CanPause:
		return "Escape: menu, to pause again"
	case g.byLeft < 0: // no limit: alone against bots
		return "Escape: menu"
	case g.hasMe && g.pause.By == g.me:
		return fmt.Sprintf("You have %s left · Escape: menu", plural(left, "pause", "pauses"))
	case g.hasMe && left >= 0:
		return fmt.Sprintf("%s has %s left, you %d · Escape: menu", g.pauseBy, plural(g.byLeft, "pause", "pauses"), left)
	}
	return fmt.Sprintf("%s has %s left · Escape: menu", g.pauseBy, plural(g.byLeft, "pause", "pauses"))
}

// pauseNotice is the notice a pause event makes, "" for other events.
func (g *gameScreen) pauseNotice(ev game.Event) string {
	switch ev.Kind {
	case game.EvPaused:
		if ev.Count >= 0 {
			return fmt.Sprintf("%s paused the game (%s left).", g.playerName(ev.Player), plural(int(ev.Count), "pause", "pauses"))
		}
		return g.playerName(ev.Player) + " paused the game."
	}
	// A resume (game.EvResuming) makes no notice: the pause panel says
	// "NAME resumed the game." over its countdown.
	return ""
}

// drawPause draws the pause panel over the map while the menu is closed.
func (g *gameScreen) drawPause() {
	a := g.a
	m := g.ui.Layout.Map
	if g.pause.Countdown == 0 {
		a.over.rect(m, rgba(0, 0, 0, 0.3))
	}
	title := g.pauseTitle()
	lines := []string{title, g.resumers, g.pauseHint()}
	if g.pause.Countdown > 0 {
		lines[1] = g.playerName(g.pause.ResumedBy) + " resumed the game."
	}
	big, t, small := a.overTxt[fontTitle], a.overTxt[fontBody], a.overTxt[fontSmall]
	w := max(big.width(lines[0]), t.width(lines[1]), small.width(lines[2])) + 64
	c := m.Center()
	r := ui.XYWH(c.X-w/2, c.Y-110, w, 118)
	a.over.rect(r, rgba(12, 14, 20, 0.9))
	a.over.rect(ui.XYWH(r.Min.X, r.Min.Y, r.W(), 4), colAccent)
	a.over.outline(r, 1, colBorder)
	big.text(lines[0], c.X, r.Min.Y+18, alignCenter, colAccent)
	t.text(lines[1], c.X, r.Min.Y+62, alignCenter, colText)
	small.text(lines[2], c.X, r.Min.Y+90, alignCenter, colDim)
}
