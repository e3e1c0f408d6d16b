package render

import (
	"fmt"
	"time"

	"github.com/gopxl/pixel/v2"

	"hostfall/client"
	"hostfall/render/ui"
	"hostfall/session"
)

// browserScreen lists the sessions on the LAN and in the relay's directory,
// joins one (by the list or an invite code) or creates a game.
type browserScreen struct {
	a          *App
	name       ui.TextField
	code       ui.TextField
	gameName   ui.TextField
	password   ui.TextField
	joinPass   ui.TextField
	focus      *ui.TextField
	maxPlayers int
	selected   string
	lastClick  time.Time
	msg        string
	msgErr     bool
	askPass    *client.Listing // a locked session waiting for its password
	createBtn  ui.Rect         // where the last frame drew the create button
}

func newBrowserScreen(a *App) *browserScreen {
	b := &browserScreen{a: a, maxPlayers: 4}
	b.name = ui.TextField{Text: a.opt.PlayerName, Max: 24}
	if b.name.Text == "" {
		b.name.Text = "Player"
	}
	b.code.Max, b.gameName.Max, b.password.Max, b.joinPass.Max = 200, 32, 64, 64
	return b
}

// status shows a sentence at the bottom of the browser (refusals in red).
func (b *browserScreen) status(text string, isErr bool) {
	b.msg, b.msgErr = text, isErr
}

// browser geometry.
type browserLayout struct {
	table, list, create, bottom ui.Rect
	rowH                        float64
}

func (b *browserScreen) layout() browserLayout {
	a := b.a
	var l browserLayout
	l.table = ui.R(32, 104, a.w-360, a.h-150)
	l.rowH = 30
	l.list = ui.R(l.table.Min.X, l.table.Min.Y+l.rowH, l.table.Max.X, l.table.Max.Y)
	l.create = ui.R(a.w-328, 104, a.w-32, a.h-150)
	l.bottom = ui.R(32, a.h-136, a.w-32, a.h-24)
	return l
}

// columns of the session table: header, x offset from the table's left.
var browserCols = []struct {
	title string
	x     float64
}{{"", 10}, {"Game", 34}, {"Host", -330}, {"Players", -200}, {"State", -130}, {"Where", -60}}

func colX(r ui.Rect, x float64) float64 {
	if x < 0 {
		return r.Max.X + x
	}
	return r.Min.X + x
}

func (b *browserScreen) frame(in *ui.Input) {
	a := b.a
	l := b.layout()
	hud, t, bold, small := a.hud, a.text[fontBody], a.text[fontBold], a.text[fontSmall]
	a.text[fontTitle].text("HOSTFALL", 32, 28, alignLeft, colAccent)
	t.text("Find a game on your network or through the relay, join one with an invite code, or start your own.", 32, 66, alignLeft, colDim)

	list := a.cl.Sessions()
	a.panel(hud, l.table)
	hud.rect(ui.R(l.table.Min.X, l.table.Min.Y, l.table.Max.X, l.table.Min.Y+l.rowH), colPanelHi)
	for _, c := range browserCols {
		bold.text(c.title, colX(l.table, c.x), l.table.Min.Y+7, alignLeft, colDim)
	}
	if len(list) == 0 {
		t.inRect("No games found yet. Create one, or join with an invite code.", ui.R(l.list.Min.X, l.list.Min.Y, l.list.Max.X, l.list.Min.Y+80), colDim)
	}
	var sel *client.Listing
	for i := range list {
		s := &list[i]
		r := ui.XYWH(l.list.Min.X+1, l.list.Min.Y+float64(i)*l.rowH, l.list.W()-2, l.rowH)
		if r.Max.Y > l.list.Max.Y {
			break
		}
		hover := r.Contains(in.Mouse)
		switch {
		case s.ID == b.selected:
			hud.rect(r, colHover)
			hud.rect(ui.XYWH(r.Min.X, r.Min.Y, 3, r.H()), colAccent)
			sel = s
		case hover:
			hud.rect(r, rgb(40, 48, 64))
		}
		y := r.Min.Y + 7
		if s.Locked {
			drawLock(hud, ui.XYWH(colX(l.table, 10), y+1, 12, 14))
		}
		t.text(t.fit(s.Name, l.table.W()-380), colX(l.table, 34), y, alignLeft, colText)
		t.text(t.fit(s.Host, 120), colX(l.table, -330), y, alignLeft, colText)
		t.text(fmt.Sprintf("%d / %d", s.Players, s.Max), colX(l.table, -200), y, alignLeft, colText)
		state, sc := "lobby", colGood
		if s.State >= session.StateCountdown {
			state, sc = "playing", colAccent
		}
		t.text(state, colX(l.table, -130), y, alignLeft, sc)
		t.text(s.Source.String(), colX(l.table, -60), y, alignLeft, sourceColor(s.Source))
		if hover && in.Pressed[ui.MouseLeft] && b.askPass == nil {
			if b.selected == s.ID && in.Now.Sub(b.lastClick) < ui.DoubleClick {
				b.join(s)
			}
			b.selected, b.lastClick = s.ID, in.Now
		}
	}

	// Under the table: join the selected game, or by invite code.
	by := l.bottom.Min.Y
	label := "Join game"
	if sel != nil && sel.State >= session.StateCountdown {
		label = "Watch game" // a game under way takes spectators
	}
	if a.button(hud, bold, ui.XYWH(32, by, 140, 34), label, sel != nil && b.askPass == nil) {
		b.join(sel)
	}
	small.text("Invite code", 196, by-16, alignLeft, colDim)
	if a.field(hud, t, ui.XYWH(196, by, l.table.Max.X-196-150, 34), &b.code, b.focus == &b.code, "paste an invite code", false) {
		b.focus = &b.code
	}
	if a.button(hud, bold, ui.XYWH(l.table.Max.X-140, by, 140, 34), "Join by code", b.code.Text != "") {
		b.joinCode()
	}

	b.createPanel(in, l.create)

	if b.msg != "" {
		c := colDim
		if b.msgErr {
			c = colBad
		}
		for i, line := range t.wrap(b.msg, l.bottom.W()) {
			t.text(line, 32, by+50+float64(i)*20, alignLeft, c)
		}
	}
	if b.askPass != nil {
		b.passwordPrompt(in)
	}
	b.keys(in)
}

// colRelay marks what comes through the relay (the "Where" of a listing).
var colRelay = rgb(125, 211, 252)

// sourceColor tells the relay's sessions from the LAN's at a glance.
func sourceColor(src client.Source) pixel.RGBA {
	if src == client.SourceRelay {
		return colRelay
	}
	return colDim
}

// drawLock draws a small padlock.
func drawLock(l *layer, r ui.Rect) {
	c := colAccent
	l.rect(ui.R(r.Min.X, r.Min.Y+r.H()*0.45, r.Max.X, r.Max.Y), c)
	l.outline(ui.R(r.Min.X+2, r.Min.Y, r.Max.X-2, r.Min.Y+r.H()*0.5), 2, c)
}

func (b *browserScreen) createPanel(in *ui.Input, r ui.Rect) {
	a := b.a
	hud, t, bold, small := a.hud, a.text[fontBody], a.text[fontBold], a.text[fontSmall]
	a.panel(hud, r)
	x, y, w := r.Min.X+16, r.Min.Y+14, r.W()-32
	bold.text("Your name", x, y, alignLeft, colText)
	y += 22
	if a.field(hud, t, ui.XYWH(x, y, w, 32), &b.name, b.focus == &b.name, "your name", false) {
		b.focus = &b.name
	}
	y += 56
	bold.text("Create a game", x, y, alignLeft, colAccent)
	y += 28
	small.text("Name", x, y, alignLeft, colDim)
	y += 16
	if a.field(hud, t, ui.XYWH(x, y, w, 32), &b.gameName, b.focus == &b.gameName, b.defaultGameName(), false) {
		b.focus = &b.gameName
	}
	y += 44
	small.text("Password (optional)", x, y, alignLeft, colDim)
	y += 16
	if a.field(hud, t, ui.XYWH(x, y, w, 32), &b.password, b.focus == &b.password, "none", true) {
		b.focus = &b.password
	}
	y += 44
	small.text("Players", x, y, alignLeft, colDim)
	y += 16
	if a.button(hud, bold, ui.XYWH(x, y, 36, 32), "–", b.maxPlayers > 2) {
		b.maxPlayers--
	}
	t.inRect(fmt.Sprintf("%d", b.maxPlayers), ui.XYWH(x+36, y, 60, 32), colText)
	if a.button(hud, bold, ui.XYWH(x+96, y, 36, 32), "+", b.maxPlayers < 8) {
		b.maxPlayers++
	}
	y += 52
	b.createBtn = ui.XYWH(x, y, w, 38)
	if a.button(hud, bold, b.createBtn, "Create game", b.askPass == nil) {
		b.create()
	}
}

func (b *browserScreen) defaultGameName() string { return b.playerName() + "'s game" }

func (b *browserScreen) playerName() string {
	if n := b.name.Text; n != "" {
		return n
	}
	return "Player"
}

func (b *browserScreen) create() {
	name := b.gameName.Text
	if name == "" {
		name = b.defaultGameName()
	}
	err := b.a.cl.Create(client.CreateOptions{Name: name, PlayerName: b.playerName(), Password: b.password.Text, MaxPlayers: b.maxPlayers})
	b.result(err, "")
}

// join joins the listed session, asking for its password first if it has one.
func (b *browserScreen) join(s *client.Listing) {
	if s == nil {
		return
	}
	if s.Locked {
		cp := *s
		b.askPass = &cp
		b.joinPass.Text = ""
		b.focus = &b.joinPass
		return
	}
	b.send(s, "")
}

func (b *browserScreen) send(s *client.Listing, password string) {
	err := b.a.cl.Join(s.ID, client.JoinOptions{PlayerName: b.playerName(), Password: password,
		Spectate: s.State >= session.StateCountdown})
	who := s.Host
	if who == "" {
		who = "the host of \"" + s.Name + "\"" // LAN and relay listings carry no player names
	}
	b.result(err, "Asking "+who+" to let you in…")
}

func (b *browserScreen) joinCode() {
	err := b.a.cl.JoinCode(b.code.Text, client.JoinOptions{PlayerName: b.playerName()})
	b.result(err, "Joining by invite code…")
}

func (b *browserScreen) result(err error, ok string) {
	if err != nil {
		b.status(capitalize(err.Error())+".", true)
		b.a.cue(ui.Cue{Sound: ui.SoundError})
		return
	}
	b.status(ok, false)
}

func (b *browserScreen) passwordPrompt(in *ui.Input) {
	a := b.a
	a.over.rect(ui.R(0, 0, a.w, a.h), colShade)
	r := ui.XYWH(a.w/2-200, a.h/2-90, 400, 180)
	a.panel(a.over, r)
	bold, t := a.overTxt[fontBold], a.overTxt[fontBody]
	bold.text(bold.fit("“"+b.askPass.Name+"” needs a password", 368), r.Min.X+16, r.Min.Y+16, alignLeft, colText)
	if a.field(a.over, t, ui.XYWH(r.Min.X+16, r.Min.Y+52, 368, 34), &b.joinPass, true, "password", true) {
		b.focus = &b.joinPass
	}
	if a.button(a.over, bold, ui.XYWH(r.Min.X+16, r.Max.Y-54, 170, 36), "Join", b.joinPass.Text != "") || (in.Hit[ui.KeyEnter] && b.joinPass.Text != "") {
		s := b.askPass
		b.askPass = nil
		b.send(s, b.joinPass.Text)
		b.joinPass.Text = ""
		b.focus = nil
		return
	}
	if a.button(a.over, bold, ui.XYWH(r.Max.X-186, r.Max.Y-54, 170, 36), "Cancel", true) || in.Hit[ui.KeyEscape] {
		b.askPass = nil
	}
}

func (b *browserScreen) keys(in *ui.Input) {
	if b.focus == nil {
		return
	}
	if b.focus.Edit(in) {
		switch b.focus {
		case &b.code:
			b.joinCode()
		case &b.gameName, &b.password:
			b.create()
		}
	}
	if in.Hit[ui.KeyTab] {
		order := []*ui.TextField{&b.name, &b.gameName, &b.password, &b.code}
		for i, f := range order {
			if f == b.focus {
				b.focus = order[(i+1)%len(order)]
				break
			}
		}
	}
	if in.Hit[ui.KeyEscape] {
		b.focus = nil
	}
}

func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
