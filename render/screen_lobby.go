package render

import (
	"fmt"
	"time"

	"hostfall/client"
	"hostfall/render/ui"
	"hostfall/session"
)

// lobbyScreen shows the session's slots, the chat and the countdown; the
// host sets up slots and starts, every player sets its own colour, team and
// readiness.
type lobbyScreen struct {
	a        *App
	chat     ui.TextField
	chatTeam bool
	count    int
	countAt  time.Time
	err      string
	startBtn ui.Rect // where the last frame drew the start (or ready) button
	naming   bool    // the player edits its name (a click on it); chat waits
	name     ui.TextField
	invite   []string // the invite code's lines, under the subtitle (a lobby hosted through a relay)
}

func newLobbyScreen(a *App) *lobbyScreen {
	return &lobbyScreen{a: a, chat: ui.TextField{Max: 200}}
}

func (s *lobbyScreen) enter() { s.count, s.err, s.naming = 0, "", false }

// lobbyRowH is the height of a slot row; inviteLineH that of a line of the invite code.
const (
	lobbyRowH   = 46.0
	inviteLineH = 16.0
)

// lobbyLayout is where the lobby screen puts things.
type lobbyLayout struct {
	slots, chat, buttons ui.Rect
}

func (s *lobbyScreen) layout() lobbyLayout {
	a := s.a
	top := 112 + inviteLineH*float64(len(s.invite)) // the panels make room for the invite code
	return lobbyLayout{
		slots:   ui.R(32, top, a.w-372, a.h-100),
		chat:    ui.R(a.w-356, top, a.w-32, a.h-100),
		buttons: ui.R(32, a.h-80, a.w-32, a.h-32),
	}
}

// lobby columns: x offsets from the slot table's left (negative: from the right).
const (
	colSwatch = 14.0
	colName   = 56.0
	colKind   = -330.0
	colTeam   = -170.0
	colReady  = -76.0
)

func (s *lobbyScreen) frame(in *ui.Input) {
	a := s.a
	l, ok := a.cl.Lobby()
	if !ok {
		return
	}
	me := a.cl.Slot()
	st := a.cl.Status()
	host := me >= 0 && me < len(l.Slots) && isHost(&l, me, st)
	hud, t, bold, small := a.hud, a.text[fontBody], a.text[fontBold], a.text[fontSmall]
	s.invite = ui.WrapCode("Invite: ", st.Invite, func(line string) bool { return small.width(line) <= a.w-64 })
	if st.Invite != "" && in.Ctrl() && in.Hit[ui.KeyC] && a.clip != nil {
		a.clip(st.Invite)
		a.addChat(chatLine{sys: true, text: "The invite code is on the clipboard: friends paste it into their game list with Ctrl+V."})
	}
	lay := s.layout()

	title := l.Name
	a.text[fontTitle].text(a.text[fontTitle].fit(title, a.w-100), 32, 28, alignLeft, colText)
	if l.Password {
		drawLock(hud, ui.XYWH(32+a.text[fontTitle].width(title)+12, 36, 14, 18))
	}
	size := l.MapSize
	if size == 0 {
		size = 128
	}
	sub := fmt.Sprintf("Map %d×%d, seed %d · up to %d players", size, size, l.MapSeed, l.MaxPlayers)
	if host {
		sub += " · you host this game"
	}
	if len(s.invite) > 0 {
		sub += " · friends elsewhere join with the invite code below (Ctrl+C copies it)"
	}
	t.text(t.fit(sub, a.w-64), 32, 68, alignLeft, colDim)
	for i, line := range s.invite {
		small.text(line, 32, 92+inviteLineH*float64(i), alignLeft, colText)
	}

	a.panel(hud, lay.slots)
	hud.rect(ui.R(lay.slots.Min.X, lay.slots.Min.Y, lay.slots.Max.X, lay.slots.Min.Y+30), colPanelHi)
	for _, c := range []struct {
		t string
		x float64
	}{{"Player", colName}, {"Slot", colKind}, {"Team", colTeam}, {"Ready", colReady}} {
		bold.text(c.t, colX(lay.slots, c.x), lay.slots.Min.Y+7, alignLeft, colDim)
	}
	for i := range l.Slots {
		r := ui.XYWH(lay.slots.Min.X+1, lay.slots.Min.Y+31+float64(i)*lobbyRowH, lay.slots.W()-2, lobbyRowH)
		if r.Max.Y > lay.slots.Max.Y {
			break
		}
		s.slotRow(in, &l, i, r, me, host)
	}

	s.chatPanel(in, lay.chat, &l, me)

	by := lay.buttons.Min.Y
	if a.button(hud, bold, ui.XYWH(32, by, 140, 40), "Leave", true) {
		a.cl.Leave()
		return
	}
	if me >= 0 && me < len(l.Slots) && !host {
		mine := l.Slots[me]
		label := "Ready"
		if mine.Ready {
			label = "Not ready"
		}
		if a.button(hud, bold, ui.XYWH(lay.slots.Max.X-180, by, 180, 40), label, l.State == session.StateLobby) {
			s.edit(mine, func(e *session.SlotEdit) { e.Ready = !mine.Ready })
		}
	}
	s.startBtn = ui.XYWH(lay.slots.Max.X-180, by, 180, 40)
	if host {
		if a.button(hud, bold, s.startBtn, "Start game", l.State == session.StateLobby) {
			if err := a.cl.Start(); err != nil {
				s.err = capitalize(err.Error()) + "."
				a.cue(ui.Cue{Sound: ui.SoundError})
			} else {
				s.err = ""
			}
		}
	}
	if s.err != "" {
		small.text(small.fit(s.err, lay.slots.W()-400), 190, by+13, alignLeft, colBad)
	}
	if l.State == session.StateCountdown {
		s.countdown()
	}
}

// isHost reports whether the local player hosts: its slot's peer is the host.
func isHost(l *session.Lobby, me int, st client.NetStatus) bool {
	if !st.Online {
		return true
	}
	for _, p := range st.Peers {
		if p.Self {
			return p.Host
		}
	}
	return me == 0
}

func (s *lobbyScreen) slotRow(in *ui.Input, l *session.Lobby, i int, r ui.Rect, me int, host bool) {
	a := s.a
	hud, t, bold, small := a.hud, a.text[fontBody], a.text[fontBold], a.text[fontSmall]
	sl := l.Slots[i]
	mine := i == me
	if mine {
		hud.rect(r, rgb(38, 48, 66))
		hud.rect(ui.XYWH(r.Min.X, r.Min.Y, 3, r.H()), colAccent)
	}
	hud.rect(ui.R(r.Min.X, r.Max.Y-1, r.Max.X, r.Max.Y), rgb(44, 52, 68))
	y := r.Min.Y + (lobbyRowH-t.height())/2
	occupied := sl.Kind == session.SlotHuman || sl.Kind == session.SlotBot
	sw := ui.XYWH(colX(r, colSwatch), r.Min.Y+9, 28, 28)
	if occupied {
		swatch(hud, sw, sl.Color)
		if mine && sw.Contains(in.Mouse) && in.Pressed[ui.MouseLeft] && l.State == session.StateLobby {
			a.click()
			s.edit(sl, func(e *session.SlotEdit) { e.Color = nextColor(l, sl.Color) })
		}
	} else {
		hud.outline(sw, 1, colBorder)
	}
	name, nc := sl.Name, colText
	switch sl.Kind {
	case session.SlotOpen:
		name, nc = "Open", colDim
	case session.SlotClosed:
		name, nc = "Closed", rgb(100, 108, 124)
	}
	nameR := ui.R(colX(r, colName)-6, r.Min.Y+7, colX(r, colKind)-16, r.Max.Y-7)
	switch {
	case mine && s.naming:
		a.field(hud, t, nameR, &s.name, true, "your name", false)
		if in.Hit[ui.KeyEscape] {
			s.naming = false
		} else if s.name.Edit(in) {
			s.naming = false
			if n := s.name.Take(); n != "" && n != sl.Name {
				s.edit(sl, func(e *session.SlotEdit) { e.Name = n })
			}
		}
	case mine:
		t.text(t.fit(name+"  (you)", nameR.W()), colX(r, colName), y, alignLeft, nc)
		if nameR.Contains(in.Mouse) && in.Pressed[ui.MouseLeft] && l.State == session.StateLobby {
			a.click()
			s.naming, s.name = true, ui.TextField{Text: sl.Name, Max: 24}
		}
	default:
		t.text(t.fit(name, nameR.W()), colX(r, colName), y, alignLeft, nc)
	}

	kind := slotKindLabel(sl)
	kr := ui.XYWH(colX(r, colKind), r.Min.Y+7, 140, 32)
	if host && sl.Kind != session.SlotHuman && l.State == session.StateLobby {
		if a.button(hud, small, kr, kind, true) {
			k, lvl := nextSlotKind(sl)
			if err := a.cl.SetSlot(i, k, lvl); err != nil {
				s.err = capitalize(err.Error()) + "."
			}
		}
	} else {
		t.text(kind, kr.Min.X+8, y, alignLeft, colDim)
	}

	team := "—"
	if sl.Team > 0 {
		team = fmt.Sprintf("%d", sl.Team)
	}
	tr := ui.XYWH(colX(r, colTeam), r.Min.Y+7, 64, 32)
	if mine && l.State == session.StateLobby {
		if a.button(hud, bold, tr, team, true) {
			s.edit(sl, func(e *session.SlotEdit) { e.Team = (sl.Team + 1) % 5 })
		}
	} else if occupied {
		t.text(team, tr.Min.X+8, y, alignLeft, colText)
	}

	if occupied {
		rr := ui.XYWH(colX(r, colReady)+8, r.Min.Y+13, 20, 20)
		if sl.Ready {
			hud.rect(rr, colGood)
			drawCheck(hud, rr)
		} else {
			hud.outline(rr, 2, colBorder)
		}
	}
}

// drawCheck draws a tick mark in r.
func drawCheck(l *layer, r ui.Rect) {
	c := rgb(10, 30, 16)
	for i := range 4 {
		l.rect(ui.XYWH(r.Min.X+4+float64(i), r.Min.Y+9+float64(i), 2, 2), c)
	}
	for i := range 8 {
		l.rect(ui.XYWH(r.Min.X+8+float64(i), r.Min.Y+12-float64(i), 2, 2), c)
	}
}

func slotKindLabel(s session.Slot) string {
	switch s.Kind {
	case session.SlotHuman:
		return "Human"
	case session.SlotBot:
		if s.BotLevel == 0 {
			return "Bot (easy)"
		}
		return "Bot (hard)"
	case session.SlotClosed:
		return "Closed"
	}
	return "Open"
}

// nextSlotKind cycles a slot open → easy bot → hard bot → closed → open.
func nextSlotKind(s session.Slot) (session.SlotKind, uint8) {
	switch {
	case s.Kind == session.SlotOpen:
		return session.SlotBot, 0
	case s.Kind == session.SlotBot && s.BotLevel == 0:
		return session.SlotBot, 1
	case s.Kind == session.SlotBot:
		return session.SlotClosed, 0
	}
	return session.SlotOpen, 0
}

// nextColor returns the next colour after c that no other slot uses.
func nextColor(l *session.Lobby, c uint8) uint8 {
	for step := uint8(1); step <= 8; step++ {
		n := (c + step) % 8
		used := false
		for _, s := range l.Slots {
			if (s.Kind == session.SlotHuman || s.Kind == session.SlotBot) && s.Color%8 == n {
				used = true
			}
		}
		if !used {
			return n
		}
	}
	return c
}

// edit sends a change of the local slot.
func (s *lobbyScreen) edit(cur session.Slot, fn func(e *session.SlotEdit)) {
	e := session.SlotEdit{Name: cur.Name, Color: cur.Color, Team: cur.Team, Ready: cur.Ready}
	fn(&e)
	if err := s.a.cl.EditSlot(e); err != nil {
		s.err = capitalize(err.Error()) + "."
	}
}

func (s *lobbyScreen) chatPanel(in *ui.Input, r ui.Rect, l *session.Lobby, me int) {
	a := s.a
	hud, t, bold, small := a.hud, a.text[fontBody], a.text[fontBold], a.text[fontSmall]
	a.panel(hud, r)
	bold.text("Chat", r.Min.X+14, r.Min.Y+10, alignLeft, colText)
	small.text("Enter sends · Tab: all / team", r.Max.X-14, r.Min.Y+12, alignRight, colDim)
	inputR := ui.R(r.Min.X+10, r.Max.Y-44, r.Max.X-10, r.Max.Y-10)
	// Lines from the bottom up, wrapped.
	y := inputR.Min.Y - 8
	for i := len(a.chat) - 1; i >= 0 && y > r.Min.Y+40; i-- {
		c := a.chat[i]
		lines := small.wrap(chatText(c), r.W()-28)
		for j := len(lines) - 1; j >= 0 && y > r.Min.Y+40; j-- {
			y -= 18
			col := colText
			if c.sys {
				col = colDim
			} else if c.team {
				col = rgb(125, 211, 252)
			}
			small.text(lines[j], r.Min.X+14, y, alignLeft, col)
		}
	}
	to := "to all"
	if s.chatTeam {
		to = "to team"
	}
	a.field(hud, t, inputR, &s.chat, !s.naming, "say something ("+to+")", false)
	if s.naming {
		return
	}
	if in.Hit[ui.KeyTab] {
		s.chatTeam = !s.chatTeam
	}
	if s.chat.Edit(in) {
		if text := s.chat.Take(); text != "" {
			team := uint8(0)
			if s.chatTeam && me >= 0 && me < len(l.Slots) {
				team = l.Slots[me].Team
			}
			if err := a.cl.Say(team, text); err != nil {
				s.err = capitalize(err.Error()) + "."
			}
		}
	}
}

func chatText(c chatLine) string {
	if c.sys {
		return c.text
	}
	if c.team {
		return c.name + " (team): " + c.text
	}
	return c.name + ": " + c.text
}

func (s *lobbyScreen) countdown() {
	a := s.a
	n := s.count
	if n <= 0 {
		n = 5
	}
	a.over.rect(ui.R(0, a.h/2-90, a.w, a.h/2+90), rgba(0, 0, 0, 0.7))
	a.overTxt[fontTitle].text("The game starts in", a.w/2, a.h/2-78, alignCenter, colText)
	a.overTxt[fontHuge].text(fmt.Sprintf("%d", n), a.w/2, a.h/2-36, alignCenter, colAccent)
}
