package render

import (
	"fmt"
	"slices"
	"time"

	"github.com/gopxl/pixel/v2"

	"hostfall/client"
	"hostfall/client/clock"
	"hostfall/game"
	"hostfall/render/ui"
)

// endState is how the game ended for the local player.
type endState uint8

const (
	endNone endState = iota
	endVictory
	endDefeat
	endDraw
	endTimeUp // the turn limit ended the game before anyone won
)

// notice is a line of text over the panel for a few seconds.
type notice struct {
	text  string
	err   bool
	at    time.Time
	times int           // how often it was said in a row (shown as ×N from 2 on)
	hold  time.Duration // how long it shows; 0: noticeTime
}

// shownFor is how long n shows.
func (n notice) shownFor() time.Duration {
	if n.hold > 0 {
		return n.hold
	}
	return noticeTime
}

// addNotice adds a notice; one that repeats the newest, still shown,
// refreshes it and counts instead of stacking a line per key press. The
// newest four are kept.
func addNotice(ns []notice, n notice) []notice {
	if k := len(ns) - 1; k >= 0 && ns[k].text == n.text && ns[k].err == n.err && n.at.Sub(ns[k].at) < noticeTime {
		ns[k].at = n.at
		ns[k].times++
		return ns
	}
	n.times = 1
	ns = append(ns, n)
	if len(ns) > 4 {
		ns = ns[len(ns)-4:]
	}
	return ns
}

// noticeTime is how long a notice shows.
const noticeTime = 4 * time.Second

// gameScreen draws the battlefield, the HUD and the end of the game, and
// turns input into orders through ui.Game.
//
// update reads the client and, under its View lock, the world (a Scene,
// the HUD's numbers, the terrain and fog textures); runs ui.Game.Update on
// the input; and applies its Result (act) and the end screen's buttons.
// draw draws the map and the HUD from what update read.
type gameScreen struct {
	a        *App
	ui       *ui.Game
	tv       *terrainView
	ex       ui.Extractor
	sc       *ui.Scene
	me       game.PlayerID
	hasMe    bool
	observer bool
	players  []client.Player
	colors   [game.MaxPlayers]uint8
	infos    []game.PlayerInfo
	turn     int
	turnLen  time.Duration
	detail   *game.UnitInfo // the one selected unit or building
	rallies  []rally
	sites    []site // the player's buildings a worker is on its way to put up
	placeOK  bool
	end      endState
	endSeen  bool
	watching bool
	over     bool
	limit    uint64   // the lobby's turn limit (0: none)
	byScore  bool     // the score decided the game (game.ScoreTurn)
	results  []string // the end screen's result of each player
	leader   string   // at the turn limit: who leads on score
	notices  []notice
	wev      []game.Event
	cues     []ui.Cue
	notes    []ui.Notice
	selMark  []uint32
	stamp    uint32
	rp       *replayView // the replay viewer's state; nil in a game
	loaded   bool        // the world is loaded: update read it, draw draws it
	drawn    bool        // the loaded game was drawn once
	shown    bool        // the client was told the screen is up (client.Loader)
	host     bool        // this peer hosts (or plays offline): it may resume any pause
	pause    game.Pause  // the world's pause, and what the player may do about it
	pauseBy  string      // the name of the player who paused
	byLeft   int         // the pauses that player has left (-1: no limit)
	resumers string      // who may resume, as the overlay says it
	others   bool        // other people play (or this window only watches): nothing here may stop the game for them
	ends     []endButton // the end screen's buttons, while it shows

	terrainL, worldL, fogL, worldTopL, miniL *layer
}

type rally struct {
	from, to ui.Vec
	color    uint8
}

func newGameScreen(a *App) *gameScreen {
	g := &gameScreen{a: a, turnLen: turnLength, rp: newReplayView(a.cl)}
	g.worldL = newLayer(a.t, a.atlas)
	g.worldTopL = newLayer(a.t, a.atlas)
	return g
}

// layers returns the screen's layers (for begin).
func (g *gameScreen) layers() []*layer {
	ls := []*layer{g.worldL, g.worldTopL}
	if g.tv != nil {
		ls = append(ls, g.terrainL, g.fogL, g.miniL)
	}
	return ls
}

// drawLayers draws the map layers, under the HUD.
func (g *gameScreen) drawLayers() {
	if g.tv == nil {
		return
	}
	g.terrainL.draw(g.a.t)
	g.worldL.draw(g.a.t)
	g.fogL.draw(g.a.t)
	g.worldTopL.draw(g.a.t)
}

// init sets the screen up for world w (under the View lock).
func (g *gameScreen) init(w *game.World) {
	a := g.a
	wd, ht := w.Size()
	g.tv = newTerrainView(wd, ht)
	g.terrainL = newLayer(a.t, g.tv.terrain)
	g.terrainL.opaque = true // terrain texels are opaque: no need to blend
	g.fogL = newLayer(a.t, g.tv.fog)
	g.fogL.smooth = true
	g.miniL = newLayer(a.t, g.tv.mini)
	for _, l := range []*layer{g.terrainL, g.fogL, g.miniL} {
		l.begin(a.h)
	}
	start := ui.V(float64(wd)/2, float64(ht)/2)
	if g.hasMe && int(g.me) < len(w.Starts()) {
		start = ui.WorldPos(w.Starts()[g.me])
	}
	g.ui = ui.NewGame(a.w, a.h, wd, ht, g.me, start)
	g.initReplay(w)
}

// update is the game screen's update step.
func (g *gameScreen) update(in *ui.Input) {
	a := g.a
	st := g.readClient()
	g.replayInput(in)
	var res *ui.Result
	loaded := a.cl.View(func(w *game.World, stepped time.Time) {
		if g.ui == nil {
			g.init(w)
			g.replayInput(in)
		}
		g.read(w, in, stepped)
		if !g.ui.MenuOpen {
			g.ui.CanSave = g.canSave(st)
		}
		cam := g.ui.Cam
		res = g.ui.Update(in, g.sc, w)
		g.replayCamera(cam, in)
		g.readSelection(w)
		g.readSites(w)
	})
	if g.loaded = loaded; !loaded {
		return
	}
	cl := a.cl
	g.act(res)
	if a.cl != cl {
		return // the replay closed: the browser's client is not this screen's
	}
	g.endInput(&a.in) // the input as sampled: the replay's controls may have taken the press from in
	if g.drawn && !g.shown {
		// Built and drawn once (the first draw uploads the terrain and
		// fog: the slow part on a software rasterizer): the game may
		// start, turn 1 waits for it.
		g.shown = true
		if l, ok := a.cl.(client.Loader); ok {
			l.ScreenLoaded()
		}
	}
}

// readClient takes the players, the turn's length and the world's events
// from the client (outside the View lock), and returns its status.
func (g *gameScreen) readClient() client.NetStatus {
	a := g.a
	g.me, g.hasMe = a.cl.Me()
	g.players = a.cl.Players()
	for i, p := range g.players {
		if i < len(g.colors) {
			g.colors[i] = p.Color
		}
	}
	st := a.cl.Status()
	if st.TurnMillis > 0 {
		g.turnLen = time.Duration(st.TurnMillis) * time.Millisecond
	}
	g.host = !st.Online
	for _, p := range st.Peers {
		if p.Self {
			g.host = p.Host
		}
	}
	g.wev = a.cl.WorldEvents(g.wev[:0])
	if l, ok := a.cl.Lobby(); ok {
		g.limit = l.TurnLimit
	}
	return st
}

// read takes what this frame shows from the world (under the View lock).
func (g *gameScreen) read(w *game.World, in *ui.Input, stepped time.Time) {
	if g.ui.Layout.Window.W() != g.a.w || g.ui.Layout.Window.H() != g.a.h {
		g.ui.Resize(g.a.w, g.a.h)
	}
	g.ui.Me = g.me
	out := g.hasMe && w.Player(g.me).Out
	g.observer = !g.hasMe || out
	g.sc = g.ex.Extract(w, g.me, g.observer, clock.Fraction(in.Now, stepped, g.turnLen))
	g.tv.update(w, g.me, g.observer)
	g.turn = w.Time()
	timeUp := !w.Over() && g.limit > 0 && uint64(w.Turn()) >= g.limit
	g.over = w.Over() || timeUp
	g.readPause(w, out)
	g.infos = g.infos[:0]
	for p := range w.NumPlayers() {
		g.infos = append(g.infos, w.Player(game.PlayerID(p)))
	}
	g.cues, g.notes = ui.EventCues(g.cues[:0], g.notes[:0], g.wev, g.me, g.observer, w)
	g.byScore = w.ByScore()
	if g.rp != nil {
		g.replayRead(w)
		return
	}
	g.readEnd(w, out, timeUp)
	g.ui.Ended = g.over
	g.ui.AskLeave = g.hasMe && !out && !g.over
}

// readEnd takes how the game ended for the player (if it did) and every
// player's result (under the View lock).
func (g *gameScreen) readEnd(w *game.World, out, timeUp bool) {
	team, won := w.Winner()
	switch {
	case timeUp && !out:
		g.end = endTimeUp
	case !g.hasMe:
		if g.over {
			g.end = endDraw
			if won {
				g.end = endVictory
			}
		}
	case g.over && won && team == w.Player(g.me).Team:
		g.end = endVictory
	case out || (g.over && won):
		g.end = endDefeat
	case g.over:
		g.end = endDraw
	}
	if g.end == endNone {
		return
	}
	g.results = g.results[:0]
	var best int64 = -1
	for p := range w.NumPlayers() {
		info := w.Player(game.PlayerID(p))
		r := endResult(info, g.over)
		switch {
		case info.Out && slices.Contains(g.a.left, g.playerName(game.PlayerID(p))):
			r = "left at " + gameClock(info.OutTime)
		case r != "won":
		case timeUp:
			score := w.Score(game.PlayerID(p))
			r = fmt.Sprintf("score %d", score)
			if score > best {
				best, g.leader = score, g.playerName(game.PlayerID(p))
			}
		case !won:
			r = "draw"
		case info.Team != team:
			r = "lost on score"
		case g.byScore:
			r = "won on score"
		}
		g.results = append(g.results, r)
	}
}

// othersLeft reports whether every player who is out of the game and not
// on the player's side left it (rather than lost it): a victory by default.
func (g *gameScreen) othersLeft() bool {
	n := 0
	for p, info := range g.infos {
		if !g.hasMe || info.Team == g.infos[g.me].Team || !info.Out {
			continue
		}
		if !slices.Contains(g.a.left, g.playerName(game.PlayerID(p))) {
			return false
		}
		n++
	}
	return n > 0
}

// readSelection takes the details the HUD shows of the selection.
func (g *gameScreen) readSelection(w *game.World) {
	g.detail = nil
	g.rallies = g.rallies[:0]
	sel := g.ui.Selected()
	if len(sel) == 1 {
		if u, ok := w.Unit(sel[0].ID); ok {
			g.detail = &u
		}
	}
	for i, u := range sel {
		if i >= 16 {
			break
		}
		if !u.Building || !u.Own {
			continue
		}
		if info, ok := w.Unit(u.ID); ok && info.HasRally {
			to := ui.V(float64(info.Rally[0])+0.5, float64(info.Rally[1])+0.5)
			g.rallies = append(g.rallies, rally{from: u.Pos, to: to, color: g.colors[u.Owner%game.MaxPlayers]})
		}
	}
	if g.ui.Mode == ui.ModePlace {
		x0, y0 := ui.PlaceOrigin(g.ui.Place, g.ui.Cam.ToWorld(g.a.in.Mouse))
		g.placeOK = ui.CanPlace(w, g.me, g.ui.Place, x0, y0)
	}
}

// act does what the frame's input and events asked for (outside the lock):
// orders and sounds, notices and chat, the menu's choice, then what follows
// from the frame's state (pause, the listener, the end's fanfare).
func (g *gameScreen) act(res *ui.Result) {
	a := g.a
	for _, c := range res.Commands {
		if err := a.cl.Propose(c); err != nil {
			a.log.Debug("order not sent", "kind", c.Kind, "err", err)
		}
	}
	for _, c := range res.Cues {
		a.cue(c)
	}
	for _, c := range g.cues {
		a.cue(c)
	}
	g.tell(res)
	g.choose(res.Menu)
	g.followUp()
}

// tell shows the frame's notices and sends its chat line.
func (g *gameScreen) tell(res *ui.Result) {
	a := g.a
	for _, ev := range g.wev {
		if ev.Kind == game.EvPlayerOut {
			g.notes = append(g.notes, ui.Notice{Text: g.playerName(ev.Player) + " is out of the game."})
		}
		if n := g.pauseNotice(ev); n != "" {
			g.notes = append(g.notes, ui.Notice{Text: n})
		}
	}
	for _, n := range append(res.Notices, g.notes...) {
		g.notices = addNotice(g.notices, notice{text: n.Text, err: n.Error, at: a.now})
	}
	if res.Say == nil {
		return
	}
	team := uint8(0)
	if res.Say.Team && int(g.me) < len(g.players) {
		team = g.players[g.me].Team
	}
	if err := a.cl.Say(team, res.Say.Text); err != nil {
		g.notices = addNotice(g.notices, notice{text: capitalize(err.Error()) + ".", err: true, at: a.now})
	}
}

// choose does the pause menu's choice (a replay's menu has its own).
func (g *gameScreen) choose(m ui.MenuChoice) {
	a := g.a
	switch {
	case g.rp != nil:
		g.replayAct(m)
	case m == ui.MenuSave:
		g.save()
	case m == ui.MenuOptions:
		a.openOptions()
	case m == ui.MenuLeave:
		a.cl.Leave()
	case m == ui.MenuQuit:
		a.cl.Leave()
		a.quit = true
	}
}

// followUp moves the listener to the camera and sounds the end of the
// game once. (The menu no longer stops an offline game's clock: Escape
// pauses it with a command, as in a network game.)
func (g *gameScreen) followUp() {
	a := g.a
	if s := a.opt.Sound; s != nil {
		c := g.ui.Cam.Center
		s.SetViewPoint(c.X, c.Y)
	}
	if g.end == endNone || g.endSeen {
		return
	}
	g.endSeen = true
	switch g.end {
	case endVictory:
		a.cue(ui.Cue{Sound: ui.SoundVictory})
	case endDefeat:
		a.cue(ui.Cue{Sound: ui.SoundDefeat})
	}
}

// playerName names game player p.
func (g *gameScreen) playerName(p game.PlayerID) string {
	if int(p) < len(g.players) && g.players[p].Name != "" {
		return g.players[p].Name
	}
	return fmt.Sprintf("Player %d", p+1)
}

// draw is the game screen's draw step: the map and the HUD, or a line
// while the map loads.
func (g *gameScreen) draw() {
	if !g.loaded {
		a := g.a
		a.text[fontTitle].text("Loading the map…", a.w/2, a.h/2-20, alignCenter, colText)
		return
	}
	g.drawTerrain()
	g.drawUnits(g.sc)
	g.drawFog()
	g.drawWorldTop()
	g.drawHUD()
	g.drawn = true
}

// drawTerrain draws the terrain texture over the tiles in view that are not
// deep in unexplored land (those stay black), as one quad per run of tiles
// in a row: every pixel drawn costs on a software rasterizer.
func (g *gameScreen) drawTerrain() {
	g.tileRuns(g.terrainL, float64(g.tv.texel), func(i int) bool { return !g.tv.hidden[i] })
}

// drawFog darkens the tiles in view that are not plainly visible (the fog
// texture, smoothed, gives soft edges; tiles visible with all their
// neighbours need no fog and get none).
func (g *gameScreen) drawFog() {
	if g.observer {
		return
	}
	g.tileRuns(g.fogL, 1, func(i int) bool { return !g.tv.hidden[i] && !g.tv.clear[i] })
}

// tileRuns adds to l one quad per run of tiles in view for which want is
// true, textured with texel texels a tile.
func (g *gameScreen) tileRuns(l *layer, texel float64, want func(i int) bool) {
	cam := &g.ui.Cam
	tv := g.tv
	v := cam.Visible()
	x0, y0 := max(0, int(v.Min.X)), max(0, int(v.Min.Y))
	x1, y1 := min(tv.w-1, int(v.Max.X)), min(tv.h-1, int(v.Max.Y))
	emit := func(y, from, to int) {
		r := ui.Rect{Min: cam.ToScreen(ui.V(float64(from), float64(y))), Max: cam.ToScreen(ui.V(float64(to), float64(y+1)))}
		fr := pixel.R(float64(from)*texel, l.picH-float64(y+1)*texel, float64(to)*texel, l.picH-float64(y)*texel)
		l.quadPix(l.flip(r), fr, white, 1)
	}
	for y := y0; y <= y1; y++ {
		start := -1
		for x := x0; x <= x1; x++ {
			if want(y*tv.w + x) {
				if start < 0 {
					start = x
				}
				continue
			}
			if start >= 0 {
				emit(y, start, x)
				start = -1
			}
		}
		if start >= 0 {
			emit(y, start, x1+1)
		}
	}
}

// markSelected notes the selected units for drawUnits.
func (g *gameScreen) markSelected() {
	g.stamp++
	for _, id := range g.ui.Sel.IDs {
		s := int(id & 0xFFFF)
		if s >= len(g.selMark) {
			g.selMark = append(g.selMark, make([]uint32, s+1-len(g.selMark))...)
		}
		g.selMark[s] = g.stamp
	}
}

func (g *gameScreen) selected(id game.UnitID) bool {
	s := int(id & 0xFFFF)
	return s < len(g.selMark) && g.selMark[s] == g.stamp && g.ui.Sel.Has(id)
}

// drawUnits draws every unit and building of the scene that is on screen,
// as one layer: selection rings, sprites, carried gold, health bars.
func (g *gameScreen) drawUnits(sc *ui.Scene) {
	l := g.worldL
	cam := &g.ui.Cam
	view := cam.View
	z := cam.Zoom
	g.markSelected()
	for i := range sc.Units {
		u := &sc.Units[i]
		c := cam.ToScreen(u.Pos)
		half := u.Size * z / 2
		r := ui.R(c.X-half, c.Y-half, c.X+half, c.Y+half)
		if !r.Intersects(view) {
			continue
		}
		color := g.colors[u.Owner%game.MaxPlayers]
		sel := g.selected(u.ID)
		if sel {
			ring := colSelect
			switch {
			case !u.Ally:
				ring = colBad
			case !u.Own:
				ring = colAccent
			}
			if u.Building {
				l.sprite(r.Inset(-z*0.15), sprRingBig, ring)
			} else {
				l.sprite(ui.R(r.Min.X-z*0.1, c.Y, r.Max.X+z*0.1, r.Max.Y+z*0.2), sprRing, ring)
			}
		}
		if u.Building {
			tint := white
			if !u.Built {
				tint = pixel.Alpha(0.55)
			}
			l.sprite(r, buildingSprite(u.Kind, color), tint)
		} else {
			l.sprite(r, unitSprite(u.Kind, color), white)
			if u.Cargo {
				n := z * 0.34
				l.sprite(ui.XYWH(c.X+half*0.25, c.Y-half*0.05, n, n), sprNugget, white)
			}
		}
		if (u.HP < u.MaxHP || sel) && (z >= 10 || sel) {
			bh := max(3, z/9)
			bw := u.Size * z * 0.8
			br := ui.XYWH(c.X-bw/2, r.Min.Y-bh-1, bw, bh)
			f := float64(u.HP) / float64(max(u.MaxHP, 1))
			l.bar(br, f, hpColor(f))
		}
	}
}

func (g *gameScreen) drawWorldTop() {
	l := g.worldTopL
	cam := &g.ui.Cam
	z := cam.Zoom
	for _, r := range g.rallies {
		from, to := cam.ToScreen(r.from), cam.ToScreen(r.to)
		d := to.Sub(from)
		n := int(d.Len() / 10)
		for i := 1; i < n; i++ {
			p := from.Add(d.Scale(float64(i) / float64(n)))
			l.rect(ui.XYWH(p.X-1.5, p.Y-1.5, 3, 3), rgba(255, 255, 255, 0.7))
		}
		s := max(z*0.8, 14)
		l.sprite(ui.XYWH(to.X-s*0.25, to.Y-s*0.95, s, s), sprFlag, playerRGBA(r.color))
	}
	if m := g.ui.Marker; !m.At.IsZero() {
		age := g.a.now.Sub(m.At).Seconds()
		if age < 0.6 {
			c := colSelect
			if m.Attack {
				c = colBad
			}
			p := cam.ToScreen(m.Pos)
			s := max(z*0.9, 14) * (1.2 - age*0.6)
			l.sprite(ui.XYWH(p.X-s/2, p.Y-s/2, s, s), sprMarker, c.Mul(pixel.Alpha(1-age/0.6)))
		}
	}
	g.drawSites(l)
	if g.ui.Mode == ui.ModePlace {
		k := g.ui.Place
		x0, y0 := ui.PlaceOrigin(k, cam.ToWorld(g.a.in.Mouse))
		size := float64(k.Stats().Size)
		r := ui.Rect{Min: cam.ToScreen(ui.V(float64(x0), float64(y0))), Max: cam.ToScreen(ui.V(float64(x0)+size, float64(y0)+size))}
		l.sprite(r, buildingSprite(k, g.colors[g.me%game.MaxPlayers]), pixel.Alpha(0.6))
		c := rgba(74, 222, 128, 0.28)
		if !g.placeOK {
			c = rgba(239, 68, 68, 0.4)
		}
		l.rect(r, c)
	}
	if g.ui.Mode == ui.ModeAttack && g.ui.Layout.Map.Contains(g.a.in.Mouse) {
		m := g.a.in.Mouse
		s := max(z*0.8, 18)
		l.sprite(ui.XYWH(m.X-s/2, m.Y-s/2, s, s), sprMarker, colBad)
	}
	if g.ui.Dragging {
		r := ui.Span(g.ui.DragFrom, g.ui.Layout.Map.Clamp(g.a.in.Mouse))
		l.rect(r, rgba(80, 250, 120, 0.12))
		l.outline(r, 1, colSelect)
	}
}

// canSave: the menu offers "Save game" when the client can save and this
// peer hosts a game that is still running.
func (g *gameScreen) canSave(st client.NetStatus) bool {
	if _, ok := g.a.cl.(client.Saver); !ok || g.over || g.end != endNone {
		return false
	}
	for _, p := range st.Peers {
		if p.Self {
			return p.Host
		}
	}
	return !st.Online
}

// save writes a save of the running game and tells the player where.
func (g *gameScreen) save() {
	s, ok := g.a.cl.(client.Saver)
	if !ok {
		return
	}
	path, err := s.Save()
	if err != nil {
		g.notices = addNotice(g.notices, notice{text: "The game was not saved: " + err.Error() + ".", err: true, at: g.a.now})
		return
	}
	g.notices = addNotice(g.notices, notice{text: "Game saved to " + path, at: g.a.now})
}
