package render

import (
	"fmt"
	"math"

	"hostfall/render/ui"
	"hostfall/settings"
)

// optionsScreen is the options, over the browser or the game: the four
// volumes, full screen or the window's size, the player's name and
// colour, the command card's keys. A change takes effect at once (the
// sound server's volumes, the window, the card's keys); Save writes the
// settings file and closes, Back goes back to what was set when it
// opened and closes.
//
// Its input step is pure as the browser's is: input changes the draft and
// returns intents, apply carries them out.
type optionsScreen struct {
	open    bool
	orig    settings.Settings // when it opened: Back returns to it
	draft   settings.Settings // what it shows and what takes effect
	keys    ui.Bindings       // the draft's keys
	name    ui.TextField
	editing bool    // the name field has the keyboard
	waiting ui.Bind // a command waiting for its key, when listening
	listen  bool
	drag    int // the volume slider held down, -1 for none
	msg     string
	msgErr  bool
	lay     optionsLayout
}

// optionsAct says what an optionsIntent asks for.
type optionsAct uint8

const (
	optsClick   optionsAct = iota + 1 // a button's click sound
	optsChanged                       // the draft changed: let it take effect
	optsSave                          // write the draft to the settings file and close
	optsBack                          // take back what changed since it opened and close
)

// windowSizes are the window sizes the options offer.
var windowSizes = [][2]int{{800, 600}, {1024, 768}, {1280, 720}, {1280, 800}, {1366, 768}, {1600, 900}, {1920, 1080}}

// volumeNames label the four sliders, in optionsLayout.vol order.
var volumeNames = [4]string{"Master", "Effects", "Voices", "Music"}

// volume returns a pointer to the draft's volume i (volumeNames order).
func (o *optionsScreen) volume(i int) *int {
	v := &o.draft.Volume
	return [4]*int{&v.Master, &v.Effects, &v.Voices, &v.Music}[i]
}

// show opens the options on s (the settings of this run).
func (o *optionsScreen) show(s settings.Settings) {
	ks, _ := ui.ParseBindings(s.Keys)
	*o = optionsScreen{open: true, orig: s.Clone(), draft: s.Clone(), keys: ks, drag: -1, lay: o.lay}
	o.name = ui.TextField{Text: s.Name, Max: settings.MaxName}
}

// optionsLayout is where the options put things, a w×h window.
type optionsLayout struct {
	panel, left, right     ui.Rect
	vol                    [4]struct{ minus, bar, plus ui.Rect }
	full, sizePrev         ui.Rect
	sizeLabel, sizeNext    ui.Rect
	name                   ui.Rect
	colorPrev, colorSwatch ui.Rect
	colorNext              ui.Rect
	keys                   [ui.NumBinds]ui.Rect
	resetKeys              ui.Rect
	save, back             ui.Rect
	msgY                   float64
	headers                [4]float64 // y of Sound, Display, Player (left) and Keys (right)
}

const optRow = 36.0 // the left column's rows

func (l *optionsLayout) set(w, h float64) {
	pw, ph := math.Min(w-32, 820), math.Min(h-32, 600)
	l.panel = ui.XYWH(math.Round((w-pw)/2), math.Round((h-ph)/2), pw, ph)
	p := l.panel
	col := (p.W() - 72) / 2
	l.left = ui.XYWH(p.Min.X+24, p.Min.Y+64, col, p.H()-130)
	l.right = ui.XYWH(l.left.Max.X+24, l.left.Min.Y, col, l.left.H())
	ctl := l.left.Min.X + 100 // labels to its left, the controls from it
	cw := l.left.Max.X - ctl
	y := l.left.Min.Y
	l.headers[0] = y
	y += 26
	for i := range l.vol {
		r := &l.vol[i]
		r.minus = ui.XYWH(ctl, y, 30, 28)
		r.bar = ui.XYWH(ctl+38, y+8, cw-38-38-46, 12)
		r.plus = ui.XYWH(r.bar.Max.X+8, y, 30, 28)
		y += optRow
	}
	y += 6
	l.headers[1] = y
	y += 26
	l.full = ui.XYWH(ctl, y, 90, 28)
	y += optRow
	l.sizePrev = ui.XYWH(ctl, y, 30, 28)
	l.sizeNext = ui.XYWH(ctl+cw-30, y, 30, 28)
	l.sizeLabel = ui.R(l.sizePrev.Max.X, y, l.sizeNext.Min.X, y+28)
	y += optRow + 6
	l.headers[2] = y
	y += 26
	l.name = ui.XYWH(ctl, y, cw, 30)
	y += optRow
	l.colorPrev = ui.XYWH(ctl, y, 30, 28)
	l.colorNext = ui.XYWH(ctl+cw-30, y, 30, 28)
	l.colorSwatch = ui.R(l.colorPrev.Max.X+8, y, l.colorNext.Min.X-8, y+28)

	y = l.right.Min.Y
	l.headers[3] = y
	y += 26
	rowH := math.Min(30, (l.right.Max.Y-y-40)/float64(ui.NumBinds))
	for b := range l.keys {
		l.keys[b] = ui.XYWH(l.right.Max.X-60, y+float64(b)*rowH, 60, rowH-3)
	}
	l.resetKeys = ui.XYWH(l.right.Max.X-150, y+float64(ui.NumBinds)*rowH+6, 150, 30)
	l.back = ui.XYWH(p.Max.X-24-120, p.Max.Y-54, 120, 38)
	l.save = ui.XYWH(l.back.Min.X-12-120, p.Max.Y-54, 120, 38)
	l.msgY = p.Max.Y - 44
}

// input runs the frame's input on the options: it changes the draft and
// returns what to do. It calls nothing and draws nothing.
func (o *optionsScreen) input(in *ui.Input, acts []optionsIntent) []optionsIntent {
	if o.listen {
		return o.keyInput(in, acts)
	}
	acts = o.volumeInput(in, acts)
	acts = o.displayInput(in, acts)
	acts = o.playerInput(in, acts)
	for b := range o.lay.keys {
		if pressed(in, o.lay.keys[b]) {
			o.listen, o.waiting, o.editing = true, ui.Bind(b), false
			o.say(fmt.Sprintf("Press the key for %s (Escape: keep %s).", ui.Bind(b).Label(), ui.KeyName(o.keys[b])), false)
			return append(acts, optionsIntent{act: optsClick})
		}
	}
	if pressed(in, o.lay.resetKeys) {
		o.keys = ui.DefaultBindings()
		o.draft.Keys = nil
		o.say("Every command has its first key again.", false)
		acts = append(acts, optionsIntent{act: optsClick}, optionsIntent{act: optsChanged})
	}
	switch {
	case pressed(in, o.lay.save), o.editing && in.Hit[ui.KeyEnter]:
		o.editing = false
		return append(acts, optionsIntent{act: optsClick}, optionsIntent{act: optsSave})
	case pressed(in, o.lay.back), !o.editing && in.Hit[ui.KeyEscape]:
		return append(acts, optionsIntent{act: optsClick}, optionsIntent{act: optsBack})
	case o.editing && in.Hit[ui.KeyEscape]:
		o.editing = false
	}
	return acts
}

// optionsIntent is one thing the options' input asks for.
type optionsIntent struct{ act optionsAct }

// volumeInput runs the sliders: - and + step by 5, a click or a drag on
// the bar sets the value where the pointer is.
func (o *optionsScreen) volumeInput(in *ui.Input, acts []optionsIntent) []optionsIntent {
	if !in.Down[ui.MouseLeft] {
		o.drag = -1
	}
	for i := range o.lay.vol {
		r, v := &o.lay.vol[i], o.volume(i)
		was := *v
		switch {
		case pressed(in, r.minus):
			*v = max(0, (*v+4)/5*5-5)
			acts = append(acts, optionsIntent{act: optsClick})
		case pressed(in, r.plus):
			*v = min(settings.MaxVolume, *v/5*5+5)
			acts = append(acts, optionsIntent{act: optsClick})
		case pressed(in, r.bar.Inset(-6)):
			o.drag = i
		}
		if o.drag == i {
			f := (in.Mouse.X - r.bar.Min.X) / r.bar.W()
			*v = int(math.Round(math.Max(0, math.Min(1, f)) * settings.MaxVolume))
		}
		if *v != was {
			acts = append(acts, optionsIntent{act: optsChanged})
		}
	}
	return acts
}

// displayInput runs full screen and the window's size.
func (o *optionsScreen) displayInput(in *ui.Input, acts []optionsIntent) []optionsIntent {
	d := &o.draft
	switch {
	case pressed(in, o.lay.full):
		d.Fullscreen = !d.Fullscreen
	case pressed(in, o.lay.sizePrev):
		d.Width, d.Height = stepSize(d.Width, d.Height, -1)
		d.Fullscreen = false
	case pressed(in, o.lay.sizeNext):
		d.Width, d.Height = stepSize(d.Width, d.Height, 1)
		d.Fullscreen = false
	default:
		return acts
	}
	return append(acts, optionsIntent{act: optsClick}, optionsIntent{act: optsChanged})
}

// stepSize returns the offered window size before (dir -1) or after (+1)
// w×h, which need not be one of them; the ends stay where they are.
func stepSize(w, h, dir int) (int, int) {
	area := w * h
	if dir < 0 {
		for i := len(windowSizes) - 1; i >= 0; i-- {
			if s := windowSizes[i]; s[0]*s[1] < area || (s[0]*s[1] == area && s[0] < w) {
				return s[0], s[1]
			}
		}
		return w, h
	}
	for _, s := range windowSizes {
		if s[0]*s[1] > area || (s[0]*s[1] == area && s[0] > w) {
			return s[0], s[1]
		}
	}
	return w, h
}

// playerInput runs the name field and the colour.
func (o *optionsScreen) playerInput(in *ui.Input, acts []optionsIntent) []optionsIntent {
	if pressed(in, o.lay.name) {
		o.editing = true
	}
	if o.editing {
		o.name.Edit(in)
		if n := settings.CleanName(o.name.Text); n != o.draft.Name {
			o.draft.Name = n
			acts = append(acts, optionsIntent{act: optsChanged})
		}
	}
	step := 0
	switch {
	case pressed(in, o.lay.colorPrev):
		step = -1
	case pressed(in, o.lay.colorNext):
		step = 1
	default:
		return acts
	}
	// NoColor, then the colours in order, round and round.
	n := settings.NumColors + 1
	o.draft.Color = (o.draft.Color+1+step+n)%n - 1
	return append(acts, optionsIntent{act: optsClick}, optionsIntent{act: optsChanged})
}

// keyInput takes the key for the command waiting for one: a letter no
// other command of its card has, or Escape to keep the old one.
func (o *optionsScreen) keyInput(in *ui.Input, acts []optionsIntent) []optionsIntent {
	if in.Pressed[ui.MouseLeft] || in.Hit[ui.KeyEscape] {
		o.listen = false
		o.say("", false)
		return acts
	}
	for k := ui.KeyA; k < ui.NumKeys; k++ {
		if !in.Hit[k] || k == ui.KeyShift || k == ui.KeyCtrl || k == ui.KeyAlt {
			continue
		}
		if err := o.keys.Set(o.waiting, k); err != nil {
			o.say(capitalize(err.Error())+".", true)
			return append(acts, optionsIntent{act: optsClick})
		}
		o.listen = false
		o.draft.Keys = o.keys.Map()
		o.say(fmt.Sprintf("%s is now %s.", o.waiting.Label(), ui.KeyName(k)), false)
		return append(acts, optionsIntent{act: optsClick}, optionsIntent{act: optsChanged})
	}
	return acts
}

func (o *optionsScreen) say(msg string, isErr bool) { o.msg, o.msgErr = msg, isErr }

// colorName names a preferred colour.
func colorName(c int) string {
	if c < 0 || c >= len(ColorNames) {
		return "Any free colour"
	}
	return capitalize(ColorNames[c])
}

// optionsButton is where the browser's Options button goes: top right,
// beside the title.
func optionsButton(w float64) ui.Rect { return ui.XYWH(w-32-120, 22, 120, 34) }

// quitButton is the browser's Quit, left of Options: the window's own way
// out besides closing it.
func quitButton(w float64) ui.Rect { return ui.XYWH(w-32-120-10-100, 22, 100, 34) }

// openOptions shows the options over the screen, starting from the
// settings in effect (and the name the browser's field holds).
func (a *App) openOptions() {
	s := a.settings.Clone()
	if n := settings.CleanName(a.browser.name.Text); n != "" {
		s.Name = n
	}
	a.options.show(s)
	a.options.lay.set(a.w, a.h)
}

// optionsUpdate runs the options while they show (the update step): they
// take the frame's input, and the screen under them gets none.
func (a *App) optionsUpdate(in *ui.Input) {
	o := &a.options
	o.lay.set(a.w, a.h)
	for _, x := range o.input(in, nil) {
		switch x.act {
		case optsClick:
			a.click()
		case optsChanged:
			a.applySettings(o.draft)
		case optsSave:
			a.saveOptions()
		case optsBack:
			a.applySettings(o.orig)
			o.open = false
		}
	}
	*in = ui.Input{Now: in.Now, DT: in.DT, Mouse: ui.V(-1, -1)}
}

// applySettings makes s the settings in effect: the card's keys, the
// window's mode and size (Run applies them), the browser's name, and
// whatever Options.OnSettings does (the sound server's volumes).
func (a *App) applySettings(s settings.Settings) {
	a.settings = s.Clone()
	a.keys, _ = ui.ParseBindings(s.Keys)
	a.display = displayMode{full: s.Fullscreen, w: s.Width, h: s.Height}
	if s.Name != "" {
		a.browser.name.Text = s.Name
	}
	if a.opt.OnSettings != nil {
		a.opt.OnSettings(s.Clone())
	}
}

// saveOptions writes what the options show to the settings file and
// closes them; a failure stays on the screen.
func (a *App) saveOptions() {
	o := &a.options
	d := o.draft.Clone()
	if a.opt.SaveSettings != nil {
		err := a.opt.SaveSettings(func(s *settings.Settings) {
			seen := s.HowToSeen || d.HowToSeen
			*s = d.Clone()
			s.HowToSeen = seen
		})
		if err != nil {
			o.say("Not saved: "+err.Error()+".", true)
			a.cue(ui.Cue{Sound: ui.SoundError})
			return
		}
	}
	o.open = false
}

// displayMode is the window's mode and size as the settings ask.
type displayMode struct {
	full bool
	w, h int
}

// drawOptionsButton draws the browser's Options button.
func (a *App) drawOptionsButton() {
	a.drawButton(a.hud, a.text[fontBold], optionsButton(a.w), "Options", true)
	a.drawButton(a.hud, a.text[fontBold], quitButton(a.w), "Quit", true)
}

// drawOptions draws the options over everything (the modal layer).
func (a *App) drawOptions() {
	o, l := &a.options, &a.options.lay
	over, bold, t, small := a.over, a.overTxt[fontBold], a.overTxt[fontBody], a.overTxt[fontSmall]
	over.rect(ui.R(0, 0, a.w, a.h), colShade)
	a.panel(over, l.panel)
	a.overTxt[fontTitle].text("Options", l.panel.Min.X+24, l.panel.Min.Y+16, alignLeft, colText)
	for i, h := range []string{"Sound", "Display", "Player", "Keys of the command card"} {
		x := l.left.Min.X
		if i == 3 {
			x = l.right.Min.X
		}
		bold.text(h, x, l.headers[i], alignLeft, colAccent)
	}
	label := func(s string, r ui.Rect) {
		t.text(s, l.left.Min.X, r.Center().Y-t.height()/2, alignLeft, colText)
	}
	for i := range l.vol {
		r, v := &l.vol[i], *o.volume(i)
		label(volumeNames[i], r.minus)
		a.drawButton(over, bold, r.minus, "–", v > 0)
		bar(over, r.bar, float64(v)/settings.MaxVolume, colAccent, colHPBack)
		over.outline(r.bar, 1, colBorder)
		a.drawButton(over, bold, r.plus, "+", v < settings.MaxVolume)
		t.text(fmt.Sprintf("%d%%", v), l.left.Max.X, r.minus.Center().Y-t.height()/2, alignRight, colText)
	}
	d := &o.draft
	label("Full screen", l.full)
	onOff := "Off"
	if d.Fullscreen {
		onOff = "On"
	}
	a.drawButton(over, bold, l.full, onOff, true)
	label("Window", l.sizePrev)
	a.drawButton(over, bold, l.sizePrev, "<", true)
	t.inRect(fmt.Sprintf("%d × %d", d.Width, d.Height), l.sizeLabel, colText)
	a.drawButton(over, bold, l.sizeNext, ">", true)
	label("Name", l.name)
	a.drawField(over, t, l.name, &o.name, o.editing, "your login name", false)
	label("Colour", l.colorPrev)
	a.drawButton(over, bold, l.colorPrev, "<", true)
	a.drawButton(over, bold, l.colorNext, ">", true)
	sw := l.colorSwatch
	if d.Color >= 0 {
		swatch(over, ui.XYWH(sw.Min.X+4, sw.Center().Y-7, 14, 14), uint8(d.Color))
		sw.Min.X += 22
	}
	t.inRect(colorName(d.Color), sw, colText)
	o.drawKeys(a)
	a.drawButton(over, bold, l.resetKeys, "First keys again", true)
	if o.msg != "" {
		c := colDim
		if o.msgErr {
			c = colBad
		}
		lines := small.wrap(o.msg, l.save.Min.X-l.panel.Min.X-40)
		for i, line := range lines[:min(len(lines), 2)] {
			small.text(line, l.panel.Min.X+24, l.msgY-8+float64(i)*15, alignLeft, c)
		}
	}
	a.drawButton(over, bold, l.save, "Save", true)
	a.drawButton(over, bold, l.back, "Back", true)
}

// drawKeys draws the commands and their keys; the one waiting for a key
// shows "…".
func (o *optionsScreen) drawKeys(a *App) {
	l := &o.lay
	t, bold := a.overTxt[fontBody], a.overTxt[fontBold]
	for b, r := range l.keys {
		t.text(t.fit(ui.Bind(b).Label(), r.Min.X-l.right.Min.X-8), l.right.Min.X, r.Center().Y-t.height()/2, alignLeft, colText)
		key := ui.KeyName(o.keys[b])
		if o.listen && o.waiting == ui.Bind(b) {
			a.over.rect(r, rgb(96, 80, 24))
			a.over.outline(r, 1, colAccent)
			bold.inRect("…", r, colAccent)
			continue
		}
		a.drawButton(a.over, bold, r, key, true)
	}
}
