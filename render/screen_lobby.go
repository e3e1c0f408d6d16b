package render

import (
	"fmt"
	"time"

	"hostfall/client"
	"hostfall/game/ai"
	"hostfall/render/ui"
	"hostfall/session"
)

// lobbyScreen shows the session's slots, the chat and the countdown; the
// host sets up slots and starts, every player sets its own colour, team and
// readiness.
//
// update reads the client into a lobbyView, lays the screen out once
// (lobbyLayout), runs the input on both (input: a pure step that returns
// lobbyIntents) and applies the intents; draw draws the view into the
// layout.
type lobbyScreen struct {
	a        *App
	v        lobbyView     // what this frame shows
	lay      lobbyLayout   // where: hit-tested by input, drawn into by draw
	acts     []lobbyIntent // this frame's intents
	chat     ui.TextField
	chatTeam bool
	count    int
	countAt  time.Time
	err      string
	naming   bool // the player edits its name (a click on it); chat waits
	name     ui.TextField
}

func newLobbyScreen(a *App) *lobbyScreen {
	s := &lobbyScreen{a: a, chat: ui.TextField{Max: 200}}
	s.lay.set(a.w, a.h, 0, 0) // laid out before the first update (no slots)
	return s
}

func (s *lobbyScreen) enter() { s.count, s.err, s.naming = 0, "", false }

// lobbyView is what the lobby shows, as update read it from the client.
type lobbyView struct {
	ok     bool // the client is in a lobby; nothing shows otherwise
	lobby  session.Lobby
	me     int      // the local player's slot (-1: none)
	host   bool     // the local player hosts: it sets up slots and starts
	open   bool     // the lobby takes changes (it is not counting down)
	code   string   // the invite code ("" for none)
	invite []string // the code's lines under the subtitle (a lobby hosted through a relay)
	slots  []slotView
}

// slotView is one slot as its row shows it, with what the local player
// may do to it.
type slotView struct {
	slot     session.Slot
	mine     bool // the local player's slot
	occupied bool // a human or a bot
	edit     bool // mine in an open lobby: colour, name and team take clicks
	kindBtn  bool // the host may cycle the slot's kind
}

// mine returns the local player's slot, or nil.
func (v *lobbyView) mine() *session.Slot {
	if v.me < 0 || v.me >= len(v.lobby.Slots) {
		return nil
	}
	return &v.lobby.Slots[v.me]
}

// lobbyRowH is the height of a slot row; inviteLineH that of a line of the invite code.
const (
	lobbyRowH   = 46.0
	inviteLineH = 16.0
)

// lobby columns: x offsets from the slot table's left (negative: from the right).
const (
	colSwatch = 14.0
	colName   = 56.0
	colKind   = -330.0
	colTeam   = -170.0
	colReady  = -76.0
)

// lobbyLayout is where the lobby screen puts things. update computes it
// once a frame; input hit-tests it and draw draws into it.
type lobbyLayout struct {
	slots, chat, buttons ui.Rect // the slot table, the chat panel, the row of buttons
	rows                 []slotRowLayout
	chatInput            ui.Rect // the chat line
	leave                ui.Rect
	start                ui.Rect // the host's "Start game", a guest's "Ready"
}

// slotRowLayout is where a slot's row puts things.
type slotRowLayout struct {
	row, swatch, name, kind, team, ready ui.Rect
}

// set lays the lobby out in a w×h window with inviteLines lines of invite
// code, for slots slots (rows that do not fit are left out).
func (l *lobbyLayout) set(w, h float64, inviteLines, slots int) {
	top := 112 + inviteLineH*float64(inviteLines) // the panels make room for the invite code
	l.slots = ui.R(32, top, w-372, h-100)
	l.chat = ui.R(w-356, top, w-32, h-100)
	l.buttons = ui.R(32, h-80, w-32, h-32)
	l.rows = l.rows[:0]
	for i := range slots {
		r := ui.XYWH(l.slots.Min.X+1, l.slots.Min.Y+31+float64(i)*lobbyRowH, l.slots.W()-2, lobbyRowH)
		if r.Max.Y > l.slots.Max.Y {
			break
		}
		l.rows = append(l.rows, slotRowLayout{
			row:    r,
			swatch: ui.XYWH(colX(r, colSwatch), r.Min.Y+9, 28, 28),
			name:   ui.R(colX(r, colName)-6, r.Min.Y+7, colX(r, colKind)-16, r.Max.Y-7),
			kind:   ui.XYWH(colX(r, colKind), r.Min.Y+7, 140, 32),
			team:   ui.XYWH(colX(r, colTeam), r.Min.Y+7, 64, 32),
			ready:  ui.XYWH(colX(r, colReady)+8, r.Min.Y+13, 20, 20),
		})
	}
	l.chatInput = ui.R(l.chat.Min.X+10, l.chat.Max.Y-44, l.chat.Max.X-10, l.chat.Max.Y-10)
	l.leave = ui.XYWH(32, l.buttons.Min.Y, 140, 40)
	l.start = ui.XYWH(l.slots.Max.X-180, l.buttons.Min.Y, 180, 40)
}

// lobbyAct says what a lobbyIntent asks for.
type lobbyAct uint8

const (
	lobbyClick      lobbyAct = iota + 1 // a button's click sound
	lobbyCopyInvite                     // the invite code to the clipboard
	lobbyLeave
	lobbyStart
	lobbySetSlot // the host sets slot's kind and bot level
	lobbyEdit    // the local player's slot becomes edit
	lobbySay     // chat text to team (0: all)
)

// lobbyIntent is one thing the lobby's input asks for.
type lobbyIntent struct {
	act   lobbyAct
	slot  int
	kind  session.SlotKind
	level uint8
	edit  session.SlotEdit
	team  uint8
	text  string
}

var clickIntent = lobbyIntent{act: lobbyClick}

// update is the lobby's update step.
func (s *lobbyScreen) update(in *ui.Input) {
	s.read()
	if !s.v.ok {
		return
	}
	s.acts = s.input(in)
	s.apply(s.acts)
}

// read takes what the lobby shows from the client and lays it out.
func (s *lobbyScreen) read() {
	a := s.a
	l, ok := a.cl.Lobby()
	if s.v.ok = ok; !ok {
		return
	}
	st := a.cl.Status()
	me := a.cl.Slot()
	host := me >= 0 && me < len(l.Slots) && isHost(&l, me, st)
	small := a.text[fontSmall]
	invite := ui.WrapCode("Invite: ", st.Invite, func(line string) bool { return small.width(line) <= a.w-64 })
	s.v.set(l, me, host, st.Invite, invite)
	s.lay.set(a.w, a.h, len(s.v.invite), len(s.v.slots))
}

// set makes the view of lobby l for the player in slot me (host: it hosts)
// with invite code code, wrapped into the lines invite.
func (v *lobbyView) set(l session.Lobby, me int, host bool, code string, invite []string) {
	v.ok, v.lobby, v.me, v.host = true, l, me, host
	v.open = l.State == session.StateLobby
	v.code, v.invite = code, invite
	v.slots = v.slots[:0]
	for i, sl := range l.Slots {
		mine := i == me
		v.slots = append(v.slots, slotView{
			slot:     sl,
			mine:     mine,
			occupied: sl.Kind == session.SlotHuman || sl.Kind == session.SlotBot,
			edit:     mine && v.open,
			kindBtn:  host && sl.Kind != session.SlotHuman && v.open,
		})
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

// input runs the frame's input on the lobby as s.v shows it, laid out as
// s.lay: it changes the screen's own fields (the name being edited, the
// chat line) and returns what to do. It calls no client and draws nothing.
func (s *lobbyScreen) input(in *ui.Input) []lobbyIntent {
	acts := s.acts[:0]
	if s.v.code != "" && in.Ctrl() && in.Hit[ui.KeyC] {
		acts = append(acts, lobbyIntent{act: lobbyCopyInvite})
	}
	for i := range min(len(s.lay.rows), len(s.v.slots)) {
		acts = s.slotInput(in, i, acts)
	}
	acts = s.chatInput(in, acts)
	return s.buttonsInput(in, acts)
}

// slotInput runs the input on slot i's row: the local player's colour,
// name and team, the host's choice of the slot's kind.
func (s *lobbyScreen) slotInput(in *ui.Input, i int, acts []lobbyIntent) []lobbyIntent {
	sv, r := &s.v.slots[i], &s.lay.rows[i]
	sl := sv.slot
	if sv.edit && sv.occupied && pressed(in, r.swatch) {
		acts = append(acts, clickIntent, slotEdit(sl, func(e *session.SlotEdit) { e.Color = nextColor(&s.v.lobby, sl.Color) }))
	}
	switch {
	case sv.mine && s.naming:
		if in.Hit[ui.KeyEscape] {
			s.naming = false
		} else if s.name.Edit(in) {
			s.naming = false
			if n := s.name.Take(); n != "" && n != sl.Name {
				acts = append(acts, slotEdit(sl, func(e *session.SlotEdit) { e.Name = n }))
			}
		}
	case sv.edit && pressed(in, r.name):
		acts = append(acts, clickIntent)
		s.naming, s.name = true, ui.TextField{Text: sl.Name, Max: 24}
	}
	if sv.kindBtn && pressed(in, r.kind) {
		k, lvl := nextSlotKind(sl)
		acts = append(acts, clickIntent, lobbyIntent{act: lobbySetSlot, slot: i, kind: k, level: lvl})
	}
	if sv.edit && pressed(in, r.team) {
		acts = append(acts, clickIntent, slotEdit(sl, func(e *session.SlotEdit) { e.Team = (sl.Team + 1) % 5 }))
	}
	return acts
}

// chatInput edits the chat line (unless the player edits its name); Enter
// sends it, Tab switches between all and team.
func (s *lobbyScreen) chatInput(in *ui.Input, acts []lobbyIntent) []lobbyIntent {
	if s.naming {
		return acts
	}
	if in.Hit[ui.KeyTab] {
		s.chatTeam = !s.chatTeam
	}
	if !s.chat.Edit(in) {
		return acts
	}
	text := s.chat.Take()
	if text == "" {
		return acts
	}
	team := uint8(0)
	if mine := s.v.mine(); s.chatTeam && mine != nil {
		team = mine.Team
	}
	return append(acts, lobbyIntent{act: lobbySay, team: team, text: text})
}

// buttonsInput runs the buttons under the table: Leave, a guest's Ready,
// the host's Start game.
func (s *lobbyScreen) buttonsInput(in *ui.Input, acts []lobbyIntent) []lobbyIntent {
	v, lay := &s.v, &s.lay
	if pressed(in, lay.leave) {
		return append(acts, clickIntent, lobbyIntent{act: lobbyLeave})
	}
	if !v.open || !pressed(in, lay.start) {
		return acts
	}
	if v.host {
		return append(acts, clickIntent, lobbyIntent{act: lobbyStart})
	}
	if mine := v.mine(); mine != nil {
		ready := !mine.Ready
		acts = append(acts, clickIntent, slotEdit(*mine, func(e *session.SlotEdit) { e.Ready = ready }))
	}
	return acts
}

// slotEdit is the edit of the local player's slot cur that fn makes.
func slotEdit(cur session.Slot, fn func(e *session.SlotEdit)) lobbyIntent {
	e := session.SlotEdit{Name: cur.Name, Color: cur.Color, Team: cur.Team, Ready: cur.Ready}
	fn(&e)
	return lobbyIntent{act: lobbyEdit, edit: e}
}

// apply does what the input asked for, in order: clicks, client calls, a
// refusal shown under the table.
func (s *lobbyScreen) apply(acts []lobbyIntent) {
	a := s.a
	for _, x := range acts {
		switch x.act {
		case lobbyClick:
			a.click()
		case lobbyCopyInvite:
			if a.clip != nil {
				a.clip(s.v.code)
				a.addChat(chatLine{sys: true, text: "The invite code is on the clipboard: friends paste it into their game list with Ctrl+V."})
			}
		case lobbyLeave:
			a.cl.Leave()
		case lobbyStart:
			s.err = ""
			if err := a.cl.Start(); err != nil {
				s.refused(err)
				a.cue(ui.Cue{Sound: ui.SoundError})
			}
		case lobbySetSlot:
			s.refused(a.cl.SetSlot(x.slot, x.kind, x.level))
		case lobbyEdit:
			s.refused(a.cl.EditSlot(x.edit))
		case lobbySay:
			s.refused(a.cl.Say(x.team, x.text))
		}
	}
}

// refused shows err (if any) under the table.
func (s *lobbyScreen) refused(err error) {
	if err != nil {
		s.err = capitalize(err.Error()) + "."
	}
}

func slotKindLabel(s session.Slot) string {
	switch s.Kind {
	case session.SlotHuman:
		return "Human"
	case session.SlotBot:
		return "Bot (" + ai.Level(min(s.BotLevel, uint8(ai.Hard))).String() + ")"
	case session.SlotClosed:
		return "Closed"
	}
	return "Open"
}

// nextSlotKind cycles a slot open → easy bot → normal bot → hard bot →
// closed → open.
func nextSlotKind(s session.Slot) (session.SlotKind, uint8) {
	switch {
	case s.Kind == session.SlotOpen:
		return session.SlotBot, uint8(ai.Easy)
	case s.Kind == session.SlotBot && s.BotLevel < uint8(ai.Hard):
		return session.SlotBot, s.BotLevel + 1
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

// draw is the lobby's draw step: the view of this frame in its layout.
func (s *lobbyScreen) draw() {
	if !s.v.ok {
		return
	}
	s.drawHeader()
	s.drawSlots()
	s.drawChat()
	s.drawButtons()
	if s.v.lobby.State == session.StateCountdown {
		s.drawCountdown()
	}
}

// drawHeader draws the title, the line under it and the invite code.
func (s *lobbyScreen) drawHeader() {
	a, v := s.a, &s.v
	l := &v.lobby
	title, t, small := a.text[fontTitle], a.text[fontBody], a.text[fontSmall]
	title.text(title.fit(l.Name, a.w-100), 32, 28, alignLeft, colText)
	if l.Password {
		drawLock(a.hud, ui.XYWH(32+title.width(l.Name)+12, 36, 14, 18))
	}
	size := l.MapSize
	if size == 0 {
		size = 128
	}
	sub := fmt.Sprintf("Map %d×%d, seed %d · up to %d players", size, size, l.MapSeed, l.MaxPlayers)
	if v.host {
		sub += " · you host this game"
	}
	if len(v.invite) > 0 {
		sub += " · friends elsewhere join with the invite code below (Ctrl+C copies it)"
	}
	t.text(t.fit(sub, a.w-64), 32, 68, alignLeft, colDim)
	for i, line := range v.invite {
		small.text(line, 32, 92+inviteLineH*float64(i), alignLeft, colText)
	}
}

// drawSlots draws the slot table.
func (s *lobbyScreen) drawSlots() {
	a, lay := s.a, &s.lay
	a.panel(a.hud, lay.slots)
	a.hud.rect(ui.R(lay.slots.Min.X, lay.slots.Min.Y, lay.slots.Max.X, lay.slots.Min.Y+30), colPanelHi)
	for _, c := range []struct {
		t string
		x float64
	}{{"Player", colName}, {"Slot", colKind}, {"Team", colTeam}, {"Ready", colReady}} {
		a.text[fontBold].text(c.t, colX(lay.slots, c.x), lay.slots.Min.Y+7, alignLeft, colDim)
	}
	for i := range min(len(lay.rows), len(s.v.slots)) {
		s.drawSlotRow(&s.v.slots[i], &lay.rows[i])
	}
}

func (s *lobbyScreen) drawSlotRow(sv *slotView, r *slotRowLayout) {
	a := s.a
	hud, t, bold, small := a.hud, a.text[fontBody], a.text[fontBold], a.text[fontSmall]
	sl := sv.slot
	if sv.mine {
		hud.rect(r.row, rgb(38, 48, 66))
		hud.rect(ui.XYWH(r.row.Min.X, r.row.Min.Y, 3, r.row.H()), colAccent)
	}
	hud.rect(ui.R(r.row.Min.X, r.row.Max.Y-1, r.row.Max.X, r.row.Max.Y), rgb(44, 52, 68))
	y := r.row.Min.Y + (lobbyRowH-t.height())/2
	if sv.occupied {
		swatch(hud, r.swatch, sl.Color)
	} else {
		hud.outline(r.swatch, 1, colBorder)
	}
	s.drawSlotName(sv, r, y)
	if kind := slotKindLabel(sl); sv.kindBtn {
		a.drawButton(hud, small, r.kind, kind, true)
	} else {
		t.text(kind, r.kind.Min.X+8, y, alignLeft, colDim)
	}
	team := "—"
	if sl.Team > 0 {
		team = fmt.Sprintf("%d", sl.Team)
	}
	if sv.edit {
		a.drawButton(hud, bold, r.team, team, true)
	} else if sv.occupied {
		t.text(team, r.team.Min.X+8, y, alignLeft, colText)
	}
	if sv.occupied {
		drawReady(hud, r.ready, sl.Ready)
	}
}

// drawReady draws a slot's ready box, ticked when it is ready.
func drawReady(l *layer, r ui.Rect, ready bool) {
	if !ready {
		l.outline(r, 2, colBorder)
		return
	}
	l.rect(r, colGood)
	drawCheck(l, r)
}

// drawSlotName draws the slot's player, or the field the local player
// edits its name in.
func (s *lobbyScreen) drawSlotName(sv *slotView, r *slotRowLayout, y float64) {
	t := s.a.text[fontBody]
	name, nc := sv.slot.Name, colText
	switch sv.slot.Kind {
	case session.SlotOpen:
		name, nc = "Open", colDim
	case session.SlotClosed:
		name, nc = "Closed", rgb(100, 108, 124)
	}
	switch {
	case sv.mine && s.naming:
		s.a.drawField(s.a.hud, t, r.name, &s.name, true, "your name", false)
	case sv.mine:
		t.text(t.fit(name+"  (you)", r.name.W()), colX(r.row, colName), y, alignLeft, nc)
	default:
		t.text(t.fit(name, r.name.W()), colX(r.row, colName), y, alignLeft, nc)
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

// drawChat draws the chat panel: the log from the bottom up, wrapped, and
// the chat line.
func (s *lobbyScreen) drawChat() {
	a, r := s.a, s.lay.chat
	hud, t, bold, small := a.hud, a.text[fontBody], a.text[fontBold], a.text[fontSmall]
	a.panel(hud, r)
	bold.text("Chat", r.Min.X+14, r.Min.Y+10, alignLeft, colText)
	small.text("Enter sends · Tab: all / team", r.Max.X-14, r.Min.Y+12, alignRight, colDim)
	y := s.lay.chatInput.Min.Y - 8
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
	a.drawField(hud, t, s.lay.chatInput, &s.chat, !s.naming, "say something ("+to+")", false)
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

// drawButtons draws Leave, a guest's Ready or the host's Start game, and
// the last refusal.
func (s *lobbyScreen) drawButtons() {
	a, v, lay := s.a, &s.v, &s.lay
	bold := a.text[fontBold]
	a.drawButton(a.hud, bold, lay.leave, "Leave", true)
	switch mine := v.mine(); {
	case v.host:
		a.drawButton(a.hud, bold, lay.start, "Start game", v.open)
	case mine != nil:
		label := "Ready"
		if mine.Ready {
			label = "Not ready"
		}
		a.drawButton(a.hud, bold, lay.start, label, v.open)
	}
	if s.err != "" {
		small := a.text[fontSmall]
		small.text(small.fit(s.err, lay.slots.W()-400), 190, lay.buttons.Min.Y+13, alignLeft, colBad)
	}
}

func (s *lobbyScreen) drawCountdown() {
	a := s.a
	n := s.count
	if n <= 0 {
		n = 5
	}
	a.over.rect(ui.R(0, a.h/2-90, a.w, a.h/2+90), rgba(0, 0, 0, 0.7))
	a.overTxt[fontTitle].text("The game starts in", a.w/2, a.h/2-78, alignCenter, colText)
	a.overTxt[fontHuge].text(fmt.Sprintf("%d", n), a.w/2, a.h/2-36, alignCenter, colAccent)
}
