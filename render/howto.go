package render

import (
	"fmt"
	"math"
	"time"

	"hostfall/game"
	"hostfall/render/ui"
	"hostfall/settings"
)

// howTo is the short how-to over the first game: shown once, on a first
// start (Options.HowTo), until the player closes it, which the settings
// remember; F1 shows it again in any game.
type howTo struct {
	pending bool // show it when the next game is up
	shown   bool
	panel   ui.Rect
	ok      ui.Rect
	lines   []string // this frame's lines, wrapped
}

// howToUpdate opens the how-to on the first game and on F1, closes it on
// its button, Enter, Escape or F1; while it shows it takes the input.
func (a *App) howToUpdate(in *ui.Input) {
	h, g := &a.howTo, a.game
	if g == nil || g.ui == nil || g.rp != nil {
		return
	}
	if h.pending {
		h.pending, h.shown = false, true
	} else if in.Hit[ui.KeyF1] && !h.shown && !g.ui.ChatOpen {
		h.shown = true
		*in = ui.Input{Now: in.Now, DT: in.DT, Mouse: in.Mouse}
		return
	}
	if !h.shown {
		return
	}
	a.layHowTo()
	if pressed(in, h.ok) || in.Hit[ui.KeyEnter] || in.Hit[ui.KeyEscape] || in.Hit[ui.KeyF1] {
		a.click()
		h.shown = false
		a.howToSeen()
	}
	*in = ui.Input{Now: in.Now, DT: in.DT, Mouse: ui.V(-1, -1)}
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

// layHowTo lays the how-to out over the map, its lines wrapped to fit.
func (a *App) layHowTo() {
	h := &a.howTo
	t := a.overTxt[fontBody]
	w := math.Min(a.w-40, 640)
	h.lines = h.lines[:0]
	for _, p := range a.howToText() {
		h.lines = append(h.lines, t.wrap("•  "+p, w-48)...)
		h.lines = append(h.lines, "")
	}
	height := 64 + float64(len(h.lines))*19 + 56
	top := math.Max(50, math.Min(110, a.h-200-height)) // above the command panel when it fits
	h.panel = ui.XYWH(math.Round((a.w-w)/2), top, w, height)
	h.ok = ui.XYWH(h.panel.Center().X-90, h.panel.Max.Y-52, 180, 38)
}

// drawHowTo draws the how-to (modal layer).
func (a *App) drawHowTo() {
	h := &a.howTo
	over, t := a.over, a.overTxt[fontBody]
	over.rect(ui.R(0, 0, a.w, a.h), rgba(0, 0, 0, 0.35))
	a.panel(over, h.panel)
	over.rect(ui.XYWH(h.panel.Min.X, h.panel.Min.Y, 4, h.panel.H()), colAccent)
	a.overTxt[fontTitle].text("How to play", h.panel.Min.X+24, h.panel.Min.Y+14, alignLeft, colAccent)
	for i, line := range h.lines {
		if line != "" {
			t.text(line, h.panel.Min.X+24, h.panel.Min.Y+60+float64(i)*19, alignLeft, colText)
		}
	}
	a.drawButton(over, a.overTxt[fontBold], h.ok, "Got it", true)
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
