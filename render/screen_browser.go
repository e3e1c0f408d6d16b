package render

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gopxl/pixel/v2"

	"hostfall/client"
	"hostfall/game/ai"
	"hostfall/internal/codeform"
	"hostfall/render/ui"
	"hostfall/session"
)

// browserScreen lists the sessions on the LAN and in the relay's directory,
// joins one (by the list or an invite code) or creates a game. When the
// client keeps a record of a game the player was in (client.Rejoiner), a
// bar over the list offers to rejoin it.
//
// update reads the client's list, lays the screen out once
// (browserLayout), runs the input on both (input: a pure step that returns
// browserIntents) and applies the intents; draw draws the list, the fields
// and the buttons into the layout.
type browserScreen struct {
	a          *App
	list       []client.Listing // the sessions, as update read them
	lay        browserLayout    // where: hit-tested by input, drawn into by draw
	acts       []browserIntent  // this frame's intents
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
	last       rejoinView      // the game to rejoin, as update read it
	rejoinMsg  string          // the last progress of a rejoin the status line showed
	internet   bool            // "Internet game" is ticked
	inet       client.InternetStatus
	inetMsg    string // the last progress of internet play the status line showed
	files      bool   // a library lists saves and replays: Load game and Replays show
}

// rejoinView is what the browser shows of the game the player can rejoin.
type rejoinView struct {
	game    *client.LastGame    // nil: none (or a record that cannot be used: problem)
	problem string              // why the record cannot be used, as a sentence
	onLAN   bool                // the LAN lists a game under way of that name
	st      client.RejoinStatus // a rejoin under way
}

// shown reports whether the rejoin bar shows.
func (v *rejoinView) shown() bool { return v.game != nil || v.problem != "" }

// bar says which rejoin bar the browser lays out.
func (v *rejoinView) bar() rejoinBar {
	switch {
	case v.game != nil:
		return barRejoin
	case v.problem != "":
		return barProblem
	}
	return barNone
}

// rejoinBar is the kind of rejoin bar over the session table.
type rejoinBar uint8

const (
	barNone    rejoinBar = iota
	barRejoin            // a game to rejoin: Forget and Rejoin
	barProblem           // a record that cannot be used: why, and Forget
)

// read takes the client's record and rejoin from rj (nil: the client has
// none) and looks for the game in list.
func (v *rejoinView) read(rj client.Rejoiner, list []client.Listing) {
	*v = rejoinView{}
	if rj == nil {
		return
	}
	v.st = rj.Rejoining()
	g, err := rj.LastGame()
	switch {
	case err == nil:
		v.game = &g
	case !errors.Is(err, client.ErrNoLastGame):
		v.problem = capitalize(err.Error()) + "."
	}
	for _, l := range list {
		v.onLAN = v.onLAN || v.game != nil && l.Name == v.game.Name && l.State >= session.StateCountdown
	}
}

func newBrowserScreen(a *App) *browserScreen {
	b := &browserScreen{a: a, maxPlayers: 4, files: a.opt.Library != nil}
	b.name = ui.TextField{Text: a.opt.PlayerName, Max: 24}
	if b.name.Text == "" {
		b.name.Text = "Player"
	}
	b.code.Max, b.gameName.Max, b.password.Max, b.joinPass.Max = 200, 32, 64, 64
	b.lay.set(a.w, a.h, 0, barNone) // laid out before the first update (an empty list)
	return b
}

// status shows a sentence at the bottom of the browser (refusals in red).
func (b *browserScreen) status(text string, isErr bool) {
	b.msg, b.msgErr = text, isErr
}

// browserLayout is where the browser puts things. update computes it once
// a frame; input hit-tests it and draw draws into it.
type browserLayout struct {
	table, list, create, bottom ui.Rect // the session table, its rows' area, the create panel, under the table
	rowH                        float64
	rows                        []ui.Rect // one per listed session that fits in the table
	join, code, joinCode        ui.Rect   // under the table
	name, gameName, password    ui.Rect   // the create panel's fields
	fewer, players, more        ui.Rect   // its number of players
	internet                    ui.Rect   // the "Internet game" checkbox's row
	createBtn                   ui.Rect
	prompt                      ui.Rect // the password prompt, its field and buttons
	promptField, promptJoin     ui.Rect
	promptCancel                ui.Rect
	rejoinBar                   ui.Rect   // over the table when there is a game to rejoin; zero otherwise
	rejoin, forget              ui.Rect   // its buttons
	quick, load, replays        ui.Rect   // the top row's, left of Quit
	cols                        []float64 // the table's columns (browserCols), x from its left (negative: from its right)
}

// set lays the browser out in a w×h window for sessions listed sessions,
// with the rejoin bar of that kind over the table.
func (l *browserLayout) set(w, h float64, sessions int, bar rejoinBar) {
	cw := 296.0 // the create panel's width: narrower in a small window, so the table keeps room for names
	if w < 1000 {
		cw = 256
	}
	right := w - 64 - cw
	l.table = ui.R(32, 104, right, h-150)
	l.cols = browserColsWide
	if l.table.W() < 600 {
		l.cols = browserColsNarrow
	}
	l.rejoinBar, l.rejoin, l.forget = ui.Rect{}, ui.Rect{}, ui.Rect{}
	if bar != barNone {
		// A narrow table (800×600) gets a taller bar with room for two
		// lines about the game and a short "Rejoin" button; the bar's
		// sentence names the game.
		barH, rejoinW := 52.0, 200.0
		if l.table.W() < 600 {
			barH, rejoinW = 66, 96
		}
		l.rejoinBar = ui.R(32, 104, right, 104+barH)
		l.rejoin = ui.XYWH(l.rejoinBar.Max.X-12-rejoinW, l.rejoinBar.Min.Y+(barH-32)/2, rejoinW, 32)
		l.forget = ui.XYWH(l.rejoin.Min.X-96, l.rejoin.Min.Y, 88, 32)
		if bar == barProblem { // no Rejoin: Forget takes its place, the sentence the room
			l.rejoin, l.forget = ui.Rect{}, ui.XYWH(l.rejoin.Max.X-88, l.rejoin.Min.Y, 88, 32)
		}
		l.table.Min.Y = l.rejoinBar.Max.Y + 8
	}
	l.rowH = 30
	l.list = ui.R(l.table.Min.X, l.table.Min.Y+l.rowH, l.table.Max.X, l.table.Max.Y)
	l.create = ui.R(w-32-cw, 104, w-32, h-150)
	l.bottom = ui.R(32, h-136, w-32, h-24)
	l.rows = l.rows[:0]
	for i := range sessions {
		r := ui.XYWH(l.list.Min.X+1, l.list.Min.Y+float64(i)*l.rowH, l.list.W()-2, l.rowH)
		if r.Max.Y > l.list.Max.Y {
			break
		}
		l.rows = append(l.rows, r)
	}
	by := l.bottom.Min.Y
	l.join = ui.XYWH(32, by, 140, 34)
	l.joinCode = ui.XYWH(w-32-140, by, 140, 34)
	l.code = ui.R(196, by, l.joinCode.Min.X-10, by+34) // invite codes are long: the field takes the width

	x, y, fw := l.create.Min.X+16, l.create.Min.Y+14, l.create.W()-32
	dy := createRows // where the panel's rows go down from y
	if l.create.H() < 400 {
		dy = createRowsCompact // a small window: the rows close up to keep the checkbox
	}
	l.name = ui.XYWH(x, y+dy[0], fw, 32)
	l.gameName = ui.XYWH(x, y+dy[1], fw, 32)
	l.password = ui.XYWH(x, y+dy[2], fw, 32)
	l.fewer = ui.XYWH(x, y+dy[3], 36, 32)
	l.players = ui.XYWH(x+36, y+dy[3], 60, 32)
	l.more = ui.XYWH(x+96, y+dy[3], 36, 32)
	l.internet = ui.XYWH(x, y+dy[4], fw, 22)
	l.createBtn = ui.XYWH(x, min(y+dy[5], l.create.Max.Y-50), fw, 38) // inside the panel of a small window too

	l.quick, l.load, l.replays = quickButton(w), loadButton(w), replaysButton(w)
	l.prompt = ui.XYWH(w/2-200, h/2-90, 400, 180)
	p := l.prompt
	l.promptField = ui.XYWH(p.Min.X+16, p.Min.Y+52, 368, 34)
	l.promptJoin = ui.XYWH(p.Min.X+16, p.Max.Y-54, 170, 36)
	l.promptCancel = ui.XYWH(p.Max.X-186, p.Max.Y-54, 170, 36)
}

// createRows are the y offsets in the create panel of its name, game
// name, password, players, "Internet game" and Create game rows;
// createRowsCompact those of a short panel.
var (
	createRows        = [6]float64{22, 122, 182, 242, 290, 330}
	createRowsCompact = [6]float64{22, 100, 152, 204, 244, 276}
)

// browserCols are the session table's headers; browserColsWide and
// browserColsNarrow their x offsets from the table's left (negative: from
// its right), for a wide table and for a narrow one.
var (
	browserCols       = []string{"", "Game", "Host", "Players", "State", "Where"}
	browserColsWide   = []float64{10, 34, -330, -200, -130, -60}
	browserColsNarrow = []float64{10, 34, -272, -180, -112, -52}
)

// The session table's columns, as indexes of browserCols.
const (
	tcLock = iota
	tcGame
	tcHost
	tcPlayers
	tcState
	tcWhere
)

// col is the x of column i of the session table.
func (l *browserLayout) col(i int) float64 { return colX(l.table, l.cols[i]) }

func colX(r ui.Rect, x float64) float64 {
	if x < 0 {
		return r.Max.X + x
	}
	return r.Min.X + x
}

// browserAct says what a browserIntent asks for.
type browserAct uint8

const (
	browserClick    browserAct = iota + 1 // a button's click sound
	browserJoin                           // join listing id
	browserJoinCode                       // join by invite code
	browserCreate                         // create a game
	browserRejoin                         // rejoin the last game
	browserForget                         // forget the last game
	browserQuick                          // a quick game against bots
	browserFiles                          // open the list of saves or replays
)

// browserIntent is one thing the browser's input asks for.
type browserIntent struct {
	act    browserAct
	id     string // browserJoin: the listing
	code   string // browserJoinCode: the invite code
	join   client.JoinOptions
	create client.CreateOptions
	files  filesKind // browserFiles: which list
	wait   string    // the status line once the client takes it ("" clears it)
}

var browserClickIntent = browserIntent{act: browserClick}

// update is the browser's update step.
func (b *browserScreen) update(in *ui.Input) {
	b.list = b.a.cl.Sessions()
	rj, _ := b.a.cl.(client.Rejoiner)
	b.last.read(rj, b.list)
	switch st := b.last.st; {
	case st.Active && st.Text != "":
		b.status(st.Text, false)
		b.rejoinMsg = st.Text
	case b.rejoinMsg != "" && b.msg == b.rejoinMsg: // the rejoin is over: its progress is old news
		b.status("", false)
		b.rejoinMsg = ""
	}
	b.readInternet()
	b.lay.set(b.a.w, b.a.h, len(b.list), b.last.bar())
	b.acts = b.input(in)
	b.apply(b.acts)
}

// readInternet takes the progress of internet play from the client and
// shows each new step in the status line (failures in red).
func (b *browserScreen) readInternet() {
	b.inet = b.a.cl.Status().Internet
	if b.inet.Always {
		b.internet = true // --internet publishes every game created
	}
	if t := b.inet.Text; t != b.inetMsg {
		if t != "" {
			b.status(t, b.inet.Failed)
		}
		b.inetMsg = t
	}
}

// input runs the frame's input on the list as b.list holds it, laid out as
// b.lay: it changes the screen's own fields (selection, focus, the text
// fields, the password prompt) and returns what to do. It calls no client
// and draws nothing.
func (b *browserScreen) input(in *ui.Input) []browserIntent {
	acts := b.topInput(in, b.acts[:0])
	acts = b.rowsInput(in, acts)
	acts = b.rejoinInput(in, acts)
	acts = b.bottomInput(in, acts)
	acts = b.createInput(in, acts)
	if b.askPass != nil {
		acts = b.promptInput(in, acts)
	}
	return b.keys(in, acts)
}

// The top row's buttons left of Quit: Quick game, Load game, Replays.
func quickButton(w float64) ui.Rect   { return ui.XYWH(quitButton(w).Min.X-3*8-90-104-112, 22, 112, 34) }
func loadButton(w float64) ui.Rect    { return ui.XYWH(quitButton(w).Min.X-2*8-90-104, 22, 104, 34) }
func replaysButton(w float64) ui.Rect { return ui.XYWH(quitButton(w).Min.X-8-90, 22, 90, 34) }

// quickBots are the levels of a quick game's bots (ai.Quick), as a lobby
// slot keeps them.
func quickBots() []uint8 {
	var bots []uint8
	for _, l := range ai.Quick() {
		bots = append(bots, uint8(l))
	}
	return bots
}

// quickWait is what the browser says while a quick game starts: "Starting
// a quick game against three easy bots…".
func quickWait() string {
	ls := ai.Quick()
	same := !slices.ContainsFunc(ls, func(l ai.Level) bool { return l != ls[0] })
	if count := []string{"", "", "two", "three", "four", "five", "six", "seven"}; same && len(ls) > 1 && len(ls) < len(count) {
		return fmt.Sprintf("Starting a quick game against %s %s bots…", count[len(ls)], ls[0])
	}
	return fmt.Sprintf("Starting a quick game against bots (%s)…", strings.ReplaceAll(ai.FormatLevels(ls), ",", ", "))
}

// topInput runs the top row: a quick game against bots, the saved games,
// the replays (the lists only with a library to read them from).
func (b *browserScreen) topInput(in *ui.Input, acts []browserIntent) []browserIntent {
	if b.askPass != nil {
		return acts
	}
	if pressed(in, b.lay.quick) {
		acts = append(acts, browserClickIntent, browserIntent{act: browserQuick,
			create: client.CreateOptions{Name: b.playerName() + "'s quick game", PlayerName: b.playerName()},
			wait:   quickWait()})
	}
	if !b.files {
		return acts
	}
	if pressed(in, b.lay.load) {
		acts = append(acts, browserClickIntent, browserIntent{act: browserFiles, files: filesSaves})
	}
	if pressed(in, b.lay.replays) {
		acts = append(acts, browserClickIntent, browserIntent{act: browserFiles, files: filesReplays})
	}
	return acts
}

// rowsInput selects a session with a click and joins it with a double-click.
func (b *browserScreen) rowsInput(in *ui.Input, acts []browserIntent) []browserIntent {
	for i, r := range b.lay.rows {
		s := &b.list[i]
		if b.askPass != nil || !pressed(in, r) {
			continue
		}
		if b.selected == s.ID && in.Now.Sub(b.lastClick) < ui.DoubleClick {
			acts = b.join(s, acts)
		}
		b.selected, b.lastClick = s.ID, in.Now
	}
	return acts
}

// rejoinInput runs the rejoin bar: Rejoin the last game (not twice at
// once), or Forget it.
func (b *browserScreen) rejoinInput(in *ui.Input, acts []browserIntent) []browserIntent {
	v := &b.last
	if !v.shown() || b.askPass != nil {
		return acts
	}
	if v.game != nil && !v.st.Active && pressed(in, b.lay.rejoin) { // a problem's bar has no Rejoin
		acts = append(acts, browserClickIntent, browserIntent{act: browserRejoin,
			join: client.JoinOptions{Password: ""}, wait: "Rejoining " + v.game.Name + "… asking its players for the game"})
	}
	if !v.st.Active && pressed(in, b.lay.forget) {
		acts = append(acts, browserClickIntent, browserIntent{act: browserForget})
	}
	return acts
}

// sel returns the selected session among the rows shown, or nil.
func (b *browserScreen) sel() *client.Listing {
	for i := range b.lay.rows {
		if b.list[i].ID == b.selected {
			return &b.list[i]
		}
	}
	return nil
}

// bottomInput runs what is under the table: join the selected game, or
// one by invite code.
func (b *browserScreen) bottomInput(in *ui.Input, acts []browserIntent) []browserIntent {
	lay := &b.lay
	if sel := b.sel(); sel != nil && b.askPass == nil && pressed(in, lay.join) {
		acts = b.join(sel, append(acts, browserClickIntent))
	}
	if pressed(in, lay.code) {
		b.focus = &b.code
	}
	if b.code.Text != "" && pressed(in, lay.joinCode) {
		acts = append(acts, browserClickIntent, b.joinCode())
	}
	return acts
}

// createInput runs the create panel: the player's name, the new game's
// name, password and number of players, and Create game.
func (b *browserScreen) createInput(in *ui.Input, acts []browserIntent) []browserIntent {
	lay := &b.lay
	for _, f := range []struct {
		r ui.Rect
		f *ui.TextField
	}{{lay.name, &b.name}, {lay.gameName, &b.gameName}, {lay.password, &b.password}} {
		if pressed(in, f.r) {
			b.focus = f.f
		}
	}
	if b.maxPlayers > 2 && pressed(in, lay.fewer) {
		acts = append(acts, browserClickIntent)
		b.maxPlayers--
	}
	if b.maxPlayers < 8 && pressed(in, lay.more) {
		acts = append(acts, browserClickIntent)
		b.maxPlayers++
	}
	if b.inet.Available && !b.inet.Always && pressed(in, lay.internet) {
		acts = append(acts, browserClickIntent)
		b.internet = !b.internet
	}
	if b.askPass == nil && pressed(in, lay.createBtn) {
		acts = append(acts, browserClickIntent, b.create())
	}
	return acts
}

// promptInput runs the password prompt of a locked session: Join (or
// Enter) with the password typed, Cancel (or Escape).
func (b *browserScreen) promptInput(in *ui.Input, acts []browserIntent) []browserIntent {
	lay := &b.lay
	if pressed(in, lay.promptField) {
		b.focus = &b.joinPass
	}
	canJoin := b.joinPass.Text != ""
	clicked := canJoin && pressed(in, lay.promptJoin)
	if clicked {
		acts = append(acts, browserClickIntent)
	}
	if clicked || (canJoin && in.Hit[ui.KeyEnter]) {
		s := b.askPass
		b.askPass = nil
		acts = append(acts, b.joinIntent(s, b.joinPass.Text))
		b.joinPass.Text = ""
		b.focus = nil
		return acts
	}
	clicked = pressed(in, lay.promptCancel)
	if clicked {
		acts = append(acts, browserClickIntent)
	}
	if clicked || in.Hit[ui.KeyEscape] {
		b.askPass = nil
	}
	return acts
}

// keys edits the focused field: Enter in the invite code joins by it, in
// the new game's name or password creates it; Tab moves on, Escape leaves.
func (b *browserScreen) keys(in *ui.Input, acts []browserIntent) []browserIntent {
	if b.focus == nil {
		return acts
	}
	if b.focus.Edit(in) {
		switch b.focus {
		case &b.code:
			acts = append(acts, b.joinCode())
		case &b.gameName, &b.password:
			acts = append(acts, b.create())
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
	return acts
}

func (b *browserScreen) defaultGameName() string { return b.playerName() + "'s game" }

func (b *browserScreen) playerName() string {
	if n := b.name.Text; n != "" {
		return n
	}
	return "Player"
}

// create is the intent to create a game as the panel sets it up.
func (b *browserScreen) create() browserIntent {
	name := b.gameName.Text
	if name == "" {
		name = b.defaultGameName()
	}
	x := browserIntent{act: browserCreate,
		create: client.CreateOptions{Name: name, PlayerName: b.playerName(), Password: b.password.Text, MaxPlayers: b.maxPlayers}}
	if b.internet && b.inet.Available {
		x.create.Internet = true
		x.wait = "Publishing your game on the internet…"
	}
	return x
}

// join joins the listed session, asking for its password first if it has one.
func (b *browserScreen) join(s *client.Listing, acts []browserIntent) []browserIntent {
	if s.Locked {
		cp := *s
		b.askPass = &cp
		b.joinPass.Text = ""
		b.focus = &b.joinPass
		return acts
	}
	return append(acts, b.joinIntent(s, ""))
}

// joinIntent is the intent to join session s with password; a game under
// way takes the player as a spectator.
func (b *browserScreen) joinIntent(s *client.Listing, password string) browserIntent {
	who := s.Host
	if who == "" {
		who = "the host of \"" + s.Name + "\"" // LAN and relay listings carry no player names
	}
	return browserIntent{act: browserJoin, id: s.ID,
		join: client.JoinOptions{PlayerName: b.playerName(), Password: password, Spectate: s.State >= session.StateCountdown},
		wait: "Asking " + who + " to let you in…"}
}

// joinCode is the intent to join by the invite code typed. A short code
// is found on the internet, which the client joins for it.
func (b *browserScreen) joinCode() browserIntent {
	wait := "Joining by invite code…"
	if code := strings.TrimSpace(b.code.Text); codeform.IsShort(code) {
		wait = "Finding " + strings.ToUpper(code) + " on the internet…"
	}
	return browserIntent{act: browserJoinCode, code: strings.TrimSpace(b.code.Text), join: client.JoinOptions{PlayerName: b.playerName()},
		wait: wait}
}

// apply does what the input asked for, in order, and shows how the client
// took it.
func (b *browserScreen) apply(acts []browserIntent) {
	a := b.a
	for _, x := range acts {
		var err error
		switch x.act {
		case browserClick:
			a.click()
			continue
		case browserJoin:
			err = a.cl.Join(x.id, x.join)
		case browserJoinCode:
			err = a.cl.JoinCode(x.code, x.join)
		case browserCreate:
			err = a.cl.Create(x.create)
		case browserQuick:
			err = client.Skirmish(a.cl, x.create, quickBots(), true)
		case browserFiles:
			a.openFiles(x.files)
			continue
		case browserRejoin, browserForget:
			rj, ok := a.cl.(client.Rejoiner)
			switch {
			case !ok:
				continue
			case x.act == browserRejoin:
				err = rj.Rejoin(x.join)
			default:
				rj.ForgetLastGame()
			}
		}
		b.result(err, x.wait)
	}
}

func (b *browserScreen) result(err error, ok string) {
	if err != nil {
		b.status(capitalize(err.Error())+".", true)
		b.a.cue(ui.Cue{Sound: ui.SoundError})
		return
	}
	b.status(ok, false)
}

// draw is the browser's draw step.
func (b *browserScreen) draw() {
	a := b.a
	a.text[fontTitle].text("HOSTFALL", 32, 28, alignLeft, colAccent)
	t := a.text[fontBody]
	intro := t.wrap("Find a game on your network, join one with an invite code (from anywhere on the internet), or start your own.", a.w-64)
	for i, line := range intro[:min(len(intro), 2)] { // a small window takes two lines
		t.text(line, 32, 64+18*float64(i), alignLeft, colDim)
	}
	b.drawTop()
	b.drawRejoin()
	b.drawTable()
	b.drawBottom()
	b.drawCreate()
	if b.askPass != nil {
		b.drawPrompt()
	}
}

// drawTop draws the top row's buttons left of Quit.
func (b *browserScreen) drawTop() {
	a := b.a
	idle := b.askPass == nil
	l, bold := &b.lay, a.text[fontBold]
	a.drawButton(a.hud, bold, l.quick, "Quick game", idle)
	if b.files {
		a.drawButton(a.hud, bold, l.load, "Load game", idle)
		a.drawButton(a.hud, bold, l.replays, "Replays", idle)
	}
}

// drawRejoin draws the rejoin bar: the game the player was in, whether
// the LAN shows it, Rejoin and Forget; or why its record cannot be used.
func (b *browserScreen) drawRejoin() {
	a, l, v := b.a, &b.lay, &b.last
	if !v.shown() {
		return
	}
	hud, bold, small := a.hud, a.text[fontBold], a.text[fontSmall]
	bar := l.rejoinBar
	hud.rect(bar, colPanel)
	hud.outline(bar, 1, colAccent)
	hud.rect(ui.XYWH(bar.Min.X, bar.Min.Y, 4, bar.H()), colAccent)
	x, textW := bar.Min.X+16, l.forget.Min.X-bar.Min.X-28
	idle := !v.st.Active && b.askPass == nil
	a.drawButton(hud, bold, l.forget, "Forget", idle)
	if v.game == nil {
		for i, line := range small.wrap(v.problem, textW) {
			small.text(line, x, bar.Min.Y+8+float64(i)*15, alignLeft, colBad)
		}
		return
	}
	g := v.game
	bold.text(bold.fit("You were playing "+g.Name+".", textW), x, bar.Min.Y+8, alignLeft, colText)
	var about []string
	if len(g.Players) > 0 {
		about = append(about, "with "+joinNames(g.Players))
	}
	if v.onLAN {
		about = append(about, "on the LAN now")
	} else {
		about = append(about, "not seen on the LAN")
	}
	if !g.Updated.IsZero() {
		about = append(about, ago(a.now.Sub(g.Updated)))
	}
	lines := small.wrap(capitalize(strings.Join(about, " · ")), textW)
	if room := int((bar.H() - 30) / 15); len(lines) > room { // the narrow bar has two lines' room, the wide one one
		lines = append(lines[:room-1], small.fit(strings.Join(lines[room-1:], " "), textW))
	}
	for i, line := range lines {
		small.text(line, x, bar.Min.Y+30+float64(i)*15, alignLeft, colDim)
	}
	label := "Rejoin " + g.Name
	if bold.width(label) > l.rejoin.W()-16 {
		label = "Rejoin"
	}
	a.drawButton(hud, bold, l.rejoin, label, idle)
}

// ago says how long ago d was, roughly.
func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return plural(int(d/time.Minute), "min", "min") + " ago"
	case d < 48*time.Hour:
		return plural(int(d/time.Hour), "hour", "hours") + " ago"
	}
	return plural(int(d/(24*time.Hour)), "day", "days") + " ago"
}

// drawTable draws the session table.
func (b *browserScreen) drawTable() {
	a, l := b.a, &b.lay
	hud, t, bold := a.hud, a.text[fontBody], a.text[fontBold]
	a.panel(hud, l.table)
	hud.rect(ui.R(l.table.Min.X, l.table.Min.Y, l.table.Max.X, l.table.Min.Y+l.rowH), colPanelHi)
	for i, title := range browserCols {
		bold.text(title, l.col(i), l.table.Min.Y+7, alignLeft, colDim)
	}
	if len(b.list) == 0 {
		t.inRect("No games found yet. Create one, or join with an invite code.", ui.R(l.list.Min.X, l.list.Min.Y, l.list.Max.X, l.list.Min.Y+80), colDim)
		if b.inet.Available && !b.internet {
			small := a.text[fontSmall]
			for i, line := range small.wrap(noLANHint, l.list.W()-40) {
				small.inRect(line, ui.R(l.list.Min.X, l.list.Min.Y+64+float64(i)*16, l.list.Max.X, l.list.Min.Y+80+float64(i)*16), colDim)
			}
		}
	}
	for i, r := range l.rows {
		b.drawRow(&b.list[i], r)
	}
}

// noLANHint is what the empty table says when no game is visible on the
// LAN: internet play is there, but only when asked for.
const noLANHint = "Nobody else on this network? Tick \"Internet game\" before you create, and friends elsewhere join with its short code; or type a friend's code below."

// drawRow draws session s in row r.
func (b *browserScreen) drawRow(s *client.Listing, r ui.Rect) {
	a, l := b.a, &b.lay
	hud, t := a.hud, a.text[fontBody]
	switch {
	case s.ID == b.selected:
		hud.rect(r, colHover)
		hud.rect(ui.XYWH(r.Min.X, r.Min.Y, 3, r.H()), colAccent)
	case r.Contains(a.in.Mouse):
		hud.rect(r, rgb(40, 48, 64))
	}
	y := r.Min.Y + 7
	if s.Locked {
		drawLock(hud, ui.XYWH(l.col(tcLock), y+1, 12, 14))
	}
	nc := colText
	if g := b.last.game; g != nil && s.Name == g.Name && s.State >= session.StateCountdown {
		nc = colAccent // the game to rejoin
	}
	t.text(t.fit(s.Name, l.col(tcHost)-l.col(tcGame)-12), l.col(tcGame), y, alignLeft, nc)
	t.text(t.fit(s.Host, l.col(tcPlayers)-l.col(tcHost)-10), l.col(tcHost), y, alignLeft, colText)
	t.text(fmt.Sprintf("%d / %d", s.Players, s.Max), l.col(tcPlayers), y, alignLeft, colText)
	state, sc := "lobby", colGood
	if s.State >= session.StateCountdown {
		state, sc = "playing", colAccent
	}
	t.text(state, l.col(tcState), y, alignLeft, sc)
	t.text(s.Source.String(), l.col(tcWhere), y, alignLeft, sourceColor(s.Source))
}

// drawBottom draws what is under the table and the status line.
func (b *browserScreen) drawBottom() {
	a, l := b.a, &b.lay
	hud, t, bold, small := a.hud, a.text[fontBody], a.text[fontBold], a.text[fontSmall]
	sel := b.sel()
	label := "Join game"
	if sel != nil && sel.State >= session.StateCountdown {
		label = "Watch game" // a game under way takes spectators
	}
	a.drawButton(hud, bold, l.join, label, sel != nil && b.askPass == nil)
	small.text("Invite code", l.code.Min.X, l.code.Min.Y-16, alignLeft, colDim)
	a.drawField(hud, t, l.code, &b.code, b.focus == &b.code, "type a short code like K7Q2-9XPM, or paste a long one", false)
	a.drawButton(hud, bold, l.joinCode, "Join by code", b.code.Text != "")
	if b.msg == "" {
		return
	}
	c := colDim
	if b.msgErr {
		c = colBad
	}
	for i, line := range t.wrap(b.msg, l.bottom.W()) {
		t.text(line, 32, l.bottom.Min.Y+50+float64(i)*20, alignLeft, c)
	}
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

// drawCreate draws the create panel.
func (b *browserScreen) drawCreate() {
	a, l := b.a, &b.lay
	hud, t, bold, small := a.hud, a.text[fontBody], a.text[fontBold], a.text[fontSmall]
	a.panel(hud, l.create)
	x := l.name.Min.X
	bold.text("Your name", x, l.name.Min.Y-22, alignLeft, colText)
	a.drawField(hud, t, l.name, &b.name, b.focus == &b.name, "your name", false)
	bold.text("Create a game", x, l.gameName.Min.Y-40, alignLeft, colAccent)
	small.text("Name", x, l.gameName.Min.Y-16, alignLeft, colDim)
	a.drawField(hud, t, l.gameName, &b.gameName, b.focus == &b.gameName, b.defaultGameName(), false)
	small.text("Password (optional)", x, l.password.Min.Y-16, alignLeft, colDim)
	a.drawField(hud, t, l.password, &b.password, b.focus == &b.password, "no password", true)
	small.text("Players", x, l.fewer.Min.Y-16, alignLeft, colDim)
	a.drawButton(hud, bold, l.fewer, "–", b.maxPlayers > 2)
	t.inRect(fmt.Sprintf("%d", b.maxPlayers), l.players, colText)
	a.drawButton(hud, bold, l.more, "+", b.maxPlayers < 8)
	if b.inet.Available {
		b.drawInternetBox()
	}
	a.drawButton(hud, bold, l.createBtn, "Create game", b.askPass == nil)
}

// drawInternetBox draws the "Internet game" checkbox and, in a tall
// panel, what it does.
func (b *browserScreen) drawInternetBox() {
	a, r := b.a, b.lay.internet
	hud, t, small := a.hud, a.text[fontBody], a.text[fontSmall]
	box := ui.XYWH(r.Min.X, r.Min.Y+2, 18, 18)
	hot := !b.inet.Always && r.Contains(a.in.Mouse)
	hud.rect(box, colPanelHi)
	c := colBorder
	if hot {
		c = colAccent
	}
	hud.outline(box, 1, c)
	if b.internet {
		hud.rect(ui.R(box.Min.X+4, box.Min.Y+4, box.Max.X-4, box.Max.Y-4), colAccent)
	}
	label := "Internet game"
	if b.inet.Always {
		label = "Internet game (--internet)"
	}
	t.text(t.fit(label, r.W()-28), box.Max.X+8, r.Min.Y+2, alignLeft, colText)
	if b.lay.createBtn.Min.Y-r.Max.Y >= 16 {
		small.text(small.fit("a short code for friends elsewhere", r.W()-28), box.Max.X+8, r.Max.Y+1, alignLeft, colDim)
	}
}

// drawPrompt draws the password prompt over the browser.
func (b *browserScreen) drawPrompt() {
	a, l := b.a, &b.lay
	a.over.rect(ui.R(0, 0, a.w, a.h), colShade)
	a.panel(a.over, l.prompt)
	bold, t := a.overTxt[fontBold], a.overTxt[fontBody]
	bold.text(bold.fit("“"+b.askPass.Name+"” needs a password", 368), l.prompt.Min.X+16, l.prompt.Min.Y+16, alignLeft, colText)
	a.drawField(a.over, t, l.promptField, &b.joinPass, true, "password", true)
	a.drawButton(a.over, bold, l.promptJoin, "Join", b.joinPass.Text != "")
	a.drawButton(a.over, bold, l.promptCancel, "Cancel", true)
}

func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
