package ui

import (
	"fmt"
	"math"
	"strings"
	"time"

	"hostfall/game"
)

// Mode says what a left click on the map does.
type Mode uint8

const (
	ModeSelect Mode = iota
	ModeAttack      // attack-move: a left click picks the target or place
	ModePlace       // a left click places building Game.Place
)

// DoubleClick is the longest gap between the clicks of a double-click (and
// between two presses of a group key that centre the view on the group).
const DoubleClick = 350 * time.Millisecond

// dragMin is how far the pointer must move with the button down to make a
// box rather than a click.
const dragMin = 4.0

// Say is a chat line the player sent.
type Say struct {
	Team bool // to the player's team only
	Text string
}

// MenuChoice is what the player picked in the pause menu.
type MenuChoice uint8

const (
	MenuNone MenuChoice = iota
	MenuResume
	MenuLeave
	MenuQuit
	MenuSave
	MenuRestart // a replay: watch it from the start
	MenuPause   // pause the game (a command: every player sees it)
	MenuUnpause // resume the paused game
	MenuOptions // the options screen, over the menu
)

// MenuItem is one entry of the pause menu.
type MenuItem struct {
	Label  string
	Choice MenuChoice
	Off    bool // shown greyed and not taken: what the player may not do now
}

// MenuItems are the pause menu's entries in a game, in order; Game.Menu
// puts the pause entry (pause or resume) and "Save game" after the first,
// greyed when the player may not, so that every player's menu has the
// same entries in the same places; once the game is over it leaves both
// out. A spectator watching a replay gets ReplayMenuItems.
var (
	MenuItems       = []MenuItem{{Label: "Close the menu", Choice: MenuResume}, {Label: "Options", Choice: MenuOptions}, {Label: "Leave game", Choice: MenuLeave}, {Label: "Quit Hostfall", Choice: MenuQuit}}
	ReplayMenuItems = []MenuItem{{Label: "Resume", Choice: MenuResume}, {Label: "Watch from the start", Choice: MenuRestart}, {Label: "Options", Choice: MenuOptions}, {Label: "Close the replay", Choice: MenuQuit}}
)

// PauseState is what the player may do about the game's pause, set by the
// caller every frame from the world (game.World.Paused, PausesLeft,
// MayResume).
type PauseState struct {
	Paused    bool // the world stands still (the countdown included)
	CanPause  bool // a pause of this player would be taken
	CanResume bool // a resume of this player would be taken
	Left      int  // this player's pauses left; -1 for no limit
}

// Menu returns the pause menu's entries as they show now.
func (g *Game) Menu() []MenuItem {
	if g.Spectator {
		return ReplayMenuItems
	}
	items := append(make([]MenuItem, 0, 6), MenuItems[0])
	if g.Ended {
		return append(items, MenuItems[1:]...)
	}
	switch {
	case g.Pause.CanResume:
		items = append(items, MenuItem{Label: "Resume the game", Choice: MenuUnpause})
	case g.Pause.CanPause:
		items = append(items, MenuItem{Label: pauseLabel(g.Pause.Left), Choice: MenuPause})
	case g.Pause.Paused:
		items = append(items, MenuItem{Label: "Resume the game", Choice: MenuUnpause, Off: true})
	case g.Pause.Left == 0:
		items = append(items, MenuItem{Label: "No pauses left", Choice: MenuPause, Off: true})
	default:
		items = append(items, MenuItem{Label: "Pause the game", Choice: MenuPause, Off: true})
	}
	save := MenuItem{Label: "Save game", Choice: MenuSave}
	if !g.CanSave {
		save = MenuItem{Label: "Save (host only)", Choice: MenuSave, Off: true}
	}
	items = append(items, save)
	return append(items, MenuItems[1:]...)
}

func pauseLabel(left int) string {
	switch left {
	case -1:
		return "Pause the game"
	case 1:
		return "Pause (1 left)"
	}
	return fmt.Sprintf("Pause (%d left)", left)
}

// pauseCmd appends the player's pause or resume command.
func (g *Game) pauseCmd(k game.CommandKind) {
	g.res.Commands = append(g.res.Commands, game.Command{Player: g.Me, Kind: k})
}

// MenuButton returns the rectangle of pause menu entry i.
func (l Layout) MenuButton(i int) Rect {
	c := l.Window.Center()
	return XYWH(c.X-110, c.Y-110+float64(i)*52, 220, 40)
}

// ConfirmBox is the rectangle of the question "Leave the game?" over the
// menu; ConfirmButton(0) says yes, ConfirmButton(1) no.
func (l Layout) ConfirmBox() Rect {
	c := l.Window.Center()
	return XYWH(c.X-230, c.Y-90, 460, 170)
}

// ConfirmButton returns the rectangle of the question's button i: 0 leaves
// (or quits), 1 stays.
func (l Layout) ConfirmButton(i int) Rect {
	b := l.ConfirmBox()
	c := b.Center()
	return XYWH(c.X-190+float64(i)*200, b.Max.Y-60, 180, 40)
}

// Marker is the brief mark where an order was given.
type Marker struct {
	Pos    Vec
	At     time.Time
	Attack bool
}

// Result is what one frame of input asked for.
type Result struct {
	Commands []game.Command
	Cues     []Cue
	Notices  []Notice
	Say      *Say
	Menu     MenuChoice
}

// Game is the game screen's logic: camera, selection, control groups, orders
// from the mouse and the keyboard, the chat line and the pause menu. It
// never touches a window: Update takes one Input a frame and says what to
// do in a Result; the pixel layer draws from its fields.
type Game struct {
	Layout   Layout
	Cam      Camera
	Mini     Minimap
	Me       game.PlayerID
	Sel      Selection
	Groups   Groups
	Mode     Mode
	Place    game.Kind
	Dragging bool
	DragFrom Vec // screen point where the box started
	ChatOpen bool
	ChatTeam bool
	Chat     TextField
	MenuOpen bool
	CanSave  bool // the menu offers "Save game" (set by the caller while the menu is closed)
	// Ended: the game is over for everyone; the menu offers no pause and
	// no save (set by the caller every frame).
	Ended bool
	// AskLeave: leaving would end a game the player still plays; the
	// menu's Leave and Quit ask first (set by the caller every frame).
	AskLeave bool
	// Confirm is the menu's Leave or Quit waiting for the player's yes
	// (MenuNone when nothing asks).
	Confirm MenuChoice
	Pause   PauseState
	Marker  Marker
	// Spectator watches (a replay): selection, camera and the menu only,
	// no orders, no command card, no chat; the digits, Space and Tab are
	// left to the replay's controls.
	Spectator bool
	// Keys are the command card's keys (DefaultBindings unless the player
	// chose others).
	Keys Bindings

	lastClick struct {
		at time.Time
		id game.UnitID
	}
	lastGroup struct {
		at time.Time
		n  int
	}
	miniDrag bool
	now      time.Time
	sel      []*Unit
	res      Result
}

// NewGame returns the game screen for a window of w×h pixels on a map of
// mapW×mapH tiles, looking at start.
func NewGame(w, h float64, mapW, mapH int, me game.PlayerID, start Vec) *Game {
	g := &Game{Me: me, Chat: TextField{Max: 120}, Keys: DefaultBindings()}
	g.Cam = NewCamera(Rect{}, mapW, mapH, start)
	g.Resize(w, h)
	g.Cam.LookAt(start)
	return g
}

// Resize adapts the layout to a window of w×h pixels.
func (g *Game) Resize(w, h float64) {
	g.Layout = NewLayout(w, h)
	g.Cam.SetView(g.Layout.Map)
	g.Mini = Minimap{Box: g.Layout.Minimap, MapW: g.Cam.MapW, MapH: g.Cam.MapH}
}

// Update handles one frame of input against the scene the player sees.
// The returned Result is reused by the next call.
func (g *Game) Update(in *Input, sc *Scene, w World) *Result {
	g.res = Result{Commands: g.res.Commands[:0], Cues: g.res.Cues[:0], Notices: g.res.Notices[:0]}
	g.now = in.Now
	g.Sel.Prune(sc)
	g.sel = g.Sel.Units(sc, g.sel)
	if g.MenuOpen {
		g.menu(in)
		return &g.res
	}
	switch {
	case g.ChatOpen:
		g.chat(in)
	case g.Spectator:
		g.menuKeys(in)
	default:
		g.keys(in, sc, w)
	}
	g.scroll(in)
	g.mouse(in, sc, w)
	if g.Spectator {
		g.res.Commands = g.res.Commands[:0]
	}
	if g.Pause.Paused {
		g.holdOrders()
	}
	return &g.res
}

// holdOrders drops the frame's orders while the game is paused (the world
// would refuse them) and says so, instead of the units answering.
func (g *Game) holdOrders() {
	kept := g.res.Commands[:0]
	for _, c := range g.res.Commands {
		if c.Kind == game.CmdPause || c.Kind == game.CmdResume {
			kept = append(kept, c)
		}
	}
	if len(kept) == len(g.res.Commands) {
		return
	}
	g.res.Commands = kept
	cues := g.res.Cues[:0]
	for _, c := range g.res.Cues {
		if !strings.HasSuffix(c.Sound, ".ack") {
			cues = append(cues, c)
		}
	}
	g.res.Cues = append(cues, Cue{Sound: SoundError})
	g.res.Notices = append(g.res.Notices, Notice{Text: "The game is paused.", Error: true})
}

// menuKeys opens the menu (Escape, F10), or leaves a box drag (Escape).
func (g *Game) menuKeys(in *Input) {
	switch {
	case in.Hit[KeyEscape] && g.Dragging:
		g.Dragging = false
	case in.Hit[KeyEscape], in.Hit[KeyF10]:
		g.MenuOpen = true
	}
}

func (g *Game) menu(in *Input) {
	if g.Confirm != MenuNone {
		g.confirm(in)
		return
	}
	if in.Hit[KeyEscape] || in.Hit[KeyF10] {
		g.MenuOpen = false
		return
	}
	if !in.Pressed[MouseLeft] {
		return
	}
	for i, it := range g.Menu() {
		if !g.Layout.MenuButton(i).Contains(in.Mouse) || it.Off {
			continue
		}
		g.res.Cues = append(g.res.Cues, Cue{Sound: SoundClick})
		if (it.Choice == MenuLeave || it.Choice == MenuQuit) && g.AskLeave {
			g.Confirm = it.Choice
			return
		}
		g.res.Menu = it.Choice
		g.MenuOpen = it.Choice != MenuResume && it.Choice != MenuSave && it.Choice != MenuUnpause
		switch it.Choice {
		case MenuResume:
			g.res.Menu = MenuNone
		case MenuPause:
			g.pauseCmd(game.CmdPause)
		case MenuUnpause:
			g.pauseCmd(game.CmdResume)
		}
		break
	}
}

// confirm runs the question before leaving a running game: its first
// button leaves (or quits), its second or Escape goes back to the menu.
func (g *Game) confirm(in *Input) {
	switch {
	case in.Hit[KeyEscape] || in.Hit[KeyF10]:
		g.Confirm = MenuNone
	case !in.Pressed[MouseLeft]:
	case g.Layout.ConfirmButton(0).Contains(in.Mouse):
		g.res.Cues = append(g.res.Cues, Cue{Sound: SoundClick})
		g.res.Menu, g.Confirm = g.Confirm, MenuNone
	case g.Layout.ConfirmButton(1).Contains(in.Mouse):
		g.res.Cues = append(g.res.Cues, Cue{Sound: SoundClick})
		g.Confirm = MenuNone
	}
}

func (g *Game) chat(in *Input) {
	switch {
	case in.Hit[KeyEscape]:
		g.ChatOpen = false
		g.Chat.Text = ""
	case in.Hit[KeyTab]:
		g.ChatTeam = !g.ChatTeam
	case g.Chat.Edit(in):
		g.ChatOpen = false
		if s := g.Chat.Take(); s != "" {
			g.res.Say = &Say{Team: g.ChatTeam, Text: s}
		}
	}
}

func (g *Game) keys(in *Input, sc *Scene, w World) {
	switch {
	case in.Hit[KeyEnter]:
		g.ChatOpen, g.ChatTeam = true, in.Shift()
		return
	case in.Hit[KeyEscape]:
		switch {
		case g.Mode != ModeSelect:
			g.Mode = ModeSelect
		case g.Dragging:
			g.Dragging = false
		default:
			// Escape opens the menu, and pauses (every player sees it)
			// where a pause is free: alone against bots. Where pauses are
			// counted, pausing is the menu's own entry, so a player who
			// opens the menu to leave spends none.
			g.MenuOpen = true
			if g.Pause.CanPause && !g.Pause.Paused && g.Pause.Left < 0 {
				g.pauseCmd(game.CmdPause)
			}
		}
		return
	case in.Hit[KeyF10]:
		g.MenuOpen = true
		return
	case in.Hit[KeySpace]:
		if c, ok := centroid(g.sel); ok {
			g.Cam.LookAt(c)
		}
	}
	for n := range 10 {
		if in.Hit[Digit(n)] {
			g.group(n, in, sc)
		}
	}
	card := Card(g.sel, &g.Keys)
	for _, b := range card {
		if b.Action != ActNone && in.Hit[b.Key] && !in.Ctrl() {
			g.press(b, w)
			break
		}
	}
}

// group handles digit n: Ctrl assigns the selection, Shift adds it, alone
// it recalls the group; twice quickly it also centres the view on it.
func (g *Game) group(n int, in *Input, sc *Scene) {
	own := ownIDs(g.sel)
	switch {
	case in.Ctrl():
		g.Groups.Assign(n, own)
		g.res.Notices = append(g.res.Notices, Notice{Text: "Group " + KeyName(Digit(n)) + " set."})
	case in.Shift():
		g.Groups.AddTo(n, own)
	default:
		ids := g.Groups.Recall(n, sc)
		if len(ids) == 0 {
			return
		}
		again := g.lastGroup.n == n && in.Now.Sub(g.lastGroup.at) < DoubleClick
		g.Sel.Set(ids)
		g.sel = g.Sel.Units(sc, g.sel)
		if again {
			if c, ok := centroid(g.sel); ok {
				g.Cam.LookAt(c)
			}
		} else if len(g.sel) > 0 {
			g.res.Cues = append(g.res.Cues, SelectCue(g.sel[0]))
		}
		g.lastGroup.n, g.lastGroup.at = n, in.Now
	}
}

// press does what command card button b says.
func (g *Game) press(b Button, w World) {
	g.res.Cues = append(g.res.Cues, Cue{Sound: SoundClick})
	if c := b.Cost(); c > 0 && w.Player(g.Me).Gold < c {
		g.res.Cues = append(g.res.Cues, Cue{Sound: SoundNoGold})
		g.res.Notices = append(g.res.Notices, Notice{Text: "Not enough gold.", Error: true})
		return
	}
	switch b.Action {
	case ActAttackMove:
		g.Mode = ModeAttack
	case ActStop:
		g.order(chunk(nil, game.Command{Player: g.Me, Kind: game.CmdStop}, ownUnits(g.sel)), Vec{}, false)
	case ActBuild:
		g.Mode, g.Place = ModePlace, b.Kind
	case ActTrain:
		var ids []game.UnitID
		for _, u := range g.sel {
			if u.Own && u.Built && u.Kind == b.Kind.Stats().Trainer {
				ids = append(ids, u.ID)
			}
		}
		g.res.Commands = chunk(g.res.Commands, game.Command{Player: g.Me, Kind: game.CmdTrain, Build: b.Kind}, ids)
	case ActResearch:
		var ids []game.UnitID
		for _, u := range g.sel {
			if u.Own && u.Built && u.Kind == game.Workshop {
				ids = append(ids, u.ID)
			}
		}
		g.res.Commands = chunk(g.res.Commands, game.Command{Player: g.Me, Kind: game.CmdResearch, Upgrade: b.Upgrade}, ids)
	}
}

func (g *Game) scroll(in *Input) {
	if d := ScrollDir(in, g.Layout.Window); d != (Vec{}) && !g.Dragging {
		g.Cam.Pan(d.Scale(ScrollSpeed * in.DT))
	}
	if in.Scroll != 0 && g.Layout.Map.Contains(in.Mouse) {
		g.Cam.ZoomAt(in.Mouse, math.Pow(1.15, in.Scroll))
	}
}

func (g *Game) mouse(in *Input, sc *Scene, w World) {
	m := in.Mouse
	switch {
	case g.Dragging && in.Released[MouseLeft]:
		g.Dragging = false
		end := g.Layout.Map.Clamp(m)
		if end.Sub(g.DragFrom).Len() >= dragMin {
			g.box(in, sc, Span(g.Cam.ToWorld(g.DragFrom), g.Cam.ToWorld(end)))
		} else {
			g.click(in, sc, g.Cam.ToWorld(g.DragFrom))
		}
		return
	case g.miniDrag:
		if !in.Down[MouseLeft] || in.Released[MouseLeft] {
			g.miniDrag = false
		}
		g.Cam.LookAt(g.Mini.ToWorld(m))
		return
	}
	switch {
	case g.Mini.Contains(m):
		if in.Pressed[MouseLeft] && g.Mode == ModeAttack {
			g.attackMove(in, nil, g.Mini.ToWorld(m)) // A, then the minimap: attack-move there
			return
		}
		if in.Pressed[MouseLeft] {
			g.miniDrag = in.Down[MouseLeft] && !in.Released[MouseLeft]
			g.Cam.LookAt(g.Mini.ToWorld(m))
		}
		if in.Pressed[MouseRight] {
			g.rightClick(sc, w, g.Mini.ToWorld(m), false)
		}
	case g.Layout.Card.Contains(m):
		if i := g.Layout.ButtonAt(m); i >= 0 && in.Pressed[MouseLeft] && !g.Spectator {
			if b := Card(g.sel, &g.Keys)[i]; b.Action != ActNone {
				g.press(b, w)
			}
		}
	case g.Layout.Map.Contains(m):
		g.mapMouse(in, sc, w)
	}
}

func (g *Game) mapMouse(in *Input, sc *Scene, w World) {
	p := g.Cam.ToWorld(in.Mouse)
	if in.Pressed[MouseRight] {
		if g.Mode != ModeSelect {
			g.Mode = ModeSelect
			return
		}
		g.rightClick(sc, w, p, true)
		return
	}
	if !in.Pressed[MouseLeft] {
		return
	}
	switch g.Mode {
	case ModePlace:
		g.place(in, w, p)
	case ModeAttack:
		g.attackMove(in, sc.Pick(p), p)
	default:
		if in.Released[MouseLeft] {
			g.click(in, sc, p) // pressed and released within one frame
			return
		}
		g.Dragging, g.DragFrom = true, in.Mouse
	}
}

// attackMove orders the selection to attack-move to map point p (or attack
// target), then leaves targeting unless Shift queues more.
func (g *Game) attackMove(in *Input, target *Unit, p Vec) {
	tx, ty := tileOf(p)
	g.order(AttackMove(g.Me, g.sel, target, tx, ty), p, true)
	if !in.Shift() {
		g.Mode = ModeSelect
	}
}

func (g *Game) click(in *Input, sc *Scene, p Vec) {
	u := sc.Pick(p)
	if u == nil {
		if !in.Shift() {
			g.Sel.Clear()
		}
		return
	}
	double := g.lastClick.id == u.ID && in.Now.Sub(g.lastClick.at) < DoubleClick
	g.lastClick.id, g.lastClick.at = u.ID, in.Now
	switch {
	case (double || in.Ctrl()) && u.Own:
		ids := sc.SameKind(u.Kind, g.Cam.Visible())
		if in.Shift() {
			g.Sel.Add(ids)
		} else {
			g.Sel.Set(ids)
		}
		g.lastClick.id = game.NoUnit
		if !double {
			g.res.Cues = append(g.res.Cues, SelectCue(u))
		}
		return
	case in.Shift() && u.Own && g.Sel.Own(sc):
		g.Sel.Toggle(u.ID)
	default:
		g.Sel.Set([]game.UnitID{u.ID})
	}
	if u.Own {
		g.res.Cues = append(g.res.Cues, SelectCue(u))
	}
}

func (g *Game) box(in *Input, sc *Scene, r Rect) {
	ids := sc.BoxSelect(r)
	if in.Shift() && g.Sel.Own(sc) {
		var own []game.UnitID
		for _, id := range ids {
			if u, ok := sc.Find(id); ok && u.Own {
				own = append(own, id)
			}
		}
		g.Sel.Add(own)
		return
	}
	g.Sel.Set(ids)
	if len(ids) > 0 {
		if u, ok := sc.Find(ids[0]); ok && u.Own {
			g.res.Cues = append(g.res.Cues, SelectCue(u))
		}
	}
}

func (g *Game) rightClick(sc *Scene, w World, p Vec, onMap bool) {
	if g.Spectator {
		return
	}
	tx, ty := tileOf(p)
	var target *Unit
	if onMap {
		target = sc.Pick(p)
	}
	terrain := game.Grass
	if w.Fog(g.Me).At(tx, ty) != game.Unexplored {
		terrain = w.TerrainAt(tx, ty)
	}
	g.order(Orders(g.Me, g.sel, target, tx, ty, terrain), p, target != nil && !target.Ally)
}

// order issues cmds with the voice of the first unit that obeys.
func (g *Game) order(cmds []game.Command, p Vec, attack bool) {
	if len(cmds) == 0 {
		return
	}
	g.res.Commands = append(g.res.Commands, cmds...)
	g.Marker = Marker{Pos: p, At: g.now, Attack: attack}
	for _, u := range g.sel {
		if u.Own && !u.Building {
			g.res.Cues = append(g.res.Cues, AckCue(u))
			return
		}
	}
	g.res.Cues = append(g.res.Cues, Cue{Sound: SoundClick})
}

// PlaceOrigin returns the top-left tile of building k centred under world
// point p.
func PlaceOrigin(k game.Kind, p Vec) (x0, y0 int) {
	s := float64(k.Stats().Size)
	return int(math.Floor(p.X - s/2 + 0.5)), int(math.Floor(p.Y - s/2 + 0.5))
}

func (g *Game) place(in *Input, w World, p Vec) {
	x0, y0 := PlaceOrigin(g.Place, p)
	var workers []*Unit
	for _, u := range g.sel {
		if u.Own && u.Kind == game.Worker {
			workers = append(workers, u)
		}
	}
	switch {
	case len(workers) == 0:
		g.Mode = ModeSelect
		return
	case !CanPlace(w, g.Me, g.Place, x0, y0):
		g.res.Cues = append(g.res.Cues, Cue{Sound: SoundError})
		g.res.Notices = append(g.res.Notices, Notice{Text: "Cannot build there.", Error: true})
		return
	}
	ids := make([]game.UnitID, 0, len(workers))
	for _, u := range workers {
		ids = append(ids, u.ID)
	}
	c := game.Command{Player: g.Me, Kind: game.CmdBuild, Build: g.Place, X: int32(x0), Y: int32(y0)}
	g.order(chunk(nil, c, ids), p, false)
	if !in.Shift() {
		g.Mode = ModeSelect
	}
}

// Selected returns the selected scene units of the last Update.
func (g *Game) Selected() []*Unit { return g.sel }

func tileOf(p Vec) (int, int) { return int(math.Floor(p.X)), int(math.Floor(p.Y)) }

func ownIDs(sel []*Unit) []game.UnitID {
	var ids []game.UnitID
	for _, u := range sel {
		if u.Own {
			ids = append(ids, u.ID)
		}
	}
	return ids
}

func centroid(sel []*Unit) (Vec, bool) {
	if len(sel) == 0 {
		return Vec{}, false
	}
	var c Vec
	for _, u := range sel {
		c = c.Add(u.Pos)
	}
	return c.Scale(1 / float64(len(sel))), true
}
