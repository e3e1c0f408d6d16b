package render

import (
	"time"

	"github.com/gopxl/pixel/v2"
	"github.com/gopxl/pixel/v2/backends/opengl"

	"hostfall/render/ui"
	"hostfall/session"
	"hostfall/settings"
)

// initSettings takes the settings of the run from the options (the
// defaults and the window's size when there are none).
func (a *App) initSettings() {
	s := settings.Defaults()
	if a.opt.Settings != nil {
		s = a.opt.Settings.Clone()
	} else if a.opt.Width > 0 && a.opt.Height > 0 {
		s.Width, s.Height, s.Fullscreen = a.opt.Width, a.opt.Height, a.opt.Fullscreen
	}
	a.settings = s
	a.keys, _ = ui.ParseBindings(s.Keys)
	a.display = displayMode{full: s.Fullscreen, w: s.Width, h: s.Height}
	a.options.drag = -1
	a.howTo.pending = a.opt.HowTo
}

// settingsUpdate runs what the settings add to a frame (update step): the
// options and the how-to when they show (then they take the input), the
// browser's Options button, F1, the card's keys, the preferred colour.
func (a *App) settingsUpdate(in *ui.Input) {
	switch {
	case a.options.open:
		a.optionsUpdate(in)
	case a.screen == scrBrowser && a.browser.askPass == nil && pressed(in, optionsButton(a.w)):
		a.click()
		a.openOptions()
		*in = ui.Input{Now: in.Now, DT: in.DT, Mouse: ui.V(-1, -1)}
	case a.screen == scrBrowser && a.browser.askPass == nil && pressed(in, quitButton(a.w)):
		a.click()
		a.quit = true
	case a.screen == scrGame && a.game.ui != nil && a.game.ui.MenuOpen:
	case a.screen == scrGame:
		a.howToUpdate(in)
	}
	a.readTip()
	if a.game != nil && a.game.ui != nil {
		a.game.ui.Keys = a.keys
	}
	a.askColor()
}

// settingsDraw draws the Options button, the how-to and the options.
func (a *App) settingsDraw() {
	switch {
	case a.options.open:
		a.drawOptions()
	case a.screen == scrBrowser:
		a.drawOptionsButton()
	case a.screen == scrGame && a.howTo.shown:
		a.drawHowTo()
	case a.screen == scrGame && a.tip.shown:
		a.drawTip()
	}
}

// askColor asks, once a lobby, for the player's preferred colour when the
// slot has another and nobody plays that one. Entering a lobby also
// remembers a name the player typed into the browser.
func (a *App) askColor() {
	if a.screen == scrBrowser {
		a.colorAsked = false
	}
	if a.screen == scrLobby && !a.colorAsked {
		a.rememberName()
	}
	pref := a.settings.Color
	if a.screen != scrLobby || a.colorAsked || pref < 0 {
		return
	}
	a.colorAsked = true
	l, ok := a.cl.Lobby()
	me := a.cl.Slot()
	if !ok || me < 0 || me >= len(l.Slots) || int(l.Slots[me].Color) == pref {
		return
	}
	for i, s := range l.Slots {
		if i != me && s.HoldsPlayer() && int(s.Color%session.NumColors) == pref {
			return
		}
	}
	cur := l.Slots[me]
	if err := a.cl.EditSlot(session.SlotEdit{Name: cur.Name, Color: uint8(pref), Team: cur.Team, Ready: cur.Ready}); err != nil {
		a.log.Debug("preferred colour not taken", "err", err)
	}
}

// rememberName saves the name the browser's field holds when the player
// typed one (a name given by --name is for the run only).
func (a *App) rememberName() {
	n := settings.CleanName(a.browser.name.Text)
	if n == "" || n == a.nameAtStart || n == a.settings.Name {
		return
	}
	a.settings.Name = n
	if a.opt.SaveSettings == nil {
		return
	}
	if err := a.opt.SaveSettings(func(s *settings.Settings) { s.Name = n }); err != nil {
		a.log.Warn("the name typed in the browser is not saved", "err", err)
	}
}

// setDisplay puts the window in full screen on the primary monitor, or in
// a window of the size asked for.
func setDisplay(win *opengl.Window, d displayMode) {
	if d.full {
		if m := opengl.PrimaryMonitor(); m != nil {
			win.SetMonitor(m)
			return
		}
	}
	win.SetMonitor(nil)
	if d.w > 0 && d.h > 0 {
		win.SetBounds(pixel.R(0, 0, float64(d.w), float64(d.h)))
	}
}

// idleFrame is how often a menu screen draws when nothing happens: the
// lists, the countdown and a field's cursor move no faster, and any input
// draws the next frame at once.
const idleFrame = 250 * time.Millisecond

// idle reports whether the screen only changes on input or slowly (the
// browser, the lobby): the window then waits for input between frames.
func (a *App) idle() bool { return a.screen != scrGame }

// waitInput reads the window's input for the next frame: at once, or on
// an idle screen the first input within wait (GLFW sleeps meanwhile).
func waitInput(win *opengl.Window, idle bool, wait time.Duration) {
	if idle && wait > time.Millisecond {
		win.UpdateInputWait(wait)
		return
	}
	win.UpdateInput()
}
