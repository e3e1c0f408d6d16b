package render

import (
	"fmt"
	"math"
	"slices"
	"time"

	"hostfall/game"
	"hostfall/render/ui"
	"hostfall/settings"
)

// howTo is the short how-to over the first game: shown once, on a first
// start (Options.HowTo), until the player closes it, which the settings
// remember; F1 shows it again in any game.
//
// Alone against bots it is modal and pauses the game (a pause command, as
// Escape's: the player may pause at will there), and closing it resumes
// what it paused. With other people in the game it must stop nothing for
// them and hide nothing from the player: the first game shows a hint
// ("F1: how to play") instead of the how-to, and F1 shows it translucent,
// without dimming the map; the game keeps the keyboard and the pointer
// outside the panel, and it closes by itself when the player is attacked.
type howTo struct {
	pending bool // show it (or the hint) when the next game is up
	shown   bool
	modal   bool      // it takes the input and dims the map: a game of one person
	paused  bool      // it paused the game: closing it resumes
	resume  time.Time // closed before its pause landed: resume that pause when it does, until then
	askAt   time.Time // a refused pause is asked again from then on
	panel   ui.Rect
	ok      ui.Rect
	lines   []string // this frame's lines, wrapped
}

// howToHint is the first network game's hint in place of the how-to.
const howToHint = "First game? F1: how to play (the game goes on)."

// howToHintTime is how long the hint shows.
const howToHintTime = 20 * time.Second

// howToUpdate opens the how-to on the first game and on F1, closes it on
// its button, Escape or F1 (and Enter when modal); while it is modal it
// takes the input.
func (a *App) howToUpdate(in *ui.Input) {
	h, g := &a.howTo, a.game
	if g == nil || g.ui == nil || g.rp != nil {
		return
	}
	switch {
	case h.pending && g.others && a.rejoin.Game != "":
		h.pending = false // back in a game the player was in: not their first
	case h.pending && g.others:
		h.pending = false
		g.notices = addNotice(g.notices, notice{text: howToHint, at: a.now, hold: howToHintTime})
	case h.pending:
		h.pending = false
		a.openHowTo()
	case in.Hit[ui.KeyF1] && !h.shown && !g.ui.ChatOpen:
		a.openHowTo()
		*in = ui.Input{Now: in.Now, DT: in.DT, Mouse: in.Mouse}
		return
	}
	if !h.shown {
		a.resumeLate()
		return
	}
	a.layHowTo()
	if h.modal && !h.paused {
		a.pauseForHowTo()
	}
	if !h.modal {
		a.howToAside(in)
		return
	}
	if pressed(in, h.ok) || in.Hit[ui.KeyEnter] || in.Hit[ui.KeyEscape] || in.Hit[ui.KeyF1] {
		a.click()
		a.closeHowTo()
	}
	*in = ui.Input{Now: in.Now, DT: in.DT, Mouse: ui.V(-1, -1)}
}

// howToAside runs the how-to beside a game that goes on: F1, Escape or
// its button close it, an attack on the player closes it, and the
// pointer's buttons and wheel over the panel are its own.
func (a *App) howToAside(in *ui.Input) {
	h, g := &a.howTo, a.game
	for _, ev := range g.wev {
		if ev.Kind == game.EvUnderAttack && g.hasMe && ev.Player == g.me {
			a.closeHowTo()
			return
		}
	}
	if pressed(in, h.ok) || in.Hit[ui.KeyEscape] || in.Hit[ui.KeyF1] {
		a.click()
		a.closeHowTo()
		in.Hit[ui.KeyEscape], in.Hit[ui.KeyF1] = false, false
	}
	if h.panel.Contains(in.Mouse) {
		in.Pressed, in.Released, in.Scroll = [ui.NumButtons]bool{}, [ui.NumButtons]bool{}, 0
	}
}

// openHowTo shows the how-to: modal, and pausing the game, when nobody
// else plays.
func (a *App) openHowTo() {
	h, g := &a.howTo, a.game
	h.shown, h.modal, h.paused = true, !g.others, false
	g.notices = slices.DeleteFunc(g.notices, func(n notice) bool { return n.text == howToHint })
	h.askAt = time.Time{}
	if h.modal {
		a.pauseForHowTo()
	}
}

// pauseForHowTo pauses the game under a modal how-to. The how-to opens
// with the game screen, while the game still loads and takes no command
// (a network or offline session refuses commands before turn 1), so a
// refused pause is asked again, every quarter of a second, until one is
// taken.
func (a *App) pauseForHowTo() {
	h, g := &a.howTo, a.game
	if !g.ui.Pause.CanPause || g.pause.Paused && g.pause.Countdown == 0 || a.now.Before(h.askAt) {
		return
	}
	h.askAt = a.now.Add(250 * time.Millisecond)
	h.paused = a.proposePause(game.CmdPause)
}

// closeHowTo closes the how-to, remembers it was seen and resumes the
// pause it made (a modal how-to lets the player do nothing else, so a
// pause by them is its own). A pause still on its way is resumed when it
// lands, if it lands within a second.
func (a *App) closeHowTo() {
	h, g := &a.howTo, a.game
	h.shown = false
	a.howToSeen()
	if !h.paused {
		return
	}
	h.paused = false
	if ownPause(g) {
		a.proposePause(game.CmdResume)
		return
	}
	h.resume = a.now.Add(time.Second)
}

// resumeLate resumes the how-to's pause that landed after it closed.
func (a *App) resumeLate() {
	h := &a.howTo
	if h.resume.IsZero() {
		return
	}
	if a.now.After(h.resume) {
		h.resume = time.Time{}
		return
	}
	if ownPause(a.game) {
		h.resume = time.Time{}
		a.proposePause(game.CmdResume)
	}
}

// ownPause reports whether the player's pause holds the game, with no
// countdown running.
func ownPause(g *gameScreen) bool {
	return g.hasMe && g.pause.Paused && g.pause.By == g.me && g.pause.Countdown == 0
}

// proposePause sends the player's pause or resume command.
func (a *App) proposePause(k game.CommandKind) bool {
	if err := a.cl.Propose(game.Command{Player: a.game.me, Kind: k}); err != nil {
		a.log.Debug("the how-to's pause not sent", "kind", k, "err", err)
		return false
	}
	return true
}

// howToSeen remembers that the player has seen the how-to.
func (a *App) howToSeen() {
	if a.settings.HowToSeen {
		return
	}
	a.settings.HowToSeen = true
	if a.opt.SaveSettings == nil {
		return
	}
	if err := a.opt.SaveSettings(func(s *settings.Settings) { s.HowToSeen = true }); err != nil {
		a.log.Warn("the how-to will show again next time", "err", err)
	}
}

// howToText is the how-to, with the player's keys.
func (a *App) howToText() []string {
	k := func(b ui.Bind) string { return ui.KeyName(a.keys[b]) }
	return []string{
		"Select: click a unit, or drag a box around several. A right-click gives the order: move there, attack it, mine it.",
		"Gold: select your workers and right-click the gold mine; they carry the gold to your base.",
		fmt.Sprintf("Build: with workers selected press %s for barracks (or click it on the command card), then click open ground.", k(ui.BindBuildBarracks)),
		fmt.Sprintf("Train: select the base and press %s for a worker; barracks train soldiers (%s) and archers (%s).",
			k(ui.BindTrainWorker), k(ui.BindTrainSoldier), k(ui.BindTrainArcher)),
		fmt.Sprintf("Fight: right-click an enemy, or press %s and click the ground to attack everything on the way.", k(ui.BindAttack)),
		"Win by destroying every enemy building. Ctrl+1…9 keeps a group; Escape opens the menu and the options; F1 shows this again.",
	}
}

// howToLook is how the how-to is drawn: modal in the middle of the window,
// or aside, smaller, in the map's top left corner.
type howToLook struct {
	title, font fontID
	titleTop    float64 // the title, from the panel's top
	lineH       float64 // a line's height
	textTop     float64 // the first line, from the panel's top
	ok          string  // the button's label
}

var (
	howToModal = howToLook{title: fontTitle, font: fontBody, titleTop: 14, lineH: 19, textTop: 60, ok: "Got it"}
	howToAside = howToLook{title: fontBold, font: fontSmall, titleTop: 12, lineH: 15, textTop: 38, ok: "Close (F1)"}
)

func (h *howTo) look() howToLook {
	if h.modal {
		return howToModal
	}
	return howToAside
}

// layHowTo lays the how-to out, its lines wrapped to fit: modal, in the
// middle over the map; aside, in the map's top left corner, narrow enough
// to leave most of the map in view.
func (a *App) layHowTo() {
	h := &a.howTo
	lk := h.look()
	w := math.Min(a.w-40, 640)
	if !h.modal {
		w = math.Round(math.Min(440, math.Max(320, a.w*0.4)))
	}
	h.lines = h.lines[:0]
	for i, p := range a.howToText() {
		if i > 0 {
			h.lines = append(h.lines, "")
		}
		h.lines = append(h.lines, a.overTxt[lk.font].wrap("•  "+p, w-48)...)
	}
	if !h.modal {
		height := lk.textTop + float64(len(h.lines))*lk.lineH + 54
		h.panel = ui.XYWH(8, ui.TopBarH+8, w, height)
		h.ok = ui.XYWH(h.panel.Min.X+24, h.panel.Max.Y-42, 130, 32)
		return
	}
	height := lk.textTop + float64(len(h.lines))*lk.lineH + 79
	top := math.Max(50, math.Min(110, a.h-200-height)) // above the command panel when it fits
	h.panel = ui.XYWH(math.Round((a.w-w)/2), top, w, height)
	h.ok = ui.XYWH(h.panel.Center().X-90, h.panel.Max.Y-52, 180, 38)
}

// drawHowTo draws the how-to (modal layer): over a dimmed map when it is
// modal, translucent over the game that goes on when not.
func (a *App) drawHowTo() {
	h := &a.howTo
	lk := h.look()
	over, t := a.over, a.overTxt[lk.font]
	if h.modal {
		over.rect(ui.R(0, 0, a.w, a.h), rgba(0, 0, 0, 0.35))
		a.panel(over, h.panel)
	} else {
		over.rect(h.panel, rgba(16, 19, 26, 0.78))
		over.outline(h.panel, 1, colBorder)
	}
	over.rect(ui.XYWH(h.panel.Min.X, h.panel.Min.Y, 4, h.panel.H()), colAccent)
	a.overTxt[lk.title].text("How to play", h.panel.Min.X+24, h.panel.Min.Y+lk.titleTop, alignLeft, colAccent)
	for i, line := range h.lines {
		if line != "" {
			t.text(line, h.panel.Min.X+24, h.panel.Min.Y+lk.textTop+float64(i)*lk.lineH, alignLeft, colText)
		}
	}
	a.drawButton(over, a.overTxt[fontBold], h.ok, lk.ok, true)
}

// cardTip is the tool-tip of the command card button under the pointer:
// what it does, what it costs, its key.
type cardTip struct {
	shown bool
	at    ui.Rect // the button
	title string
	cost  string
}

// readTip reads the tool-tip of the button under the pointer (update step).
func (a *App) readTip() {
	t := &a.tip
	t.shown = false
	g := a.game
	if a.screen != scrGame || g == nil || g.ui == nil || g.rp != nil || g.ui.MenuOpen || a.options.open || a.howTo.shown {
		return
	}
	lay := g.ui.Layout
	i := lay.ButtonAt(a.in.Mouse)
	if i < 0 {
		return
	}
	b := ui.Card(g.ui.Selected(), &a.keys)[i]
	if b.Action == ui.ActNone {
		return
	}
	t.shown, t.at, t.title = true, lay.Button(i), b.Bind.Label()
	cost := b.Cost()
	if b.Action == ui.ActResearch {
		cost = a.researchCost(b.Upgrade)
	}
	switch {
	case cost < 0:
		t.cost = "Fully researched"
	case cost > 0:
		t.cost = fmt.Sprintf("%d gold", cost)
	default:
		t.cost = "Free"
	}
	t.cost += " · key " + ui.KeyName(b.Key)
}

// researchCost is the cost of the player's next level of u, -1 when there
// is none.
func (a *App) researchCost(u game.Upgrade) int32 {
	cost := u.Cost(1)
	me, ok := a.cl.Me()
	if !ok {
		return cost
	}
	a.cl.View(func(w *game.World, _ time.Time) {
		if l := w.Level(me, u); l >= game.MaxUpgradeLevel {
			cost = -1
		} else {
			cost = u.Cost(l + 1)
		}
	})
	return cost
}

// drawTip draws the tool-tip over the button, inside the window.
func (a *App) drawTip() {
	t := &a.tip
	bold, small := a.overTxt[fontBold], a.overTxt[fontSmall]
	w := math.Max(bold.width(t.title), small.width(t.cost)) + 20
	x := math.Max(4, math.Min(t.at.Center().X-w/2, a.w-w-4))
	r := ui.XYWH(x, t.at.Min.Y-50, w, 44)
	a.over.rect(r, rgba(10, 12, 18, 0.95))
	a.over.outline(r, 1, colAccent)
	bold.text(t.title, r.Min.X+10, r.Min.Y+5, alignLeft, colText)
	small.text(t.cost, r.Min.X+10, r.Min.Y+25, alignLeft, colAccent)
}
