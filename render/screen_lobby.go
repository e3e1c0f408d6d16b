package render

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"hostfall/client"
	"hostfall/game"
	"hostfall/game/ai"
	"hostfall/internal/codeform"
	"hostfall/render/ui"
	"hostfall/session"
)

// lobbyScreen shows the session's slots, the game's settings with a
// preview of the map, the chat and the countdown; the host sets up the
// map, the speed, what happens to a player who drops, the bots and who
// stays, and starts; every player sets its own colour, team and readiness.
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
	seeding  bool // the host types a map seed (a click on it); chat waits
	seed     ui.TextField
	preview  mapPreview
	kickArm  int       // slot+1 of the Kick clicked once (0: none): a second click kicks
	kickAt   time.Time // when it was clicked
}

// kickConfirm is how long a Kick waits for the click that confirms it: a
// kicked player may not come back, so one stray click must not do it.
const kickConfirm = 3 * time.Second

// kickArmed reports whether slot's Kick waits for its second click at now.
func (s *lobbyScreen) kickArmed(slot int, now time.Time) bool {
	return s.kickArm == slot+1 && now.Sub(s.kickAt) < kickConfirm
}

func newLobbyScreen(a *App) *lobbyScreen {
	s := &lobbyScreen{a: a, chat: ui.TextField{Max: 200}}
	s.lay.set(a.w, a.h, 0, 0) // laid out before the first update (no slots)
	return s
}

func (s *lobbyScreen) enter() {
	s.count, s.err, s.naming, s.seeding, s.kickArm = 0, "", false, false, 0
}

// lobbyView is what the lobby shows, as update read it from the client.
type lobbyView struct {
	ok       bool // the client is in a lobby; nothing shows otherwise
	lobby    session.Lobby
	me       int      // the local player's slot (-1: none)
	host     bool     // the local player hosts: it sets up slots and starts
	open     bool     // the lobby takes changes (it is not counting down)
	setup    bool     // the local player may change the settings and the bots' colours and teams
	start    string   // why the host cannot start yet ("" when it can)
	code     string   // the invite code ("" for none)
	long     string   // with a short code through a relay of one's own: the long code, which Ctrl+C copies
	invite   []string // the code's lines under the subtitle (a lobby hosted through a relay)
	short    bool     // code is a short one: drawn big, in inviteShortLines lines' room
	net      client.InternetStatus
	netLines []string // the internet progress, wrapped, under the code (two lines at most)
	slots    []slotView
}

// slotView is one slot as its row shows it, with what the local player
// may do to it.
type slotView struct {
	slot     session.Slot
	mine     bool // the local player's slot
	occupied bool // a human or a bot
	edit     bool // mine in an open lobby: colour, name and team take clicks
	kindBtn  bool // the host may cycle the slot's kind
	botEdit  bool // the host may set the bot's colour and team
	kick     bool // the host may remove the player
}

// mine returns the local player's slot, or nil.
func (v *lobbyView) mine() *session.Slot {
	if v.me < 0 || v.me >= len(v.lobby.Slots) {
		return nil
	}
	return &v.lobby.Slots[v.me]
}

// inviteLineH is the height of a line of the invite code; slot rows are
// between minRowH and maxRowH high, as the window's height allows.
const (
	inviteLineH = 16.0
	maxRowH     = 46.0
	minRowH     = 28.0
	tableHeadH  = 31.0 // the slot table's header row
)

// lobbyLayout is where the lobby screen puts things. update computes it
// once a frame; input hit-tests it and draw draws into it. It reflows with
// the window: the slot table takes what the settings and chat column
// leave, and its rows shrink before any is left out.
type lobbyLayout struct {
	slots, setup, chat, buttons ui.Rect // the slot table, the settings panel, the chat panel, the row of buttons
	rowH                        float64
	rows                        []slotRowLayout
	preview                     ui.Rect // the map's picture
	seed, size, random          ui.Rect // the map's seed (a field), size and a new seed
	speed, away                 ui.Rect // the game speed, what happens to a player who drops
	speedLabel, awayLabel       ui.Vec  // where their labels start
	chatInput                   ui.Rect // the chat line
	leave                       ui.Rect
	start                       ui.Rect // the host's "Start game", a guest's "Ready"
	reason                      ui.Rect // why Start is greyed, or the last refusal
}

// slotRowLayout is where a slot's row puts things.
type slotRowLayout struct {
	row, swatch, name, kind, team, ready, kick ui.Rect
}

// set lays the lobby out in a w×h window with inviteLines lines of invite
// code, for slots slots (rows that do not fit even at minRowH are left out).
func (l *lobbyLayout) set(w, h float64, inviteLines, slots int) {
	m := 32.0
	if w < 1000 {
		m = 24
	}
	top := 96 + inviteLineH*float64(inviteLines) // the panels make room for the invite code
	side := math.Round(min(max(w/3, 272), 340))  // the settings and chat column
	l.buttons = ui.R(m, h-m-40, w-m, h-m)
	bottom := l.buttons.Min.Y - 12
	l.slots = ui.R(m, top, w-m-side-16, bottom)
	l.setSetup(ui.R(w-m-side, top, w-m, bottom))
	l.setRows(slots)
	l.chatInput = ui.R(l.chat.Min.X+10, l.chat.Max.Y-44, l.chat.Max.X-10, l.chat.Max.Y-10)
	l.leave = ui.XYWH(m, l.buttons.Min.Y, 120, 40)
	l.start = ui.XYWH(l.buttons.Max.X-180, l.buttons.Min.Y, 180, 40)
	l.reason = ui.R(l.leave.Max.X+16, l.buttons.Min.Y, l.start.Min.X-16, l.buttons.Max.Y)
}

// setSetup lays out the settings panel at the top of column col and the
// chat under it: the map's picture with its seed, size and Random beside
// it, the speed and the away policy under it.
func (l *lobbyLayout) setSetup(col ui.Rect) {
	p := min(max(col.W()-24-152, 96), 160) // the picture's side
	x, y := col.Min.X+12, col.Min.Y+36
	l.setup = ui.R(col.Min.X, col.Min.Y, col.Max.X, y+p+8+2*36+4)
	l.preview = ui.XYWH(x, y, p, p)
	rx := x + p + 12
	rw := col.Max.X - 12 - rx
	l.seed = ui.XYWH(rx, y, rw, 28)
	l.size = ui.XYWH(rx, y+34, rw, 28)
	l.random = ui.XYWH(rx, y+68, rw, 28)
	bw := col.W() - 24 - 112 // the labels' room
	y += p + 8
	l.speed = ui.XYWH(col.Max.X-12-bw, y, bw, 30)
	l.away = ui.XYWH(col.Max.X-12-bw, y+36, bw, 30)
	l.speedLabel, l.awayLabel = ui.V(x, y+8), ui.V(x, y+44)
	l.chat = ui.R(col.Min.X, l.setup.Max.Y+12, col.Max.X, col.Max.Y)
}

// setRows lays out the slot table's rows, from the right: a Kick button,
// the ready box, the team, the slot's kind; the name takes the rest.
func (l *lobbyLayout) setRows(slots int) {
	l.rowH = maxRowH
	if slots > 0 {
		l.rowH = min(max((l.slots.H()-tableHeadH)/float64(slots), minRowH), maxRowH)
	}
	l.rows = l.rows[:0]
	for i := range slots {
		r := ui.XYWH(l.slots.Min.X+1, l.slots.Min.Y+tableHeadH+float64(i)*l.rowH, l.slots.W()-2, l.rowH)
		if r.Max.Y > l.slots.Max.Y+0.5 {
			break
		}
		ch := min(32, l.rowH-8) // a control's height
		cy := r.Min.Y + (l.rowH-ch)/2
		sw := min(28, l.rowH-10)
		right := r.Max.X
		l.rows = append(l.rows, slotRowLayout{
			row:    r,
			swatch: ui.XYWH(r.Min.X+12, r.Min.Y+(l.rowH-sw)/2, sw, sw),
			name:   ui.R(r.Min.X+44, cy, right-284, cy+ch),
			kind:   ui.XYWH(right-276, cy, 114, ch),
			team:   ui.XYWH(right-154, cy, 48, ch),
			ready:  ui.XYWH(right-86, r.Min.Y+(l.rowH-20)/2, 20, 20),
			kick:   ui.XYWH(right-52, cy, 46, ch),
		})
	}
}

// lobbyAct says what a lobbyIntent asks for.
type lobbyAct uint8

const (
	lobbyClick      lobbyAct = iota + 1 // a button's click sound
	lobbyCopyInvite                     // the invite code to the clipboard
	lobbyLeave
	lobbyStart
	lobbySetSlot   // the host sets slot's kind and bot level
	lobbyEdit      // the local player's slot becomes edit
	lobbySay       // chat text to team (0: all)
	lobbyConfigure // the host's settings become setup
	lobbyRandomMap // the host asks for a map of a new seed
	lobbyEditBot   // the host sets the colour and team of slot's bot (edit)
	lobbyKick      // the host removes the player of slot
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
	setup client.Setup
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

// read takes what the lobby shows from the client, lays it out and makes
// the map's picture when the map changed.
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
	var invite []string
	short := codeform.IsShort(st.Invite)
	if !short {
		invite = ui.WrapCode("Invite: ", st.Invite, func(line string) bool { return small.width(line) <= a.w-64 })
	}
	s.v.set(l, me, host, st.Invite, invite)
	s.v.hostReady(hostSlot(me, host, st))
	s.v.long = st.InviteLong
	s.v.setInternet(short, st.Internet, func(text string) []string { return small.wrap(text, a.w-64) })
	if _, ok := a.cl.(client.LobbyHost); !ok {
		s.v.noSetup()
	}
	s.lay.set(a.w, a.h, s.v.headerLines(), len(s.v.slots))
	s.preview.update(l.MapSeed, mapSize(&l), mapPlayers(&l))
}

// set makes the view of lobby l for the player in slot me (host: it hosts)
// with invite code code, wrapped into the lines invite.
func (v *lobbyView) set(l session.Lobby, me int, host bool, code string, invite []string) {
	v.ok, v.lobby, v.me, v.host = true, l, me, host
	v.open = l.State == session.StateLobby
	v.setup = host && v.open && l.Resume == 0 // a saved game keeps its map, speed and players' sides
	v.start = ""
	if host {
		v.start = client.StartProblem(&l, me)
	}
	v.code, v.invite = code, invite
	v.slots = v.slots[:0]
	for i, sl := range l.Slots {
		mine := i == me
		v.slots = append(v.slots, slotView{
			slot:     sl,
			mine:     mine,
			occupied: sl.HoldsPlayer(),
			edit:     mine && v.open,
			kindBtn:  host && v.open && sl.Kind != session.SlotHuman,
			botEdit:  v.setup && sl.Kind == session.SlotBot,
			kick:     host && v.open && sl.Kind == session.SlotHuman && !mine,
		})
	}
}

// hostReady ticks the host's Ready box: the host starts the game, so it
// is always ready (the session counts it so), though its slot never says.
func (v *lobbyView) hostReady(slot int) {
	if slot >= 0 && slot < len(v.slots) && v.slots[slot].slot.Kind == session.SlotHuman {
		v.slots[slot].slot.Ready = true
	}
}

// hostSlot is the host's slot: the local player's when it hosts, else the
// one the network status names (-1 when none does).
func hostSlot(me int, host bool, st client.NetStatus) int {
	if host {
		return me
	}
	for _, p := range st.Peers {
		if p.Host {
			return p.Slot
		}
	}
	return -1
}

// setInternet adds internet play to the view: the code is a short one,
// and net is how far internet play got (lines under the code, as wrap
// breaks them, while it has something to say).
func (v *lobbyView) setInternet(short bool, net client.InternetStatus, wrap func(string) []string) {
	v.short, v.net, v.netLines = short && v.code != "", net, nil
	if net.Text != "" && (net.On || net.Failed) {
		v.netLines = wrap(net.Text)
		v.netLines = v.netLines[:min(len(v.netLines), 2)]
	}
}

// headerLines is how many lines of room the invite code and the internet
// progress take under the subtitle.
func (v *lobbyView) headerLines() int {
	n := len(v.invite)
	if v.short {
		n = inviteShortLines
	}
	n += len(v.netLines)
	return n
}

// inviteShortLines is the room, in invite lines, of a short code drawn big.
const inviteShortLines = 2

// noSetup takes away what only a client.LobbyHost does: the settings,
// the bots' colours and teams, and kicks.
func (v *lobbyView) noSetup() {
	v.setup = false
	for i := range v.slots {
		v.slots[i].botEdit, v.slots[i].kick = false, false
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
// s.lay: it changes the screen's own fields (the name or seed being
// edited, the chat line) and returns what to do. It calls no client and
// draws nothing.
func (s *lobbyScreen) input(in *ui.Input) []lobbyIntent {
	acts := s.acts[:0]
	editing := s.naming || s.seeding // this frame's keys are the field's, even once Enter ends it
	if s.v.code != "" && in.Ctrl() && in.Hit[ui.KeyC] {
		acts = append(acts, lobbyIntent{act: lobbyCopyInvite})
	}
	for i := range min(len(s.lay.rows), len(s.v.slots)) {
		acts = s.slotInput(in, i, acts)
	}
	acts = s.setupInput(in, acts)
	if !editing {
		acts = s.chatInput(in, acts)
	}
	return s.buttonsInput(in, acts)
}

// slotInput runs the input on slot i's row: the local player's colour,
// name and team; the host's choice of the slot's kind, its bots' colour
// and team, and Kick.
func (s *lobbyScreen) slotInput(in *ui.Input, i int, acts []lobbyIntent) []lobbyIntent {
	sv, r := &s.v.slots[i], &s.lay.rows[i]
	sl := sv.slot
	switch {
	case sv.edit && sv.occupied && pressed(in, r.swatch):
		acts = append(acts, clickIntent, slotEdit(sl, func(e *session.SlotEdit) { e.Color = nextColor(&s.v.lobby, sl.Color) }))
	case sv.botEdit && pressed(in, r.swatch):
		acts = append(acts, clickIntent, botEdit(i, sl, func(e *session.SlotEdit) { e.Color = nextColor(&s.v.lobby, sl.Color) }))
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
	case sv.edit && !s.seeding && pressed(in, r.name):
		acts = append(acts, clickIntent)
		s.naming, s.name = true, ui.TextField{Text: sl.Name, Max: 24}
	}
	if sv.kindBtn && pressed(in, r.kind) {
		k, lvl := nextSlotKind(sl)
		acts = append(acts, clickIntent, lobbyIntent{act: lobbySetSlot, slot: i, kind: k, level: lvl})
	}
	switch {
	case sv.edit && pressed(in, r.team):
		acts = append(acts, clickIntent, slotEdit(sl, func(e *session.SlotEdit) { e.Team = nextTeam(sl.Team) }))
	case sv.botEdit && pressed(in, r.team):
		acts = append(acts, clickIntent, botEdit(i, sl, func(e *session.SlotEdit) { e.Team = nextTeam(sl.Team) }))
	}
	if sv.kick && pressed(in, r.kick) {
		acts = append(acts, clickIntent)
		if s.kickArmed(i, in.Now) {
			s.kickArm = 0
			acts = append(acts, lobbyIntent{act: lobbyKick, slot: i})
		} else {
			s.kickArm, s.kickAt = i+1, in.Now
		}
	}
	return acts
}

// nextTeam cycles no team → 1 → 2 → 3 → 4 → no team.
func nextTeam(t uint8) uint8 { return (t + 1) % 5 }

// setupInput runs the settings panel: a click on the seed edits it (Enter
// sets it, Escape leaves it), Random asks for a new one, a click on the
// size, the speed or the away policy takes the next one. Only the host's
// clicks count; the others see the settings.
func (s *lobbyScreen) setupInput(in *ui.Input, acts []lobbyIntent) []lobbyIntent {
	v, lay := &s.v, &s.lay
	if s.seeding {
		switch {
		case in.Hit[ui.KeyEscape]:
			s.seeding = false
		case s.seed.Edit(in):
			s.seeding = false
			acts = s.typedSeed(acts)
		}
	}
	if !v.setup {
		return acts
	}
	st := client.SetupOf(&v.lobby)
	switch {
	case !s.seeding && !s.naming && pressed(in, lay.seed):
		s.seeding, s.seed = true, ui.TextField{Text: strconv.FormatUint(st.MapSeed, 10), Max: 20}
		return append(acts, clickIntent)
	case pressed(in, lay.random):
		return append(acts, clickIntent, lobbyIntent{act: lobbyRandomMap})
	case pressed(in, lay.size):
		st.MapSize = nextMapSize(st.MapSize)
	case pressed(in, lay.speed):
		st.TurnTicks = client.NextSpeed(st.TurnTicks)
	case pressed(in, lay.away):
		st.AwayBot = (st.AwayBot + 1) % uint32(len(awayPolicies))
	default:
		return acts
	}
	return append(acts, clickIntent, lobbyIntent{act: lobbyConfigure, setup: st})
}

// typedSeed is the intent of the seed the host typed, or a refusal shown
// under the table when it is no seed.
func (s *lobbyScreen) typedSeed(acts []lobbyIntent) []lobbyIntent {
	text := s.seed.Take()
	seed, err := strconv.ParseUint(text, 10, 64)
	switch {
	case err != nil:
		s.err = "A map seed is a whole number, such as 4821."
	case seed != s.v.lobby.MapSeed && s.v.setup:
		st := client.SetupOf(&s.v.lobby)
		st.MapSeed = seed
		acts = append(acts, lobbyIntent{act: lobbyConfigure, setup: st})
	}
	return acts
}

// chatInput edits the chat line (unless the player edits its name or the
// seed); Enter sends it, Tab switches between all and team.
func (s *lobbyScreen) chatInput(in *ui.Input, acts []lobbyIntent) []lobbyIntent {
	if s.naming || s.seeding { // a click on the name or the seed began it this frame
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
// the host's Start game (greyed, and deaf, while v.start says why not).
func (s *lobbyScreen) buttonsInput(in *ui.Input, acts []lobbyIntent) []lobbyIntent {
	v, lay := &s.v, &s.lay
	if pressed(in, lay.leave) {
		return append(acts, clickIntent, lobbyIntent{act: lobbyLeave})
	}
	if !v.open || !pressed(in, lay.start) {
		return acts
	}
	if v.host {
		if v.start != "" {
			return acts
		}
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

// botEdit is the host's edit of the bot in slot, now cur, that fn makes.
func botEdit(slot int, cur session.Slot, fn func(e *session.SlotEdit)) lobbyIntent {
	e := session.SlotEdit{Color: cur.Color, Team: cur.Team}
	fn(&e)
	return lobbyIntent{act: lobbyEditBot, slot: slot, edit: e}
}

// apply does what the input asked for, in order: clicks, client calls, a
// refusal shown under the table.
func (s *lobbyScreen) apply(acts []lobbyIntent) {
	a := s.a
	lh, _ := a.cl.(client.LobbyHost) // the view offers its acts only when there is one
	for _, x := range acts {
		switch x.act {
		case lobbyClick:
			a.click()
		case lobbyCopyInvite:
			if a.clip != nil {
				a.clip(s.v.copied())
				a.addChat(chatLine{sys: true, text: s.v.copyNotice()})
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
		case lobbyConfigure:
			s.refused(lh.Configure(x.setup))
		case lobbyRandomMap:
			st := client.SetupOf(&s.v.lobby)
			st.MapSeed = client.NewSeed()
			s.refused(lh.Configure(st))
		case lobbyEditBot:
			s.refused(lh.EditBot(x.slot, x.edit))
		case lobbyKick:
			s.kick(lh, x.slot)
		}
	}
}

// kick removes the player of slot and says so in the chat.
func (s *lobbyScreen) kick(lh client.LobbyHost, slot int) {
	name := s.v.lobby.Slots[slot].Name
	if err := lh.Kick(slot); err != nil {
		s.refused(err)
		return
	}
	s.a.log.Info("lobby: kicked a player", "slot", slot, "name", name)
	s.a.addChat(chatLine{sys: true, text: "You removed " + name + " from the game."})
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
	for step := uint8(1); step <= session.NumColors; step++ {
		n := (c + step) % session.NumColors
		used := false
		for _, s := range l.Slots {
			if s.HoldsPlayer() && s.Color%session.NumColors == n {
				used = true
			}
		}
		if !used {
			return n
		}
	}
	return c
}

// mapSizes are the sizes the lobby offers, in the order a click cycles them.
var mapSizes = []uint32{64, 96, 128, 192, 256}

// mapSize is the side of lobby l's map in tiles.
func mapSize(l *session.Lobby) int {
	if l.MapSize == 0 {
		return game.DefaultMapSize
	}
	return int(l.MapSize)
}

// nextMapSize is the size after n (the default's after any other).
func nextMapSize(n uint32) uint32 {
	if n == 0 {
		n = game.DefaultMapSize
	}
	for i, s := range mapSizes {
		if s == n {
			return mapSizes[(i+1)%len(mapSizes)]
		}
	}
	return game.DefaultMapSize
}

// mapPlayers is how many players lobby l's map is made for: the map's
// starts depend on it.
func mapPlayers(l *session.Lobby) int {
	n := 0
	for _, s := range l.Slots {
		if s.HoldsPlayer() {
			n++
		}
	}
	return min(max(n, game.MinPlayers), game.MaxPlayers)
}

// awayPolicies name what happens to a player who drops, by
// session.Lobby.AwayBot: its units hold, or a bot of a level plays them
// until it is back.
var awayPolicies = []string{"Units hold", "Easy bot plays", "Normal bot plays", "Hard bot plays"}

func awayPolicy(n uint32) string {
	if int(n) < len(awayPolicies) {
		return awayPolicies[n]
	}
	return "A bot plays"
}

// draw is the lobby's draw step: the view of this frame in its layout.
func (s *lobbyScreen) draw() {
	if !s.v.ok {
		return
	}
	s.drawHeader()
	s.drawSlots()
	s.drawSetup()
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
	name := title.fit(l.Name, a.w-100)
	title.text(name, 32, 28, alignLeft, colText)
	if l.Password {
		drawLock(a.hud, ui.XYWH(32+title.width(name)+12, 36, 14, 18))
	}
	sub := fmt.Sprintf("Up to %d players", l.MaxPlayers)
	if v.host {
		sub += " · you host this game"
	}
	if len(v.invite) > 0 {
		sub += " · friends elsewhere join with the invite code below (Ctrl+C copies it)"
	}
	t.text(t.fit(sub, a.w-64), 32, 64, alignLeft, colDim)
	for i, line := range v.invite {
		small.text(line, 32, 88+inviteLineH*float64(i), alignLeft, colText)
	}
	y := 88 + inviteLineH*float64(len(v.invite))
	if v.short {
		s.drawShortCode()
		y = 88 + inviteLineH*inviteShortLines
	}
	c := colDim
	switch {
	case v.net.Failed:
		c = colBad
	case strings.HasPrefix(v.net.Text, "Direct"):
		c = colGood
	}
	for i, line := range v.netLines {
		small.text(line, 32, y+1+inviteLineH*float64(i), alignLeft, c)
	}
}

// drawShortCode draws the short invite code big, with how to pass it on.
func (s *lobbyScreen) drawShortCode() {
	a, v := s.a, &s.v
	title, small := a.text[fontTitle], a.text[fontSmall]
	small.text("Invite code", 32, 96, alignLeft, colDim)
	x := 32 + small.width("Invite code") + 12
	title.text(v.code, x, 84, alignLeft, colAccent)
	x += title.width(v.code) + 16
	hint := "Ctrl+C copies it · easy to read out: no 0, O, 1, I or L"
	if v.long != "" {
		hint = "for friends on your relay · Ctrl+C copies the long code for others"
	}
	small.text(small.fit(hint, a.w-32-x), x, 96, alignLeft, colDim)
}

// copied is what Ctrl+C puts on the clipboard: the long code when the
// short one works only for friends on the same relay (the long one names
// the relay, so it works for everyone).
func (v *lobbyView) copied() string {
	if v.long != "" {
		return v.long
	}
	return v.code
}

// copyNotice tells the player what Ctrl+C copied and what friends do with it.
func (v *lobbyView) copyNotice() string {
	switch {
	case v.long != "":
		return "The long invite code is on the clipboard: friends paste it into their game list with Ctrl+V. Friends who play through your relay can type " + v.code + " instead."
	case v.short:
		return "The invite code " + v.code + " is on the clipboard: friends type it into their game list, or paste it with Ctrl+V."
	}
	return "The invite code is on the clipboard: friends paste it into their game list with Ctrl+V."
}

// drawSlots draws the slot table.
func (s *lobbyScreen) drawSlots() {
	a, lay := s.a, &s.lay
	bold := a.text[fontBold]
	a.panel(a.hud, lay.slots)
	a.hud.rect(ui.R(lay.slots.Min.X, lay.slots.Min.Y, lay.slots.Max.X, lay.slots.Min.Y+tableHeadH-1), colPanelHi)
	if len(lay.rows) > 0 {
		r, y := &lay.rows[0], lay.slots.Min.Y+7
		bold.text("Player", r.name.Min.X+6, y, alignLeft, colDim)
		bold.text("Slot", r.kind.Min.X+8, y, alignLeft, colDim)
		bold.text("Team", r.team.Min.X+4, y, alignLeft, colDim)
		bold.text("Ready", r.ready.Center().X, y, alignCenter, colDim)
	}
	for i := range min(len(lay.rows), len(s.v.slots)) {
		s.drawSlotRow(i, &s.v.slots[i], &lay.rows[i])
	}
}

// drawSlotRow draws slot i's row.
func (s *lobbyScreen) drawSlotRow(i int, sv *slotView, r *slotRowLayout) {
	a := s.a
	hud, t, bold, small := a.hud, a.text[fontBody], a.text[fontBold], a.text[fontSmall]
	sl := sv.slot
	if sv.mine {
		hud.rect(r.row, rgb(38, 48, 66))
		hud.rect(ui.XYWH(r.row.Min.X, r.row.Min.Y, 3, r.row.H()), colAccent)
	}
	hud.rect(ui.R(r.row.Min.X, r.row.Max.Y-1, r.row.Max.X, r.row.Max.Y), rgb(44, 52, 68))
	y := r.row.Center().Y - t.height()/2
	switch {
	case sv.occupied:
		swatch(hud, r.swatch, sl.Color)
		if (sv.edit || sv.botEdit) && r.swatch.Contains(a.in.Mouse) {
			hud.outline(r.swatch.Inset(-2), 2, colText) // a click takes the next free colour
		}
	default:
		hud.outline(r.swatch, 1, colBorder)
	}
	s.drawSlotName(sv, r, y)
	if kind := slotKindLabel(sl); sv.kindBtn {
		a.drawButton(hud, small, r.kind, kind, true)
	} else {
		t.text(t.fit(kind, r.kind.W()-8), r.kind.Min.X+8, y, alignLeft, colDim)
	}
	team := "—"
	if sl.Team > 0 {
		team = fmt.Sprintf("%d", sl.Team)
	}
	switch {
	case sv.edit || sv.botEdit:
		a.drawButton(hud, bold, r.team, team, true)
	case sv.occupied:
		t.text(team, r.team.Min.X+8, y, alignLeft, colText)
	}
	if sv.occupied {
		drawReady(hud, r.ready, sl.Ready)
	}
	switch {
	case sv.kick && s.kickArmed(i, a.now):
		hud.rect(r.kick, colBad)
		small.inRect("Sure?", r.kick, colText)
	case sv.kick:
		a.drawButton(hud, small, r.kick, "Kick", true)
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
	x, w := r.name.Min.X+6, r.name.W()-6
	switch {
	case sv.mine && s.naming:
		s.a.drawField(s.a.hud, t, r.name, &s.name, true, "your name", false)
	case sv.mine:
		t.text(t.fit(name+"  (you)", w), x, y, alignLeft, nc)
	default:
		t.text(t.fit(name, w), x, y, alignLeft, nc)
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

// drawSetup draws the settings panel: the map's picture with its seed,
// size and Random, the game speed and the away policy; buttons for the
// host, greyed values for the others.
func (s *lobbyScreen) drawSetup() {
	a, lay, v := s.a, &s.lay, &s.v
	hud, t, bold, small := a.hud, a.text[fontBody], a.text[fontBold], a.text[fontSmall]
	l := &v.lobby
	a.panel(hud, lay.setup)
	bold.text("Game settings", lay.setup.Min.X+12, lay.setup.Min.Y+10, alignLeft, colText)
	s.preview.draw(hud, lay.preview, l)
	if s.seeding {
		a.drawField(hud, t, lay.seed, &s.seed, true, "map seed", false)
	} else {
		a.drawButton(hud, bold, lay.seed, fmt.Sprintf("Seed %d", l.MapSeed), v.setup)
	}
	n := mapSize(l)
	a.drawButton(hud, bold, lay.size, fmt.Sprintf("Size %d×%d", n, n), v.setup)
	a.drawButton(hud, bold, lay.random, "Random map", v.setup)
	small.text("Game speed", lay.speedLabel.X, lay.speedLabel.Y, alignLeft, colDim)
	a.drawButton(hud, bold, lay.speed, client.SpeedName(l.TurnTicks), v.setup)
	small.text("If a player drops", lay.awayLabel.X, lay.awayLabel.Y, alignLeft, colDim)
	a.drawButton(hud, bold, lay.away, awayPolicy(l.AwayBot), v.setup)
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
	for i := len(a.chat) - 1; i >= 0 && y > r.Min.Y+48; i-- {
		c := a.chat[i]
		lines := small.wrap(chatText(c), r.W()-28)
		for j := len(lines) - 1; j >= 0 && y > r.Min.Y+48; j-- {
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
	a.drawField(hud, t, s.lay.chatInput, &s.chat, !s.naming && !s.seeding, "say something ("+to+")", false)
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
// beside them the last refusal or why Start is greyed.
func (s *lobbyScreen) drawButtons() {
	a, v, lay := s.a, &s.v, &s.lay
	bold, small := a.text[fontBold], a.text[fontSmall]
	a.drawButton(a.hud, bold, lay.leave, "Leave", true)
	switch mine := v.mine(); {
	case v.host:
		a.drawButton(a.hud, bold, lay.start, "Start game", v.open && v.start == "")
	case mine != nil:
		label := "Ready"
		if mine.Ready {
			label = "Not ready"
		}
		a.drawButton(a.hud, bold, lay.start, label, v.open)
	}
	text, c := v.start, colWaiting
	switch mine := v.mine(); {
	case s.err != "":
		text, c = s.err, colBad
	case v.host || mine == nil:
	case mine.Ready:
		text, c = "The host starts the game once everyone is ready.", colDim
	default:
		text, c = "Press Ready when you are set.", colDim
	}
	if text == "" || !v.open {
		return
	}
	lines := small.wrap(text, lay.reason.W())
	lh := small.height()
	y := lay.reason.Center().Y - lh*float64(min(len(lines), 2))/2
	for i, line := range lines[:min(len(lines), 2)] {
		if i == 1 && len(lines) > 2 {
			line = small.fit(line+" "+strings.Join(lines[2:], " "), lay.reason.W())
		}
		small.text(line, lay.reason.Max.X, y+lh*float64(i), alignRight, c)
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
